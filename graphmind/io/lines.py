"""The validated lines of an import (pure data)."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class LineError:
    """Why one line was refused."""

    line: int
    field: str | None
    message: str

    def sentence(self) -> str:
        where = f"line {self.line}" + (f", field '{self.field}'" if self.field else "")
        return f"{where}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "field": self.field, "error": self.message}
