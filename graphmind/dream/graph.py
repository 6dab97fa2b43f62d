"""The dream's one-query adapters: read a mind's state, take the lease, publish a run.

Publishing is one transaction: patterns, experiences' roles, pruning, the ladder,
connections, contradictions and the completed DreamRun become visible together, or not at
all (a run killed before the commit leaves only its "running" record).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmind.dream.items import ExperienceRow, LadderNode, PatternState, Tally, name_of_strategy
from graphmind.dream.ladder import levels
from graphmind.dream.report import LadderEntry, StoredLadder
from graphmind.errors import NotFoundError, RunError
from graphmind.store import GraphStore
from graphmind.store.graph_store import Transaction

EXPERIENCE_COLUMNS = (
    "id",
    "description",
    "outcome",
    "kind",
    "strategy_used",
    "session_id",
    "timestamp",
    "importance",
    "confidence",
    "impact",
    "deferred",
    "deferred_by",
    "invalid",
    "replaces",
)


@dataclass(frozen=True)
class Lease:
    acquired: bool
    holder: str
    since: str | None
    until: str | None


def read_experiences(
    store: GraphStore, mind: str, model_id: str, session: str | None, limit: int
) -> tuple[list[ExperienceRow], list[np.ndarray | None], int]:
    """At most ``limit`` unconsumed experiences (when ``session`` is given, its own and those an
    earlier run deferred; the oldest that no run has seen, then the deferred ones seen by the
    fewest runs), their stored
    embeddings (None when missing), and how many that no run has seen are left for a later run."""
    rows: list[ExperienceRow] = []
    vectors: list[np.ndarray | None] = []
    with closing(
        store.stream_values("dream/list_experiences", mind=mind, model_id=model_id, session=session, limit=limit)
    ) as stream:
        for values in stream:
            fields = dict(zip(EXPERIENCE_COLUMNS, values[:-1]))
            fields["kind"] = fields["kind"] or "move"
            rows.append(ExperienceRow(**fields))
            vectors.append(None if values[-1] is None else np.asarray(values[-1], dtype=np.float32))
    remaining = 0
    if len(rows) >= limit:
        unseen = store.read("dream/count_unconsumed", mind=mind, session=session)[0]["unconsumed"]
        remaining = unseen - sum(not r.deferred for r in rows)
    return rows, vectors, max(0, remaining)


def require_session(store: GraphStore, mind: str, session: str | None) -> None:
    """NotFoundError unless the mind holds an experience captured in ``session`` (when given):
    an unknown session is a typo, not an idle run."""
    if session is not None and not store.read("dream/find_session", mind=mind, session=session)[0]["known"]:
        raise NotFoundError(f"mind {mind!r} has no experience captured in session {session!r}")


def read_domain(store: GraphStore, mind: str) -> str:
    """What the mind's experiences are about, from its own Identity (focus area, else role);
    "" when it has none."""
    rows = store.read("dream/get_domain", mind=mind)
    return (rows[0]["domain"] or "") if rows else ""


def read_patterns(store: GraphStore, mind: str, dimensions: int) -> list[PatternState]:
    patterns = []
    for r in store.read("dream/list_patterns", mind=mind):
        centroid = np.asarray(r["centroid"] or np.zeros(dimensions), dtype=np.float32)
        tally = Tally(r["success_count"], r["progress_count"], r["failure_count"], r["error_count"])
        patterns.append(
            PatternState(
                id=r["id"],
                name=r["name"],
                description=r["description"],
                pattern_type=r["pattern_type"],
                centroid=centroid,
                tally=tally,
                conditions=list(r["conditions"]),
                actions=list(r["actions"]),
                examples=list(r["examples"]),
                cohesion=float(r["cohesion"]),
                verification_status=r["verification_status"] or "unverified",
                stored_verification=r["verification_status"],
                evidence=(r["first_evidence"], r["last_evidence"]),
                strategies=frozenset(k for k in map(name_of_strategy, r["strategies"]) if k),
                superseded_itself=bool(r["superseded_itself"]),
                stale=bool(r["stale"]),
            )
        )
    return patterns


def read_stored_ladder(store: GraphStore, mind: str, dimensions: int) -> StoredLadder:
    """The ladder ``mind`` holds now: its active abstractions and active patterns' names."""
    active = [p for p in read_patterns(store, mind, dimensions) if p.active]
    nodes = list(read_ladder(store, mind).values())
    return StoredLadder(
        mind,
        levels(nodes, bool(active)),
        [LadderEntry(n.id, n.level, n.name, n.generalization, n.members) for n in nodes],
        {p.id: p.name for p in active},
    )


def read_anchors(
    store: GraphStore, mind: str, model_id: str, patterns: list[str], per_pattern: int
) -> list[tuple[str, str, np.ndarray | None]]:
    """(pattern id, description, stored embedding or None) of up to ``per_pattern`` experiences
    of each of the active ``patterns`` (``anchors``)."""
    if not patterns or not per_pattern:
        return []
    rows = store.read("dream/list_anchors", mind=mind, model_id=model_id, patterns=patterns, per_pattern=per_pattern)
    return [
        (r["pattern"], r["description"], None if r["embedding"] is None else np.asarray(r["embedding"], np.float32))
        for r in rows
    ]


def read_ladder(store: GraphStore, mind: str) -> dict[str, LadderNode]:
    return {
        r["id"]: LadderNode(
            id=r["id"],
            level=r["level"],
            members=list(r["members"]),
            centroid=np.empty(0, np.float32),
            name=r["name"],
            generalization=r["generalization"],
            is_new=False,
        )
        for r in store.read("dream/list_abstractions", mind=mind)
    }


def take_lease(store: GraphStore, mind: str, holder: str, seconds: float) -> Lease:
    row = store.write("dream/mark_lease", mind=mind, holder=holder, seconds=seconds)[0]
    return Lease(row["acquired"], row["holder"], row["since"], row["until"])


def give_lease(store: GraphStore, mind: str, holder: str) -> None:
    store.write("dream/delete_lease", mind=mind, holder=holder)


def end_crashed_runs(store: GraphStore) -> tuple[int, int]:
    """After a fresh start of the server: (runs marked interrupted, leases given back)."""
    row = store.write("dream/mark_crashed_runs")[0]
    return int(row["interrupted"]), int(row["released"])


def record_run(store: GraphStore, mind: str, run: dict[str, Any]) -> None:
    store.write("dream/upsert_run", mind=mind, run=run)


@dataclass(frozen=True)
class Publication:
    """Everything one run writes, as query rows (uids already made)."""

    run: dict[str, Any]
    patterns: list[dict[str, Any]]
    experiences: list[dict[str, Any]]
    pruned: list[dict[str, Any]]
    abstractions: list[dict[str, Any]]
    keep_abstractions: list[str]
    connections: list[dict[str, Any]]
    contradictions: list[dict[str, Any]]


def publish(
    store: GraphStore, mind: str, pub: Publication, on_step=lambda name: None, lease_seconds: float | None = None
) -> None:
    """Write ``pub`` in one transaction; ``on_step`` hears each query's name before it runs.
    With ``lease_seconds`` the transaction first renews the run's lease (its write lock held to
    the commit) and writes nothing when another run holds it: two runs never both publish."""
    run_uid = pub.run["uid"]
    steps: list[tuple[str, dict[str, Any]]] = [
        ("dream/upsert_run", {"run": pub.run}),
        ("dream/upsert_patterns", {"run_uid": run_uid, "rows": pub.patterns}),
        ("dream/link_experiences", {"run_uid": run_uid, "rows": pub.experiences}),
        ("dream/mark_pruned", {"rows": pub.pruned}),
        ("dream/mark_retired", {"keep": pub.keep_abstractions}),
        ("dream/upsert_abstractions", {"run_uid": run_uid, "rows": pub.abstractions}),
        ("dream/link_connections", {"rows": pub.connections}),
        ("dream/link_contradictions", {"rows": pub.contradictions}),
    ]
    store.write_transaction(lambda tx: _publish(tx, mind, pub, steps, on_step, lease_seconds))


def _publish(
    tx: Transaction,
    mind: str,
    pub: Publication,
    steps: list[tuple[str, dict[str, Any]]],
    on_step: Callable[[str], None],
    lease_seconds: float | None,
) -> None:
    """The publication's statements in ``tx``, after the lease check (run again on a retry)."""
    if lease_seconds is not None:
        on_step("dream/mark_lease")
        lease = tx.run("dream/mark_lease", mind=mind, holder=pub.run["id"], seconds=lease_seconds)[0]
        if not lease["acquired"]:
            raise RunError(
                f"dream run {pub.run['id']} lost its lease on mind {mind!r} to {lease['holder']} before "
                "it published; nothing of it was written"
            )
    for name, params in steps:
        on_step(name)
        tx.run(name, mind=mind, **params)
