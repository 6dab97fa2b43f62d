"""Recall's hits: the fused candidates read from the graph as ``RecallHit``, the first ``k``,
those naming the recall text's identifiers first (identifiers.py), their hits counted."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime

from graphmind.recall._logic import Fused, matched_terms
from graphmind.recall.hit_counter import count_hits
from graphmind.recall.identifiers import absent, by_count, named_by, subject_limit
from graphmind.recall.results import RecallHit
from graphmind.recall.validity import node_validity, not_valid
from graphmind.store import GraphStore
from graphmind.store.records import node_to_model


def read_hits(
    store: GraphStore,
    mind: str,
    fused: Sequence[Fused],
    terms: list[str],
    paths: dict[str, list[str]],
    *,
    k: int,
    named: Sequence[str] = (),
    count: bool = True,
) -> tuple[list[RecallHit], list[str]]:
    """The first ``k`` of ``fused`` as hits, those naming more of the ``named`` identifiers
    first (all of ``fused`` is read then, else only its first ``k``), and the ``named``
    identifiers no memory read names (in its text or as its id). ``count``: count a hit on
    each memory returned (none on those read and left out)."""
    fused = list(fused) if named else list(fused[:k])
    rows = list(store.stream("recall/list_hits", mind=mind, uids=[f.uid for f in fused])) if fused else []
    nodes = {row["uid"]: (row["label"], node_to_model(row["label"], row["props"])) for row in rows}
    read = [(f, *nodes[f.uid]) for f in fused if f.uid in nodes]  # not deleted between search and read
    texts = [node.derived_text() for _, _, node in read]
    labelled = [f"{node.id}\n{text or ''}" for (_, _, node), text in zip(read, texts, strict=True)]  # ids name too
    held = named_by(labelled, named, subject_limit(k)) if named else [[] for _ in read]
    kept = by_count([(*r, text, ids) for r, text, ids in zip(read, texts, held, strict=True)], held)[:k]
    if count:
        count_hits(store, mind, [f.uid for f, *_ in kept])
    hits = [
        RecallHit(
            node=node,
            label=label,
            score=f.score,
            vector_rank=f.vector_rank,
            similarity=f.vector_score,
            text_rank=f.text_rank,
            text_score=f.text_score,
            matched_terms=matched_terms(terms, text),
            graph=paths.get(f.uid, []),
            identifiers=list(ids),
        )
        for f, label, node, text, ids in kept
    ]
    return hits, absent(labelled, named)


def valid_first(hits: Sequence[RecallHit], when: datetime | None = None) -> list[RecallHit]:
    """``hits`` with those valid at ``when`` (default now) first, each group in its order; a hit
    that is not valid says why in ``outdated`` (its ``why`` shows it)."""
    now = when is None  # as of a date, a node's status (retired, pruned) is not what it was then
    when = when or datetime.now(UTC)
    marked = [dataclasses.replace(h, outdated=not_valid(node_validity(h.node), when, now=now)) for h in hits]
    return [h for h in marked if h.outdated is None] + [h for h in marked if h.outdated is not None]
