"""Example inputs of the dream, wander and digest prompts (Felix's mind), for the prompt contract tests and docs."""

from __future__ import annotations

from graphmind.prompts._models import MemoryItem
from graphmind.prompts.digest import DigestEntry, ForgottenEntry, ThreadItem, TopicSample
from graphmind.prompts.dream import ExperienceItem, PatternItem
from graphmind.prompts.wander import LocusItem, ResidueItem, ResonanceItem

IDENTITY = MemoryItem(
    id="felix",
    label="Identity",
    text="Felix — runtime engineer — validation testing",
    properties={"name": "Felix", "role": "runtime engineer", "focus_area": "validation testing"},
)


EXPERIENCES = (
    ExperienceItem(
        id="exp-1",
        outcome="success",
        kind="strategy",
        strategy_used="systematic debugging",
        description="When the race condition reappeared, reproduced it consistently before attempting a fix.",
    ),
    ExperienceItem(
        id="exp-2",
        outcome="success",
        kind="strategy",
        strategy_used="systematic debugging",
        description="When the race condition reappeared, added timing instrumentation to identify the race window.",
    ),
    ExperienceItem(
        id="exp-3",
        outcome="failure",
        kind="move",
        strategy_used="sleep patch",
        description="Added sleep(0.001) between injections when the race condition "
        "reappeared; the race condition came back.",
    ),
    ExperienceItem(
        id="exp-4",
        outcome="progress",
        kind="strategy",
        strategy_used="systematic debugging",
        description="After the fix failed, the race condition reappeared and I reviewed "
        "recent threading changes for timing assumptions.",
    ),
)


REPRODUCE = PatternItem(
    id="pat-reproduce",
    description="Reproduce a recurring race condition before fixing it",
    conditions=["when a race condition reappears"],
    actions=["reproduce the race consistently"],
    success_rate=1.0,
    example_ids=["exp-1", "exp-4"],
)


INSTRUMENT = PatternItem(
    id="pat-instrument",
    description="Instrument the race window with timing measurements",
    conditions=["when the race reproduces consistently"],
    actions=["add timing instrumentation"],
    success_rate=0.9,
    example_ids=["exp-2", "exp-4"],
)


SLEEP = PatternItem(
    id="pat-sleep",
    description="Patch a race condition with sleep delays",
    conditions=["when a race condition reappears"],
    actions=["do not reproduce; add sleep delays"],
    success_rate=0.0,
    example_ids=["exp-3"],
)


DEBUGGING = PatternItem(
    id="abs-debugging",
    description="Systematic debugging of timing bugs: reproduce, then instrument",
    conditions=["race condition", "timing bug"],
    actions=["reproduce", "instrument"],
)


RACE_LOCUS = LocusItem(id="locus-race", concept="race condition", domains=["concurrency"], abstraction_level=0.3)


LAUNCH_LOCUS = LocusItem(
    id="locus-launch", concept="launch deadline", domains=["project management"], abstraction_level=0.4
)


RESIDUES = (
    ResidueItem(
        id="res-1",
        themes=["race", "root cause", "sleep"],
        actionability=0.6,
        connection="The sleep patch and the race condition share one root cause.",
        possibility="Reproduce the race condition before any fix to reach the root cause.",
    ),
    ResidueItem(
        id="res-2",
        themes=["deadline", "root cause", "launch"],
        actionability=0.8,
        connection="The launch deadline pushes toward patches that miss the root cause.",
        possibility="A root cause fix protects the launch from a fourth recurrence.",
    ),
)


ROOT_CAUSE = ResonanceItem(id="resonance-root-cause", themes=["root cause", "race"], occurrences=3)


VENICE = ResonanceItem(id="resonance-venice", themes=["Venice", "collaboration"], occurrences=1)


DIGEST_SAMPLES = (
    TopicSample(
        topic="design-philosophy",
        entries=[
            DigestEntry(
                id="dp-1", text="Constraints shape emergence: the interface shapes cognition more than the model."
            ),
            DigestEntry(id="dp-2", text="Watsuji: relation comes before entity."),
        ],
    ),
    TopicSample(
        topic="creative-arts",
        entries=[
            DigestEntry(
                id="ca-1", text="A sonnet's fourteen lines are constraints that shape the emergence of meaning."
            ),
            DigestEntry(id="ca-2", text="Improvisation works without a plan."),
        ],
    ),
    TopicSample(
        topic="agent-architecture",
        entries=[
            DigestEntry(id="aa-1", text="Agent memory mirrors the rumen: intake first, digestion later."),
            DigestEntry(id="aa-2", text="Memory digestion matters more than memory intake."),
        ],
    ),
)


THREADS = (
    ThreadItem(
        id="th-constraints",
        title="Constraints and emergence",
        touches=["design-philosophy"],
        progress_notes=[
            "Framing decides what Emergence can mean",
            "Notes on Pattern Language and its constraints",
            "Framing again: Oulipo writes under constraints",
        ],
    ),
    ThreadItem(
        id="th-interface",
        title="Interface shapes cognition",
        touches=["agent-architecture"],
        progress_notes=[
            "Framing of the Interface shapes what users think",
            "Emergence of habits through the Interface",
            "Pattern Language as an interface grammar",
        ],
    ),
    ThreadItem(
        id="th-relation",
        title="Relation before entity",
        touches=["design-philosophy"],
        progress_notes=["Watsuji on betweenness", "Whitehead: process over substance"],
    ),
)


FORGOTTEN = (
    ForgottenEntry(
        id="fg-1",
        topic="learning",
        age_days=21,
        text="Ebbinghaus: spaced repetition at the edge of forgetting deepens memory.",
    ),
    ForgottenEntry(
        id="fg-2",
        topic="dreams",
        age_days=12,
        text="Hobson: dreams activate random memory fragments and build a narrative.",
    ),
    ForgottenEntry(
        id="fg-3",
        topic="method",
        age_days=9,
        text="Random sampling of memory fragments breaks the bias toward recent reading.",
    ),
    ForgottenEntry(id="fg-4", topic="creative-arts", age_days=30, text="Oulipo lipogram exercise."),
)


MY_THOUGHTS = MemoryItem(
    id="thought-digestion",
    label="TopicEntry",
    text="Digestion over intake: spaced repetition at the edge of forgetting deepens memory more than rereading.",
)
