"""Every registered prompt is named, versioned, typed and renders; seed text is kept verbatim."""

from __future__ import annotations

import re
from pathlib import Path

import pydantic
import pytest
from pydantic import BaseModel

from graphmind.errors import NotFoundError
from graphmind.prompts import PROMPTS, get_prompt
from graphmind.prompts.examples import examples

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"
EXAMPLES = examples()


def _example(name: str) -> BaseModel:
    if name in EXAMPLES:
        return EXAMPLES[name]
    return PROMPTS[name].input_type()  # a prompt of another module whose input has defaults


def _text(name: str) -> str:
    prompt = PROMPTS[name]
    return prompt.system + "\n" + prompt.render(_example(name))


@pytest.mark.parametrize("name", sorted(PROMPTS))
def test_prompt_is_named_versioned_typed_and_renders(name):
    prompt = PROMPTS[name]
    assert re.fullmatch(r"[a-z_]+\.[a-z_]+", prompt.name)
    assert prompt.name == name and prompt.key == f"{name}@{prompt.version}"
    assert prompt.version >= 1
    assert issubclass(prompt.input_type, BaseModel) and issubclass(prompt.output_type, BaseModel)
    assert prompt.system.strip()
    rendered = prompt.render(_example(name))
    assert isinstance(rendered, str) and rendered.strip()


@pytest.mark.parametrize("name", sorted(n for n in PROMPTS if not n.startswith("llm.")))
def test_prompt_models_are_frozen_and_strict(name):
    prompt = PROMPTS[name]
    example = EXAMPLES[name]
    assert isinstance(example, prompt.input_type)
    for model in (prompt.input_type, prompt.output_type):
        assert model.model_config.get("frozen") is True
        assert model.model_config.get("extra") == "forbid"
    with pytest.raises(pydantic.ValidationError):
        prompt.input_type.model_validate({**example.model_dump(), "unexpected": 1})


def test_get_prompt_finds_a_prompt_and_names_an_unknown_one():
    assert get_prompt("ruminate.continue") is PROMPTS["ruminate.continue"]
    with pytest.raises(NotFoundError, match="no prompt named 'ruminate.nope'"):
        get_prompt("ruminate.nope")


def test_unit_ranges_and_enums_are_validated():
    from graphmind.prompts.ruminate import GapAnalysis

    with pytest.raises(pydantic.ValidationError):
        GapAnalysis(composite_score=1.5)
    with pytest.raises(pydantic.ValidationError):
        GapAnalysis(composite_score=0.5, priority_gap="Feelings")


def test_the_continuation_follows_the_seed_structure():
    from graphmind.prompts.ruminate import CONTINUE, GapAnalysis, RuminationStepInput

    step = EXAMPLES["ruminate.continue"]
    text = CONTINUE.render(step)
    assert text.startswith("[DREAMER CONTINUATION]\n\nYou've been exploring this stimulus:\n\"Hey Felix")
    assert "- Partnership: Found data - Nicolas" in text
    assert "- Composite gap score: 0.88" in text
    assert "There's tension here. You have relational context but no technical landscape." in text
    assert "The graph has Technical_Context nodes but you haven't explored that angle yet." in text
    assert "[tc-race] (Technical_Context) stimulus_integrator.py" in text
    done = RuminationStepInput(stimulus="x", gap=GapAnalysis(composite_score=0.0))
    assert "All node types have been explored. But is there still tension?" in CONTINUE.render(done)


def test_guard_rails_fill_their_placeholders():
    text = _text("ruminate.guard_premature")
    assert "You've signaled crystallization but only explored 2 lenses." in text
    assert "- Failed_Attempt\n- Emotional_State" in text
    assert 'You referenced "the mutex fix of last week"' in _text("ruminate.guard_hallucination")
    assert "You've been ruminating for 12 steps." in _text("ruminate.guard_endless")


P02 = "P02-dreamer-rumination.md"
ZH = "rumination-digest-proposal.zh.md"
FIDELITY: dict[str, tuple[str, list[str]]] = {
    "ruminate.continue": (
        P02,
        [
            "## Rumination Process\n\nYou are engaged in multi-step rumination. This is NOT:",
            "Output [CRYSTALLIZE] when:\n- All relevant gaps have been explored\n"
            "- Tension has stabilized (not resolved - stabilized)",
            "Don't invent what's not there. Report the gap.",
            "You have facts but no feelings. How does this feel? What emotions are\n"
            "present? What does the feeling tell you about what matters here?\nQuery: query_emotional_state()",
            "That's the gap. That's what's pulling at you.\n\nQuery the graph to follow this tension. "
            "What do you find?",
            "Remember: You're not searching for answers. You're following tension.\n"
            "The gap IS the guide. Finding nothing is valid data - it tells you the graph\n"
            "doesn't have that perspective for this situation.",
            "4. Signal: [CONTINUE] if tension remains high, [CRYSTALLIZE] if stabilized",
        ],
    ),
    "ruminate.stuck": (
        P02,
        ["You said continue but didn't explore. What's pulling at you? If nothing, it may be time to crystallize."],
    ),
    "ruminate.guard_mechanical": (
        P02,
        [
            "[GUARD RAIL ACTIVATION]\n\nYour exploration seems mechanical. You're going through motions,\n"
            "not dwelling with the problem.",
            "Rumination isn't retrieval. It's being-with. Take a breath. Let the\n"
            "findings sit with you. Then continue.",
        ],
    ),
    "ruminate.guard_premature": (
        P02,
        [
            "Minimum exploration is 8 lenses.\n\nThere are perspectives you haven't considered:",
            "Continue exploring. The premature urge to crystallize is often\n"
            "avoidance of uncertainty. Sit with it longer.",
        ],
    ),
    "ruminate.guard_endless": (
        P02,
        [
            "At some point, more exploration becomes avoidance of crystallization.\n"
            "The picture doesn't need to be complete - it needs to be coherent enough\n"
            "for the Driver to work with.",
            "It's time to crystallize. What shape has emerged from your exploration?",
        ],
    ),
    "ruminate.guard_hallucination": (
        P02,
        [
            "but this wasn't in your query results.\n\nThe Dreamer can only know what the graph contains.",
            "Restate your finding using only actual query results.",
        ],
    ),
    "dream.extract_pattern": (
        "dreaming-pipeline-spec.md",
        [
            "puzzle-solving experiences and extract a common pattern.",
            "\n\n      Experiences:\n",
            "Extract:\n      1. Pattern name (short, descriptive)\n      2. Conditions (when to apply)\n"
            "      3. Actions (what to do)\n      4. Success rate (calculate from examples)",
        ],
    ),
    "wander.dwell": (
        "wander-technical-spec.md",
        [
            "You are dwelling at a point in idea space, reflecting on an encounter between two concepts.",
            "ACTIVE RESONANCES (patterns we've seen before):",
            "Reflect on this encounter. For each question, provide a concise response (1-2 sentences):",
            "1. CONNECTION: What links these two concepts? What do they share?\n"
            "2. TENSION: Where do they conflict or create productive friction?",
            "5. POSSIBILITY: What new concept or insight might emerge from this encounter?",
            "- ACTIONABILITY: Rate 0.0-1.0 how actionable insights here might be",
            '  "interestingness": 0.X,\n  "actionability": 0.X\n}',
        ],
    ),
    "wander.validate_crystal": ("wander-technical-spec.md", ["Does this insight hold? '"]),
    "wander.dwell_rlm": (
        "wander-technical-spec.md",
        [
            "You are a Wander dweller exploring idea space. You have access to a REPL",
            "- query_similar(embedding, k=10) -> List[dict]: Find similar loci",
            '- llm_query(prompt, context="") -> str: Spawn sub-LLM to analyze context',
            "IMPORTANT: Do NOT try to print or analyze large amounts of memory directly.",
            "When ready to provide your dwelling output, use FINAL():",
            "1. CONNECTION: What links these two concepts? What do they share?",
        ],
    ),
    "wander.sub_query": ("wander-technical-spec.md", ["You are a helpful assistant analyzing a chunk of context."]),
    "digest.cross_pollination": (
        ZH,
        [
            "## Cross-Pollination Digest\nHere are random entries from your knowledge. Look for hidden connections:\n",
            "<rumination-digest>\n",
            "\n</rumination-digest>",
            "### Reflect: Cross-Pollination Digest\n\n反思時做一次 cross-pollination：",
            "   - 有沒有表面不同但結構相同的模式（同構）？\n   - 有沒有互相矛盾的觀點？矛盾本身是不是洞見？",
            "5. 什麼都沒找到 → 那也是有用的信號：可能這些知識太散了",
        ],
    ),
    "digest.convergence": (
        ZH,
        [
            'Threads "',
            '" share concepts: ',
            "### Reflect: Thread Convergence Check\n\n每次 reflect 時檢查 active threads 的交叉：",
            "3. 如果兩個 threads 有 3+ 個共享概念 → 考慮合併\n4. 合併不是刪除，是升級 — 寫出包含兩者的更高層框架",
        ],
    ),
    "digest.forgotten": (
        ZH,
        [
            "<forgotten-knowledge>\n",
            "\n</forgotten-knowledge>",
            "d ago] ",
            "### Reflect: Decay Review（每週一次）",
            "   - 這條知識已經被吸收進 My Thoughts 或某個 thread 了嗎？→ 標記 absorbed",
            "4. 目標不是刪除，是確認消化狀態",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(FIDELITY))
def test_seed_text_is_kept_verbatim(name):
    seed_file, sentences = FIDELITY[name]
    path = SEEDS / seed_file
    if not path.exists():
        pytest.skip(f"seed {seed_file} is not beside the checkout")
    seed = path.read_text(encoding="utf-8")
    text = _text(name)
    for sentence in sentences:
        in_seed = sentence in seed or sentence.replace("\n", "\\n") in seed  # TS strings escape \n
        assert in_seed, f"not a seed sentence: {sentence!r}"
        assert sentence in text, f"{name} lost the seed sentence {sentence!r}"


def test_every_seed_derived_prompt_has_a_fidelity_check():
    seed_derived = {n for n in PROMPTS if n.split(".")[0] in {"ruminate", "dream", "wander", "digest"}}
    written_here = {
        "dream.name_abstraction",
        "dream.group_level",
        "dream.connect",
        "dream.subsumes",
        "dream.contradicts",
        "wander.resonance",
        "wander.crystallize",
    }
    assert seed_derived <= set(FIDELITY) | written_here


@pytest.mark.parametrize("name", sorted(PROMPTS))
def test_output_types_have_a_json_schema_for_structured_output(name):
    schema = PROMPTS[name].output_type.model_json_schema()
    assert schema["type"] == "object" and schema["properties"]
