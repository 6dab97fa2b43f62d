"""Forgetting on the graph: read the memories named and everything derived from them, judge
(pure logic), then delete, re-verify and scrub in one transaction with a ForgetRun record.

All or nothing: an id the mind does not hold (another mind's included) fails before any write.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from graphmind.dream.engine import DreamBusyError
from graphmind.dream.graph import give_lease, take_lease
from graphmind.errors import NotFoundError, ValidationError
from graphmind.forget._logic import (
    BACKWARD,
    FORWARD,
    PROVENANCE,
    Dependent,
    ForgetParams,
    candidate_terms,
    fragments,
    is_plain_word,
    judge,
    memory_texts,
    probes,
    scrubbed,
    term_pattern,
    turn_gaps,
    unaskable,
)
from graphmind.models import node_model
from graphmind.recall._logic import lucene_query
from graphmind.recall.unheard import held_nowhere
from graphmind.store import GraphStore

log = logging.getLogger(__name__)
MAX_DEPTH = 8
"""Provenance hops followed from a forgotten memory (the deepest chain the engines write is
experience → pattern → three ladder levels, or memory → locus → residue → crystal)."""
MAX_IDS = 10_000
LEASE_SECONDS = 600.0
"""How long a forget holds the mind's dream lease at most (given back as soon as it is done)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ForgottenMemory(_Frozen):
    id: str
    label: str


class EdgeRef(_Frozen):
    source: str
    type: str
    target: str
    provenance: bool
    """A provenance edge (graphmind.forget._logic.PROVENANCE): something was derived along it."""


class DerivedNode(_Frozen):
    id: str
    label: str
    via: list[str]
    """The provenance relationships that tie it to what is removed."""
    support_before: int
    support_after: int
    action: Literal["remove", "unverify", "keep"]
    """remove: the cascade deletes it; unverify: kept, flagged for verification; keep: it only
    loses its edges to what is removed."""


class ScrubbedProperty(_Frozen):
    id: str
    label: str
    property: str


class ForgetReport(_Frozen):
    """What a forget did (or, under ``dry_run``, would do). Ids and counts, never the text."""

    mind: str
    cascade: bool
    dry_run: bool
    forgotten: list[ForgottenMemory]
    edges: list[EdgeRef]
    derived: list[DerivedNode]
    scrubbed: list[ScrubbedProperty]
    revalidated: list[str] = []
    """Older memories valid again: a forgotten memory had superseded or contradicted them, and
    nothing else does (found as the forget runs, so a dry run lists none)."""
    released: list[str] = []
    """Experiences of a pattern that is removed and of no active pattern that stays: the next
    dream consolidates them again (found as the forget runs, so a dry run lists none)."""
    run_id: str | None = None

    @property
    def removed(self) -> list[str]:
        return [d.id for d in self.derived if d.action == "remove"]

    @property
    def unverified(self) -> list[str]:
        return [d.id for d in self.derived if d.action == "unverify"]

    def counts(self) -> dict[str, int]:
        return {
            "memories": len(self.forgotten),
            "edges": len(self.edges),
            "provenance_edges": sum(e.provenance for e in self.edges),
            "derived": len(self.derived),
            "removed": len(self.removed),
            "unverified": len(self.unverified),
            "scrubbed": len(self.scrubbed),
            "released": len(self.released),
        }

    def as_dict(self) -> dict[str, Any]:
        return {**self.model_dump(mode="json"), "counts": self.counts()}


def check_ids(ids: Iterable[object]) -> list[str]:
    """The ids in order, each once; ValidationError for none, too many, or a non-text id."""
    out = list(dict.fromkeys(ids))
    if not out:
        raise ValidationError("forget needs at least one memory id")
    if len(out) > MAX_IDS:
        raise ValidationError(f"forget takes at most {MAX_IDS:,} ids at a time, not {len(out):,}")
    bad = next((i for i in out if not isinstance(i, str) or not i), None)
    if bad is not None:
        raise ValidationError(f"memory id {bad!r} is not a non-empty string")
    return [str(i) for i in out]


def forget(
    store: GraphStore,
    mind: str,
    ids: Sequence[str],
    *,
    cascade: bool = False,
    dry_run: bool = False,
    params: ForgetParams | None = None,
    now: Callable[[], datetime] | None = None,
) -> ForgetReport:
    """Delete the memories ``ids`` of ``mind`` (see graphmind.forget._logic for what counts as
    derived and what the cascade removes). NotFoundError names the ids the mind lacks."""
    params = params or ForgetParams()
    rows = _memories(store, mind, check_ids(ids))  # before any write: an unknown id changes nothing
    if dry_run:
        return _forget(store, mind, rows, cascade=cascade, params=params)
    run_id = f"forget-{(now or (lambda: datetime.now(UTC)))():%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
    lease = take_lease(store, mind, run_id, LEASE_SECONDS)  # no dream publishes what we read meanwhile
    if not lease.acquired:
        raise DreamBusyError(f"a dream run ({lease.holder}) holds mind {mind!r}; forget again when it has finished")
    try:
        return _forget(store, mind, rows, cascade=cascade, params=params, run_id=run_id)
    finally:
        give_lease(store, mind, run_id)


def _memories(store: GraphStore, mind: str, ids: list[str]) -> list[dict[str, Any]]:
    """The stored memories ``ids`` of ``mind``; NotFoundError names those it lacks."""
    uids = [f"{mind}:{i}" for i in ids if _storable(i)]  # one that is not UTF-8 cannot be stored: unknown
    rows = store.read("forget/find_memories", mind=mind, uids=uids)
    missing = sorted(set(ids) - {r["id"] for r in rows})
    if missing:
        shown = ", ".join(repr(m) for m in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise NotFoundError(f"mind {mind!r} has no memory {shown}; nothing was forgotten")
    return rows


def _forget(
    store: GraphStore,
    mind: str,
    rows: list[dict[str, Any]],
    *,
    cascade: bool,
    params: ForgetParams,
    run_id: str | None = None,
) -> ForgetReport:
    """Read what derives from the memories ``rows``, judge it, and (with a ``run_id``) write."""
    ids = [r["id"] for r in rows]
    uids = [r["uid"] for r in rows]
    edges = [
        EdgeRef(source=e["source"], type=e["type"], target=e["target"], provenance=e["type"] in PROVENANCE)
        for e in store.read("forget/find_edges", mind=mind, uids=uids)
    ]
    closure = _closure(store, mind, uids)
    judged = judge(closure, uids, params, cascade=cascade)
    gone = set(uids) | {j.uid for j in judged if j.action == "remove"}
    texts = [t for r in rows for t in memory_texts(r["props"], _text_fields(r["label"]))]
    sessions = sorted({d.session_id for d in closure if d.session_id})
    notes = (
        [r["uid"] for r in store.read("forget/find_session_notes", mind=mind, sessions=sessions)] if sessions else []
    )
    derived_uids = [d.uid for d in closure if d.uid not in gone] + notes  # warm memory: compressed loci
    terms = _distinctive(store, mind, candidate_terms(texts, params), [*uids, *(d.uid for d in closure), *notes])
    changes = _copies(store, mind, derived_uids, fragments(texts, params), terms, ids, params)
    report = ForgetReport(
        mind=mind,
        cascade=cascade,
        dry_run=run_id is None,
        forgotten=[ForgottenMemory(id=r["id"], label=r["label"]) for r in rows],
        edges=edges,
        derived=[
            DerivedNode(
                id=j.id,
                label=j.label,
                via=list(j.via),
                support_before=j.support_before,
                support_after=j.support_after,
                action=j.action,
            )
            for j in judged
        ],
        scrubbed=[ScrubbedProperty(id=c["id"], label=c["label"], property=k) for c in changes for k in c["props"]],
    )
    if run_id is None:
        return report
    unverify = [j.uid for j in judged if j.action == "unverify"]
    links, recount = turn_gaps(store.read("forget/find_turn_links", mind=mind, uids=uids), uids)
    with store.transaction() as tx:
        tx.run("forget/mark_scrubbed", mind=mind, rows=[{"uid": c["uid"], "props": c["props"]} for c in changes])
        tx.run("forget/mark_unverified", mind=mind, uids=unverify)
        tx.run(
            "forget/link_turns", mind=mind, links=links, sessions=[{"uid": u, "removed": n} for u, n in recount.items()]
        )
        valid_again = sorted(tx.run("forget/mark_revalidated", mind=mind, uids=sorted(gone))[0]["revalidated"])
        released = sorted(tx.run("forget/mark_released", mind=mind, uids=sorted(gone))[0]["released"])
        report = report.model_copy(update={"revalidated": valid_again, "released": released})
        tx.run("forget/delete_nodes", mind=mind, uids=sorted(gone))
        tx.run("forget/upsert_run", mind=mind, run=_run_row(mind, run_id, report))
    log.info("forget %s: %s", run_id, report.counts())
    return report.model_copy(update={"run_id": run_id})


def _storable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _closure(store: GraphStore, mind: str, uids: list[str]) -> list[Dependent]:
    """Every node derived from ``uids``, directly or through other derived nodes."""
    seen: dict[str, Dependent] = {}
    frontier = set(uids)
    for _ in range(MAX_DEPTH):
        if not frontier:
            break
        rows = store.read(
            "forget/find_dependents", mind=mind, uids=sorted(frontier), forward=list(FORWARD), backward=list(BACKWARD)
        )
        new = [_dependent(r) for r in rows if r["uid"] not in seen and r["uid"] not in uids]
        seen.update((d.uid, d) for d in new)
        frontier = {d.uid for d in new}
    return list(seen.values())


def _dependent(row: dict[str, Any]) -> Dependent:
    return Dependent(
        uid=row["uid"],
        id=row["id"],
        label=row["label"] or "",
        sources=tuple((s["uid"], s["rel"]) for s in row["sources"]),
        source_type=row["source_type"],
        session_id=row["session_id"],
    )


def _distinctive(store: GraphStore, mind: str, terms: list[str], exclude: list[str]) -> list[str]:
    """The ``terms`` no memory of the mind outside ``exclude`` holds (full-text index, brought
    up to date first)."""
    too_long = unaskable(terms)
    queries = [
        {"term": t, "lucene": q}
        for t in terms
        if t not in too_long
        and (q := lucene_query([t], mind) if is_plain_word(t) else lucene_query([], mind, [t])) is not None
    ]
    return sorted([*too_long, *held_nowhere(store, mind, queries, exclude)])


def _copies(
    store: GraphStore,
    mind: str,
    uids: list[str],
    frags: list[str],
    terms: list[str],
    ids: list[str],
    params: ForgetParams,
) -> list[dict[str, Any]]:
    """{uid, id, label, props}: the new value of each property of ``uids`` that held a copy of
    forgotten text (a fragment, a distinctive term) or a forgotten id."""
    if not uids:
        return []
    rows = store.read(
        "forget/find_copies",
        mind=mind,
        uids=uids,
        probes=probes(frags, params),
        fragments=frags,
        terms=terms,
        ids=ids,
        min_chars=params.min_copy_chars,
    )
    pattern = term_pattern(terms)
    by_node: dict[str, dict[str, Any]] = {}
    for row in rows:
        change = scrubbed({row["key"]: row["value"]}, frags, ids, params, pattern)
        if change:
            node = by_node.setdefault(
                row["uid"], {"uid": row["uid"], "id": row["id"], "label": row["label"], "props": {}}
            )
            node["props"].update(change)
    return list(by_node.values())


def _text_fields(label: str) -> tuple[str, ...]:
    return node_model(label).TEXT_FIELDS


def _run_row(mind: str, run_id: str, report: ForgetReport) -> dict[str, Any]:
    return {
        "uid": f"{mind}:{run_id}",
        "id": run_id,
        "props": {
            "forgotten": [m.id for m in report.forgotten],
            "cascade": report.cascade,
            "edges": len(report.edges),
            "removed": report.removed,
            "unverified": report.unverified,
            "scrubbed": len(report.scrubbed),
            "released": report.released,
        },
    }
