"""Conversation turns in the Context Object and the conversation tool: a turn is cited when a line
quotes it (not when its start appears somewhere), trimming never leaves a heading alone, and the
conversation tool's conversations and turns share its one limit."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from graphmind.context.assemble import TRIM_MARK, assemble
from graphmind.context.templates import compose
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import ContextInput
from graphmind.recall.results import Candidates
from graphmind.ruminate.coverage import TypeCoverage
from graphmind.ruminate.tools import DreamerTools
from tests.unit.memory_items import memory as _m

STIMULUS = "Can the glycol chiller take tank two tonight?"


def _turn(node_id: str, speaker: str, text: str, session: str = "s1", position: int = 0) -> MemoryItem:
    props = {
        "text": text,
        "speaker": speaker,
        "session_id": session,
        "position": position,
        "timestamp": "2026-03-10T18:00:00+00:00",
    }
    return MemoryItem(id=node_id, label="Turn", text=text, properties=props)


def _context(shown: list[MemoryItem], memories: list[MemoryItem], budget: int = 2_500) -> Any:
    """The Context Object whose draft the templates composed from ``shown`` alone."""
    draft = compose(ContextInput(stimulus=STIMULUS, sender="Tom", memories=shown))
    return assemble(draft, stimulus=STIMULUS, sender="Tom", identity=None, memories=memories, budget=budget)


def test_exactly_the_turns_a_line_quotes_are_cited_however_short():
    no = _turn("t-no", "Ann", "No", position=0)
    sure_long = _turn("t-sure-long", "Tom", "Sure. The glycol chiller can take tank two tonight.", position=1)
    yes_ann = _turn("t-yes-ann", "Ann", "Yes.", position=2)
    sure = _turn("t-sure", "Tom", "Sure.", session="s2")  # not shown: only inside a shown turn's text
    yes_tom = _turn("t-yes-tom", "Tom", "Yes.", session="s3")  # not shown: the same words, another speaker
    context = _context([no, sure_long, yes_ann], [no, sure_long, yes_ann, sure, yes_tom])
    history = context.section("relevant_history")
    assert '- Mar 10, 2026, Ann: "No"' in history.text.splitlines()
    assert sorted(history.node_ids) == ["t-no", "t-sure-long", "t-yes-ann"]


def test_a_history_of_turns_trimmed_hard_keeps_a_quoted_turn_under_its_heading():
    said = "the glycol chiller could not keep up with both tanks calling for cooling"
    turns = [_turn(f"t-{i}", "Tom", f"On tank {i}, {said} {said}", f"s{i}") for i in range(4)]
    history = _context(turns, turns, budget=60).section("relevant_history")
    lines = history.text.splitlines()
    assert lines[0] == "Said in earlier conversations:" and lines[1].startswith("- Mar 10, 2026, Tom:")
    assert lines[-1] == TRIM_MARK and len(history.node_ids) == 1


def test_past_approaches_trimmed_hard_keep_one_approach_under_their_heading():
    failures = [
        _m(f"fa-{i}", "Failed_Attempt", approach=f"ran the glycol chiller at setting {i}", why_failed="it iced up")
        for i in range(6)
    ]
    history = _context(failures, failures, budget=60).section("relevant_history")
    lines = history.text.splitlines()
    assert lines[0] == "Past approaches that didn't work:" and lines[1].startswith("- ran the glycol chiller")
    assert lines[-1] == TRIM_MARK and history.node_ids


class _Store:
    def __init__(self, rows: dict[str, list[dict[str, Any]]]):
        self.rows = rows

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.rows.get(name, [])[: params.get("limit", 100)]


class _Recaller:
    def search(self, *args: Any, **kwargs: Any) -> Candidates:
        return Candidates(vector=[], text=[], terms=[])


def test_query_conversations_returns_at_most_its_limit_of_conversations_and_turns_together():
    talks = [{"id": f"c{i}", "label": "Conversation_Memory", "props": {"topic": f"chiller talk {i}"}} for i in range(5)]
    turns = [
        {
            "id": f"t{i}",
            "label": "Turn",
            "props": {"text": f"chiller turn {i}", "speaker": "Tom", "session_id": "s", "position": i},
        }
        for i in range(5)
    ]
    store = _Store({"ruminate/find_conversations": talks, "ruminate/find_turns": turns})
    coverage = SimpleNamespace(types={"Conversation_Memory": TypeCoverage("Conversation_Memory")})
    tools = DreamerTools(store, _Recaller(), "m", STIMULUS, "Tom", coverage, limit=5)  # type: ignore[arg-type]
    got = tools.query("Conversation_Memory")
    assert [row["id"] for row in got] == ["c0", "t0", "c1", "t1", "c2"]
    assert sorted(tools.returned) == ["c0", "c1", "c2", "t0", "t1"]  # what was cut is not claimable
    store = _Store({"ruminate/find_conversations": talks})
    only_talks = DreamerTools(store, _Recaller(), "m", STIMULUS, "Tom", coverage, limit=3)  # type: ignore[arg-type]
    assert [row["id"] for row in only_talks.query("Conversation_Memory")] == ["c0", "c1", "c2"]
