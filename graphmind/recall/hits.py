"""Recall's hits: the fused candidates read from the graph as ``RecallHit``, the first ``k``,
those naming the recall text's identifiers first (identifiers.py), their hits counted; valid
ones before outdated ones, and the memory that replaced an outdated hit beside it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime

from graphmind.recall._logic import Fused, matched_terms
from graphmind.recall.hit_counter import count_hits
from graphmind.recall.identifiers import absent, by_count, named_by, subject_limit
from graphmind.recall.results import REPLACES, RecallHit
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
    spare: int = 0,
) -> tuple[list[RecallHit], list[str]]:
    """The first ``k`` of ``fused`` as hits (and ``spare`` more, to stand in for outdated ones),
    those naming more of the ``named`` identifiers first (all of ``fused`` is read then, else
    only its first ``k + spare``), and the ``named`` identifiers no memory read names (in its
    text or as its id). ``count``: count a hit on each memory returned (none on those read and
    left out)."""
    fused = list(fused) if named else list(fused[: k + spare])
    rows = list(store.stream("recall/list_hits", mind=mind, uids=[f.uid for f in fused])) if fused else []
    nodes = {row["uid"]: (row["label"], node_to_model(row["label"], row["props"])) for row in rows}
    read = [(f, *nodes[f.uid]) for f in fused if f.uid in nodes]  # not deleted between search and read
    texts = [node.derived_text() for _, _, node in read]
    labelled = [f"{node.id}\n{text or ''}" for (_, _, node), text in zip(read, texts, strict=True)]  # ids name too
    held = named_by(labelled, named, subject_limit(k)) if named else [[] for _ in read]
    kept = by_count([(*r, text, ids) for r, text, ids in zip(read, texts, held, strict=True)], held)[: k + spare]
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


def with_replacements(
    store: GraphStore, mind: str, hits: Sequence[RecallHit], k: int, labels: Sequence[str]
) -> list[RecallHit]:
    """``hits`` (valid first, ``valid_first``) with the memory of ``labels`` that replaced an
    outdated one and holds now (a capture's ``SUPERSEDES`` / ``CONTRADICTS``, through a chain)
    where the outdated one would rank among the valid hits (never before a hit naming the
    query's identifiers, nor before one nearer the query than the outdated one: ``nearer``),
    its ``graph`` saying what it replaces: brought in when it is not among them, moved up when
    it ranks lower. A newer fact worded apart from the query would
    otherwise lose to the very fact it replaced. At most ``k`` stay: outdated hits nothing
    replaces give way first, then the last valid hits that neither replace one nor name the
    query's identifiers, then the replaced ones (kept after the valid hits while there is
    room: they say what changed, and that the newer memory is about the query)."""
    old = {f"{mind}:{h.id}": h for h in hits if h.outdated is not None}
    if not old:
        return list(hits)
    rank = {uid: n for n, uid in enumerate(old)}  # the best outdated hit a memory replaces places it
    found_rows = store.read("recall/list_replacements", mind=mind, uids=list(old), labels=list(labels))
    rows = sorted(found_rows, key=lambda r: (rank[r["old"]], r["hops"]))
    out = [h for h in hits if h.outdated is None]
    placed, replaced_ids = {h.id for h in old.values()}, set()
    for row in rows:
        node = node_to_model(row["label"], row["props"])
        if node.id in placed or not_valid(node_validity(node), datetime.now(UTC)) is not None:
            continue
        placed.add(node.id)
        replaced = old[row["old"]]
        present = next((h for h in out if h.id == node.id), None)
        replaced_ids.add(replaced.id)
        if present is not None and present.score >= replaced.score:  # ranked above it already
            out[out.index(present)] = dataclasses.replace(present, graph=[*present.graph, REPLACES + replaced.id])
            continue
        if present is not None:
            out.remove(present)
        hit = present or RecallHit(node=node, label=row["label"], score=replaced.score)
        floor = 1 + max((n for n, h in enumerate(out) if h.identifiers or nearer(h, replaced)), default=-1)
        at = next((n for n, h in enumerate(out) if n >= floor and h.score < replaced.score), len(out))
        out.insert(at, dataclasses.replace(hit, graph=[*hit.graph, REPLACES + replaced.id]))
    kept_old = [h for h in old.values() if h.id in replaced_ids]
    other_old = [h for h in old.values() if h.id not in replaced_ids]
    standing = {h.id for h in out if h.replaced}
    while len(out) + len(kept_old) + len(other_old) > k:  # what gives way, first to last:
        plain = [n for n, h in enumerate(out) if h.id not in standing and not h.identifiers]
        if other_old:  # an outdated hit nothing replaces
            other_old.pop()
        elif plain:  # the last valid hit that neither replaces one nor names the query's identifiers
            out.pop(plain[-1])
        elif kept_old:  # an outdated hit beside its replacement
            kept_old.pop()
        else:
            out.pop()
    return out + kept_old + other_old


def nearer(hit: RecallHit, outdated: RecallHit) -> bool:
    """Whether ``hit`` is nearer the query than ``outdated`` by the vector search (a hit it found
    is nearer than an outdated one only the full-text search found, never the reverse). An
    outdated memory that ranked first on a shared word ("tour") cannot put what replaced it,
    about another matter, before the memory most like the query: its claim to its place is its
    likeness."""
    if hit.similarity is None:
        return False
    return outdated.similarity is None or hit.similarity > outdated.similarity
