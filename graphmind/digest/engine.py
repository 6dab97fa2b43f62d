"""The digests on the graph: read a mind's topic entries and threads, run the pure logic,
count a hit on every entry shown (right after the read), and compose the reflect material.
Also the two actions: merge two threads, mark an entry absorbed."""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphmind.digest._logic import (
    Convergence,
    Entry,
    Forgotten,
    ThreadNotes,
    convergence,
    forgotten,
    render_digest,
    render_forgotten,
    sample_topics,
)
from graphmind.errors import NotFoundError, ValidationError
from graphmind.models.base import as_datetime
from graphmind.recall.hit_counter import flush_hits
from graphmind.store import GraphStore
from graphmind.store.minds import require_mind

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DigestParams:
    n: int = 2
    min_age_days: int = 7
    limit: int = 5
    hint_at: int = 2
    merge_at: int = 3


@dataclass(frozen=True)
class DigestReport:
    mind: str
    rng_seed: int | None
    samples: dict[str, list[Entry]]
    convergence: list[Convergence]
    forgotten: list[Forgotten]
    notes: list[str] = field(default_factory=list)

    @property
    def digest_block(self) -> str:
        return render_digest(self.samples) if any(self.samples.values()) else ""

    @property
    def forgotten_block(self) -> str:
        return render_forgotten(self.forgotten)

    def material(self) -> str:
        """What a reflect-mode prompt receives (the proposal's L2 injections)."""
        parts = [
            "## Cross-Pollination Digest\nHere are random entries from your knowledge. "
            "Look for hidden connections:\n" + (self.digest_block or "(no topic entries yet)")
        ]
        hints = [c.sentence() for c in self.convergence]
        parts.append(
            "## Thread Convergence\n" + ("\n".join(f"- {h}" for h in hints) or "(no active threads share concepts)")
        )
        parts.append("## Forgotten Knowledge\n" + (self.forgotten_block or "(nothing forgotten)"))
        return "\n\n".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "mind": self.mind,
            "rng_seed": self.rng_seed,
            "notes": self.notes,
            "cross_pollination": {
                "topics": {t: [_entry(e) for e in items] for t, items in self.samples.items()},
                "block": self.digest_block,
            },
            "convergence": [asdict(c) | {"sentence": c.sentence()} for c in self.convergence],
            "forgotten": {
                "entries": [_entry(f.entry) | {"age_days": f.age_days} for f in self.forgotten],
                "block": self.forgotten_block,
            },
            "material": self.material(),
        }


def _entry(e: Entry) -> dict[str, Any]:
    return {
        "id": e.id,
        "topic": e.topic,
        "text": e.text,
        "date": e.date.isoformat() if e.date else None,
        "hits": e.hits,
    }


def read_entries(store: GraphStore, mind: str) -> list[Entry]:
    return [
        Entry(
            r["id"],
            r["topic"],
            r["text"],
            as_datetime(r["date"]),
            r["hits"],
            as_datetime(r["last_hit_at"]),
            r["status"],
        )
        for r in store.read("digest/list_entries", mind=mind)
    ]


def read_threads(store: GraphStore, mind: str) -> list[ThreadNotes]:
    return [
        ThreadNotes(r["id"], r["title"], r["status"], list(r["progress_notes"]))
        for r in store.read("digest/list_threads", mind=mind)
    ]


def digest(
    store: GraphStore,
    mind: str,
    params: DigestParams = DigestParams(),
    *,
    rng_seed: int | None = None,
    now: datetime | None = None,
) -> DigestReport:
    """The three digests of ``mind``; every entry shown counts a hit."""
    require_mind(store, mind, "topic entries and threads")
    flush_hits(store)  # the forgotten digest reads the hits of the recalls made so far
    entries, threads = read_entries(store, mind), read_threads(store, mind)
    seed = rng_seed if rng_seed is not None else secrets.randbits(32)
    samples = sample_topics(entries, params.n, random.Random(seed))
    found = forgotten(entries, now or datetime.now(UTC), min_age_days=params.min_age_days, limit=params.limit)
    shown = {e.id for items in samples.values() for e in items} | {f.entry.id for f in found}
    if shown:
        store.write("recall/mark_hits", mind=mind, uids=[f"{mind}:{i}" for i in sorted(shown)])
    log.info("digest of %s: %d entries, %d threads", mind, len(entries), len(threads))
    notes = [] if entries else ["the mind has no topic entries"]
    notes += [] if threads else ["the mind has no threads"]
    return DigestReport(mind, seed, samples, convergence(threads, params.hint_at, params.merge_at), found, notes)


def merge_threads(store: GraphStore, mind: str, a: str, b: str, title: str) -> dict[str, Any]:
    """A new active thread above ``a`` and ``b`` (both left in place, status merged). Its id
    comes from the pair, so merging the same two again returns the merge already made."""
    if not isinstance(title, str) or not title.strip():
        raise ValidationError("the merged thread needs a title (--title)", field="title")
    new_id = "thread-" + hashlib.sha256("\n".join(sorted((a, b))).encode()).hexdigest()[:8]
    rows = store.write(
        "digest/upsert_merged_thread",
        mind=mind,
        a=a,
        b=b,
        thread={"uid": f"{mind}:{new_id}", "id": new_id, "title": title.strip()},
    )
    if not rows:
        raise NotFoundError(f"mind {mind!r} has no two distinct active threads {a!r} and {b!r} to merge")
    log.info("threads %s and %s of %s merged into %s", a, b, mind, new_id)
    return rows[0]


def absorb(store: GraphStore, mind: str, entry_id: str) -> None:
    if not store.write("digest/mark_absorbed", mind=mind, id=entry_id):
        raise NotFoundError(f"mind {mind!r} has no topic entry {entry_id!r}")
    log.info("topic entry %s of %s absorbed", entry_id, mind)


class Digester:
    """The digest engine of one store: ``digest``, ``merge_threads`` and ``absorb`` for a mind."""

    def __init__(self, store: GraphStore):
        self.store = store

    def digest(
        self, mind: str, params: DigestParams | None = None, *, rng_seed: int | None = None, now: datetime | None = None
    ) -> DigestReport:
        return digest(self.store, mind, params or DigestParams(), rng_seed=rng_seed, now=now)

    def merge_threads(self, mind: str, a: str, b: str, title: str) -> dict[str, Any]:
        return merge_threads(self.store, mind, a, b, title)

    def absorb(self, mind: str, entry_id: str) -> None:
        absorb(self.store, mind, entry_id)
