"""The graph store: the catalog of named Cypher queries, the store that runs them, the schema."""

from graphmind.store.catalog import Catalog, NamedQuery
from graphmind.store.graph_store import GraphStore, connect
from graphmind.store.schema import SchemaReport, apply_schema

__all__ = ["Catalog", "GraphStore", "NamedQuery", "SchemaReport", "apply_schema", "connect"]
