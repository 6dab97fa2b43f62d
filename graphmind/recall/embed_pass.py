"""The embedding pass: fills the vector index for memories that lack a current embedding.

Import writes nodes without embedding them (so embedding never throttles bulk import) and
flags new or changed memories ``embedding_pending``. This pass reads the flagged memories
(and, when asked for a full check, every memory embedded by another model or not at all),
embeds only those whose text hash or model changed, and stores vector, model id and hash.
Each write renews the mind's vector stamp; ``on_write`` hears of every write (recall's vector
cache applies them to its copy).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from graphmind.embed import Embedder
from graphmind.recall._logic import EmbedPlan, plan_embedding
from graphmind.recall.vectors import VectorWrite
from graphmind.store import GraphStore
from graphmind.store.graph_store import Transaction

CHUNK = 512
"""Memories read, embedded and written per transaction."""


@dataclass(frozen=True)
class EmbedReport:
    """What one embedding pass did."""

    mind: str
    model_id: str
    checked: int
    embedded: int
    current: int
    no_text: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class EmbeddingPass:
    """Embeds one mind's memories that lack a current embedding."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        *,
        chunk: int = CHUNK,
        on_write: Callable[[VectorWrite], None] | None = None,
    ):
        self._store = store
        self._embedder = embedder
        self._chunk = chunk
        self._on_write = on_write

    def run(self, mind: str, *, full: bool = False) -> EmbedReport:
        """Embed the pending memories; with ``full``, also any embedded by another model."""
        started = time.perf_counter()
        totals = {"checked": 0, "embedded": 0, "current": 0, "no_text": 0}
        while rows := self._store.read("embed/list_pending", mind=mind, limit=self._chunk):
            self._apply(mind, rows, totals)
        if full:
            rows = self._store.read("embed/list_unmatched", mind=mind, model_id=self._embedder.model_id)
            for start in range(0, len(rows), self._chunk):
                self._apply(mind, rows[start : start + self._chunk], totals)
        return EmbedReport(
            mind=mind, model_id=self._embedder.model_id, seconds=round(time.perf_counter() - started, 3), **totals
        )

    def _apply(self, mind: str, rows: Sequence[Mapping[str, Any]], totals: dict[str, int]) -> None:
        plan = plan_embedding(rows, self._embedder.model_id)
        self._write(mind, plan, rows)
        totals["checked"] += len(rows)
        totals["embedded"] += len(plan.to_embed)
        totals["current"] += len(plan.current)
        totals["no_text"] += len(plan.no_text)

    def _write(self, mind: str, plan: EmbedPlan, read: Sequence[Mapping[str, Any]]) -> None:
        uids = [uid for uid, _, _ in plan.to_embed]
        vectors = self._embedder.embed([text for _, text, _ in plan.to_embed]) if uids else None
        rows = (
            [
                {"uid": uid, "embedding": vector.tolist(), "text_hash": digest}
                for (uid, _, digest), vector in zip(plan.to_embed, vectors, strict=True)
            ]
            if vectors is not None
            else []
        )

        def write(tx: Transaction) -> Mapping[str, Any] | None:
            # a managed transaction: two passes over one mind (two recalls finding pending
            # memories at once) can deadlock on the mind's vector stamp; the driver retries
            stamps = None
            if rows:
                stamps = tx.run("embed/mark_embedded", mind=mind, model_id=self._embedder.model_id, rows=rows)[0]
            tx.run("embed/mark_checked", mind=mind, uids=plan.current + plan.no_text)
            return stamps

        stamps = self._store.write_transaction(write)
        if stamps is not None and self._on_write is not None:
            self._on_write(_vector_write(read, uids, vectors, stamps, self._embedder.model_id))


def _vector_write(
    read: Sequence[Mapping[str, Any]], uids: list[str], vectors: Any, stamps: Mapping[str, str | None], model_id: str
) -> VectorWrite:
    """What one write of the pass changed, for recall's copy of the mind's vectors."""
    by_uid = {row["uid"]: row for row in read}
    previous_models = [by_uid[uid]["props"].get("embedding_model") for uid in uids]
    return VectorWrite(
        uids=uids,
        labels=[by_uid[uid]["label"] for uid in uids],
        vectors=vectors,
        previous=stamps["previous"],
        stamp=str(stamps["stamp"]),
        replaced_stale=sum(m is not None and m != model_id for m in previous_models),
    )
