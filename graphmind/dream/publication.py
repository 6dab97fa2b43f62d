"""What a dream run writes, as the rows of its publishing queries (pure)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import Any

from graphmind.dream import rules, supersede
from graphmind.dream.graph import Publication
from graphmind.dream.integrate import Pruning, item
from graphmind.dream.items import Connection, ExperienceRow, LadderNode, PatternState
from graphmind.dream.params import DreamParams
from graphmind.dream.triage import TriageResult
from graphmind.dream.verify import Verification


def experience_rows(
    mind: str, rows: list[ExperienceRow], tri: TriageResult, deferred: list[int]
) -> list[dict[str, Any]]:
    """Each experience's role: consumed, duplicate (of a consumed one), filtered or deferred."""
    uid = [f"{mind}:{r.id}" for r in rows]
    later = set(deferred)
    out = [
        {
            "uid": uid[i],
            "role": "deferred" if i in later else "consumed",
            "importance": tri.importance[i],
            "duplicate_of": None,
            "similarity": None,
        }
        for i in tri.kept
    ]
    for dup, (rep, similarity) in tri.duplicate_of.items():
        role = "deferred" if rep in later else "duplicate"
        out.append(
            {
                "uid": uid[dup],
                "role": role,
                "importance": tri.importance[dup],
                "duplicate_of": None if role == "deferred" else uid[rep],
                "similarity": similarity,
            }
        )
    out += [
        {"uid": uid[i], "role": "filtered", "importance": tri.importance[i], "duplicate_of": None, "similarity": None}
        for i in tri.filtered
    ]
    return out


def pattern_row(mind: str, p: PatternState, produced: bool, started: str | None = None) -> dict[str, Any]:
    """The ``dream/upsert_patterns`` row of ``p``; ``started``: when the run began (a pattern it
    extracted again is stale no more, unless a capture made it stale after that)."""
    props = {
        "name": p.name,
        "description": p.description,
        "pattern_type": p.pattern_type,
        "conditions": p.conditions,
        "actions": p.actions,
        "examples": p.examples,
        "success_rate": p.success_rate,
        "usage_count": p.usage_count,
        "confidence": p.confidence,
        "utility": p.utility,
        "verification_status": p.verification_status,
        "status": p.status,
        "pruned_reason": p.pruned_reason,
        "centroid": [round(float(x), 6) for x in p.centroid],
        "success_count": p.tally.success,
        "progress_count": p.tally.progress,
        "failure_count": p.tally.failure,
        "error_count": p.tally.errors,
        "cohesion": round(p.cohesion, 4),
    }
    if p.revived:
        props["invalid_at"] = None  # SET += removes it: the pattern holds again
    return {
        "uid": f"{mind}:{p.id}",
        "id": p.id,
        "props": props,
        "created": p.is_new,
        "produced": produced,
        "members": [f"{mind}:{e}" for e in p.new_members],
        "refreshed_at": started if p.refreshed else None,
    }


def abstraction_row(mind: str, n: LadderNode, verified: bool = False) -> dict[str, Any]:
    """``verification_status``: verified when the run's verification did not fail and no flag
    names the node, else unverified (``graphmind verify`` says why)."""
    props = {
        "level": n.level,
        "name": n.name,
        "generalization": n.generalization,
        "centroid": [round(float(x), 6) for x in n.centroid],
        "verification_status": "verified" if verified else "unverified",
    }
    return {
        "uid": f"{mind}:{n.id}",
        "id": n.id,
        "props": props,
        "created": n.is_new,
        "members": [f"{mind}:{m}" for m in n.members],
    }


def connection_row(mind: str, c: Connection) -> dict[str, Any]:
    return {
        "from": f"{mind}:{c.from_id}",
        "to": f"{mind}:{c.to_id}",
        "kind": c.kind,
        "strength": c.strength,
        "evidence": list(c.evidence),
        "rationale": c.rationale,
    }


def mark_verification(
    patterns: list[PatternState],
    check: Verification | None,
    settled: Collection[tuple[str, str]] = (),
    valid_new: Collection[str] = (),
    valid: Collection[str] = (),
) -> None:
    """Active patterns are verified when the run's verification did not fail and neither a flag
    nor a contradiction names them (a contradiction ``settled`` by superseding one side no
    longer counts): one flagged edge leaves the rest of the ladder verified. One invalidated since
    the last run (a capture superseded or contradicted it, or every experience behind it) stays
    so: a dream does not verify again what newer memories say no longer holds. Except one that
    only lost its experiences and this run gave a valid one that replaces nothing (an id in
    ``valid_new``), or gave it a valid one (in ``valid``: its replacement, say) and extracted its
    text again from what holds (``refreshed``): it holds again (``revived``)."""
    flagged = {i for pair in (check.contradictions if check else []) if pair not in settled for i in pair}
    flagged |= faulted(check)
    for p in patterns:
        if p.active and p.stored_verification == "invalidated" and not p.superseded_itself:
            p.revived = any(e in (valid if p.refreshed else valid_new) for e in p.new_members)
        if p.active and (p.stored_verification != "invalidated" or p.revived):
            ok = sound(check) and p.id not in flagged
            p.verification_status = "verified" if ok else "unverified"


def sound(check: Verification | None) -> bool:
    """The run verified its ladder and found at most warnings (a failed one verifies nothing)."""
    return check is not None and check.status in ("verified", "flagged")


def faulted(check: Verification | None) -> set[str]:
    """The nodes a flag of ``check`` names (as parent or child): those it does not verify. The
    contradiction flags are left to ``contradictions`` (a settled pair no longer counts)."""
    flags = check.flagged if check else []
    return {i for f in flags if f.check != "non_contradiction" for i in (f.parent, f.child) if i}


def build_publication(
    mind: str,
    run: dict[str, Any],
    rows: list[ExperienceRow],
    tri: TriageResult,
    patterns: list[PatternState],
    touched: list[PatternState],
    pruned: list[Pruning],
    deferred: list[int],
    nodes: list[LadderNode],
    connections: list[Connection],
    check: Verification | None,
    compressed: bool,
    params: DreamParams,
) -> Publication:
    pairs = check.contradictions if check else []
    gap = timedelta(hours=params.supersede_gap_hours)
    superseded = {s.loser: s for s in supersede.resolve(patterns, pairs, rows, gap)}
    by_id = {p.id: p for p in patterns}
    for s in superseded.values():  # the older side of a contradiction: kept, invalidated
        p = by_id[s.loser]
        p.status, p.pruned_reason, p.superseded_by, p.changed = "pruned", "contradicted", s.winner, True
        p.verification_status = "invalidated"
        pruned = [*pruned, Pruning(p.id, "contradicted", s.winner)]
    valid = {r.id for r in rows if not r.invalid}
    valid_new = {r.id for r in rows if not r.invalid and not r.replaces}
    mark_verification(patterns, check, {pair for pair in pairs if superseded.keys() & set(pair)}, valid_new, valid)
    touched_ids = {p.id for p in touched} | {x.pattern_id for x in pruned}
    contradictions = [
        {
            "a": f"{mind}:{a}",
            "b": f"{mind}:{b}",
            "shared": rules.contradiction(item(by_id[a]), item(by_id[b])) or [],
            "settled": bool(superseded.keys() & {a, b}),
        }
        for a, b in pairs
    ]
    started = run.get("dates", {}).get("started_at")
    ended = {x: s.at.isoformat() for x, s in superseded.items()}
    unverified = faulted(check) if sound(check) else {n.id for n in nodes}
    if params.dry_run:
        return Publication(run, [], [], [], [], [], [], [])
    return Publication(
        run=run,
        patterns=[
            pattern_row(mind, p, p.id in touched_ids, started)
            for p in patterns
            if p.id in touched_ids or p.verification_status != p.stored_verification
        ],
        experiences=experience_rows(mind, rows, tri, deferred) if compressed else [],
        pruned=[
            {
                "uid": f"{mind}:{x.pattern_id}",
                "reason": x.reason,
                "by": f"{mind}:{x.superseded_by}" if x.superseded_by else None,
                "invalid_at": ended.get(x.pattern_id, started if x.reason == "redundant" else None),
            }
            for x in pruned
        ],
        abstractions=[abstraction_row(mind, n, n.id not in unverified) for n in nodes],
        keep_abstractions=[n.id for n in nodes],
        connections=[connection_row(mind, c) for c in connections],
        contradictions=contradictions,
    )
