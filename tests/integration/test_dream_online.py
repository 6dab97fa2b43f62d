"""The dreaming pipeline with Claude on a local stub of the Messages API, through the real
SDK: the calls it makes, Message Batches, and the ladder an online LLM regroups."""

from __future__ import annotations

from contextlib import contextmanager

from graphmind.demo.sudoku import session_experiences
from graphmind.dream import DreamParams
from graphmind.mind import Mind
from tests.fixtures.messages_stub import MessagesStub, json_reply
from tests.integration.helpers import experiences


def proposal_in(prompt: str) -> list[list[str]]:
    """The proposed groups a ``dream.group_level`` prompt lists ("1. id, id")."""
    listed = prompt.split("proposes:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split(". ", 1)[1].split(", ") for line in listed.splitlines()]


@contextmanager
def claude(responder, **stub_settings):
    """An AnthropicLLM on a started Messages stub answering with ``responder``."""
    import anthropic

    from graphmind.llm.anthropic import AnthropicLLM

    stub = MessagesStub().start()
    stub.responder = responder
    for key, value in stub_settings.items():
        setattr(stub, key, value)
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        yield stub, AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
    finally:
        client.close()
        stub.stop()


def sudoku(mind: Mind) -> None:
    mind.capture_many([{"id": e["id"], **e["properties"]} for e in session_experiences(limit_per_puzzle=10)])


def _claude_consolidator(request, regroup=lambda proposal: proposal):
    """The Messages stub acting as Claude for the dream prompts: general names, as a model
    would write them, built from what each prompt shows; ``regroup`` answers the ladder's
    grouping prompt from the proposal it shows."""
    prompt = request.body["messages"][-1]["content"]
    prompt = prompt if isinstance(prompt, str) else " ".join(b.get("text", "") for b in prompt)
    if "Group them into level" in prompt:
        return json_reply({"groups": [{"member_ids": ids} for ids in regroup(proposal_in(prompt))]})
    if prompt.startswith("Analyze these"):
        ids = [line.split('"id": "')[1].split('"')[0] for line in prompt.splitlines() if '"id": "' in line]
        named = [
            line.split('"strategy_used": "')[1].split('"')[0]
            for line in prompt.splitlines()
            if '"strategy_used": "' in line
        ]
        name = max(set(named), key=named.count) if named else "Solving insight"
        return json_reply(
            {
                "name": name,
                "pattern_type": "technique",
                "conditions": [f"{name} applies"],
                "actions": [f"apply {name}"],
                "success_rate": 0.9,
                "example_ids": ids[:3],
            }
        )
    if prompt.startswith("Verify that the higher level"):
        return json_reply({"subsumes": True, "uncovered_ids": [], "message": "Each technique is a case of it."})
    if prompt.startswith("Check if patterns have conflicting"):
        return json_reply({"contradicts": False, "message": "They apply in different situations."})
    if "Name the one item" in prompt:
        ids = [line[1:].split("]")[0] for line in prompt.splitlines() if line.startswith("[")]
        return json_reply(
            {
                "name": "Constraint propagation",
                "member_ids": ids,
                "generalization": "Apply the techniques that propagate constraints: " + ", ".join(ids),
            }
        )
    a, b = [line[1:].split("]")[0] for line in prompt.splitlines() if line.startswith("[")][:2]
    return json_reply(
        {
            "from_id": a,
            "to_id": b,
            "kind": "complement",
            "strength": 0.7,
            "evidence": [],
            "rationale": "Both narrow the candidates.",
        }
    )


def test_a_dream_through_claude_on_the_messages_stub(store, settings, mind):
    with claude(_claude_consolidator) as (stub, llm):
        sudoku(mind)
        report = Mind(mind.name, store, settings, llm=llm).dream()
    assert report.llm["provider"] == "anthropic" and report.llm_calls == len(stub.requests)
    assert {"Naked Single", "Hidden Single", "Pointing Pair", "Solving insight"} <= {
        p["name"] for p in report.new_patterns
    }
    assert not report.degraded and report.llm["cost_cents"] > 0
    connections = store.read("dream/list_connections", mind=mind.name)
    assert report.cross_connections == len(connections) > 0
    assert {(r["kind"], r["rationale"]) for r in connections} == {("complement", "Both narrow the candidates.")}


def test_a_batched_dream_sends_the_extractions_as_one_message_batch(store, settings, mind):
    lines: list[str] = []
    with claude(_claude_consolidator, batch_polls=3) as (stub, llm):
        sudoku(mind)
        params = DreamParams(llm_batch=True, batch_poll_seconds=0.01)
        report = Mind(mind.name, store, settings, llm=llm).dream(params, progress=lines.append)
    (batch,) = stub.batches.values()
    extractions = [r for r in stub.requests if r.body["messages"][0]["content"].startswith("Analyze these")]
    # polled until it ended (3), then read once more by the SDK's results()
    assert len(batch["results"]) == len(extractions) == report.patterns >= 4 and batch["polls"] == 4
    assert {"Naked Single", "Hidden Single", "Pointing Pair"} <= {p["name"] for p in report.new_patterns}
    assert not report.degraded and any("one message batch" in line for line in lines)
    per_call = [r.cost_cents for r in llm.usage.records if r.prompt.startswith("dream.extract")]
    assert per_call and all(c > 0 for c in per_call)


def level(store, mind: Mind, n: int) -> list[tuple[str, list[str]]]:
    return sorted(
        (r["name"], r["members"]) for r in store.read("dream/list_abstractions", mind=mind.name) if r["level"] == n
    )


def groupings(stub) -> list[str]:
    return [r for r in stub.requests if "Group them into level" in r.body["messages"][-1]["content"]]


def test_claude_regroups_the_ladder(store, settings, mind):
    shown: list[list[list[str]]] = []

    def merge_first_two(proposal):  # "these two categories are one field"
        shown.append(proposal)
        return [proposal[0] + proposal[1], *proposal[2:]] if len(proposal) > 1 else proposal

    with claude(lambda request: _claude_consolidator(request, merge_first_two)) as (stub, llm):
        sudoku(mind)
        report = Mind(mind.name, store, settings, llm=llm).dream()
    assert not report.degraded and len(groupings(stub)) == len(shown) >= 1
    first = shown[0]
    assert len(first) >= 2 and sorted(m for g in first for m in g) == sorted(p["id"] for p in report.new_patterns)
    assert sorted(members for _, members in level(store, mind, 2)) == sorted(
        sorted(g) for g in [first[0] + first[1], *first[2:]]
    )
    assert report.verification["status"] in {"verified", "flagged"}


def test_a_run_that_changes_no_pattern_keeps_the_ladder_and_asks_nothing(store, settings, mind):
    def split(proposal):  # three techniques the embeddings put in one category: Claude makes two
        ids = sorted(m for g in proposal for m in g)
        return [ids[:1], ids[1:]]

    with claude(lambda request: _claude_consolidator(request, split)) as (stub, llm):
        online = Mind(mind.name, store, settings, llm=llm)
        online.capture_many(experiences())
        first = online.dream()
        assert first.patterns == 3 and len(groupings(stub)) == 1 and len(level(store, mind, 2)) == 2
        ladder, calls = {n: level(store, mind, n) for n in (2, 3, 4)}, len(stub.requests)
        online.capture_many(
            [
                {"id": "bread-1", "description": "Kneaded the sourdough for ten minutes", "outcome": "success"},
                {"id": "bread-2", "description": "Let the loaf rise overnight in the fridge", "outcome": "progress"},
            ]
        )
        again = online.dream()
    assert again.status == "completed" and again.experiences == 2 and again.grown == 0 and again.llm_calls == 0
    assert len(stub.requests) == calls and {n: level(store, mind, n) for n in (2, 3, 4)} == ladder


def test_a_regrouping_that_files_an_item_twice_is_asked_again_once_then_not_used(store, settings, mind):
    def twice(proposal):
        return [proposal[0], proposal[1] + [proposal[0][0]], *proposal[2:]]

    with claude(lambda request: _claude_consolidator(request, twice)) as (stub, llm):
        sudoku(mind)
        report = Mind(mind.name, store, settings, llm=llm).dream()
    first, again = [r.body["messages"][-1]["content"] for r in groupings(stub)][:2]
    proposal = proposal_in(first)
    problem = f"{proposal[0][0]!r} is in two groups"
    assert "earlier answer" not in first and f"Your earlier answer could not be used: {problem}." in again
    assert report.degraded == [
        f"abstract: the LLM's grouping of level 2 was not used ({problem}); the embeddings' grouping was kept"
    ]
    assert sorted(m for _, m in level(store, mind, 2)) == sorted(sorted(g) for g in proposal)
    assert report.verification["status"] in {"verified", "flagged"}


def test_a_regrouping_mended_on_the_re_ask_is_used(store, settings, mind):
    asked: list[list[list[str]]] = []

    def drop_then_merge(proposal):  # first leaves an item out, then merges two groups
        asked.append(proposal)
        return [proposal[0][1:], *proposal[1:]] if len(asked) == 1 else [proposal[0] + proposal[1], *proposal[2:]]

    with claude(lambda request: _claude_consolidator(request, drop_then_merge)) as (stub, llm):
        sudoku(mind)
        report = Mind(mind.name, store, settings, llm=llm).dream()
    proposal = proposal_in(groupings(stub)[0].body["messages"][-1]["content"])
    assert "is in no group" in groupings(stub)[1].body["messages"][-1]["content"]
    assert not report.degraded
    assert sorted(m for _, m in level(store, mind, 2)) == sorted(
        sorted(g) for g in [proposal[0] + proposal[1], *proposal[2:]]
    )


def test_the_offline_llm_is_never_asked_to_regroup(mind):
    sudoku(mind)
    report = mind.dream()
    assert report.ladder_levels >= 3
    assert mind.llm.usage.calls == report.llm_calls > 0
    assert not [r for r in mind.llm.usage.records if r.prompt.startswith("dream.group_level")]
