"""A worked example input for every prompt, drawn from the seeds' Felix mind.

Felix is a runtime engineer; Nicolas reports that the stimulus_integrator race condition is
back. The examples are used by the tests, the contract suite and the documentation; each
value comes from the seeds' own examples.
"""

from __future__ import annotations

from pydantic import BaseModel

from graphmind.prompts._models import MemoryItem
from graphmind.prompts.context import ContextInput
from graphmind.prompts.digest import ConvergenceInput, CrossPollinationInput, ForgottenInput
from graphmind.prompts.dream import (
    AbstractionInput,
    ConnectionInput,
    ContradictionInput,
    GroupingInput,
    PatternExtractionInput,
    SubsumptionInput,
)
from graphmind.prompts.examples_engines import DEBUGGING as DEBUGGING
from graphmind.prompts.examples_engines import DIGEST_SAMPLES as DIGEST_SAMPLES
from graphmind.prompts.examples_engines import EXPERIENCES as EXPERIENCES
from graphmind.prompts.examples_engines import FORGOTTEN as FORGOTTEN
from graphmind.prompts.examples_engines import IDENTITY as IDENTITY
from graphmind.prompts.examples_engines import INSTRUMENT as INSTRUMENT
from graphmind.prompts.examples_engines import LAUNCH_LOCUS as LAUNCH_LOCUS
from graphmind.prompts.examples_engines import MY_THOUGHTS as MY_THOUGHTS
from graphmind.prompts.examples_engines import RACE_LOCUS as RACE_LOCUS
from graphmind.prompts.examples_engines import REPRODUCE as REPRODUCE
from graphmind.prompts.examples_engines import RESIDUES as RESIDUES
from graphmind.prompts.examples_engines import ROOT_CAUSE as ROOT_CAUSE
from graphmind.prompts.examples_engines import SLEEP as SLEEP
from graphmind.prompts.examples_engines import THREADS as THREADS
from graphmind.prompts.examples_engines import VENICE as VENICE
from graphmind.prompts.recall import RecallQuestion
from graphmind.prompts.ruminate import (
    EndlessInput,
    FindingSummary,
    GapAnalysis,
    GapUpdate,
    HallucinationInput,
    MechanicalInput,
    PrematureInput,
    RuminationStepInput,
    RuminationStepOutput,
    StepFinding,
    StuckInput,
)
from graphmind.prompts.wander import (
    CrystalCheckInput,
    CrystalInput,
    DwellInput,
    ResonanceInput,
    RlmDwellInput,
    SubQueryInput,
)

STIMULUS = "Hey Felix, the race condition is back."

NICOLAS = MemoryItem(
    id="nicolas",
    label="Partnership",
    text="Nicolas — Direct, technical, values testing over claims — €35K hallucination lesson; Venice collaboration",
    properties={
        "partner_name": "Nicolas",
        "duration": "8 months",
        "trust_level": 0.9,
        "communication_style": "Direct, technical, values testing over claims",
        "shared_history": ["€35K hallucination lesson", "Venice collaboration"],
    },
)
RACE = MemoryItem(
    id="tc-race",
    label="Technical_Context",
    text="stimulus_integrator.py — race condition — Timing bug in multi-threaded energy injection. "
    "Previous fixes didn't address root cause; this is recurrence #3.",
    properties={
        "component": "stimulus_integrator.py",
        "issue_type": "race condition",
        "description": "Timing bug in multi-threaded energy injection",
        "status": "investigating",
        "recurrence_count": 3,
    },
)
SLEEP_PATCH = MemoryItem(
    id="fa-sleep",
    label="Failed_Attempt",
    text="Added sleep(0.001) between injections — Didn't address root cause, just reduced probability",
    properties={
        "approach": "Added sleep(0.001) between injections",
        "why_failed": "Didn't address root cause, just reduced probability",
    },
)
CONVERSATION = MemoryItem(
    id="conv-race",
    label="Conversation_Memory",
    text="stimulus_integrator race condition — Third recurrence of timing bug; Previous fixes didn't "
    "address root cause; Agreed on systematic debugging approach — In progress - investigating "
    "lock granularity",
    properties={
        "topic": "stimulus_integrator race condition",
        "timestamp": "2024-11-15T10:00:00Z",
        "message_count": 10,
        "emotional_tone": "Frustrated but determined",
        "key_points": [
            "Third recurrence of timing bug",
            "Previous fixes didn't address root cause",
            "Agreed on systematic debugging approach",
        ],
        "outcome": "In progress - investigating lock granularity",
    },
)
FRUSTRATION = MemoryItem(
    id="emo-frustration",
    label="Emotional_State",
    text="frustration — Bug recurrence represents unfinished work and wasted previous effort — "
    "Known issue returning unexpectedly after attempted fix — Determination - we've solved "
    "harder problems before",
    properties={
        "emotion": "frustration",
        "intensity": 0.8,
        "context": "Bug recurrence represents unfinished work and wasted previous effort",
        "counterbalance": "Determination - we've solved harder problems before",
        "trigger": "Known issue returning unexpectedly after attempted fix",
    },
)
STRATEGY = MemoryItem(
    id="sp-debug",
    label="Strategy_Pattern",
    text="Systematic debugging for concurrency issues — Race conditions, timing bugs, concurrency "
    "issues — Reproduce consistently before attempting fix; Add timing instrumentation to "
    "identify race window",
    properties={
        "approach": "Systematic debugging for concurrency issues",
        "success_rate": 0.85,
        "applicability": "Race conditions, timing bugs, concurrency issues",
        "steps": [
            "Reproduce consistently before attempting fix",
            "Add timing instrumentation to identify race window",
            "Review recent threading changes for timing assumptions",
            "Check criticality calculations for lock granularity",
        ],
    },
)
DEADLINE = MemoryItem(
    id="con-launch",
    label="Constraint",
    text="deadline — Must ship stable version for public launch — Cannot launch with known race "
    "conditions - reputation damage",
    properties={
        "constraint_type": "deadline",
        "severity": "critical",
        "description": "Must ship stable version for public launch",
        "deadline": "2024-11-25T23:59:00Z",
        "impact": "Cannot launch with known race conditions - reputation damage",
    },
)
FELIX_MEMORIES = (NICOLAS, CONVERSATION, RACE, FRUSTRATION, STRATEGY, SLEEP_PATCH, DEADLINE)

STEP = RuminationStepInput(
    stimulus=STIMULUS,
    sender="Nicolas",
    findings=[
        FindingSummary(
            node_type="Partnership",
            found=True,
            memory_ids=["nicolas"],
            synthesis="Nicolas — Direct, technical, values testing over claims",
        )
    ],
    internal_monologue="Nicolas. This is coming from Nicolas. That changes how I receive it.",
    gap=GapAnalysis(
        covered_types=["Partnership"],
        gap_types=[
            "Technical_Context",
            "Code_Reference",
            "Failed_Attempt",
            "Conversation_Memory",
            "Constraint",
            "Emotional_State",
            "Strategy_Pattern",
        ],
        composite_score=0.875,
        priority_gap="Technical_Context",
    ),
    query="query_technical_context()",
    query_results=[RACE],
    step_number=1,
)


PREVIOUS_STEP = RuminationStepOutput(
    finding=StepFinding(
        node_type="Technical_Context",
        gap_explored="Technical_Context",
        query="query_technical_context()",
        result="1 memory: tc-race",
        synthesis="stimulus_integrator.py — race condition",
        memory_ids=["tc-race"],
        confidence=0.8,
    ),
    gap_update=GapUpdate(
        now_covered=["Partnership", "Technical_Context"],
        still_missing=["Code_Reference", "Failed_Attempt"],
        composite_gap_score=0.75,
        highest_priority_gap="Failed_Attempt",
    ),
    internal_monologue="Race condition. Found it.",
    signal="CONTINUE",
    signal_reasoning="Gap score 0.75",
)


def _ruminate_examples() -> dict[str, BaseModel]:
    previous = PREVIOUS_STEP
    return {
        "ruminate.continue": STEP,
        "ruminate.stuck": StuckInput(step=STEP),
        "ruminate.guard_mechanical": MechanicalInput(step=STEP, previous=previous),
        "ruminate.guard_premature": PrematureInput(
            step=STEP, explored_count=2, unexplored=["Failed_Attempt", "Emotional_State"]
        ),
        "ruminate.guard_endless": EndlessInput(step=STEP, steps_taken=12),
        "ruminate.guard_hallucination": HallucinationInput(
            step=STEP, previous=previous, claimed_info="the mutex fix of last week"
        ),
    }


def examples() -> dict[str, BaseModel]:
    """An example input for every prompt that has one, by prompt name."""
    return {
        **_ruminate_examples(),
        "context.compose": ContextInput(
            stimulus=STIMULUS, sender="Nicolas", identity=IDENTITY, memories=list(FELIX_MEMORIES)
        ),
        "dream.extract_pattern": PatternExtractionInput(experiences=list(EXPERIENCES)),
        "dream.name_abstraction": AbstractionInput(level=2, members=[REPRODUCE, INSTRUMENT], domain="debugging"),
        "dream.group_level": GroupingInput(
            level=2,
            items=[REPRODUCE, INSTRUMENT, SLEEP],
            proposal=[[REPRODUCE.id, SLEEP.id], [INSTRUMENT.id]],
            domain="debugging",
        ),
        "dream.connect": ConnectionInput(a=REPRODUCE, b=INSTRUMENT, similarity=0.7),
        "dream.subsumes": SubsumptionInput(level=2, higher=DEBUGGING, lower=[REPRODUCE, INSTRUMENT]),
        "dream.contradicts": ContradictionInput(a=REPRODUCE, b=SLEEP),
        "wander.dwell": DwellInput(
            current=RACE_LOCUS,
            next=LAUNCH_LOCUS,
            recent_themes=["timing", "debugging"],
            active_resonances=["root cause, race (seen 3x)"],
            memories=[RACE, SLEEP_PATCH, DEADLINE, STRATEGY],
        ),
        "wander.dwell_rlm": RlmDwellInput(
            dwell=DwellInput(current=RACE_LOCUS, next=LAUNCH_LOCUS, memories=[RACE, SLEEP_PATCH]),
            counts={"hot_memory": 12, "warm_memory": 1, "resonances": 3, "trace": 11},
            transcript=["```repl\nprint(current_locus['concept'])\n```\nOUTPUT:\nrace condition"],
        ),
        "wander.sub_query": SubQueryInput(
            prompt="What do these concepts share?", context='["race condition in the worker", "race under load"]'
        ),
        "wander.resonance": ResonanceInput(residue=RESIDUES[1], candidates=[ROOT_CAUSE, VENICE]),
        "wander.crystallize": CrystalInput(
            locus=RACE_LOCUS, resonances=[ROOT_CAUSE], residues=list(RESIDUES), memories=[SLEEP_PATCH, RACE]
        ),
        "wander.validate_crystal": CrystalCheckInput(
            insight="Sleep patches did not address the root cause of the race condition.", evidence=[SLEEP_PATCH, RACE]
        ),
        "digest.cross_pollination": CrossPollinationInput(samples=list(DIGEST_SAMPLES)),
        "digest.convergence": ConvergenceInput(threads=list(THREADS)),
        "digest.forgotten": ForgottenInput(entries=list(FORGOTTEN), context=[MY_THOUGHTS]),
        "recall.answer": RecallQuestion(
            question="Why did the sleep patch fail?", memories=[SLEEP_PATCH, RACE, STRATEGY]
        ),
    }
