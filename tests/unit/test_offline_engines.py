"""The offline behaviours of the context, dream, wander, digest and recall prompts."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from graphmind.errors import ProviderError
from graphmind.llm.base import Tool
from graphmind.llm.grounding import ungrounded_words
from graphmind.llm.offline import OfflineLLM, template_words
from graphmind.llm.replay import inputs_hash
from graphmind.prompts import get_prompt
from graphmind.prompts._models import MemoryItem, PromptModel
from graphmind.prompts.context import ContextInput
from graphmind.prompts.digest import CrossPollinationInput, DigestEntry, ForgottenEntry, ForgottenInput, TopicSample
from graphmind.prompts.dream import (
    AbstractionInput,
    ConnectionInput,
    ContradictionInput,
    ExperienceItem,
    PatternExtractionInput,
    PatternItem,
    SubsumptionInput,
    render_extract,
)
from graphmind.prompts.examples import (
    FELIX_MEMORIES,
    IDENTITY,
    INSTRUMENT,
    RACE,
    REPRODUCE,
    SLEEP_PATCH,
    STIMULUS,
    STRATEGY,
    examples,
)
from graphmind.prompts.recall import RecallQuestion
from graphmind.prompts.wander import CrystalCheckInput, CrystalInput, LocusItem, ResonanceInput

TEMPLATE_WORDS = template_words()  # registered by graphmind.app (imported by conftest)

EXAMPLES = examples()


def assert_grounded(output: BaseModel, *sources: Any) -> None:
    """Every content word of every output string appears in the sources or the templates."""
    invented = ungrounded_words(output, sources, allowed=TEMPLATE_WORDS)
    assert not invented, f"words not found in the inputs: {invented}"


def run(name: str, inputs: BaseModel) -> Any:
    out = OfflineLLM().generate(get_prompt(name), inputs)
    assert out == OfflineLLM().generate(get_prompt(name), inputs)
    assert_grounded(out, inputs)
    return out


# --- context ------------------------------------------------------------------------------


def test_the_context_sections_follow_the_spec_example():
    out = run("context.compose", EXAMPLES["context.compose"])
    assert out.identity.startswith(
        "Felix, runtime engineer focused on validation testing. Partner to "
        "Nicolas for 8 months, shared history includes €35K hallucination "
        "lesson and Venice collaboration."
    )
    assert "Trust level: High (0.9/1.0)" in out.identity
    assert out.current_situation.startswith('Nicolas says: "Hey Felix, the race condition is back."')
    assert "This is recurrence #3" in out.current_situation
    assert out.relevant_history.startswith("Nov 15, 2024: stimulus_integrator race condition")
    assert "Success Rate: 85%" in out.strategic_direction
    assert "- ❌ Added sleep(0.001) between injections" in out.strategic_direction
    assert out.emotional_resonance.startswith("I feel frustration (0.8/1.0) about this situation.")
    assert "Component: stimulus_integrator.py" in out.technical_context
    assert "- Deadline: Nov 25, 2024 23:59 UTC" in out.constraints
    assert set(out.cited_ids) == {m.id for m in FELIX_MEMORIES}


def test_missing_sections_say_so_instead_of_inventing():
    inputs = ContextInput(stimulus=STIMULUS, sender="Marco", identity=IDENTITY, memories=[RACE])
    out = run("context.compose", inputs)
    assert "No partnership data found." in out.identity
    assert out.strategic_direction == "No strategy data found in the graph."
    assert out.constraints == "No constraints found in the graph."
    assert out.cited_ids == ["tc-race"]


# --- dream --------------------------------------------------------------------------------


def test_pattern_extraction_computes_from_the_cluster():
    out = run("dream.extract_pattern", EXAMPLES["dream.extract_pattern"])
    assert out.name == "systematic debugging"
    assert out.pattern_type == "strategy"
    assert out.success_rate == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    assert "When the race condition reappeared" in out.conditions
    assert "sleep patch" not in out.actions  # a failed strategy is not an action to take
    assert out.example_ids[0] == "exp-1"


def test_an_error_cluster_has_no_success_rate_and_a_shared_phrase_name():
    errors = [
        ExperienceItem(
            id=f"e{i}",
            outcome="failure",
            kind="error",
            description=f"Cell {i} had zero candidates after the move, so I backtracked.",
        )
        for i in range(3)
    ]
    out = run("dream.extract_pattern", PatternExtractionInput(experiences=errors))
    assert out.success_rate is None
    assert "zero candidates after the move" in out.name
    assert out.pattern_type == "technique"


def test_an_unnamed_cluster_is_named_by_its_most_typical_member_without_particular_names():
    """No strategy name and no phrase every member holds: the main clause of the member sharing
    most terms with the others, from the texts without the batch's names (``action``), not its
    most shared terms side by side."""
    texts = [
        ("Dry hopped warm at 18C on the pale ale, gravity crept up two points", "pale ale"),
        ("dry hopped the stout warm and the hop creep raised the gravity", "stout"),
        ("hop creep again on the lager after dry hopping it warm at 20C", "lager"),
    ]
    items = [
        ExperienceItem(id=f"h{i}", outcome="progress", description=d, action=" ".join(d.replace(beer, "").split()))
        for i, (d, beer) in enumerate(texts)
    ]
    out = run("dream.extract_pattern", PatternExtractionInput(experiences=items))
    assert out.name == "dry hopped the warm and the hop creep raised the gravity"
    assert not any(beer in x for x in [out.name, *out.conditions, *out.actions] for _, beer in texts)
    bare = [item.model_copy(update={"action": None}) for item in items]  # without: the descriptions
    assert "stout" in run("dream.extract_pattern", PatternExtractionInput(experiences=bare)).name
    assert '"action"' not in render_extract(PatternExtractionInput(experiences=items))  # an LLM reads the capture
    assert inputs_hash(PatternExtractionInput(experiences=items)) == inputs_hash(
        PatternExtractionInput(experiences=bare)
    )


def test_connections_follow_the_rules():
    assert run("dream.connect", ConnectionInput(a=INSTRUMENT, b=REPRODUCE)).kind == "prerequisite"
    prereq = run("dream.connect", ConnectionInput(a=INSTRUMENT, b=REPRODUCE))
    assert (prereq.from_id, prereq.to_id) == ("pat-reproduce", "pat-instrument")
    base = PatternItem(
        id="p1", description="Place a digit", conditions=["cell has one candidate"], actions=["place the digit"]
    )
    other = PatternItem(
        id="p2", description="Guess a digit", conditions=["cell has one candidate left"], actions=["backtrack later"]
    )
    assert run("dream.connect", ConnectionInput(a=base, b=other)).kind == "alternative"
    narrower = base.model_copy(
        update={
            "id": "p3",
            "conditions": ["cell has one candidate inside its column"],
            "actions": ["place the digit now"],
        }
    )
    refined = run("dream.connect", ConnectionInput(a=narrower, b=base))
    assert (refined.kind, refined.from_id, refined.to_id) == ("refinement", "p1", "p3")
    unrelated = PatternItem(id="p4", description="Rest", conditions=["tired"], actions=["sleep"])
    done = run("dream.connect", ConnectionInput(a=base, b=unrelated))
    assert done.kind == "complement" and done.strength == 0.0


def test_verification_uses_the_seed_messages():
    ok = run("dream.subsumes", EXAMPLES["dream.subsumes"])
    assert ok.subsumes and ok.message == "Vertical consistency verified"
    lone = PatternItem(id="p-x", description="Venice collaboration")
    bad = run("dream.subsumes", SubsumptionInput(level=3, higher=REPRODUCE, lower=[INSTRUMENT, lone]))
    assert not bad.subsumes and bad.uncovered_ids == ["p-x"]
    assert bad.message.startswith('Level 3 pattern "Reproduce a recurring race condition')
    clash = run("dream.contradicts", EXAMPLES["dream.contradicts"])
    assert clash.contradicts and clash.message.endswith("contradict")
    calm = run("dream.contradicts", ContradictionInput(a=REPRODUCE, b=INSTRUMENT))
    assert not calm.contradicts and calm.message == "No contradictions found"


def test_abstraction_names_come_from_the_members():
    out = run("dream.name_abstraction", EXAMPLES["dream.name_abstraction"])
    assert out.member_ids == ["pat-reproduce", "pat-instrument"]
    assert "Subsumes:" in out.generalization


def test_a_category_is_named_by_a_key_phrase_its_members_names_share():
    """A key phrase within two members' own names is what they share ("Flight"), not one
    member reworded; before, the fallback named this category by a stray word ("Please")."""
    members = [
        PatternItem(id="p1", description="flight: Please tell me the status of my flight"),
        PatternItem(id="p2", description="flight flights april: Please find flights for april"),
        PatternItem(id="p3", description="visa: Please check whether I need a visa"),
    ]
    named = run("dream.name_abstraction", AbstractionInput(level=2, members=members, key_phrases=["Flight", "Visa"]))
    assert named.name == "Flight"
    lone = run("dream.name_abstraction", AbstractionInput(level=2, members=members[:1], key_phrases=["Flight"]))
    assert lone.name != "Flight"  # a chain over one member is not named by rewording it
    stray = run("dream.name_abstraction", AbstractionInput(level=2, members=members[::2], key_phrases=["Flight"]))
    assert stray.name.casefold() != "please"  # the fallback leaves stopwords out
    services = [
        PatternItem(id="s1", description="flag off: Switched the beta flag off for checkout-service"),
        PatternItem(id="s2", description="cache purge: Purged the CDN cache in front of checkout-service"),
    ]
    named = run("dream.name_abstraction", AbstractionInput(level=2, members=services))
    assert "checkout" not in named.name.casefold()  # no service above level 1, even as the fallback
    worn = [
        PatternItem(id="w1", description="cones: Cones gone again, regreased the hub"),
        PatternItem(id="w2", description="pawls: Pawls gone, regreased the freehub"),
    ]
    named = run("dream.name_abstraction", AbstractionInput(level=2, members=worn))
    assert named.name.casefold() != "gone", named  # a verb that says nothing of what was done


# --- wander -------------------------------------------------------------------------------


def test_dwelling_extracts_from_the_neighbouring_memories():
    out = run("wander.dwell", EXAMPLES["wander.dwell"])
    assert out.connection.startswith("Both race condition and launch deadline appear in con-launch:")
    assert "didn't address root cause" in out.tension
    assert out.bridge.startswith("concurrency ↔ project management")
    assert 3 <= len(out.themes) <= 5 and "race" in out.themes
    assert 0 <= out.interestingness <= 1 and out.actionability == 1.0
    assert "con-launch" in out.memory_ids


def test_dwelling_without_memories_is_honest():
    inputs = EXAMPLES["wander.dwell"].model_copy(update={"memories": []})
    out = run("wander.dwell", inputs)
    assert out.tension == "No tension found in the memories given."
    assert out.actionability == 0.0 and out.memory_ids == []


def test_resonance_by_theme_overlap():
    out = run("wander.resonance", EXAMPLES["wander.resonance"])
    assert [m.resonance_id for m in out.matches] == ["resonance-root-cause"]
    assert out.matches[0].shared_themes == ["root cause"]
    assert out.new_themes == ["deadline", "launch"]
    nothing = EXAMPLES["wander.resonance"].model_copy(update={"candidates": []})
    assert run("wander.resonance", ResonanceInput.model_validate(nothing.model_dump())).matches == []


def test_crystals_need_evidence():
    out = run("wander.crystallize", EXAMPLES["wander.crystallize"])
    assert out.formed and "root cause" in out.insight
    assert out.evidence_ids == ["fa-sleep", "tc-race"] and out.domains == ["concurrency"]  # memories only
    one = EXAMPLES["wander.crystallize"].model_copy(update={"memories": [SLEEP_PATCH]})
    assert not run("wander.crystallize", one).formed  # a crystal connects two memories at least
    thin = CrystalInput(
        locus=LocusItem(id="l", concept="x"),
        resonances=EXAMPLES["wander.crystallize"].resonances,
        residues=[],
        memories=[],
    )
    assert not run("wander.crystallize", thin).formed


def test_crystal_validation_counts_supported_terms():
    out = run("wander.validate_crystal", EXAMPLES["wander.validate_crystal"])
    assert out.holds and out.unsupported == ["patches"]
    invented = CrystalCheckInput(insight="Quantum annealing solves scheduling entirely.", evidence=[RACE])
    bad = run("wander.validate_crystal", invented)
    assert not bad.holds and bad.confidence == 0.0


# --- digest -------------------------------------------------------------------------------


def test_cross_pollination_links_entries_across_topics():
    out = run("digest.cross_pollination", EXAMPLES["digest.cross_pollination"])
    assert not out.nothing_found
    assert out.links[0].entry_ids == ["dp-1", "ca-1"]
    assert out.links[0].shared_terms == ["constraints", "emergence", "shape"]


def test_cross_pollination_finds_contradictions_and_reports_nothing():
    samples = [
        TopicSample(topic="a", entries=[DigestEntry(id="a1", text="Memory decay is useful pruning.")]),
        TopicSample(topic="b", entries=[DigestEntry(id="b1", text="Memory decay is not useful.")]),
    ]
    out = run("digest.cross_pollination", CrossPollinationInput(samples=samples))
    assert out.links[0].kind == "contradiction"
    far = [
        TopicSample(topic="a", entries=[DigestEntry(id="a1", text="Sonnets rhyme.")]),
        TopicSample(topic="b", entries=[DigestEntry(id="b1", text="Locks guard threads.")]),
    ]
    nothing = run("digest.cross_pollination", CrossPollinationInput(samples=far))
    assert nothing.nothing_found and nothing.links == []


def test_convergence_merges_threads_with_three_shared_concepts():
    out = run("digest.convergence", EXAMPLES["digest.convergence"])
    assert len(out.pairs) == 1
    pair = out.pairs[0]
    assert pair.thread_ids == ["th-constraints", "th-interface"]
    assert pair.shared_concepts == ["Framing", "Emergence", "Pattern Language"]
    assert pair.action == "merge" and pair.touches == ["design-philosophy", "agent-architecture"]


def test_forgotten_entries_are_absorbed_reconnected_or_left_to_fade():
    out = run("digest.forgotten", EXAMPLES["digest.forgotten"])
    status = {r.entry_id: r.status for r in out.reviews}
    assert status == {"fg-1": "absorbed", "fg-2": "reconnect", "fg-3": "reconnect", "fg-4": "fade"}
    assert [r.entry_id for r in out.reviews][0] == "fg-4"  # oldest first
    lone = ForgottenInput(entries=[ForgottenEntry(id="x", topic="t", text="Lipogram.", age_days=8)])
    assert run("digest.forgotten", lone).reviews[0].status == "fade"


# --- recall -------------------------------------------------------------------------------


class Search(PromptModel):
    query: str
    k: int = 5


def _search_tool(hits: list[dict[str, Any]]) -> Tool:
    return Tool(
        name="recall",
        description="search the mind",
        input_type=Search,
        call=lambda args: {"query": args.query, "hits": hits},
    )


def test_recall_answers_extractively_with_citations():
    out = run("recall.answer", EXAMPLES["recall.answer"])
    assert out.found and out.cited_ids[0] == "fa-sleep"
    assert "Didn't address root cause" in out.answer and "[fa-sleep]" in out.answer


def test_recall_calls_the_tools_and_answers_from_what_they_return():
    hits = [{"id": m.id, "label": m.label, "text": m.text, "score": 0.5} for m in (STRATEGY, SLEEP_PATCH)]
    question = RecallQuestion(question="Which strategy works for race conditions?")
    run_ = OfflineLLM().run_tools(get_prompt("recall.answer"), question, [_search_tool(hits)])
    assert [c.tool for c in run_.calls] == ["recall"]
    assert run_.calls[0].input == {"query": "Which strategy works for race conditions?", "k": 5}
    assert run_.output.cited_ids == ["sp-debug"]
    assert_grounded(run_.output, question, run_.calls[0].output)


def test_recall_without_an_answer_says_so():
    question = RecallQuestion(question="What is the capital of France?", memories=[RACE])
    out = run("recall.answer", question)
    assert not out.found and out.cited_ids == []
    assert out.answer == "No memories found that answer: What is the capital of France?"


def test_tools_are_limited_to_max_turns():
    def loop(inputs: RecallQuestion, tools):
        for _ in range(3):
            tools[0].call({"query": inputs.question})
        return get_prompt("recall.answer").output_type(answer="x", found=False)

    llm = OfflineLLM(behaviours={"recall.answer": loop})
    with pytest.raises(ProviderError, match="more than 2 times"):
        llm.run_tools(get_prompt("recall.answer"), RecallQuestion(question="q"), [_search_tool([])], max_turns=2)


def test_memory_items_from_models_are_parsed():
    class Hit(BaseModel):
        id: str
        text: str

    tool = Tool(
        name="find", description="d", input_type=Search, call=lambda a: [Hit(id="h1", text="Race window found.")]
    )
    run_ = OfflineLLM().run_tools(get_prompt("recall.answer"), RecallQuestion(question="race window"), [tool])
    assert run_.output.cited_ids == ["h1"]
    assert MemoryItem(id="h1", text="x").id == "h1"


def test_a_pattern_takes_its_conditions_from_where_it_worked():
    """A failed case's circumstances are not when to apply what worked (a new user found "after
    an hour → his gut motility returned", the condition taken from a failure)."""
    items = [
        ExperienceItem(
            id="e0",
            outcome="success",
            description="When the rabbit stopped eating, gave fluids and gut motility returned",
        ),
        ExperienceItem(
            id="e1", outcome="success", description="When the ferret was dehydrated, gave fluids and it perked up"
        ),
        ExperienceItem(
            id="e2",
            outcome="failure",
            description="After an hour the fluids had not absorbed, so we switched to a drip",
        ),
    ]
    out = run("dream.extract_pattern", PatternExtractionInput(experiences=items))
    assert out.conditions and not any("hour" in c for c in out.conditions), out.conditions
    failed = run("dream.extract_pattern", PatternExtractionInput(experiences=items[2:]))
    assert any("hour" in c for c in failed.conditions)  # never worked: where it fails


def test_a_pattern_of_failures_states_no_failed_action_as_what_to_do():
    """A review found three failures giving "X: When the pump ran hot → we restarted it with the
    valve closed": the action of a failure is no THEN."""
    items = [
        ExperienceItem(
            id=f"f{i}", outcome="failure", description=f"When the pump was running hot, we restarted it {how}"
        )
        for i, how in enumerate(["with the valve closed", "twice in a row", "after an hour"])
    ]
    out = run("dream.extract_pattern", PatternExtractionInput(experiences=items))
    assert not any("restarted" in a for a in out.actions), out.actions
