"""The offline LLM: behaviour registry, errors, usage, and the rumination behaviours."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from graphmind.errors import ProviderError
from graphmind.llm.base import LLM, Prompt
from graphmind.llm.grounding import ungrounded_words
from graphmind.llm.offline import MODEL, OfflineLLM, behaviours, register_behaviour, template_words
from graphmind.prompts import PROMPTS
from graphmind.prompts._models import MemoryItem, PromptModel
from graphmind.prompts.examples import CONVERSATION, RACE, SLEEP_PATCH, STEP, examples
from graphmind.prompts.ruminate import (
    CONTINUE,
    GUARD_ENDLESS_PROMPT,
    GUARD_HALLUCINATION_PROMPT,
    GUARD_PREMATURE_PROMPT,
    EndlessInput,
    FindingSummary,
    GapAnalysis,
    HallucinationInput,
    PrematureInput,
    RuminationStepInput,
)
from graphmind.text import approximate_tokens

TEMPLATE_WORDS = template_words()  # registered by graphmind.app (imported by conftest)

EXAMPLES = examples()


def assert_grounded(output: BaseModel, *sources: Any) -> None:
    """Every content word of every output string appears in the sources or the templates."""
    invented = ungrounded_words(output, sources, allowed=TEMPLATE_WORDS)
    assert not invented, f"words not found in the inputs: {invented}"


def test_the_grounding_check_catches_an_invented_word():
    class Out(PromptModel):
        text: str

    assert_grounded(Out(text="The race condition."), STEP)
    with pytest.raises(AssertionError, match="mutex"):
        assert_grounded(Out(text="The race condition needs a mutex."), STEP)


def test_offline_llm_is_an_llm():
    llm = OfflineLLM()
    assert isinstance(llm, LLM)
    assert llm.provider == "offline"


@pytest.mark.parametrize("name", sorted(n for n in PROMPTS if n in EXAMPLES))
def test_every_example_is_answered_grounded_and_deterministic(name):
    prompt, inputs = PROMPTS[name], EXAMPLES[name]
    first = OfflineLLM().generate(prompt, inputs)
    second = OfflineLLM().generate(prompt, inputs.model_copy(deep=True))
    assert isinstance(first, prompt.output_type)
    assert first == second
    assert_grounded(first, inputs)


def test_every_registered_prompt_has_a_behaviour():
    assert set(PROMPTS) <= set(behaviours())


def test_a_prompt_without_behaviour_raises_one_sentence():
    class In(PromptModel):
        text: str = "x"

    prompt = Prompt(name="nothing.here", version=1, input_type=In, output_type=In, system="s", render=lambda i: i.text)
    with pytest.raises(ProviderError) as caught:
        OfflineLLM().generate(prompt, In())
    assert caught.value.provider == "offline"
    assert str(caught.value) == (
        "the offline LLM has no behaviour for prompt nothing.here; set ANTHROPIC_API_KEY to use Claude"
    )


def test_usage_is_recorded_per_call():
    llm = OfflineLLM()
    out = llm.generate(CONTINUE, STEP)
    llm.generate(CONTINUE, STEP)
    assert llm.usage.calls == 2 and llm.usage.cost_cents == 0
    record = llm.usage.records[0]
    assert (record.provider, record.model, record.prompt) == ("offline", MODEL, "ruminate.continue@1")
    assert record.input_tokens == approximate_tokens(CONTINUE.system + "\n\n" + CONTINUE.render(STEP))
    assert record.output_tokens == approximate_tokens(out.model_dump_json())
    assert record.latency_ms >= 0


def test_inputs_given_as_a_dict_are_validated():
    out = OfflineLLM().generate(CONTINUE, STEP.model_dump())
    assert out == OfflineLLM().generate(CONTINUE, STEP)


def test_behaviours_can_be_registered_per_instance_and_globally():
    class In(PromptModel):
        text: str = "hello"

    prompt = Prompt(
        name="test_offline.echo", version=1, input_type=In, output_type=In, system="s", render=lambda i: i.text
    )

    def echo(inputs: In, tools) -> In:
        return In(text=inputs.text)

    assert OfflineLLM(behaviours={prompt.name: echo}).generate(prompt, In()).text == "hello"
    register_behaviour(prompt.name, echo)
    register_behaviour(prompt.name, echo)  # the same function again is fine
    assert OfflineLLM().generate(prompt, In(text="again")).text == "again"
    with pytest.raises(ValueError):
        register_behaviour(prompt.name, lambda inputs, tools: inputs)


# --- rumination -------------------------------------------------------------------------


def _step(**changes: Any) -> RuminationStepInput:
    return STEP.model_copy(update=changes)


def test_a_step_with_data_cites_it_and_continues_to_the_next_gap():
    out = OfflineLLM().generate(CONTINUE, STEP)
    assert out.finding.node_type == "Technical_Context"
    assert out.finding.memory_ids == ["tc-race"]
    assert "Timing bug in multi-threaded energy injection" in out.finding.synthesis
    assert out.gap_update.now_covered == ["Partnership", "Technical_Context"]
    assert out.gap_update.composite_gap_score == 0.75
    assert out.gap_update.highest_priority_gap == "Code_Reference"
    assert out.signal == "CONTINUE"
    assert out.signal_reasoning == "Gap score 0.75, Code_Reference still pulling at me..."
    assert "race" in out.internal_monologue and "didn't address root cause" in out.internal_monologue


def test_an_empty_result_is_reported_as_absence_not_invented():
    step = _step(gap=STEP.gap.model_copy(update={"priority_gap": "Code_Reference"}), query_results=[])
    out = OfflineLLM().generate(CONTINUE, step)
    assert out.finding.result == "None" and out.finding.memory_ids == []
    assert out.finding.confidence == 0.0
    assert "Code_Reference" in out.gap_update.still_missing
    assert "absence is data" in out.internal_monologue
    assert out.signal == "CONTINUE"  # one empty result is data, not the end
    assert_grounded(out, step)


def test_two_empty_results_in_a_row_crystallize():
    findings = [*STEP.findings, FindingSummary(node_type="Technical_Context", found=False)]
    step = _step(
        findings=findings, gap=STEP.gap.model_copy(update={"priority_gap": "Code_Reference"}), query_results=[]
    )
    out = OfflineLLM().generate(CONTINUE, step)
    assert out.signal == "CRYSTALLIZE"
    assert out.signal_reasoning.endswith("The last step found nothing new.")


def test_known_memories_again_crystallize():
    findings = [*STEP.findings, FindingSummary(node_type="Failed_Attempt", found=True, memory_ids=["tc-race"])]
    out = OfflineLLM().generate(CONTINUE, _step(findings=findings))
    assert out.signal == "CRYSTALLIZE"


def test_complete_coverage_or_a_spent_budget_crystallize():
    last = _step(
        gap=GapAnalysis(
            covered_types=["Partnership"],
            gap_types=["Technical_Context"],
            composite_score=0.125,
            priority_gap="Technical_Context",
        )
    )
    assert OfflineLLM().generate(CONTINUE, last).signal == "CRYSTALLIZE"
    assert OfflineLLM().generate(CONTINUE, _step(step_number=11, max_steps=12)).signal == "CRYSTALLIZE"


def test_the_sender_and_stimulus_rank_the_results():
    step = _step(query_results=[SLEEP_PATCH, CONVERSATION, RACE])
    out = OfflineLLM().generate(CONTINUE, step)
    assert out.finding.memory_ids[0] in {"conv-race", "tc-race"}
    assert_grounded(out, step)


def test_guard_rails_adjust_the_signal():
    llm = OfflineLLM()
    done = _step(
        gap=GapAnalysis(
            covered_types=["Partnership"],
            gap_types=["Technical_Context"],
            composite_score=0.125,
            priority_gap="Technical_Context",
        )
    )
    premature = llm.generate(
        GUARD_PREMATURE_PROMPT, PrematureInput(step=done, explored_count=2, unexplored=["Failed_Attempt"])
    )
    assert premature.signal == "CONTINUE" and premature.gap_update.highest_priority_gap == "Failed_Attempt"
    endless = llm.generate(GUARD_ENDLESS_PROMPT, EndlessInput(step=STEP, steps_taken=12))
    assert endless.signal == "CRYSTALLIZE" and "12 steps" in endless.signal_reasoning
    halluc = HallucinationInput(
        step=STEP, previous=EXAMPLES["ruminate.guard_hallucination"].previous, claimed_info="the mutex fix"
    )
    restated = llm.generate(GUARD_HALLUCINATION_PROMPT, halluc)
    assert "mutex" not in restated.model_dump_json()
    assert restated.internal_monologue.startswith("Restated from query results only.")


def test_memory_items_with_properties_are_grounded_by_their_text():
    item = MemoryItem(
        id="m1", label="Constraint", text="Launch deadline on Friday", properties={"severity": "critical"}
    )
    out = OfflineLLM().generate(CONTINUE, _step(query_results=[item]))
    assert out.finding.memory_ids == ["m1"]


def test_a_whole_offline_rumination_over_the_felix_mind():
    """The seed's loop, driven by the offline Dreamer: it follows the gaps and then crystallizes."""
    from graphmind.prompts._models import NODE_TYPES
    from graphmind.prompts.examples import FELIX_MEMORIES

    by_type = {t: [m for m in FELIX_MEMORIES if m.label == t] for t in NODE_TYPES}
    ranked = [
        "Technical_Context",
        "Code_Reference",
        "Failed_Attempt",
        "Conversation_Memory",
        "Constraint",
        "Emotional_State",
        "Strategy_Pattern",
    ]  # the seed's priority for this stimulus
    findings = [
        FindingSummary(
            node_type="Partnership", found=True, memory_ids=["nicolas"], synthesis=by_type["Partnership"][0].text
        )
    ]
    covered, monologue, priority = ["Partnership"], "", ranked[0]
    llm, signals = OfflineLLM(), []
    for step_number in range(12):
        gap_types = [t for t in ranked if t not in covered]
        step = RuminationStepInput(
            stimulus=STEP.stimulus,
            sender="Nicolas",
            findings=findings,
            internal_monologue=monologue,
            gap=GapAnalysis(
                covered_types=covered,
                gap_types=gap_types,
                priority_gap=priority,
                composite_score=(8 - len(covered)) / 8,
            ),
            query=f"query {priority}",
            query_results=by_type[priority],
            step_number=step_number,
        )
        out = llm.generate(CONTINUE, step)
        assert_grounded(out, step)
        signals.append(out.signal)
        findings.append(
            FindingSummary(
                node_type=priority,
                found=bool(out.finding.memory_ids),
                synthesis=out.finding.synthesis,
                memory_ids=out.finding.memory_ids,
            )
        )
        covered, monologue = list(out.gap_update.now_covered), monologue + "\n\n" + out.internal_monologue
        if out.signal == "CRYSTALLIZE":
            break
        priority = out.gap_update.highest_priority_gap
    assert signals == ["CONTINUE"] * 6 + ["CRYSTALLIZE"]
    assert set(covered) == set(NODE_TYPES) - {"Code_Reference"}
    assert out.gap_update.still_missing == ["Code_Reference"]
    assert out.gap_update.composite_gap_score == 0.125
    assert out.signal_reasoning.endswith("No unexplored gaps remain.")
    assert llm.usage.calls == 7


def test_with_the_seeds_query_tool_the_dreamer_queries_the_gap_itself():
    from graphmind.llm.base import Tool
    from graphmind.prompts.ruminate import GAP_QUERIES

    class Stimulus(PromptModel):
        stimulus: str

    assert GAP_QUERIES["Technical_Context"] == "query_technical_context"
    tool = Tool(
        name="query_technical_context",
        description="Technical_Context memories",
        input_type=Stimulus,
        call=lambda args: [{"id": RACE.id, "label": RACE.label, "text": RACE.text}],
    )
    step = _step(query_results=[], query="")
    run = OfflineLLM().run_tools(CONTINUE, step, [tool])
    assert [c.tool for c in run.calls] == ["query_technical_context"]
    assert run.calls[0].input == {"stimulus": STEP.stimulus}
    assert run.output.finding.memory_ids == ["tc-race"]
    assert run.output.finding.query == "query_technical_context()"
    assert_grounded(run.output, step, run.calls[0].output)
