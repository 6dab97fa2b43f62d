"""The validated lines of an import (pure data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NodeLine:
    """A valid node line. Date-times travel as ISO-8601 text in ``dates`` (the server turns
    them into DateTime: the driver's own temporal encoding costs ~40 µs a value)."""

    line: int
    id: str
    label: str
    props: dict[str, Any]
    dates: dict[str, str]

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (spilled) as its fields: ~2x faster than a dataclass's default
        return NodeLine, (self.line, self.id, self.label, self.props, self.dates)


@dataclass(frozen=True)
class EdgeLine:
    """A valid edge line; ``key`` holds the values of its type's KEY properties (parallel
    relationships of one type between two nodes differ in them)."""

    line: int
    rel: str
    from_id: str
    to_id: str
    props: dict[str, Any]
    dates: dict[str, str]
    key: tuple[Any, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:  # as NodeLine's
        return EdgeLine, (self.line, self.rel, self.from_id, self.to_id, self.props, self.dates, self.key)


@dataclass(frozen=True)
class LineError:
    """Why one line was refused."""

    line: int
    field: str | None
    message: str

    def sentence(self) -> str:
        where = f"line {self.line}" + (f", field '{shown(self.field, 80)}'" if self.field else "")
        return f"{where}: {shown(self.message, 400)}"

    def as_dict(self) -> dict[str, Any]:
        field = shown(self.field, 80) if self.field else self.field
        return {"line": self.line, "field": field, "error": shown(self.message, 400)}


@dataclass(frozen=True)
class ImportReport:
    mind: str
    nodes: int
    """Node lines written: ``new`` + ``changed`` + ``unchanged``."""
    edges: int
    invalid: list[LineError]
    skipped: int = 0
    invalidated: int = 0
    """Older memories this import's SUPERSEDES / CONTRADICTS edges gave an ``invalid_at``."""
    respoken: int = 0
    """Turns whose SPOKEN_BY edge to a stand-in Person an earlier import made went, as they are now
    linked to the Partnership or the Identity of that name (io/speakers_kept.py)."""
    timings: dict[str, float] = field(default_factory=dict)
    new: int = 0
    """Nodes the mind did not hold before."""
    changed: int = 0
    """Nodes the mind held, of which a line gave a property (or date-time) it lacked or held otherwise."""

    @property
    def unchanged(self) -> int:
        """Nodes the mind held already just as their lines give them."""
        return self.nodes - self.new - self.changed

    def as_dict(self) -> dict[str, Any]:
        return {
            "mind": self.mind,
            "nodes": self.nodes,
            "new": self.new,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "edges": self.edges,
            "skipped": self.skipped,
            "invalidated": self.invalidated,
            "respoken": self.respoken,
            "invalid": [e.as_dict() for e in self.invalid],
            "timings": self.timings,
        }


def shown(text: str, limit: int) -> str:
    """``text`` as one printable line of at most ``limit`` characters: a refused 10 kB value or a
    key holding a newline must not turn one error sentence into a page (issue 25, item 4)."""
    if not text.isprintable():
        text = repr(text)[1:-1]
    return text if len(text) <= limit else text[: limit - 1] + "…"
