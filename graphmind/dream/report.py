"""DreamReport: what one dream run did, with the DESIGN.md ``graphmind dream --json`` fields."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from graphmind.text import plural


class CompressionRatioWarning(UserWarning):
    """The run's compression ratio is outside the target ratio ± its tolerance (10:1 ± 30%)."""


@dataclass(frozen=True)
class LadderEntry:
    id: str
    level: int
    name: str
    generalization: str
    members: list[str]


@dataclass(frozen=True)
class StoredLadder:
    """The ladder a mind holds now (``Mind.ladder``): its active abstractions and the names of
    its active patterns (level 1)."""

    mind: str
    levels: int
    ladder: list[LadderEntry] = field(default_factory=list)
    pattern_names: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DreamReport:
    run_id: str | None
    mind: str
    status: str
    """completed | nothing_to_consolidate | dry_run."""
    trigger: str
    experiences: int = 0
    triaged: int = 0
    duplicates: int = 0
    filtered: int = 0
    deferred: int = 0
    """Experiences left waiting for like ones (deferred) after this run."""
    read_again: int = 0
    """Of ``experiences``, those an earlier run deferred, read again."""
    remaining: int = 0
    """Unconsumed experiences this run did not read (beyond ``max_experiences``): the next run's."""
    patterns: int = 0
    """Patterns this run created."""
    grown: int = 0
    """Existing patterns that new experiences joined."""
    active_patterns: int = 0
    compression_ratio: float | None = None
    """Experiences per new pattern (duplicates included); None when the run made none."""
    ladder_levels: int = 0
    ladder: list[LadderEntry] = field(default_factory=list)
    cross_connections: int = 0
    pruned: int = 0
    transfer_improvement: float | None = None
    """How much better this run's experiences that applied an earlier run's pattern fared than
    the rest (0.3: 30% better; the spec's transfer test); None without enough of either."""
    transfer_basis: dict[str, int] = field(default_factory=dict)
    """What that figure compares: ``applied`` experiences in ``patterns`` earlier patterns,
    against ``new`` ones; empty without a figure."""
    contradictions: int = 0
    verification: dict[str, Any] = field(default_factory=dict)
    llm_calls: int = 0
    llm: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    degraded: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    new_patterns: list[dict[str, Any]] = field(default_factory=list)
    pattern_names: dict[str, str] = field(default_factory=dict)
    """id → name of every active pattern (the ladder's level 1), new or not."""

    @property
    def message(self) -> str:
        if self.status == "nothing_to_consolidate":
            waiting = f" ({self.deferred} deferred ones wait for more like them)" if self.deferred else ""
            return f"nothing to consolidate: mind {self.mind!r} has no new experiences{waiting}"
        ratio = f"{self.compression_ratio:g}:1" if self.compression_ratio else "n/a"
        status, score = self.verification.get("status", "not run"), self.verification.get("score")
        verified = status + (f" (score {score:.2f})" if isinstance(score, int | float) else "")
        again = f" ({self.read_again} deferred before)" if self.read_again else ""
        transfer, gain, basis = "", self.transfer_improvement, self.transfer_basis
        if gain is not None:
            how = f"{abs(gain):.0%} {'better' if gain >= 0 else 'worse'}"
            transfer = (
                f", {basis['applied']} experiences like {basis['patterns']} earlier "
                f"pattern{'' if basis['patterns'] == 1 else 's'} fared {how} than {basis['new']} new ones (transfer)"
                if basis
                else f", applying earlier patterns fared {how} (transfer)"
            )
        return (
            f"dream {self.run_id}{' (dry run)' if self.status == 'dry_run' else ''}: "
            f"{self.experiences} experiences{again}, {self.triaged} triaged, {self.patterns} new "
            f"{'pattern' if self.patterns == 1 else 'patterns'} ({self.grown} grown; ratio {ratio}), "
            f"{self.ladder_levels}-level ladder, "
            f"{self.cross_connections} connections, {self.pruned} pruned{transfer}; verification: {verified}"
            + (f"; {plural(self.deferred, 'waits', 'wait')} for more like them" if self.deferred else "")
            + (f"; {self.remaining} experiences left for the next run" if self.remaining else "")
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self) | {"message": self.message}
