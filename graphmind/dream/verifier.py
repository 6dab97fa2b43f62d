"""Verify the ladder a mind holds now, dreamed or imported, or the one a dream just built.

read (patterns, abstractions) → embed each node's text → margins (pure,
graphmind.dream.vertical) → with an online LLM: the contested edges to ``dream.subsumes``,
one call per parent with its contested children, and the embedding-flagged pattern pairs to
``dream.contradicts`` → the five checks (pure, graphmind.dream.verify). Offline, the margins
decide alone and contradictions are found by rules. The dream calls ``check`` with its own
LLM adapter, so a dream's verification and ``graphmind verify`` are the same code.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from graphmind.dream import graph
from graphmind.dream import verify as checks
from graphmind.dream.integrate import item
from graphmind.dream.items import LadderNode, PatternState
from graphmind.dream.ladder import node_item
from graphmind.dream.params import DreamParams
from graphmind.dream.verify import EMPTY, Verdict, Verification, contradictions, ladder_edges, levels_of
from graphmind.dream.vertical import Edge, Margin, VerticalParams, contested, margins
from graphmind.embed import Embedder
from graphmind.errors import ProviderError
from graphmind.llm import LLM
from graphmind.prompts.dream import CONTRADICTS, SUBSUMES, ContradictionInput, PatternItem, SubsumptionInput
from graphmind.store import GraphStore

log = logging.getLogger(__name__)

Ask = Callable[[Any, Any], Any]
"""(prompt, inputs) → the validated answer, or None when the LLM could not answer."""

BATCH = 8
"""Contested children of one parent per ``dream.subsumes`` call."""
MAX_PAIRS = 20
"""At most this many pattern pairs go to ``dream.contradicts`` in one verification."""


def node_text(name: str, detail: str) -> str:
    """What a node means, for the embedder: its name and its description or generalisation."""
    name, detail = name.strip(), detail.strip()
    if not detail or detail.lower().startswith(name.lower()):
        return detail or name
    return f"{name}: {detail}" if name else detail


def texts_of(patterns: list[PatternState], nodes: list[LadderNode]) -> dict[str, str]:
    return {p.id: node_text(p.name, p.description) for p in patterns} | {
        n.id: node_text(n.name, n.generalization) for n in nodes
    }


def check(
    patterns: list[PatternState],
    nodes: list[LadderNode],
    params: DreamParams,
    embedder: Embedder,
    ask: Ask | None = None,
    vertical_params: VerticalParams = VerticalParams(),
) -> Verification:
    """The five checks; ``ask`` (an online LLM) settles the contested edges and contradictions."""
    active = [p for p in patterns if p.active]
    if not nodes:
        return EMPTY
    texts = texts_of(active, nodes)
    ids = sorted(texts)
    vectors = dict(zip(ids, np.asarray(embedder.embed([texts[i] for i in ids]), np.float64)))
    found = margins(ladder_edges(nodes), levels_of(active, nodes), vectors, vertical_params)
    verdicts, pairs = None, None
    if ask is not None:
        verdicts = judge_edges(found, active, nodes, ask, vertical_params)
        pairs = judge_pairs(active, vectors, params, ask)
    result = checks.verify(
        active, nodes, params, margins=found, verdicts=verdicts, contradicting=pairs, vertical_params=vertical_params
    )
    return replace(result, names={p.id: p.name for p in active} | {n.id: n.name for n in nodes})


def judge_edges(
    found: dict[Edge, Margin], patterns: list[PatternState], nodes: list[LadderNode], ask: Ask, params: VerticalParams
) -> dict[Edge, Verdict]:
    """``dream.subsumes`` on each parent's contested children, ``BATCH`` at a time."""
    items: dict[str, PatternItem] = {p.id: item(p) for p in patterns} | {n.id: node_item(n) for n in nodes}
    level = {n.id: n.level for n in nodes}
    by_parent: dict[str, list[str]] = defaultdict(list)
    for (parent, child), margin in sorted(found.items()):
        if contested(margin, params):
            by_parent[parent].append(child)
    verdicts: dict[Edge, Verdict] = {}
    for parent, children in by_parent.items():
        for start in range(0, len(children), BATCH):
            batch = children[start : start + BATCH]
            out = ask(
                SUBSUMES, SubsumptionInput(level=level[parent], higher=items[parent], lower=[items[c] for c in batch])
            )
            if out is None:
                continue  # the margins decide
            uncovered = set(out.uncovered_ids) & set(batch)
            if not out.subsumes and not uncovered:
                uncovered = set(batch)
            verdicts |= {(parent, c): Verdict(c not in uncovered, out.message) for c in batch}
    return verdicts


def judge_pairs(
    patterns: list[PatternState], vectors: dict[str, np.ndarray], params: DreamParams, ask: Ask
) -> list[tuple[str, str]] | None:
    """``dream.contradicts`` on the pairs the rules flag and the pairs alike in meaning (cosine
    ≥ ``params.cross_connect_similarity``), the closest ``MAX_PAIRS``; None when the LLM could
    answer none of them (the rules decide)."""
    ordered = sorted(patterns, key=lambda p: p.id)
    by_rules = set(contradictions(ordered))
    candidates = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            similarity = float(vectors[a.id] @ vectors[b.id])
            if (a.id, b.id) in by_rules or similarity >= params.cross_connect_similarity:
                candidates.append((-((a.id, b.id) in by_rules), -similarity, a, b))
    pairs, answered = [], 0
    for *_, a, b in sorted(candidates, key=lambda c: c[:2])[:MAX_PAIRS]:
        out = ask(CONTRADICTS, ContradictionInput(a=item(a), b=item(b)))
        if out is None:
            if (a.id, b.id) in by_rules:
                pairs.append((a.id, b.id))
            continue
        answered += 1
        if out.contradicts:
            pairs.append((a.id, b.id))
    return pairs if answered or not candidates else None


def llm_asker(llm: LLM, failures: list[str] | None = None) -> Ask | None:
    """``ask`` for an online ``llm`` (None for the offline one, whose answers are word rules):
    a failed call answers None and is noted in ``failures``."""
    if llm.provider == "offline":
        return None

    def ask(prompt, inputs):
        try:
            return llm.generate(prompt, inputs)
        except ProviderError as exc:
            if failures is not None:
                failures.append(f"{prompt.name}: {exc}")
            return None

    return ask


def verify_mind(
    store: GraphStore, embedder: Embedder, llm: LLM, mind: str, params: DreamParams = DreamParams()
) -> Verification:
    """The five checks on the ladder ``mind`` holds now (``empty`` without one)."""
    patterns = graph.read_patterns(store, mind, embedder.dimensions)
    nodes = list(graph.read_ladder(store, mind).values())
    found = check(patterns, nodes, params, embedder, llm_asker(llm))
    log.info("verification of %s: %s (score %s, %d flagged)", mind, found.status, found.score, len(found.flagged))
    return found
