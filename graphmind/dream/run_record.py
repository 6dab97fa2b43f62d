"""A dream run's report and its DreamRun record, and what each phase falls back to."""

from __future__ import annotations

import json
import logging
import warnings
from datetime import UTC, datetime
from typing import Any

from graphmind.dream import compress, graph
from graphmind.dream.items import OUTCOME_SCORE
from graphmind.dream.report import CompressionRatioWarning, DreamReport, LadderEntry
from graphmind.errors import GraphmindError, StoreError, StoreUnavailableError

log = logging.getLogger(__name__)

FALLBACKS = {
    "triage": "kept every experience",
    "compress": "no patterns; experiences left for the next run",
    "abstract": "2-level ladder (experiences and patterns)",
    "verify": "stored unverified",
}


def idle_report(run: Any, deferred: int) -> DreamReport:
    """Nothing new to consolidate: the mind's patterns and ladder as they stand, and the
    ``deferred`` experiences that wait for company."""
    held = graph.read_stored_ladder(run.d.store, run.mind, run.d.embedder.dimensions)
    return DreamReport(
        None,
        run.mind,
        "nothing_to_consolidate",
        run.trigger,
        deferred=deferred,
        remaining=run.remaining,
        active_patterns=len(held.pattern_names),
        ladder_levels=held.levels,
        ladder=held.ladder,
        pattern_names=held.pattern_names,
    )


def build_report(
    run: Any, rows, tri, new, grown, deferred, active, nodes, levels, connections, pruned, check, ratio
) -> DreamReport:
    records = run.d.llm.usage.records[run.calls_before :]
    verification = check.as_dict() if check else {"status": "unverified", "score": None}
    return DreamReport(
        run_id=run.run_id,
        mind=run.mind,
        status="dry_run" if run.params.dry_run else "completed",
        trigger=run.trigger,
        experiences=len(rows),
        triaged=len(tri.kept),
        duplicates=len(tri.duplicate_of),
        filtered=len(tri.filtered),
        deferred=tri.waiting(deferred),
        read_again=sum(r.deferred for r in rows),
        remaining=run.remaining,
        patterns=len(new),
        grown=len(grown),
        active_patterns=len(active),
        compression_ratio=ratio,
        ladder_levels=levels,
        ladder=[LadderEntry(n.id, n.level, n.name, n.generalization, n.members) for n in nodes],
        cross_connections=len(connections),
        pruned=len(pruned),
        transfer_improvement=(gain := transfer_improvement([r.outcome for r in rows], set(run.known))),
        transfer_basis=transfer_basis(len(rows), run.known) if gain is not None else {},
        contradictions=len(check.contradictions) if check else 0,
        verification=verification,
        llm_calls=len(records),
        llm={
            "provider": run.d.llm.provider,
            "calls": len(records),
            "cost_cents": round(sum(r.cost_cents for r in records), 4),
        },
        timings=run.timings,
        degraded=run.degraded,
        warnings=[*run.warned, *(check.warnings if check else [])],
        pattern_names={p.id: p.name for p in active},
        new_patterns=[
            {
                "id": p.id,
                "name": p.name,
                "description": p.description,
                "usage_count": p.usage_count,
                "success_rate": p.success_rate,
            }
            for p in new
        ],
    )


def run_props(run: Any, report: DreamReport) -> dict[str, Any]:
    return {
        "status": "completed",
        "experiences": report.experiences,
        "triaged": report.triaged,
        "patterns": report.patterns,
        "compression_ratio": report.compression_ratio,
        "ladder_levels": report.ladder_levels,
        "cross_connections": report.cross_connections,
        "pruned": report.pruned,
        "verification_status": report.verification.get("status"),
        "verification_score": report.verification.get("score"),
        "llm_calls": report.llm_calls,
        "transfer_improvement": report.transfer_improvement,
        **{f"transfer_{k}": v for k, v in report.transfer_basis.items()},
        "degraded": report.degraded,
        "dry_run": run.params.dry_run,
    }


def run_record(run: Any, props: dict[str, Any]) -> dict[str, Any]:
    dates = {"started_at": run.started.isoformat()}
    if props.get("status") != "running":
        dates["finished_at"] = datetime.now(UTC).isoformat()
    clean = {k: v for k, v in props.items() if v is not None}
    return {
        "uid": f"{run.mind}:{run.run_id}",
        "id": run.run_id,
        "dates": dates,
        "props": clean
        | {
            "trigger": run.trigger,
            "rng_seed": run.params.seed,
            "params": run.params.model_dump_json(),
            "timings": json.dumps(run.timings),
        },
    }


def checked_ratio(run: Any, compressed: int, patterns: int) -> float | None:
    """The run's compression ratio: experiences per new pattern (None when it made none),
    warned about outside the target band once ``ratio_min_experiences`` went into them.
    Experiences that grew an existing pattern are left out: a night that only grows patterns
    compresses well, though its runs' ratio would read 1-3:1."""
    if not patterns:
        return None
    ratio = round(compressed / patterns, 2)
    target, tolerance = run.params.target_ratio, run.params.ratio_tolerance
    low, high = compress.ratio_band(run.params)
    if compressed >= run.params.ratio_min_experiences and not low <= ratio <= high:
        message = f"compression ratio {ratio}:1 is outside the target {target:g}:1 ± {tolerance:.0%}: " + (
            "many small patterns, the experiences told apart more than alike" if ratio < low else "few broad patterns"
        )
        warnings.warn(message, CompressionRatioWarning, stacklevel=2)
        run.warned.append(message)
    return ratio


def transfer_improvement(outcomes: list[str], known: set[int], min_each: int = 3) -> float | None:
    """The spec's transfer test, per run: how much better this run's experiences that applied
    consolidated knowledge (they joined, or clustered onto, a pattern of an earlier run) fared
    than the rest, as the relative gain in mean outcome score (success 1, progress 0.5,
    failure 0): 0.3 is 30% better, negative is worse. None when either side has fewer than
    ``min_each`` experiences or the rest scored 0 (no base to compare with)."""
    applied = [OUTCOME_SCORE[o] for i, o in enumerate(outcomes) if i in known]
    rest = [OUTCOME_SCORE[o] for i, o in enumerate(outcomes) if i not in known]
    if len(applied) < min_each or len(rest) < min_each:
        return None
    base = sum(rest) / len(rest)
    return None if base == 0 else round((sum(applied) / len(applied)) / base - 1.0, 4)


def transfer_basis(experiences: int, known: dict[int, str]) -> dict[str, int]:
    """What a transfer figure compares: the experiences that applied earlier patterns, how many
    patterns those were (one pattern holding nearly all is a catch-all's figure, not a
    technique's), and the new ones."""
    return {"applied": len(known), "patterns": len(set(known.values())), "new": experiences - len(known)}


def record_failure(run: Any, exc: GraphmindError) -> None:
    """Mark the run ``interrupted`` (Neo4j went away) or ``failed``, when the store still
    answers; else it stays ``running`` until the next run marks it interrupted."""
    gone = isinstance(exc, StoreUnavailableError) or isinstance(exc.__cause__, StoreUnavailableError)
    record = run_record(run, {"status": "interrupted" if gone else "failed", "error": str(exc)[:1000]})
    try:
        graph.record_run(run.d.store, run.mind, record)
    except StoreError as lost:
        log.info("dream run %s could not record its failure (%s); the next run marks it interrupted", run.run_id, lost)
