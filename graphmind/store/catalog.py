"""The Cypher catalog: one statement per ``.cypher`` file, named by its path.

Each file starts with a header the loader checks::

    // mode: read | write | autocommit
    // params: mind, rows
    // What the query does, in one line or more.

A write that changes nothing but counters (hits) may say so with ``// changes: counters``: it
leaves ``GraphStore.generation`` as it is, so what recall caches of the graph stays valid.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal, cast

from graphmind.errors import CatalogError

Mode = Literal["read", "write", "autocommit"]
PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
"""A query parameter (``$name``); ``$(expr)``, a dynamic label or type, is not one."""
_HEADER = re.compile(r"^//\s*(mode|params|changes):\s*(.*)$")


@dataclass(frozen=True)
class NamedQuery:
    """One catalog entry."""

    name: str
    mode: Mode
    params: frozenset[str]
    text: str
    counters_only: bool = False

    def check_params(self, given: AbstractSet[str]) -> None:
        """Raise CatalogError unless ``given`` is exactly the declared parameter set."""
        if set(given) != self.params:
            missing = sorted(self.params - set(given))
            extra = sorted(set(given) - self.params)
            raise CatalogError(
                f"query {self.name} takes {sorted(self.params)}; missing {missing}, unexpected {extra}", query=self.name
            )


def parse_query(name: str, source: str) -> NamedQuery:
    """Parse one file's text, checking its header against its body."""
    header: dict[str, str] = {}
    body: list[str] = []
    for line in source.splitlines():
        match = _HEADER.match(line.strip())
        if match and not body:
            header[match.group(1)] = match.group(2).strip()
        elif not line.strip().startswith("//"):
            body.append(line)
    text = "\n".join(body).strip()
    mode = header.get("mode")
    if mode != "read" and mode != "write" and mode != "autocommit":
        raise CatalogError(f"query {name} has no valid '// mode:' header", query=name)
    if "params" not in header:
        raise CatalogError(f"query {name} has no '// params:' header", query=name)
    declared = frozenset(p.strip() for p in header["params"].split(",") if p.strip())
    used = frozenset(PARAM.findall(text))
    if declared != used:
        raise CatalogError(f"query {name} declares params {sorted(declared)} but uses {sorted(used)}", query=name)
    if not text or ";" in text.rstrip().rstrip(";"):
        raise CatalogError(f"query {name} must hold exactly one statement", query=name)
    changes = header.get("changes")
    if changes is not None and (changes != "counters" or mode != "write"):
        raise CatalogError(f"query {name}: '// changes:' takes 'counters', on a write query only", query=name)
    return NamedQuery(
        name=name,
        mode=cast(Mode, mode),
        params=declared,
        text=text.rstrip(";").strip(),
        counters_only=changes is not None,
    )


class Catalog:
    """All named queries under one root, loaded eagerly so a bad file fails at start-up."""

    def __init__(self, queries: dict[str, NamedQuery]):
        self._queries = queries

    @classmethod
    def load(cls, root: Traversable | Path | None = None) -> Catalog:
        root = root or packaged_dir("cypher")
        queries: dict[str, NamedQuery] = {}
        for name, source in _walk(root, ""):
            queries[name] = parse_query(name, source)
        return cls(queries)

    def get(self, name: str) -> NamedQuery:
        try:
            return self._queries[name]
        except KeyError:
            raise CatalogError(f"no query named {name!r} in the catalog", query=name) from None

    def names(self) -> list[str]:
        return sorted(self._queries)

    def __len__(self) -> int:
        return len(self._queries)


def packaged_dir(name: str) -> Traversable:
    """``cypher`` or ``schema``: inside the installed package, or beside it in a checkout."""
    inside = resources.files("graphmind") / name
    if inside.is_dir():
        return inside
    checkout = Path(str(resources.files("graphmind"))).parent / name
    if checkout.is_dir():
        return checkout
    raise CatalogError(f"the {name}/ directory is missing from the graphmind installation")


def _walk(root: Traversable, prefix: str):
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            yield from _walk(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(".cypher"):
            yield f"{prefix}{entry.name[: -len('.cypher')]}", entry.read_text(encoding="utf-8")
