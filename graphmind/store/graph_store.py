"""GraphStore: the only code in graphmind that imports the neo4j driver."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import neo4j
from neo4j import exceptions as neo4j_errors

from graphmind.errors import (
    CatalogError, ConstraintViolationError, StoreError, StoreRejectedError, StoreUnavailableError,
)
from graphmind.store.catalog import Catalog, NamedQuery
from graphmind.store.records import to_python

Row = dict[str, Any]
BATCH_MIN = 16  # lists longer than this travel as _Batch (see _sent)
# Client errors caused by the data a query was given, not by the query: a value of a type
# Neo4j cannot store, an empty property name (TokenNameError), a null where a MERGE needs one.
# Other client errors (syntax, a missing parameter, security) are the query's or the setup's.
REJECTED_DATA = ("Neo.ClientError.Statement.TypeError", "Neo.ClientError.Statement.ArgumentError",
                 "Neo.ClientError.Statement.SemanticError", "Neo.ClientError.Statement.EntityNotFound",
                 "Neo.ClientError.Schema.TokenNameError")
log = logging.getLogger("graphmind.store")


def connect(uri: str, user: str, password: str | None) -> neo4j.Driver:
    """A driver for ``uri`` (created lazily by the driver: no network I/O here)."""
    auth = (user, password) if password is not None else None
    try:
        return neo4j.GraphDatabase.driver(
            uri, auth=auth, user_agent="graphmind", notifications_min_severity="OFF"
        )
    except (ValueError, neo4j_errors.ConfigurationError) as exc:
        raise StoreUnavailableError(f"cannot use Neo4j URI {uri!r}: {exc}") from exc


class GraphStore:
    """Runs named catalog queries with parameters; maps driver errors once."""

    def __init__(self, driver: neo4j.Driver, catalog: Catalog, *, database: str = "neo4j"):
        self._driver = driver
        self._catalog = catalog
        self._database = database
        self._verified = False

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a ``read`` query in a managed read transaction (routed to readers)."""
        query = self._query(name, params, "read")
        with self._mapped(name), _sent(params) as sent, self._session() as session:
            return session.execute_read(self._work(query), sent)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a ``write`` query in a managed write transaction (retried by the driver)."""
        query = self._query(name, params, "write")
        with self._mapped(name), _sent(params) as sent, self._session() as session:
            return session.execute_write(self._work(query), sent)

    def autocommit(self, name: str, /, **params: Any) -> list[Row]:
        """Run an ``autocommit`` query (DDL, CALL IN TRANSACTIONS) in an implicit transaction."""
        query = self._query(name, params, "autocommit")
        with self._mapped(name), _sent(params) as sent, self._session() as session:
            result = session.run(neo4j.Query(query.text, metadata={"query": name}), sent)
            return [_row(record) for record in result]

    def stream(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Yield the rows of a ``read`` query as the server sends them (large results)."""
        query = self._query(name, params, "read")
        with self._mapped(name), _sent(params) as sent, self._session(neo4j.READ_ACCESS) as session:
            result = session.run(neo4j.Query(query.text, metadata={"query": name}), sent)
            for record in result:
                yield _row(record)

    def stream_values(self, name: str, /, **params: Any) -> Iterator[tuple[Any, ...]]:
        """Yield the rows of a ``read`` query as bare tuples, unconverted: for large results of
        plain values only (strings, numbers, lists of them), such as stored embeddings."""
        query = self._query(name, params, "read")
        with self._mapped(name), _sent(params) as sent, self._session(neo4j.READ_ACCESS) as session:
            result = session.run(neo4j.Query(query.text, metadata={"query": name}), sent)
            for record in result:
                yield tuple(record.values())

    def run_ddl(self, name: str, text: str, params: dict[str, Any]) -> None:
        """Run one schema DDL statement from ``schema/`` (the only Cypher not in the catalog)."""
        with self._mapped(name), self._session() as session:
            session.run(neo4j.Query(text, metadata={"query": name}), params).consume()

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One explicit write transaction over several named queries; rolled back on error."""
        with self._mapped("transaction"), self._session() as session:
            tx = session.begin_transaction(metadata={"query": "transaction"})
            try:
                yield Transaction(tx, self)
                tx.commit()
            finally:
                if not tx.closed():
                    tx.rollback()

    def explain(self, name: str) -> list[str]:
        """The operators of the plan of ``name`` (EXPLAIN: nothing runs)."""
        query = self._catalog.get(name)
        params = {p: None for p in query.params}
        with self._mapped(name), self._session() as session:
            summary = session.run("EXPLAIN " + query.text, params).consume()
        return _operators(summary.plan or {})

    def verify(self) -> None:
        """Raise StoreUnavailableError unless the database answers."""
        with self._mapped("verify"):
            self._driver.verify_connectivity()

    def close(self) -> None:
        self._driver.close()

    def _query(self, name: str, params: dict[str, Any], *modes: str) -> NamedQuery:
        """The named query, checked: one of ``modes``, given exactly its declared parameters."""
        query = self._catalog.get(name)
        if query.mode not in modes:
            raise CatalogError(f"query {name} is a {query.mode} query, not {' or '.join(modes)}", query=name)
        query.check_params(params.keys())
        log.debug("query %s params %s", name, sorted(params))  # names only: never the values
        return query

    def _session(self, access_mode: str = neo4j.WRITE_ACCESS) -> neo4j.Session:
        if not self._verified:
            # Fail fast when the server is down, instead of inside the driver's retry loop.
            self._driver.verify_connectivity()
            self._verified = True
        return self._driver.session(database=self._database, default_access_mode=access_mode)

    @staticmethod
    def _work(query: NamedQuery):
        @neo4j.unit_of_work(metadata={"query": query.name})
        def work(tx: neo4j.ManagedTransaction, params: dict[str, Any]) -> list[Row]:
            return [_row(record) for record in tx.run(query.text, params)]

        return work

    @contextmanager
    def _mapped(self, name: str) -> Iterator[None]:
        try:
            yield
        except neo4j_errors.ConstraintError as exc:
            raise ConstraintViolationError(f"{name}: {exc.message}", query=name, reason=exc.message) from exc
        except neo4j_errors.AuthError as exc:
            raise StoreUnavailableError(
                "Neo4j refused the credentials (check NEO4J_USER and NEO4J_PASSWORD)", query=name
            ) from exc
        except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired) as exc:
            raise StoreUnavailableError(
                f"Neo4j is not reachable ({exc}); start it with 'graphmind neo4j start' or set NEO4J_URI",
                query=name,
            ) from exc
        except neo4j_errors.ClientError as exc:
            if (exc.code or "").startswith(REJECTED_DATA):
                raise StoreRejectedError(f"{name}: Neo4j refused the data: {exc.message}", query=name,
                                         reason=exc.message) from exc
            raise StoreError(f"{name} failed: {exc.message or exc}", query=name) from exc
        except neo4j_errors.Neo4jError as exc:
            raise StoreError(f"{name} failed: {exc.message or exc}", query=name) from exc
        except neo4j_errors.DriverError as exc:
            raise StoreError(f"{name} failed: {exc}", query=name) from exc


class Transaction:
    """Named queries inside one explicit transaction."""

    def __init__(self, tx: neo4j.Transaction, store: GraphStore):
        self._tx = tx
        self._store = store

    def run(self, name: str, /, **params: Any) -> list[Row]:
        query = self._store._query(name, params, "read", "write")  # autocommit cannot run in a tx
        with _sent(params) as sent:
            return [_row(record) for record in self._tx.run(query.text, sent)]


class _Batch(list):
    """A list parameter as sent to the driver: the same values, a one-line ``repr``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{len(self)} items>"


@contextmanager
def _sent(params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``params`` with each list of more than BATCH_MIN values copied into a ``_Batch``, which
    is emptied when the call is over. Two habits of the driver make bulk writes cost more:
    it formats every RUN's parameters with ``repr`` for its debug log, whether that log is on
    or not (for a 5,000-row import batch, 1.7 µs a row: half of what packing it costs), and
    it keeps a transaction's parameters in reference cycles, alive until Python's cyclic
    collector runs (which an import pauses). The packed bytes are the same as for a list."""
    sent = {key: _Batch(value) if isinstance(value, list) and len(value) > BATCH_MIN else value
            for key, value in params.items()}
    try:
        yield sent
    finally:
        for value in sent.values():
            if isinstance(value, _Batch):
                value.clear()


def _row(record: neo4j.Record) -> Row:
    return {key: to_python(value) for key, value in record.items()}


def _operators(plan: dict[str, Any]) -> list[str]:
    ops = [str(plan.get("operatorType", "")).split("@")[0]]
    for child in plan.get("children", []):
        ops.extend(_operators(child))
    return ops
