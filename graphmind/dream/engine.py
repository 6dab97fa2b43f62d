"""One dream run, end to end: read → triage → compress → integrate → ladder → verify → publish.

Connections are classified by rules, by an online LLM when they touch a new or grown pattern
(`dream.connect`), which also regroups each changed ladder level (`dream.group_level`). Degradation
(NFR-3.3.1): a phase that fails is recorded in ``degraded`` and replaced by the seed's fallback: triage →
every experience kept; compression → no patterns (the experiences stay unconsumed for the next run); an LLM
call that fails → the same step by graphmind's rules (the offline behaviour); ladder → a 2-level ladder
(experiences and patterns); verification → the run is stored unverified with the error as a warning. A phase
fails when it raises a GraphmindError (any other exception is a bug, and surfaces). Store outages (NFR-3.3.2)
are retried by the store alone (managed transactions, doubling delays): a run fails within
GRAPHMIND_NEO4J_FAIL_AFTER of Neo4j going away, cleanly (publishing is one transaction). It records itself
``interrupted`` or ``failed``; one that could not stays ``running`` until the next run (or ``neo4j start``) marks it.

Crash safety by phase (tests/reliability/test_neo4j_kill.py kills Neo4j in each): read, embed, triage, compress,
integrate, abstract, verify are *resumable* (they read and compute in memory, the lease and the ``running``
record aside: a killed run leaves nothing, and the next redoes it). publish is *transactional*: one managed
transaction (retried when transient) re-checking the lease first: all of the run is written, or none. Stale
patterns (experiences superseded) are extracted again after compression (graphmind.dream.refresh).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

import numpy as np

from graphmind.dream import coherence, compress, entities, graph, integrate, ladder, refresh, verifier
from graphmind.dream import offline as rules_llm
from graphmind.dream.anchors import anchor_set, wanted
from graphmind.dream.items import Connection, LadderNode, PatternState, filled, seen_together
from graphmind.dream.llm_calls import DreamCalls
from graphmind.dream.params import DreamParams, Trigger
from graphmind.dream.publication import build_publication
from graphmind.dream.report import DreamReport
from graphmind.dream.run_record import (
    FALLBACKS,
    build_report,
    checked_ratio,
    idle_report,
    record_failure,
    run_props,
    run_record,
)
from graphmind.dream.triage import TriageResult, triage
from graphmind.embed import Embedder
from graphmind.errors import GraphmindError, RunError, StoreError
from graphmind.llm import LLM
from graphmind.prompts.dream import (
    CONNECT,
    EXTRACT_PATTERN,
    GROUP_LEVEL,
    NAME_ABSTRACTION,
    ConnectionInput,
    PatternItem,
)
from graphmind.store import GraphStore
from graphmind.store.minds import require_mind

T = TypeVar("T")
log = logging.getLogger(__name__)
Progress = Callable[[str], None]
PHASE_ERRORS = (GraphmindError,)  # what degrades a phase; anything else is a bug, and surfaces


class DreamBusyError(RunError):
    """Another dream run holds the mind's lease."""


class Dreamer:
    """Runs dream cycles on one store with one embedder and one LLM."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        llm: LLM,
        params: DreamParams = DreamParams(),
        progress: Progress | None = None,
        on_publish_step: Callable[[str], None] | None = None,
    ):
        self.store, self.embedder, self.llm, self.params = store, embedder, llm, params
        self.progress = progress or (lambda line: None)
        self.on_publish_step = on_publish_step or (lambda name: None)

    def using(self, params: DreamParams | None = None, progress: Progress | None = None) -> Dreamer:
        """This dreamer (its store, embedder and LLM) with other settings or another progress sink."""
        return Dreamer(self.store, self.embedder, self.llm, params or self.params, progress or self.progress)

    def dream(self, mind: str, trigger: Trigger = "manual") -> DreamReport:
        """One consolidation cycle of ``mind`` under its lease."""
        require_mind(self.store, mind, "experiences")
        graph.require_session(self.store, mind, self.params.session)
        run_id = f"dream-{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
        self._acquire(mind, run_id)
        run = _Run(self, mind, run_id, trigger)
        try:
            return run.execute()
        except GraphmindError as exc:
            record_failure(run, exc)
            raise
        finally:
            try:
                graph.give_lease(self.store, mind, run_id)
            except StoreError as exc:  # the store is gone: the lease lapses by itself (params.lease_seconds)
                log.info("dream run %s kept its lease on mind %r (%s)", run_id, mind, exc)

    def _acquire(self, mind: str, holder: str) -> None:
        deadline = time.monotonic() + self.params.wait_seconds
        while True:
            lease = graph.take_lease(self.store, mind, holder, self.params.lease_seconds)
            if lease.acquired:
                return
            if time.monotonic() >= deadline:
                raise DreamBusyError(
                    f"another dream run ({lease.holder}, since {lease.since}) is consolidating "
                    f"mind {mind!r}; try again after it ends (its lease runs until {lease.until})"
                )
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))


class _Run:
    """The state of one run while its phases execute."""

    def __init__(self, dreamer: Dreamer, mind: str, run_id: str, trigger: Trigger):
        self.d, self.mind, self.run_id, self.trigger = dreamer, mind, run_id, trigger
        self.params = dreamer.params
        self.online = dreamer.llm.provider != "offline"  # the LLM-only steps run (connect, group_level)
        self.timings: dict[str, float] = {}
        self.degraded: list[str] = []
        self.warned: list[str] = []
        self.calls = DreamCalls(dreamer.llm, self.params, self.online, self.degraded, dreamer.progress, self._renew)
        self.calls_before = dreamer.llm.usage.calls
        self.known: dict[int, str] = {}  # experiences that applied an earlier run's pattern: its id
        self.remaining = 0  # unconsumed experiences beyond params.max_experiences
        self.started = datetime.now(UTC)
        self.renamed = refresh.Renamed(())  # ladder nodes named again: over a pattern extracted again

    def execute(self) -> DreamReport:
        d = self.d
        if not self.params.dry_run:  # a dry run writes its own record and nothing else
            interrupted = d.store.write("dream/mark_interrupted", mind=self.mind, run_id=self.run_id)[0]["interrupted"]
            if interrupted:
                d.progress(f"{interrupted} earlier run(s) that never finished marked interrupted")
        read = (d.store, self.mind, d.embedder.model_id, self.params.session, self.params.max_experiences)
        rows, stored, self.remaining = self._phase("read", lambda: graph.read_experiences(*read))
        if not rows or seen_together(rows, self.params.max_experiences):
            return idle_report(self, len(rows))
        if not self.params.domain:  # what the LLM is told the experiences are about: the mind's own
            domain = self._phase("read", lambda: graph.read_domain(d.store, self.mind))
            self.params = self.calls.params = self.params.model_copy(update={"domain": domain})
        graph.record_run(d.store, self.mind, run_record(self, {"status": "running"}))
        patterns = self._phase("read", lambda: graph.read_patterns(d.store, self.mind, d.embedder.dimensions))
        old_ladder = self._phase("read", lambda: graph.read_ladder(d.store, self.mind))
        descriptions = [r.description for r in rows]
        vectors = self._phase("embed", lambda: filled(stored, descriptions, d.embedder.embed, d.embedder.dimensions))
        self._say(f"read {len(rows)} experiences, {len(patterns)} patterns")
        centroids = integrate.centroids(patterns)
        tri = self._degradable(
            "triage",
            lambda: triage(rows, vectors, self.params, centroids, coherence.chance_level(d.embedder)(2)),
            lambda: TriageResult([1.0] * len(rows), list(range(len(rows)))),
        )
        self._say(
            f"triage: {len(tri.kept)} significant of {len(rows)} ({len(tri.duplicate_of)} duplicates, "
            f"{len(tri.filtered)} filtered)"
        )
        ids, per = wanted(vectors[tri.kept], patterns, self.params.anchors_per_pattern)
        anchors = self._phase("read", lambda: graph.read_anchors(d.store, self.mind, d.embedder.model_id, ids, per))
        compressed = self._degradable(
            "compress", lambda: self._compress(rows, vectors, tri, patterns, anchors), lambda: None
        )
        new, grown, deferred = compressed if compressed else ([], [], [])
        patterns += new
        retold = self._phase("compress", lambda: refresh.stale_patterns(d.store, self.mind, patterns, rows, self.calls))
        self.renamed = refresh.Renamed(p.id for p in retold)
        pruned = self._phase("integrate", lambda: integrate.prune(patterns, self.params))
        connections = self._phase("integrate", lambda: self._connect(patterns))
        active = [p for p in patterns if p.active]
        self._say(
            f"compress: {len(new)} new patterns, {len(grown)} grown; integrate: {len(pruned)} pruned, "
            f"{len(connections)} connections"
        )
        nodes = self._degradable("abstract", lambda: self._ladder(active, old_ladder), lambda: [])
        levels = ladder.levels(nodes, bool(active))
        self._say(f"abstract: {levels}-level ladder ({len(nodes)} abstractions)")
        check = self._degradable(
            "verify",
            lambda: verifier.check(patterns, nodes, self.params, d.embedder, self._verify_asker(active)),
            lambda: None,
        )
        self._say(f"verify: {check.status if check else 'skipped'}" + (f", score {check.score:.2f}" if check else ""))
        if check is not None and check.status == "failed" and self.params.strict_mode:
            raise RunError(
                f"dream run {self.run_id}: verification failed under strict_mode "
                f"({'; '.join(check.errors)}); no pattern or ladder was written, only the run's failed record"
            )
        ratio = checked_ratio(self, sum(p.usage_count for p in new), len(new))
        report = build_report(
            self, rows, tri, new, grown, deferred, active, nodes, levels, connections, pruned, check, ratio
        )
        pub = build_publication(
            self.mind,
            run_record(self, run_props(self, report)),
            rows,
            tri,
            patterns,
            new + grown + retold,
            pruned,
            deferred,
            nodes,
            connections,
            check,
            compressed is not None,
            self.params,
        )
        started = time.perf_counter()
        if self.params.dry_run:
            graph.record_run(d.store, self.mind, pub.run)
        else:
            self._publish(pub)
        self.timings["publish"] = round((time.perf_counter() - started) * 1000, 1)
        # Told, not renewed: the run is committed, so a lease renewal failing now must not fail it.
        d.progress(f"publish: {'run record only (dry run)' if self.params.dry_run else 'committed'}")
        return DreamReport(**{**report.__dict__, "timings": self.timings})

    def _publish(self, pub) -> None:
        try:
            graph.publish(self.d.store, self.mind, pub, self.d.on_publish_step, self.params.lease_seconds)
        except StoreError as exc:
            raise RunError(
                f"dream run {self.run_id} on mind {self.mind!r} could not be published ({exc}); "
                "nothing of it was written: run the dream again"
            ) from exc

    # -- phases ---------------------------------------------------------------------------
    def _action_vectors(self, vectors: np.ndarray, texts: list[str], descr: list[str], rows: list[int]) -> np.ndarray:
        """What grouping judges: the action text's embedding where it differs from the description."""
        out = vectors.copy()
        changed = [i for i in rows if texts[i] != descr[i]]
        if changed:
            out[changed] = self.d.embedder.embed([texts[i] for i in changed])
        return out

    def _compress(self, rows, vectors, tri: TriageResult, patterns: list[PatternState], stored_anchors):
        """Experiences join the patterns they fit; the rest are clustered, with the patterns'
        anchors (``anchors``: a community that holds some grows their pattern). A cluster that
        matches a pattern of an earlier run (``compress.matching_pattern``: a twin before
        extraction, else one named alike after it) grows that pattern instead of becoming a new
        one. Clusters of this run are not merged by name: this run's clustering kept them apart."""
        dups: dict[int, list[int]] = defaultdict(list)
        for dup, (rep, _) in tri.duplicate_of.items():
            dups[rep].append(dup)
        chance = coherence.chance_level(self.d.embedder)
        joined = compress.join_existing(vectors, tri.kept, patterns, rows, self.params, chance(2))
        by_pattern: dict[int, list[int]] = defaultdict(list)
        for i, k in joined.items():
            by_pattern[k].append(i)
        rest = [i for i in tri.kept if i not in joined]
        names = entities.batch_names(written := [r.description for r in rows] + [a[1] for a in stored_anchors])
        texts = entities.action_texts(written, readable=False, names=names)  # grouping reads the plain cut
        texts, anchor_texts = texts[: len(rows)], texts[len(rows) :]
        companions = compress.companions(dups, rest, texts)  # duplicates join the graph, follow their rep
        grouped = compress.with_companions(rest, companions)
        grouping = self._action_vectors(vectors, texts, [r.description for r in rows], grouped)
        anchors = anchor_set(stored_anchors, patterns, anchor_texts, self.d.embedder) if rest else None
        clusters, left, split, claimed = compress.cluster(
            rows, vectors, rest, tri.weight(len(rows)), self.params, grouping, texts, chance, companions, dups, anchors
        )
        self.warned.extend(split)
        for i, k in claimed.items():
            by_pattern[k].append(i)
        fresh: list[compress.Cluster] = []
        for c in clusters:
            found = compress.matching_pattern(c.mean, None, patterns, self.params, c.strategies)
            if found is None:
                fresh.append(c)
            else:
                by_pattern[found].extend(c.members)
        shown = {i: entities.action_of(written[i], names) for c in fresh for i in c.members}  # the patterns' words
        actions = [shown.get(i, t) for i, t in enumerate(texts)]
        inputs = [compress.extraction_input(c, rows, vectors, tri.importance, self.params, actions) for c in fresh]
        extracted = self.calls.all("compress", EXTRACT_PATTERN, inputs, rules_llm.extract_pattern)
        new: list[PatternState] = []
        for c, e in zip(fresh, extracted):
            found = compress.matching_pattern(c.mean, e.name, patterns, self.params, c.strategies)
            if found is None:
                new.append(compress.new_pattern(c, e, rows, vectors, dups, self.params))
            else:
                by_pattern[found].extend(c.members)
        for k, members in by_pattern.items():
            compress.grow(patterns[k], members, rows, vectors, dups)
        applied = {i: patterns[k].id for k, members in by_pattern.items() for i in members}
        self.known = applied | {d: p for i, p in applied.items() for d in dups[i]}
        return new, [patterns[k] for k in by_pattern], left

    def _connect(self, patterns: list[PatternState]) -> list[Connection]:
        """Connections by rules; an online LLM classifies the new ones (``dream.connect``)."""
        found = integrate.connect(patterns, self.params)
        if not self.online:
            return found
        by_id = {p.id: p for p in patterns}
        return [self._classified(c, by_id) if by_id[c.from_id].changed or by_id[c.to_id].changed else c for c in found]

    def _classified(self, c: Connection, by_id: dict[str, PatternState]) -> Connection:
        inputs = ConnectionInput(
            a=integrate.item(by_id[c.from_id]), b=integrate.item(by_id[c.to_id]), similarity=c.strength
        )
        out = self.calls.one("integrate", CONNECT, inputs, rules_llm.connect)
        if {out.from_id, out.to_id} != {c.from_id, c.to_id}:
            return c  # the answer is about other patterns: keep the rule's
        evidence = tuple(e for e in out.evidence if e in by_id[c.from_id].examples + by_id[c.to_id].examples)
        return Connection(out.from_id, out.to_id, out.kind, c.strength, evidence or c.evidence, out.rationale)

    def _ladder(self, active: list[PatternState], old: dict[str, LadderNode]) -> list[LadderNode]:
        """The ladder, named level by level; an online LLM reviews each level's grouping
        (``dream.group_level``) and, when no pattern changed, the stored ladder is kept."""
        if self.online and (kept := ladder.kept_ladder(active, old)) is not None:
            return kept
        below = {p.id: integrate.item(p) for p in active}
        return ladder.group_levels(
            active,
            self.params,
            name=lambda nodes: self._name_level(nodes, below, old),
            regroup=(lambda lvl, ids, labels: self._regroup(lvl, ids, labels, below)) if self.online else None,
        )

    def _name_level(self, nodes: list[LadderNode], below: dict[str, PatternItem], old: dict[str, LadderNode]) -> None:
        for node in nodes:
            if self.renamed.keeps(node, old):
                node.name, node.generalization, node.is_new = (old[node.id].name, old[node.id].generalization, False)
            else:
                inputs = ladder.naming_input(node, below, self.params.domain)
                ladder.apply_name(
                    node, self.calls.one("abstract", NAME_ABSTRACTION, inputs, rules_llm.name_abstraction)
                )
        ladder.distinct_siblings(nodes, below)
        below.update({node.id: ladder.node_item(node) for node in nodes})

    def _regroup(self, level: int, ids: list[str], labels: np.ndarray, below: dict[str, PatternItem]) -> np.ndarray:
        """The LLM's grouping of a level of 3 or more items when it is sound (asked again once,
        with the reason, when it is not); else the proposal."""
        if len(ids) < 3:
            return labels
        inputs = ladder.grouping_input(level, ids, labels, below, self.params.domain)
        for _ in range(2):
            out = self.calls.one("abstract", GROUP_LEVEL, inputs, rules_llm.group_level)
            accepted = ladder.accepted_grouping(ids, [g.member_ids for g in out.groups])
            if not isinstance(accepted, str):
                return accepted
            inputs = inputs.model_copy(update={"problem": accepted})
        self.degraded.append(
            f"abstract: the LLM's grouping of level {level} was not used ({accepted}); "
            "the embeddings' grouping was kept"
        )
        return labels

    def _verify_asker(self, active: list[PatternState]):
        """The LLM for the verification: online, and when a pattern is new or changed (a run
        with nothing new asks nothing; its kept ladder is checked by the margins alone)."""
        return self._ask if self.online and any(p.is_new or p.changed for p in active) else None

    def _ask(self, prompt, inputs):
        """An LLM answer for the verification, or None (the margins or rules decide)."""
        return self.calls.one("verify", prompt, inputs, lambda x, tools: None)

    # -- bookkeeping ----------------------------------------------------------------------
    def _phase(self, name: str, work: Callable[[], T]) -> T:
        started = time.perf_counter()
        try:
            return work()
        finally:
            self.timings[name] = round(self.timings.get(name, 0.0) + (time.perf_counter() - started) * 1000, 1)

    def _degradable(self, name: str, work: Callable[[], T], fallback: Callable[[], T]) -> T:
        try:
            return self._phase(name, work)
        except PHASE_ERRORS as exc:
            self.degraded.append(f"{name} failed ({type(exc).__name__}: {exc}); {FALLBACKS[name]}")
            self._say(f"{name}: degraded ({FALLBACKS[name]})")
            return fallback()

    def _say(self, line: str) -> None:
        """Report a phase's end and renew the lease (a live run keeps it; a dead one lets it lapse)."""
        self.d.progress(line)
        self._renew()

    def _renew(self) -> None:
        lease = graph.take_lease(self.d.store, self.mind, self.run_id, self.params.lease_seconds)
        if not lease.acquired:
            raise RunError(
                f"dream run {self.run_id} lost its lease on mind {self.mind!r} to {lease.holder} "
                f"(a phase outlasted lease_seconds={self.params.lease_seconds:g}); nothing was written"
            )
