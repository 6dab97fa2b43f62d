"""Applying ``schema/NNN_*.cypher``: ordered, idempotent DDL, then wait until ONLINE."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from graphmind.errors import SchemaError, StoreError
from graphmind.store.catalog import PARAM, packaged_dir
from graphmind.store.graph_store import GraphStore

_FILE = re.compile(r"^(\d{3})_[a-z0-9_]+\.cypher$")


@dataclass(frozen=True)
class SchemaStatement:
    """One DDL statement of a ``schema/NNN_*.cypher`` file and the settings it takes."""

    file: str
    text: str
    params: frozenset[str]


@dataclass(frozen=True)
class SchemaReport:
    version: int
    applied: list[str]
    statements: int
    indexes_online: int


def load_schema(root: Traversable | Path | None = None) -> list[SchemaStatement]:
    """Every statement of every schema file, in file order."""
    root = root or packaged_dir("schema")
    files = sorted((e for e in root.iterdir() if _FILE.match(e.name)), key=lambda e: e.name)
    statements: list[SchemaStatement] = []
    for entry in files:
        for text in split_statements(entry.read_text(encoding="utf-8")):
            statements.append(SchemaStatement(entry.name, text, frozenset(PARAM.findall(text))))
    return statements


def split_statements(source: str) -> list[str]:
    """Statements separated by ';' at line ends, comments dropped."""
    body = "\n".join(line for line in source.splitlines() if not line.strip().startswith("//"))
    return [part.strip() for part in re.split(r";\s*(?:\n|$)", body) if part.strip()]


def schema_version(statements: list[SchemaStatement]) -> int:
    return max((int(s.file[:3]) for s in statements), default=0)


def apply_schema(store: GraphStore, params: dict[str, object], timeout_s: int = 300) -> SchemaReport:
    """Apply all statements (idempotent), wait for indexes, record the version."""
    statements = load_schema()
    for statement in statements:
        missing = statement.params - params.keys()
        if missing:
            raise SchemaError(f"{statement.file} needs settings {sorted(missing)}")
        values = {name: params[name] for name in statement.params}
        store.run_ddl(f"schema/{statement.file}", statement.text, values)
    try:
        store.autocommit("admin/await_indexes", timeout_s=timeout_s)
    except StoreError as exc:
        raise SchemaError(f"indexes did not come ONLINE within {timeout_s} s: {exc}") from exc
    indexes = store.autocommit("admin/list_indexes")
    offline = [i["name"] for i in indexes if i["state"] != "ONLINE"]
    if offline:
        raise SchemaError(f"indexes not ONLINE: {', '.join(offline)}")
    files = sorted({s.file for s in statements})
    version = schema_version(statements)
    store.write("admin/mark_schema_version", version=version, files=files)
    return SchemaReport(version=version, applied=files, statements=len(statements), indexes_online=len(indexes))
