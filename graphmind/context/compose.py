"""Composing the Context Object: the LLM drafts, the grounding check decides.

The LLM (``context.compose``) drafts the seven sections from the memories rumination's tools
returned. ``assemble`` checks the draft; if it states something the memories do not hold, the
draft is set aside (what it invented is kept in ``validation.rejected_draft``) and the spec's
templates, filled from the same memories, compose the sections instead. Tokens are counted by
the LLM's own counter (Claude's, or the local estimate offline).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from graphmind.context.assemble import assemble
from graphmind.context.model import TOKEN_BUDGET, ContextObject, GroundingIssue
from graphmind.context.templates import compose as compose_from_templates
from graphmind.errors import GroundingError
from graphmind.llm import LLM
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import COMPOSE, ContextInput, Dependency, FindingNote
from graphmind.recall.validity import is_valid

log = logging.getLogger(__name__)


def compose_context(
    llm: LLM,
    *,
    stimulus: str,
    sender: str | None,
    identity: MemoryItem | None,
    memories: Sequence[MemoryItem],
    budget: int = TOKEN_BUDGET,
    dependencies: Sequence[Dependency] = (),
    weak_ids: Sequence[str] = (),
    unknown_terms: Sequence[str] = (),
    named_elsewhere: Sequence[str] = (),
    findings: Sequence[FindingNote] = (),
    scores: Mapping[str, float] | None = None,
) -> ContextObject:
    """The validated Context Object: the LLM's draft if it passes, else the templates'. A
    match that relevance marks weak (``weak_ids``), or no on-topic conversation at all, may
    not be framed as a continuation (checks.continuation). A memory that no longer holds (past
    its invalid_at, as a replaced fact is, or retired, pruned or invalidated by a dream) is left
    out: the Context Object tells the Driver what holds now."""
    now = datetime.now(UTC)
    inputs = ContextInput(
        stimulus=stimulus,
        sender=sender,
        identity=identity,
        memories=[m for m in memories if is_valid(m.properties, now)],
        dependencies=list(dependencies),
        weak_ids=list(weak_ids),
        unknown_terms=list(unknown_terms),
        named_elsewhere=list(named_elsewhere),
        findings=[f for f in findings if f.supports],
        scores=dict(scores or {}),
    )
    weak = bool(weak_ids) or not any(m.label == "Conversation_Memory" and m.id not in weak_ids for m in inputs.memories)
    counter = "local estimate" if llm.provider in ("offline", "replay") else f"{llm.provider} token counter"
    finish = functools.partial(
        assemble,
        stimulus=stimulus,
        sender=sender,
        identity=identity,
        memories=inputs.memories,
        count_tokens=llm.count_tokens,
        counter_name=counter,
        budget=budget,
        findings=inputs.findings,
        weak_match=weak,
    )
    draft = llm.generate(COMPOSE, inputs)
    try:
        return finish(draft, composer="llm")
    except GroundingError as invented:
        rejected = [GroundingIssue(section=s, kind=k, text=t) for s, k, t in invented.atoms]
        log.warning("the LLM's Context Object draft had %d ungrounded atoms: composed from templates", len(rejected))
        return finish(compose_from_templates(inputs), composer="template", rejected=rejected)
