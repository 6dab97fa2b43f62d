"""Rumination and the Context Object on the real Neo4j, with the offline LLM (seed P02 and the
context-object spec; the Felix scenario is B01 Act 1)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from graphmind.llm.offline import OfflineLLM, behaviours
from graphmind.mind import Mind
from graphmind.ruminate import MAX_STIMULUS_CHARS

from .helpers import node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

B01 = Path(str(resources.files("graphmind") / "demo" / "b01-felix.jsonl"))
STIMULUS = "Hey Felix, the race condition is back."
COMPLETE_EXAMPLE_FACTS = (
    "Felix, runtime engineer focused on validation testing",
    "Partner to Nicolas for 8 months",
    "€35K hallucination lesson and Venice collaboration",
    "Communication style with Nicolas: Direct, technical, values testing over claims",
    "Trust level: High (0.9/1.0)",
    f'Nicolas says: "{STIMULUS}"',
    "This continues our discussion about stimulus_integrator race condition",
    "Previous exchange: 10 messages, Frustrated but determined",
    "Agreed on systematic debugging approach",
    "Technical context: stimulus_integrator.py - Timing bug in multi-threaded energy injection",
    "This is recurrence #3",
    "Nov 15, 2024: stimulus_integrator race condition",
    "- Outcome: In progress - investigating lock granularity",
    "Added sleep(0.001) between injections: Didn't address root cause, just reduced probability",
    "Approach: Systematic debugging for concurrency issues",
    "Success Rate: 85%",
    "1. Reproduce consistently before attempting fix",
    "4. Check criticality calculations for lock granularity",
    "I feel frustration (0.8/1.0) about this situation",
    "Counterbalance: Determination - we've solved harder problems before",
    "Trigger: Known issue returning unexpectedly after attempted fix",
    "Component: stimulus_integrator.py",
    "- consciousness_engine_v2.py",
    "- traversal.py",
    "- graph_physics.py",
    "consciousness_engine_v2.py (high complexity)",
    "graph_physics.py (high complexity)",
    "DEADLINE (critical)",
    "Deadline: Nov 25, 2024 23:59 UTC",
    "Impact if violated: Cannot launch with known race conditions - reputation damage",
)


def _felix(mind: Mind) -> Mind:
    mind.import_jsonl(B01)
    return mind


def test_the_felix_scenario_gives_the_specs_complete_context(mind):
    result = _felix(mind).ruminate(STIMULUS, sender="Nicolas")
    markdown = result.context_markdown
    for fact in COMPLETE_EXAMPLE_FACTS:
        assert fact in markdown, fact
    assert "graph_schema.py" not in markdown and "Marco" not in markdown  # not this stimulus's
    validation = result.context.validation
    assert validation.valid and validation.unsupported == [] and validation.composer == "llm"
    assert result.context.token_count <= 2500
    assert result.context.section("emotional_resonance").node_ids == ["emo-frustration"]
    assert {"code-engine-v2", "code-graph-physics", "code-traversal"} <= set(
        result.context.section("technical_context").node_ids
    )
    assert result.final_gap_score < 0.3 and result.stopped_reason in ("crystallized", "gaps_closed")
    assert result.steps[0].kind == "initial" and len(result.steps) >= 3
    reached = [i for s in result.steps if s.kind in ("gap", "depth") for i in s.found_ids]
    assert "emo-frustration" in reached  # the feeling, linked to what the stimulus names, was looked at
    assert result.coverage["types"]["Failed_Attempt"]["found"]
    # every type the coverage map found relevant was explored, or its content came with depth
    assert all(t["explored"] or t["found"] for t in result.coverage["types"].values() if t["relevant"])
    emotion = mind.get("emo-frustration")  # loaded into the Context Object: one hit, now
    assert emotion.hits == 1 and emotion.last_hit_at is not None


def test_the_run_is_recorded_with_findings_citing_every_memory_used(mind, store):
    result = _felix(mind).ruminate(STIMULUS, sender="Nicolas")
    row = store.read("ruminate/get_run", mind=mind.name, id=result.run_id)[0]
    run = row["run"]
    assert run["message"] == STIMULUS and run["sender"] == "Nicolas"
    assert run["steps"] == len(result.steps) and run["stopped_reason"] == result.stopped_reason
    assert json.loads(run["trace"])[0]["kind"] == "initial"
    cited = {i for f in row["findings"] for i in f["cites"]}
    used = {i for s in result.context.sections for i in s.node_ids}
    assert used and used <= cited
    sections = {f["section"] for f in row["findings"] if f["section"]}
    assert "constraints" in sections and "emotional_resonance" in sections
    assert any(f["step_number"] == 0 for f in row["findings"])


def test_a_mind_without_relevant_data_gets_seven_honest_sections(mind, tmp_path):
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "x.jsonl",
            [
                node(
                    "Experience",
                    "x1",
                    description="Tuned the espresso grinder",
                    outcome="success",
                    kind="move",
                    timestamp="2026-10-01T12:00:00Z",
                )
            ],
        )
    )
    result = mind.ruminate(STIMULUS)
    sections = {s.key: s.text for s in result.context.sections}
    assert sections["current_situation"] == (
        f'Someone says: "{STIMULUS}"\n\nNothing in memory about felix, race, condition.'
    )
    assert "espresso" not in result.context_markdown  # an unrelated specific is left out
    for key in (
        "identity",
        "relevant_history",
        "strategic_direction",
        "emotional_resonance",
        "technical_context",
        "constraints",
    ):
        assert sections[key].startswith("No "), key
    assert result.context.validation.valid and result.coverage["covered"] == []
    assert result.stopped_reason == "nothing_on_topic" and result.final_gap_score == 1.0
    assert len(result.steps) == 1  # nothing on topic: no exploration beyond the first look


def test_the_senders_partnership_speaks_for_who_is_speaking_whatever_the_topic(mind, tmp_path):
    """A new user's trial: a message from Tom Reilly about tape lures got "No partnership data
    found" though the mind holds a partnership with him: forty permit notes naming him filled
    the first look, and his partnership, about other things, was no nearer than them."""
    notes = [
        node(
            "Constraint",
            f"c{i}",
            constraint_type="permit",
            severity="medium",
            description=f"Tom Reilly may run the tape lure at ride {i % 6} only before {6 + i % 5}:00",
        )
        for i in range(40)
    ]
    history = ["keeps bees and sells honey at the market", "restores old motorbikes", "sings in a choir"]
    tom = node("Partnership", "tom", partner_name="Tom Reilly", shared_history=history, trust_level=0.8)
    mind.import_jsonl(write_jsonl(tmp_path / "log.jsonl", [*notes, tom]))
    result = mind.ruminate("Can we run the tape lure at ride 2 tomorrow?", sender="tom reilly")
    identity = result.context.section("identity")
    assert "Partner to Tom Reilly" in identity.text and "tom" in identity.node_ids, identity.text
    assert "tom" not in result.steps[0].found_ids  # the exploration did not reach it


def test_a_minds_title_leaves_its_ordinary_words_on_topic(mind, tmp_path):
    """A new user's mind was called "Saltfleet Point ringing log": its name's words were taken
    as names, so "ring" never counted, and "We're out of rings" found nothing on topic."""
    rows = [
        node("Identity", "me", name="Saltfleet Point ringing log", role="field ecologist"),
        node("Experience", "e1", description="Ran out of rings after the fall; borrowed a string", outcome="progress"),
        node("Experience", "e2", description="Wind took the top panel of the long net", outcome="failure"),
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "log.jsonl", rows))
    result = mind.ruminate("We're out of rings, what now?")
    assert result.coverage["relevance"]["e1"].startswith("kept"), result.coverage["relevance"]
    assert "borrowed a string" in result.context_markdown and "top panel" not in result.context_markdown


def test_a_long_stimulus_is_cut_by_the_documented_rule(mind):
    result = _felix(mind).ruminate("race condition " * 4000)
    assert result.truncated and len(result.stimulus) <= MAX_STIMULUS_CHARS
    assert result.stimulus.endswith("…") and result.context.validation.valid


def test_an_llm_that_answers_garbage_is_continue_once_then_a_guard_rail(store, settings, mind):
    def nonsense(inputs, tools):
        return {"nonsense": 1}

    garbage = OfflineLLM({**behaviours(), "ruminate.continue": nonsense, "ruminate.guard_mechanical": nonsense})
    _felix(mind)
    result = Mind(mind.name, store, settings, llm=garbage).ruminate(STIMULUS, sender="Nicolas")
    assert result.guard_rails["llm_output"] == 2 and result.stopped_reason == "llm_output"
    first = next(s for s in result.steps if s.kind == "gap")
    assert first.found_ids and first.tools  # the engine queried the gap itself
    assert result.context.validation.valid


def test_an_invented_fact_never_reaches_the_context_object(store, settings, mind):
    base = behaviours()

    def inventing(prompt_name):
        def step(inputs, tools):
            out: Any = base[prompt_name](inputs, tools)
            return out.model_copy(
                update={
                    "internal_monologue": out.internal_monologue
                    + " Nicolas moved the deadline to Dec 24, 2024 at 14:00."
                }
            )

        return step

    def inventing_context(inputs, tools):
        out: Any = base["context.compose"](inputs, tools)
        return out.model_copy(update={"constraints": out.constraints + "\n- Budget: 12,500 EUR"})

    liar = OfflineLLM(
        {
            **base,
            "ruminate.continue": inventing("ruminate.continue"),
            "ruminate.guard_hallucination": inventing("ruminate.guard_hallucination"),
            "context.compose": inventing_context,
        }
    )
    _felix(mind)
    result = Mind(mind.name, store, settings, llm=liar).ruminate(STIMULUS, sender="Nicolas")
    assert result.guard_rails["hallucination"] >= 1
    assert any("Dec 24, 2024" in s.hallucinated for s in result.steps)
    validation = result.context.validation
    assert validation.composer == "template"
    assert [(i.section, i.text) for i in validation.rejected_draft] == [
        ("constraints", "12,500"),
        ("constraints", "EUR"),
    ]
    assert "Dec 24" not in result.context_markdown and "12,500" not in result.context_markdown


def test_cli_ruminate_prints_the_context_and_a_trace_and_json_has_designs_fields(cli_env, cli_mind, capsys):
    code, out, err = run_cli(capsys, "import", str(B01), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind, "--sender", "Nicolas")
    assert code == 0, err
    assert out.startswith("# Context for Driver (Generated by Dreamer)") and " 0. initial" in out
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind, "--json")
    payload = json.loads(out)
    assert {"context_markdown", "sections", "token_count", "steps", "coverage", "final_gap_score", "validation"} <= set(
        payload
    )
    assert len(payload["sections"]) == 7 and payload["validation"]["valid"]


@pytest.mark.parametrize("stimulus", ["", "   \n "])
def test_cli_an_empty_stimulus_exits_2(cli_env, cli_mind, capsys, stimulus):
    code, out, err = run_cli(capsys, "ruminate", stimulus, "--mind", cli_mind)
    assert code == 2 and "stimulus is empty" in err and "Traceback" not in err


def test_cli_an_unknown_mind_exits_2_and_says_so(cli_env, cli_mind, capsys):
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind)
    assert code == 2 and f"mind '{cli_mind}' does not exist" in err


def _claude_dreamer(request):
    """The Messages stub acting as Claude: for each continuation it queries the priority gap's
    tool, then answers with a step citing what the tool returned; it drafts the Context Object
    from the Felix memories."""
    from graphmind.prompts.ruminate import GAP_QUERIES
    from tests.fixtures.messages_stub import json_reply, tool_reply

    body = request.body
    last = body["messages"][-1]["content"]
    if "tools" not in body:  # context.compose
        return json_reply(
            {
                "identity": "Felix, runtime engineer focused on validation testing. Partner to Nicolas "
                "for 8 months.\nTrust level: High (0.9/1.0)",
                "current_situation": f'Nicolas says: "{STIMULUS}"\n\nThe stimulus_integrator race condition '
                "is back: recurrence #3, still investigating.",
                "relevant_history": "Nov 15, 2024: stimulus_integrator race condition, 10 messages.",
                "strategic_direction": "Approach: Systematic debugging for concurrency issues (85%).",
                "emotional_resonance": "I feel frustration (0.8/1.0), held by determination.",
                "technical_context": "Component: stimulus_integrator.py, with graph_physics.py and "
                "consciousness_engine_v2.py (high complexity).",
                "constraints": "DEADLINE (critical): Nov 25, 2024 23:59 UTC.",
                "cited_ids": ["nicolas"],
            }
        )
    if isinstance(last, list) and last and last[0].get("type") == "tool_result":
        found = [m["id"] for block in last for m in json.loads(block["content"])]
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        gap = next((t for t in GAP_QUERIES if f"The graph has {t} nodes" in prompt), None)
        return json_reply(
            {
                "finding": {
                    "node_type": gap,
                    "gap_explored": gap or "thread",
                    "query": "tool",
                    "result": ", ".join(found) or "None",
                    "synthesis": f"The {gap} query returned {', '.join(found) or 'nothing'}.",
                    "memory_ids": found,
                    "confidence": 0.8,
                },
                "gap_update": {
                    "now_covered": [],
                    "still_missing": [],
                    "composite_gap_score": 0.5,
                    "highest_priority_gap": None,
                },
                "internal_monologue": f"I looked at {gap} after what the earlier steps showed about the "
                "partnership and the technical context; it adds weight to the "
                "picture and the tension about the recurring bug stays with me.",
                "signal": "CONTINUE",
                "signal_reasoning": "More gaps remain.",
            }
        )
    text = last if isinstance(last, str) else json.dumps(last)
    gap = next((t for t in GAP_QUERIES if f"The graph has {t} nodes" in text), None)
    if gap is None:
        return json_reply(
            {
                "finding": {
                    "node_type": None,
                    "gap_explored": "thread",
                    "query": "",
                    "result": "None",
                    "synthesis": "Nothing further.",
                    "memory_ids": [],
                    "confidence": 0.5,
                },
                "gap_update": {"composite_gap_score": 0.0},
                "internal_monologue": "The partnership, the technical context, the failed attempt and the "
                "feelings are all here now; the picture is coherent enough to hand over.",
                "signal": "CRYSTALLIZE",
                "signal_reasoning": "Gaps closed.",
            }
        )
    return tool_reply(GAP_QUERIES[gap], {}, thinking="Follow the gap.")


def test_rumination_through_claude_on_the_messages_stub(store, settings, mind):
    """The whole rumination through the real SDK: the Dreamer's tool calls run as named queries
    on Neo4j, its findings come back grounded, the draft is counted by the Messages API's token
    counter and accepted by the grounding check."""
    import anthropic

    from graphmind.llm.anthropic import AnthropicLLM
    from tests.fixtures.messages_stub import MessagesStub

    stub = MessagesStub().start()
    stub.responder = _claude_dreamer
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        llm = AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
        _felix(mind)
        result = Mind(mind.name, store, settings, llm=llm).ruminate(STIMULUS, sender="Nicolas")
    finally:
        client.close()
        stub.stop()
    gap_steps = [s for s in result.steps if s.kind == "gap"]
    assert gap_steps and all(s.queried and s.found_ids for s in gap_steps)
    tools_called = [
        b["name"]
        for r in stub.requests
        for m in r.body["messages"]
        if m["role"] == "assistant"
        for b in m["content"]
        if b.get("type") == "tool_use"
    ]
    assert "query_emotional_state" in tools_called
    assert result.guard_rails["hallucination"] == 0 and result.guard_rails["mechanical"] == 0
    validation = result.context.validation
    assert validation.composer == "llm" and validation.valid
    assert validation.token_counter == "anthropic token counter" and stub.count_requests
    assert "I feel frustration (0.8/1.0)" in result.context_markdown
    assert result.llm["calls"] == len(stub.requests) and result.llm["cost_cents"] > 0


def test_the_night_cycles_patterns_count_as_strategic_evidence(mind, tmp_path):
    _felix(mind)
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "night.jsonl",
            [
                node(
                    "Pattern",
                    "pat-reproduce-first",
                    description="Race conditions come back until they are reproduced under load before any patch",
                    success_rate=0.9,
                    verification_status="verified",
                ),
                node(
                    "Pattern",
                    "pat-dropped",
                    description="Race conditions vanish with longer sleeps",
                    verification_status="invalidated",
                ),
                {
                    "type": "edge",
                    "rel": "APPLIES_TO",
                    "from": "pat-reproduce-first",
                    "to": "tc-stimulus-integrator",
                    "properties": {},
                },
            ],
        )
    )
    result = mind.ruminate(STIMULUS, sender="Nicolas")
    strategy = result.context.section("strategic_direction")
    assert "Consolidated patterns:" in strategy.text and "(success rate 90%)" in strategy.text
    assert "pat-reproduce-first" in strategy.node_ids and "longer sleeps" not in strategy.text
    coverage = result.coverage["types"]["Strategy_Pattern"]
    assert "pat-reproduce-first" in coverage["matched"] + coverage["neighbours"]


def test_threads_are_followed_once_every_type_was_explored(mind, tmp_path):
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "t.jsonl",
            [
                node(
                    "Technical_Context",
                    "tc-sched",
                    component="scheduler.py",
                    issue_type="race condition",
                    description="Race condition in the job scheduler",
                    status="investigating",
                ),
                # notes of no type rumination queries (an experience would be strategic evidence)
                node(
                    "TopicEntry",
                    "x-lock",
                    topic="job lock",
                    text="Took the job lock earlier and the fault stopped",  # not on topic itself
                    date="2026-11-01",
                ),
                node(
                    "TopicEntry",
                    "x-audit",
                    topic="worker locks",
                    text="Audited every lock the workers take",
                    date="2026-11-02",
                ),
                {"type": "edge", "rel": "LED_TO", "from": "tc-sched", "to": "x-lock", "properties": {}},
                {"type": "edge", "rel": "LED_TO", "from": "x-lock", "to": "x-audit", "properties": {}},
            ],
        )
    )
    from graphmind.ruminate import RuminationParams

    stimulus = "The race condition in the scheduler is back."
    result = mind.ruminate(stimulus, params=RuminationParams(patience=None))  # every gap, then threads
    kinds = [s.kind for s in result.steps]
    assert kinds[:2] == ["initial", "depth"] and kinds.count("gap") == 7 and "thread" in kinds
    assert "x-lock" in result.steps[1].found_ids  # one edge: read by depth
    thread = next(s for s in result.steps if s.kind == "thread")  # LED_TO is not a typed hop: not depth's
    assert thread.query == "follow_edges(x-lock)" and thread.new_ids == ["x-audit"]
    assert result.guard_rails["premature"] >= 1  # [CRYSTALLIZE] with 7 of 8 types empty
    assert result.stopped_reason == "coverage_complete"
    # by default the first step that adds nothing relevant, with no found angle left, ends it
    default = mind.ruminate(stimulus)
    assert default.stopped_reason == "diminishing_returns" and len(default.steps) < len(result.steps)


def _idle_step(inputs, tools):
    """A Dreamer that says [CONTINUE] and never queries the graph."""
    from graphmind.prompts._models import NODE_TYPES
    from graphmind.prompts.ruminate import GapUpdate, RuminationStepOutput, StepFinding

    return RuminationStepOutput(
        finding=StepFinding(gap_explored="nothing", result="None", synthesis="Nothing.", confidence=0.0),
        gap_update=GapUpdate(composite_gap_score=1.0),
        internal_monologue="I keep turning over what the earlier steps found. "
        + " ".join(f"The {t} finding is still with me." for t in NODE_TYPES),  # never mechanical
        signal="CONTINUE",
        signal_reasoning="More to do.",
    )


def test_continue_without_a_query_is_stuck_then_endless(store, settings, mind):
    idle = OfflineLLM({**behaviours(), "ruminate.continue": _idle_step, "ruminate.stuck": _idle_step})
    _felix(mind)
    result = Mind(mind.name, store, settings, llm=idle).ruminate(STIMULUS, sender="Nicolas")
    assert result.guard_rails["stuck"] == 2 and result.guard_rails["endless"] == 1
    assert result.stopped_reason == "stuck" and result.steps[-1].guard_rails == ["endless"]
    assert [s.queried for s in result.steps if s.kind == "gap"] == [False, False]


def test_the_step_budget_ends_rumination_with_the_endless_guard(store, settings, mind):
    from graphmind.ruminate import RuminationParams

    base = behaviours()

    def always_continue(inputs, tools):
        out = base["ruminate.continue"](inputs, tools)
        return out.model_copy(update={"signal": "CONTINUE"})

    eager = OfflineLLM({**base, "ruminate.continue": always_continue})
    _felix(mind)
    result = Mind(mind.name, store, settings, llm=eager).ruminate(
        STIMULUS, sender="Nicolas", params=RuminationParams(max_steps=3)
    )
    assert [s.kind for s in result.steps] == ["initial", "depth", "gap", "guard"]  # 3 steps, then the guard
    assert result.stopped_reason == "max_steps" and result.guard_rails["endless"] == 1
    assert result.context.validation.valid


def test_experiences_no_pattern_holds_yet_are_strategic_evidence(mind, tmp_path):
    """A mind built by capture alone is not "nothing in memory": the experiences no pattern
    holds yet count for the Strategy_Pattern perspective; a superseded one stays out of the
    context, and once a pattern exemplifies one its pattern speaks for it (the context cites
    the pattern, not the experience, when the pattern says all the experience shares with
    the stimulus)."""
    old = mind.capture(
        {
            "description": "Calibrated the spectrograph against the neon lamp; drift stayed at 0.3 nm",
            "outcome": "failure",
        },
        wait=True,
    )
    new = mind.capture(
        {
            "description": "Calibrated the spectrograph against the argon lamp; drift dropped below 0.1 nm",
            "outcome": "success",
        },
        supersedes=[old],
    )
    stimulus = "How do I calibrate the spectrograph tonight?"
    result = mind.ruminate(stimulus)
    strategy = result.context.section("strategic_direction")
    assert "Captured experiences:" in strategy.text
    assert new in strategy.node_ids and "argon lamp" in strategy.text and "(success)" in strategy.text
    assert old not in strategy.node_ids and "neon lamp" not in strategy.text
    assert "spectrograph" not in result.context.section("current_situation").text.split('"')[-1]
    coverage = result.coverage["types"]["Strategy_Pattern"]
    assert new in coverage["matched"] + coverage["neighbours"]

    mind.import_jsonl(
        write_jsonl(
            tmp_path / "night.jsonl",
            [
                node(
                    "Pattern",
                    "pat-argon",
                    description="Calibrate spectrographs against an argon lamp",
                    success_rate=1.0,
                ),
                {"type": "edge", "rel": "EXEMPLIFIES", "from": new, "to": "pat-argon", "properties": {}},
            ],
        )
    )
    result = mind.ruminate(stimulus)
    strategy = result.context.section("strategic_direction")
    assert "pat-argon" in strategy.node_ids and new not in strategy.node_ids  # its pattern says all it shares
    assert result.coverage["relevance"][new] == "dropped: pattern pat-argon stands for it"
    coverage = result.coverage["types"]["Strategy_Pattern"]
    assert "pat-argon" in coverage["matched"]
    assert "pat-argon" in result.steps[0].found_ids


def test_a_dreamed_minds_experiences_do_not_crowd_out_their_pattern(mind, tmp_path):
    """Forty experiences a pattern exemplifies match the stimulus better than the pattern does:
    they are searched apart, so the pattern is still a match and comes first; what they add to
    it ("drift") keeps at most three of them beside it, and the one that adds nothing stays out."""
    items = [
        node("Technical_Context", "tc-spec", component="spectrograph", description="The spectrograph drifts when cold"),
        node("Pattern", "pat-spec", description="Calibrate the spectrograph against an arc lamp", success_rate=0.9),
    ]
    for n in range(40):
        text = f"Calibrated the spectrograph against the arc lamp on night {n}; drift was {n / 100:.2f} nm"
        items += [
            node(
                "Experience",
                f"x{n}",
                description=text,
                outcome="success",
                timestamp=f"2026-01-{1 + n % 28:02d}T10:00:00Z",
            ),
            {"type": "edge", "rel": "EXEMPLIFIES", "from": f"x{n}", "to": "pat-spec", "properties": {}},
        ]
    mind.import_jsonl(write_jsonl(tmp_path / "dreamed.jsonl", items))
    result = mind.ruminate("Why does the spectrograph drift after calibrating against the arc lamp?")
    coverage = result.coverage["types"]["Strategy_Pattern"]
    assert "pat-spec" in coverage["matched"], coverage
    assert len([i for i in coverage["matched"] if i.startswith("x")]) <= 5  # searched apart: PENDING_SEEDS
    strategy = result.context.section("strategic_direction")
    assert strategy.node_ids[0] == "pat-spec" and 1 <= len([i for i in strategy.node_ids if i.startswith("x")]) <= 3
    again = mind.ruminate("How do I calibrate the spectrograph against the arc lamp?")  # nothing beyond it
    assert not any(i.startswith("x") for i in again.context.section("strategic_direction").node_ids)


def test_a_capture_only_log_is_ruminated_on_its_labels(mind):
    """tests/data/ruminate_capture: every stimulus grounds, on-topic ones cite an experience
    about them, off-topic ones none (the quoted 'Sie' that once failed grounding, which the
    full-text scores of a busier database bring up: tests/unit/test_context.py)."""
    data = Path(__file__).resolve().parents[1] / "data" / "ruminate_capture"
    rows = [json.loads(line) for line in (data / "agency.jsonl").read_text().splitlines() if line.strip()]
    for row in rows:
        mind.capture(
            {k: v for k, v in row.items() if k != "supersedes"}, supersedes=row.get("supersedes", ()), wait=True
        )
    ids = {r["id"] for r in rows}
    hits, silent = [], []
    for label in json.loads((data / "labels.json").read_text())["agency.jsonl"]:
        context = mind.ruminate(label["stimulus"]).context
        cited = {i for section in context.sections for i in section.node_ids if i in ids}
        if label["kind"] == "on-topic":
            hits.append(bool(cited & set(label["relevant"])))
        else:
            silent.append(not cited)
    assert sum(hits) >= 7 and all(silent), (hits, silent)
