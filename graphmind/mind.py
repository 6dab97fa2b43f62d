"""Mind: the small facade a researcher imports. One Mind is one tenant of the graph."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from graphmind.app import MindEngines, WanderWiring, init_database, open_store, open_wander
from graphmind.config import Settings
from graphmind.digest import Digester, DigestParams, DigestReport
from graphmind.dream import Dreamer, DreamParams, DreamReport, Trigger
from graphmind.dream.capture_queue import CaptureQueue
from graphmind.dream.engine import Progress as DreamProgress
from graphmind.dream.graph import read_stored_ladder, require_session
from graphmind.dream.knowledge import KnowledgeMatch, about_only, query_knowledge
from graphmind.dream.report import StoredLadder
from graphmind.dream.schedule import Schedule, threshold_due
from graphmind.dream.verifier import verify_mind
from graphmind.dream.verify import Verification
from graphmind.dream.waiting import Waiting, list_waiting
from graphmind.embed import Embedder
from graphmind.errors import NotFoundError, ValidationError
from graphmind.io import Importer, ImportReport, export_lines
from graphmind.io.importer import Progress
from graphmind.llm import LLM, ToolRun
from graphmind.mind_memory import MemoryVerbs
from graphmind.models import GraphNode
from graphmind.prompts.recall import ANSWER, RecallAnswer, RecallQuestion
from graphmind.recall import EmbedReport, Recaller, RecallResult
from graphmind.recall._logic import check_query_text
from graphmind.recall.hit_counter import flush_hits
from graphmind.recall.tools import memory_tools
from graphmind.ruminate import RuminationEngine, RuminationParams, RuminationResult
from graphmind.store import GraphStore, SchemaReport
from graphmind.store.minds import MindStats, MindSummary, check_mind_name, delete_mind, list_minds, mind_exists
from graphmind.store.records import node_to_model
from graphmind.text import checked_text
from graphmind.wander.crystals import Crystals
from graphmind.wander.events import EventBus
from graphmind.wander.resonances import Resonances
from graphmind.wander.sessions import WanderSessions
from graphmind.wander.wanderer import Wander

log = logging.getLogger(__name__)


class Mind(MemoryVerbs):
    """Everything one mind (an agent, a citizen, a project) does with its graph memory.

    A thin facade: the engines are wired by the composition root (``graphmind.app.MindEngines``)
    and reachable as attributes (``store``, ``embedder``, ``llm``, ``recaller``, ``dreamer``,
    ``ruminator``, ``digester``, ``events``, ``wander_sessions``); each verb passes this mind's
    name to one of them."""

    def __init__(
        self,
        name: str,
        store: GraphStore,
        settings: Settings,
        *,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
    ):
        self.name = check_mind_name(name)
        self.engines = MindEngines(store, settings, embedder=embedder, llm=llm)
        self._store = store
        self._settings = settings
        self._capture: CaptureQueue | None = None
        self._named_capture = threading.Lock()

    @classmethod
    def open(cls, name: str, settings: Settings | None = None, *, must_exist: bool = False) -> Mind:
        """Open ``name`` on the database the settings (default: the environment) point at.

        A mind comes to exist with its first write; ``must_exist=True`` (what the CLI's read
        verbs use) raises NotFoundError for a mind that holds nothing, such as a typo."""
        settings = settings or Settings.from_env()
        check_mind_name(name)  # before a driver is made for nothing
        mind = cls(name, open_store(settings), settings)
        mind.engines.owns_store = True
        if must_exist and not mind.exists():
            mind.close()
            raise NotFoundError(f"mind {name!r} does not exist; 'graphmind minds list' shows the minds")
        return mind

    @staticmethod
    def list_minds(settings: Settings | None = None) -> list[MindSummary]:
        """Every mind of the database the settings (default: the environment) point at."""
        store = open_store(settings or Settings.from_env())
        try:
            return list_minds(store)
        finally:
            store.close()

    def exists(self) -> bool:
        """Whether this mind holds anything yet."""
        return mind_exists(self._store, self.name)

    def __enter__(self) -> Mind:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Store queued experiences, then close the engines (``MindEngines.close``): recall's
        threads and vectors, the LLM client if the mind made it (one per mind, wander's models
        included), and the store if ``open`` made it."""
        try:
            if self._capture is not None:
                capture, self._capture = self._capture, None
                capture.close()
        finally:
            log.debug("closing mind %s", self.name)
            self.engines.close()

    @property
    def store(self) -> GraphStore:
        return self._store

    @property
    def embedder(self) -> Embedder:
        """The embedder given to the constructor, else the one the settings name (made once)."""
        return self.engines.embedder

    @property
    def llm(self) -> LLM:
        """The LLM given to the constructor, else the provider the settings name (made once)."""
        return self.engines.llm

    @property
    def dreamer(self) -> Dreamer:
        """The dream engine (``dream``, ``end_session`` and ``dream_if_due`` run through it)."""
        return self.engines.dreamer

    @property
    def ruminator(self) -> RuminationEngine:
        """The rumination engine (``ruminate`` runs through it)."""
        return self.engines.ruminator

    @property
    def digester(self) -> Digester:
        """The digest engine (``digest``, ``reflect``, ``merge_threads`` and ``absorb``)."""
        return self.engines.digester

    def init_schema(self) -> SchemaReport:
        """Apply the schema (idempotent; shared by every mind of the database)."""
        return init_database(self._store, self._settings)

    def import_jsonl(self, path: str | Path, *, strict: bool = True, progress: Progress | None = None) -> ImportReport:
        """Import a JSON Lines file (DESIGN.md format) into this mind."""
        importer = Importer(
            self._store,
            batch_size=self._settings.import_batch_size,
            workers=self._settings.import_workers,
            max_property_bytes=self._settings.max_property_bytes,
            overlap=self._settings.import_overlap,
        )
        return importer.run(Path(path), self.name, strict=strict, progress=progress)

    def export_jsonl(self) -> Generator[str, None, None]:
        """This mind as JSON Lines (one string per line, no newline), ready for import."""
        flush_hits(self._store)  # the hit counts of the recalls made so far are exported too
        return export_lines(self._store, self.name)

    def get(self, node_id: str) -> GraphNode:
        """The node ``node_id`` of this mind as its typed model, or NotFoundError."""
        flush_hits(self._store)  # with the hits of the recalls made so far
        rows = self._store.read("memory/get_node", mind=self.name, id=node_id)
        if not rows:
            raise NotFoundError(f"mind {self.name!r} has no node {node_id!r}")
        return node_to_model(rows[0]["label"], rows[0]["props"])

    def stats(self) -> MindStats:
        """Nodes by label, relationships by type, and the nodes out of use (``MindStats``)."""
        labels = {r["label"]: r["count"] for r in self._store.read("stats/count_labels", mind=self.name)}
        rels = {r["rel"]: r["count"] for r in self._store.read("stats/count_relationships", mind=self.name)}
        idle = {r["label"]: r["count"] for r in self._store.read("stats/count_out_of_use", mind=self.name)}
        return MindStats(self.name, labels, rels, idle)

    def embed(self, *, full: bool = True) -> EmbedReport:
        """Embed this mind's memories that lack a current embedding (changed text or model).

        ``full=False`` checks only the memories flagged since the last pass (what recall does).
        """
        return self.recaller.embed(self.name, full=full)

    def recall(
        self, text: str, k: int = 10, labels: list[str] | None = None, *, as_of: datetime | str | None = None
    ) -> RecallResult:
        """The ``k`` memories that best match ``text`` (vector + full-text, fused by rank); valid
        facts first, or ``as_of`` a date: what held then (validity.py). Each returned memory counts a hit.
        """
        return self.recaller.recall(self.name, text, k, labels, as_of=as_of)

    def load_vectors(self) -> int:
        """Hold this mind's embeddings in memory now, so even the first recall searches them
        there (otherwise they load in the background on the first recall); returns how many
        are held (0 when GRAPHMIND_RECALL_CACHE_MB is 0 or too small for the mind)."""
        return self.recaller.load_vectors(self.name)

    @property
    def recaller(self) -> Recaller:
        """The recall engine this mind searches with (created on first use)."""
        return self.engines.recaller

    def ruminate(
        self, stimulus: str, sender: str | None = None, *, params: RuminationParams | None = None
    ) -> RuminationResult:
        """Ruminate on ``stimulus`` (seed P02) and return the Context Object with the steps that
        led to it; the run is recorded as a RuminationRun with its Findings."""
        return self.ruminator.run(self.name, stimulus, sender, params)

    def ask(self, question: str, *, only_about: bool = True) -> ToolRun[RecallAnswer]:
        """Answer ``question`` from this mind's memories: the LLM recalls through graph tools
        (``recall_memories``, ``get_memory``) and cites the ids it used. The recall tool returns
        only memories about the query (``dream.knowledge.about_only``), so a question about
        another matter gets no answer (``found`` False) instead of the nearest memories;
        ``only_about=False`` hands it the nearest whatever they are about."""
        quantile = (DreamParams().relevance_quantile or 0.0) if only_about else 0.0  # knowledge's floor

        def recall(query: str, k: int) -> RecallResult:
            found = self.recall(query, k=k)
            return about_only(self.embedder, self.recaller, found, quantile) if quantile else found

        tools = memory_tools(recall, self.get)
        return self.llm.run_tools(
            ANSWER, RecallQuestion(question=checked_text(question, "the question", "question")), tools
        )

    def dream(
        self, params: DreamParams | None = None, *, trigger: Trigger = "manual", progress: DreamProgress | None = None
    ) -> DreamReport:
        """One consolidation cycle (dreaming-pipeline-spec): triage, compression into patterns,
        the abstraction ladder, cross-connections and pruning, verification; recorded as a
        DreamRun. Another run on this mind at the same time waits ``params.wait_seconds``, then
        DreamBusyError."""
        self.flush()
        return self.dreamer.using(params, progress).dream(self.name, trigger)

    def end_session(self, session_id: str, params: DreamParams | None = None) -> DreamReport:
        """The session-complete trigger: dream over what that session left unconsolidated (the
        experiences captured with ``session_id``, and those an earlier run deferred, waiting for
        more like them; other sessions' new ones wait for their own end or the next night cycle).
        NotFoundError when the mind holds no experience of that session."""
        if not isinstance(session_id, str) or not session_id.strip():
            raise ValidationError("the session id must be a non-empty string", field="session_id")
        scoped = (params or DreamParams()).model_copy(update={"session": session_id})
        return self.dream(scoped, trigger="session-complete")

    def require_session(self, session_id: str | None) -> None:
        """NotFoundError unless this mind captured an experience in ``session_id`` (when given):
        what the REST and MCP dream check before they start a job."""
        require_session(self._store, self.name, session_id)

    def dream_if_due(self, params: DreamParams | None = None, schedule: Schedule | None = None) -> DreamReport | None:
        """The threshold trigger: dream when ≥ 50 experiences are new and the last dream ended
        ≥ 10 minutes ago (``schedule``); else None."""
        if not self.dream_due(schedule):
            return None
        return self.dream(params, trigger="threshold")

    def dream_due(self, schedule: Schedule | None = None) -> bool:
        state = self._store.read("dream/get_schedule_state", mind=self.name)[0]
        return threshold_due(state["new_experiences"], state["last_finished_at"], schedule or Schedule())

    def waiting(self, *, limit: int = 50, session: str | None = None) -> Waiting:
        """The experiences no pattern holds yet, oldest first (at most ``limit``; of ``session``
        when given): those no dream has read and those dreams left to wait for more like them."""
        self.require_session(session)
        return list_waiting(self._store, self.name, limit=limit, session=session)

    def ladder(self) -> StoredLadder:
        """The abstraction ladder this mind holds now, dreamed or imported: its active
        abstractions (level, name, generalisation, members) and its active patterns' names."""
        return read_stored_ladder(self._store, self.name, self.embedder.dimensions)

    def verify(self, params: DreamParams | None = None) -> Verification:
        """The dreaming spec's five checks on the ladder this mind holds now, dreamed or imported
        (graphmind.dream.verifier): status verified | flagged | failed | empty, and the
        ``flagged`` edges by node id. With Claude, contested edges go to ``dream.subsumes``."""
        return verify_mind(self._store, self.embedder, self.llm, self.name, params or DreamParams())

    def query_knowledge(self, text: str, k: int = 5, params: DreamParams | None = None) -> list[KnowledgeMatch]:
        """The consolidated patterns about ``text`` (none when nothing is: see
        ``DreamParams.relevance_quantile``), with their ladder path and examples."""
        return query_knowledge(
            self._store, self.recaller, self.embedder, self.name, check_query_text(text), k, params or DreamParams()
        )

    def digest(
        self, params: DigestParams | None = None, *, rng_seed: int | None = None, now: datetime | None = None
    ) -> DigestReport:
        """The three digests (rumination-digest-proposal): random entries from each topic, the
        active threads that converge, the entries most likely forgotten. Shown entries count a
        hit; ``rng_seed`` makes the sampling reproducible, ``now`` the moment ages are counted
        from (default: the current time)."""
        return self.digester.digest(self.name, params, rng_seed=rng_seed, now=now)

    def reflect(
        self, params: DigestParams | None = None, *, rng_seed: int | None = None, now: datetime | None = None
    ) -> str:
        """The material a reflect-mode prompt receives: the three digests composed."""
        return self.digest(params, rng_seed=rng_seed, now=now).material()

    def merge_threads(self, a: str, b: str, title: str) -> dict[str, Any]:
        """A higher-level thread above threads ``a`` and ``b`` (kept, status merged, MERGED_INTO)."""
        return self.digester.merge_threads(self.name, a, b, title)

    def absorb(self, entry_id: str) -> None:
        """Mark a topic entry absorbed: digested, so the decay review no longer lists it."""
        self.digester.absorb(self.name, entry_id)

    @property
    def wander_sessions(self) -> WanderSessions:
        """This mind's wander sessions: create, get, list / page (paged), show, update, set_status,
        delete, and a session's loci (paged) and crystals (or every session's)."""
        return WanderSessions(self._store, self.name)

    def resonances(self, bus: EventBus | None = None) -> Resonances:
        """This mind's resonances (matched across all its wander sessions)."""
        return Resonances(self._store, self.embedder, self.name, bus)

    def crystals(self, bus: EventBus | None = None) -> Crystals:
        """Crystallize, validate, approve and move crystals of this mind through their lifecycle."""
        return Crystals(self._store, self.llm, self.name, bus)

    @property
    def events(self) -> EventBus:
        """This mind's wander event bus (subscribe to ``wander.>``); made once, logging to
        GRAPHMIND_WANDER_EVENT_LOG when set and publishing to NATS when NATS_URL is set."""
        return self.engines.events

    def wander(
        self,
        seed: str | None = None,
        steps: int = 0,
        *,
        session_id: str | None = None,
        before_commit: Callable[[str], None] | None = None,
        **config: Any,
    ) -> Wander:
        """Start a wander from the concept ``seed`` (``config``: the session's settings, e.g.
        ``rng_seed``, ``temperature``, ``fence_concepts``), or reopen ``session_id``; then run
        ``steps`` steps (the report is ``handle.last_run``). Returns the session's handle."""
        if session_id is None and seed is None:
            raise ValidationError("a new wander needs a seed concept (or the session_id of one to reopen)")
        if session_id is not None and (seed is not None or config):
            raise ValidationError(
                "give either a seed (and settings) for a new wander or the id of one", field="session"
            )
        handle = open_wander(
            WanderWiring(self._store, self._settings, self.embedder, self.llm, self.name, self.events),
            self.wander_sessions,
            self.engines.wander_pool,
            session_id=session_id,
            seed=seed,
            before_commit=before_commit,
            config=config,
        )
        handle.session  # noqa: B018 - a NotFoundError now, for an unknown session id
        if steps:
            handle.last_run = handle.run(steps)
        return handle

    def delete(self) -> None:
        """Remove every node and relationship of this mind (other minds are untouched)."""
        self.flush()
        delete_mind(self._store, self.name)
