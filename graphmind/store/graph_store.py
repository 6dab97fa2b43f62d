"""GraphStore: the only code in graphmind that imports the neo4j driver.

When Neo4j stops answering, a command fails within ``fail_after_s`` (GRAPHMIND_NEO4J_FAIL_AFTER):
the driver retries a failed transaction with doubling delays for half that time (its last
delay can take it to about the whole of it), and connecting is bounded too. After one call has
found the server gone, the calls that follow fail at once with the same sentence instead of
each retrying again; once ``fail_after_s`` has passed since the last try, the next call tries
once more (a single attempt), and a call that succeeds ends the outage.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from graphmind.errors import (
    CatalogError,
    ConstraintViolationError,
    StoreError,
    StoreRejectedError,
    StoreUnavailableError,
)
from graphmind.store.catalog import Catalog, NamedQuery
from graphmind.store.records import to_python

T = TypeVar("T")

Row = dict[str, Any]
BATCH_MIN = 16  # lists longer than this travel as _Batch (see _sent)
# Client errors caused by the data a query was given, not by the query: a value of a type
# Neo4j cannot store, an empty property name (TokenNameError), a null where a MERGE needs one.
# Other client errors (syntax, a missing parameter, security) are the query's or the setup's.
REJECTED_DATA = (
    "Neo.ClientError.Statement.TypeError",
    "Neo.ClientError.Statement.ArgumentError",
    "Neo.ClientError.Statement.SemanticError",
    "Neo.ClientError.Statement.EntityNotFound",
    "Neo.ClientError.Schema.TokenNameError",
)
_MISSING_INDEX = re.compile(r"no such (?:\w+ )?(?:schema )?index", re.I)
"""Neo4j's words for an index a query names that the database lacks: the schema predates it."""
FAIL_AFTER_S = 20.0  # the default of GRAPHMIND_NEO4J_FAIL_AFTER
log = logging.getLogger(__name__)


def connect(uri: str, user: str, password: str | None, *, fail_after_s: float = FAIL_AFTER_S) -> neo4j.Driver:
    """A driver for ``uri`` (created lazily by the driver: no network I/O here) whose retries
    and connection attempts give up within about ``fail_after_s``."""
    auth = (user, password) if password is not None else None
    try:
        return neo4j.GraphDatabase.driver(
            uri, auth=auth, user_agent="graphmind", notifications_min_severity="OFF", **driver_timeouts(fail_after_s)
        )
    except (ValueError, neo4j_errors.ConfigurationError) as exc:
        raise StoreUnavailableError(f"cannot use Neo4j URI {uri!r}: {exc}") from exc


def driver_timeouts(fail_after_s: float) -> dict[str, Any]:
    """The driver settings that bound how long an unreachable server takes to fail a call.

    The driver retries a failed managed transaction until ``max_transaction_retry_time`` has
    passed since the first failure, sleeping 1, 2, 4, ... s (±20 %) in between, and checks the
    time only before each sleep: the last sleep can take it to about twice its retry time. So
    it gets half of ``fail_after_s``; one connection attempt gets a quarter (at least 1 s)."""
    return {
        "max_transaction_retry_time": fail_after_s / 2,
        "connection_timeout": max(1.0, fail_after_s / 4),
        "connection_acquisition_timeout": max(1.0, fail_after_s),
    }


class GraphStore:
    """Runs named catalog queries with parameters; maps driver errors once."""

    def __init__(
        self, driver: neo4j.Driver, catalog: Catalog, *, database: str = "neo4j", fail_after_s: float = FAIL_AFTER_S
    ):
        self._driver = driver
        self._catalog = catalog
        self._database = database
        self._verified = False
        self._outage = _Outage(fail_after_s)
        self._generation = 0
        self._generation_lock = threading.Lock()
        self._on_close: list[Callable[[], None]] = []

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    @property
    def generation(self) -> int:
        """How many writes through this store have ended (failed ones too; a ``// changes:
        counters`` query is not counted): what a cache of the graph checks it is still current."""
        return self._generation

    @contextmanager
    def _writing(self, query: NamedQuery | None = None) -> Iterator[None]:
        try:
            yield
        finally:
            if query is None or not query.counters_only:
                with self._generation_lock:
                    self._generation += 1

    def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a ``read`` query in a managed read transaction (routed to readers)."""
        query = self._query(name, params, "read")
        with self._mapped(name), _sent(params) as sent, self._session() as session:
            return session.execute_read(self._work(query), sent)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a ``write`` query in a managed write transaction (retried by the driver)."""
        query = self._query(name, params, "write")
        with self._writing(query), self._mapped(name), _sent(params) as sent, self._session() as session:
            return session.execute_write(self._work(query), sent)

    def autocommit(self, name: str, /, **params: Any) -> list[Row]:
        """Run an ``autocommit`` query (DDL, CALL IN TRANSACTIONS) in an implicit transaction."""
        query = self._query(name, params, "autocommit")
        with self._writing(query), self._mapped(name), _sent(params) as sent, self._session() as session:
            result = session.run(neo4j.Query(query.text, metadata={"query": name}), sent)
            return [_row(record) for record in result]

    def stream(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Yield the rows of a ``read`` query as the server sends them (large results)."""
        query = self._query(name, params, "read")
        with self._mapped(name), _sent(params) as sent, self._session(neo4j.READ_ACCESS) as session:
            result = session.run(neo4j.Query(query.text, metadata={"query": name}), sent)
            for record in result:
                yield _row(record)

    def stream_values(self, name: str, /, **params: Any) -> Generator[tuple[Any, ...], None, None]:
        """Yield the rows of a ``read`` query as bare tuples, unconverted: for large results of
        plain values only (strings, numbers, lists of them), such as stored embeddings."""
        query = self._query(name, params, "read")
        with self._mapped(name), _sent(params) as sent, self._session(neo4j.READ_ACCESS) as session:
            result = session.run(neo4j.Query(query.text, metadata={"query": name}), sent)
            for record in result:
                yield tuple(record.values())

    def run_ddl(self, name: str, text: str, params: dict[str, Any]) -> None:
        """Run one schema DDL statement from ``schema/`` (the only Cypher not in the catalog)."""
        with self._writing(), self._mapped(name), self._session() as session:
            session.run(neo4j.Query(text, metadata={"query": name}), params).consume()

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One explicit write transaction over several named queries; rolled back on error."""
        with self._writing(), self._mapped("transaction"), self._session() as session:
            tx = session.begin_transaction(metadata={"query": "transaction"})
            try:
                yield Transaction(tx, self)
                tx.commit()
            finally:
                if not tx.closed():
                    tx.rollback()

    def write_transaction(self, work: Callable[[Transaction], T]) -> T:
        """``work`` over several named queries in one managed write transaction: retried by the
        driver on a transient error (a deadlock, a leader switch), so ``work`` must be safe to
        run again; its own errors roll the transaction back and are not retried."""
        with self._writing(), self._mapped("transaction"), self._session() as session:
            tx_work = neo4j.unit_of_work(metadata={"query": "transaction"})(lambda tx: work(Transaction(tx, self)))
            return session.execute_write(tx_work)

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

    def on_close(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the store closes, before the driver does (writes still go through)."""
        self._on_close.append(callback)

    def close(self) -> None:
        callbacks, self._on_close = self._on_close, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # the driver closes all the same
                log.exception("a callback at store close failed")
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
        # During an outage a call is one attempt: the retries were spent by the call that found it.
        once: dict[str, Any] = {"max_transaction_retry_time": 0.0} if self._outage.ongoing else {}
        return self._driver.session(database=self._database, default_access_mode=access_mode, **once)

    @staticmethod
    def _work(query: NamedQuery):
        @neo4j.unit_of_work(metadata={"query": query.name})
        def work(tx: neo4j.ManagedTransaction, params: dict[str, Any]) -> list[Row]:
            return [_row(record) for record in tx.run(query.text, params)]

        return work

    @contextmanager
    def _mapped(self, name: str) -> Iterator[None]:
        self._outage.admit(name)
        started = time.monotonic()
        try:
            yield
        except neo4j_errors.ConstraintError as exc:
            raise ConstraintViolationError(f"{name}: {exc.message}", query=name, reason=exc.message) from exc
        except neo4j_errors.AuthError as exc:
            raise StoreUnavailableError(
                "Neo4j refused the credentials (check NEO4J_USER and NEO4J_PASSWORD)", query=name
            ) from exc
        except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired) as exc:
            message = f"Neo4j is not reachable ({_cause(exc)}); start it with 'graphmind neo4j start' or set NEO4J_URI"
            self._outage.found(started, message)
            raise StoreUnavailableError(message, query=name) from exc
        except neo4j_errors.ClientError as exc:
            if _MISSING_INDEX.search(exc.message or ""):
                raise StoreError(
                    f"{name} failed: the database lacks an index this graphmind uses (its schema is older);"
                    " run 'graphmind init' to bring it up to date",
                    query=name,
                ) from exc
            if (exc.code or "").startswith(REJECTED_DATA):
                raise StoreRejectedError(
                    f"{name}: Neo4j refused the data: {exc.message}", query=name, reason=exc.message
                ) from exc
            raise StoreError(f"{name} failed: {exc.message or exc}", query=name) from exc
        except neo4j_errors.Neo4jError as exc:
            raise StoreError(f"{name} failed: {exc.message or exc}", query=name) from exc
        except neo4j_errors.DriverError as exc:
            raise StoreError(f"{name} failed: {exc}", query=name) from exc
        else:
            self._outage.over()


def _cause(exc: BaseException) -> str:
    """Why the driver could not reach the server: the socket's reason ("Connection refused",
    "Connection reset by peer", or the server closing it) when one is in the chain, else the
    driver's message on one line."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError):
            return seen.strerror or ("the server closed the connection" if str(seen) == "No data" else str(seen))
        seen = seen.__cause__ or seen.__context__
    return " ".join(str(exc).split())


class _Outage:
    """The server as this store last found it: answering, or gone since a given moment."""

    def __init__(self, fail_after_s: float):
        self.fail_after_s = fail_after_s
        self._since: float | None = None  # when the first call that found the server gone began
        self._last_try = 0.0
        self._message = ""
        self._lock = threading.Lock()

    @property
    def ongoing(self) -> bool:
        return self._since is not None

    def admit(self, name: str) -> None:
        """Let a call try, unless the server was found gone less than ``fail_after_s`` ago."""
        with self._lock:
            if self._since is None:
                return
            now = time.monotonic()
            if now - self._last_try < self.fail_after_s:
                raise StoreUnavailableError(self._message, query=name)
            self._last_try = now

    def found(self, started: float, message: str) -> None:
        with self._lock:
            if self._since is None:
                log.info("Neo4j stopped answering; calls fail at once for %g s", self.fail_after_s)
            self._since = started if self._since is None else min(self._since, started)
            self._last_try, self._message = time.monotonic(), message

    def over(self) -> None:
        if self._since is not None:
            with self._lock:
                self._since = None
            log.info("Neo4j answers again")


class Transaction:
    """Named queries inside one explicit transaction."""

    def __init__(self, tx: neo4j.Transaction | neo4j.ManagedTransaction, store: GraphStore):
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
    sent = {
        key: _Batch(value) if isinstance(value, list) and len(value) > BATCH_MIN else value
        for key, value in params.items()
    }
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
