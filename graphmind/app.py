"""The composition root: builds the store, the embedder and the LLM from Settings."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from graphmind.config import Settings
from graphmind.context import offline as context_offline
from graphmind.digest import Digester
from graphmind.digest import offline as digest_offline
from graphmind.dream import Dreamer
from graphmind.dream import offline as dream_offline
from graphmind.embed import CachingEmbedder, Embedder
from graphmind.errors import ConfigError, StoreUnavailableError, ValidationError
from graphmind.launcher import LocalNeo4j
from graphmind.llm import LLM
from graphmind.llm.offline import register_behaviours
from graphmind.recall import Recaller
from graphmind.recall import offline as recall_offline
from graphmind.ruminate import RuminationEngine
from graphmind.ruminate import offline as ruminate_offline
from graphmind.store import Catalog, GraphStore, SchemaReport, apply_schema, connect
from graphmind.wander import offline as wander_offline
from graphmind.wander.events import EventBus
from graphmind.wander.sessions import WanderSessions

if TYPE_CHECKING:
    from graphmind.wander.wanderer import Wander

log = logging.getLogger(__name__)

OFFLINE_ENGINES = (ruminate_offline, context_offline, dream_offline, wander_offline, digest_offline, recall_offline)
"""The engines' offline behaviours: each engine owns its own (``<engine>/offline.py``)."""


def register_offline_behaviours() -> None:
    """Give the offline LLM every engine's behaviours and template words (idempotent)."""
    for module in OFFLINE_ENGINES:
        register_behaviours(module.BEHAVIOURS, module.TEMPLATE_WORDS)


register_offline_behaviours()  # at import: an OfflineLLM built anywhere in graphmind has them


def connection(settings: Settings) -> tuple[str, str, str | None]:
    """(uri, user, password): NEO4J_* when NEO4J_URI is set, else the local Neo4j."""
    if settings.neo4j_uri:
        return settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password
    local = LocalNeo4j(settings)
    password = local.password()
    if password is None:
        raise StoreUnavailableError(
            "NEO4J_URI is not set and the local Neo4j has never been started; "
            "run 'graphmind neo4j start' or set NEO4J_URI"
        )
    return local.uri, "neo4j", password


def open_store(settings: Settings) -> GraphStore:
    """A GraphStore on the database the settings name (no network I/O until first use)."""
    uri, user, password = connection(settings)
    bound = settings.neo4j_fail_after_s  # GRAPHMIND_NEO4J_FAIL_AFTER: how long an outage takes to fail a call
    return GraphStore(
        connect(uri, user, password, fail_after_s=bound),
        Catalog.load(),
        database=settings.neo4j_database,
        fail_after_s=bound,
    )


def init_database(store: GraphStore, settings: Settings) -> SchemaReport:
    """Apply ``schema/`` with the values it takes from settings."""
    return apply_schema(store, {"embedding_dimensions": settings.embedding_dimensions})


def make_embedder(settings: Settings) -> Embedder:
    """The embedder the settings name (GRAPHMIND_EMBEDDER); weights load on first use."""
    from graphmind.embed import HashingEmbedder, MiniLMEmbedder

    if settings.embedder == "hashing":
        return HashingEmbedder(dimensions=settings.embedding_dimensions)
    embedder = MiniLMEmbedder(batch_size=settings.embed_batch_size)
    if embedder.dimensions != settings.embedding_dimensions:
        raise ConfigError(
            f"GRAPHMIND_EMBEDDING_DIM is {settings.embedding_dimensions} but {embedder.model_id} "
            f"makes {embedder.dimensions}-dimensional vectors."
        )
    return embedder


WANDER_MAX_TOKENS = 2000
"""A dwelling answers in a short JSON object; the spec's sub-calls use 2,000 tokens too."""


def make_wander_models(settings: Settings, llm: LLM) -> tuple[LLM, LLM]:
    """(cheap, strong) for wander's model routing: with Anthropic, GRAPHMIND_WANDER_CHEAP_MODEL
    and the configured model, both capped at ``WANDER_MAX_TOKENS``, on ``llm``'s own SDK client
    and recording into its ``usage`` (no client of their own to close); otherwise ``llm`` twice."""
    from graphmind.llm.anthropic import AnthropicLLM

    if not isinstance(llm, AnthropicLLM):
        return llm, llm
    return (
        llm.sibling(settings.wander_cheap_model, max_tokens=WANDER_MAX_TOKENS),
        llm.sibling(llm.model, max_tokens=WANDER_MAX_TOKENS),
    )


@dataclass(frozen=True)
class WanderWiring:
    """What a wander of one mind is built from (the mind's store, models and event bus)."""

    store: GraphStore
    settings: Settings
    embedder: Embedder
    llm: LLM
    mind: str
    events: EventBus


def open_wander(
    wiring: WanderWiring,
    sessions: WanderSessions,
    pool: ThreadPoolExecutor,
    *,
    session_id: str | None,
    seed: str | None,
    before_commit: Callable[[str], None] | None = None,
    config: Mapping[str, Any] | None = None,
) -> Wander:
    """The handle of session ``session_id``, or of a new session from ``seed`` (with ``config``),
    wired with its idea space, resonances, crystals, model routing and REPL dweller."""
    from graphmind.wander.crystals import Crystals
    from graphmind.wander.resonances import Resonances
    from graphmind.wander.rlm import RlmDweller
    from graphmind.wander.space import IdeaSpace
    from graphmind.wander.walker import Models, Walker
    from graphmind.wander.wanderer import Wander

    store, mind, events = wiring.store, wiring.mind, wiring.events
    embedder = CachingEmbedder(wiring.embedder)
    space = IdeaSpace(store, embedder, mind)
    if session_id is None:
        if seed is None:
            raise ValidationError("a new wander needs a seed concept (or the session_id of one to reopen)")
        session_id = Wander.create(sessions, space, seed, events, **dict(config or {})).id
    cheap, strong = make_wander_models(wiring.settings, wiring.llm)
    crystals = Crystals(store, strong, mind, events)
    walker = Walker(
        store,
        space,
        Resonances(store, embedder, mind),
        crystals,
        Models(cheap, strong, dict(wiring.settings.llm_prices)),
        mind,
        events,
        before_commit,
        RlmDweller(store, space, mind),
        pool,
    )
    return Wander(
        session_id, store=store, sessions=sessions, space=space, walker=walker, crystals=crystals, mind=mind, bus=events
    )


def make_event_bus(settings: Settings) -> EventBus:
    """Wander's event bus: the JSONL log GRAPHMIND_WANDER_EVENT_LOG names, and NATS when
    NATS_URL is set (``nats-py`` must be installed: ``pip install graphmind[nats]``)."""
    from graphmind.wander.events import NatsPublisher

    publisher = NatsPublisher.connect(settings.nats_url) if settings.nats_url else None
    return EventBus(settings.wander_event_log, publisher)


def make_llm(settings: Settings) -> LLM:
    """The LLM provider the settings name: Anthropic with an API key, else the offline one."""
    from graphmind.llm.factory import make_llm as build

    return build(settings)


class MindEngines:
    """The engines of one Mind, wired here once from its store and settings, and closed together.

    Each is made on first use (the embedder's weights and the LLM's client only when a verb needs
    them): ``embedder``, ``llm``, ``recaller``, ``dreamer``, ``ruminator``, ``digester``, the
    wander ``events`` bus and ``wander_pool``. What was given to the constructor is used, and not
    closed; what was made here is closed by ``close`` (the store only when ``owns_store``)."""

    def __init__(
        self,
        store: GraphStore,
        settings: Settings,
        *,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        owns_store: bool = False,
    ):
        self.store, self.settings, self.owns_store = store, settings, owns_store
        self._embedder, self._llm, self._owns_llm = embedder, llm, False
        self._recaller: Recaller | None = None
        self._events: EventBus | None = None
        self._pool: ThreadPoolExecutor | None = None

    @property
    def embedder(self) -> Embedder:
        """The embedder given, else the one GRAPHMIND_EMBEDDER names (made once)."""
        if self._embedder is None:
            self._embedder = make_embedder(self.settings)
        return self._embedder

    @property
    def llm(self) -> LLM:
        """The LLM given, else the provider the settings name (made once, closed with the mind)."""
        if self._llm is None:
            self._llm, self._owns_llm = make_llm(self.settings), True
        return self._llm

    @property
    def recaller(self) -> Recaller:
        if self._recaller is None:
            cache_bytes = self.settings.recall_cache_mb * 2**20
            self._recaller = Recaller(
                self.store,
                self.embedder,
                cache_bytes=cache_bytes,
                query_cache=self.settings.recall_query_cache,
                partition_min=self.settings.recall_partition_min,
            )
        return self._recaller

    @cached_property
    def dreamer(self) -> Dreamer:
        """The dream engine with the default DreamParams (``dreamer.using(params)`` for others)."""
        return Dreamer(self.store, self.embedder, self.llm)

    @cached_property
    def ruminator(self) -> RuminationEngine:
        return RuminationEngine(self.store, self.recaller, self.llm)

    @cached_property
    def digester(self) -> Digester:
        return Digester(self.store)

    @property
    def events(self) -> EventBus:
        """Wander's event bus (``make_event_bus``), made once."""
        if self._events is None:
            self._events = make_event_bus(self.settings)
        return self._events

    @property
    def wander_pool(self) -> ThreadPoolExecutor:
        """Two threads for a wander step's side-by-side reads, shared by the mind's walks."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmind-wander")
        return self._pool

    def close(self) -> None:
        """Close the event bus, the pool, recall's threads and vectors, the LLM client made here,
        and the store when owned; each only once."""
        try:
            if self._events is not None:
                events, self._events = self._events, None
                events.close()
        finally:
            for engine in ("dreamer", "ruminator"):  # they hold the recaller and LLM closed below
                self.__dict__.pop(engine, None)
            if self._pool is not None:
                pool, self._pool = self._pool, None
                pool.shutdown(wait=False)
            if self._recaller is not None:
                recaller, self._recaller = self._recaller, None
                recaller.close()
            close_llm = getattr(self._llm, "close", None) if self._owns_llm else None
            if close_llm is not None:  # the SDK client made here
                self._llm, self._owns_llm = None, False
                close_llm()
            if self.owns_store:
                self.owns_store = False
                log.debug("closing the store")
                self.store.close()
