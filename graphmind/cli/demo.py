"""``graphmind demo``: load the demo mind and show what graphmind built.

The engines join the demo as they land; today it applies the schema, imports the demo mind
idempotently, prints its shape, embeds it, recalls with a question and lets the LLM (offline
unless ANTHROPIC_API_KEY is set) answer it through the graph tools. Then it ruminates, in the
same mind, on Nicolas's "Hey Felix, the race condition is back.", printing the Context Object
and the step trace. Last, it solves the
bundled Sudoku puzzles with graphmind's own logging solver (graphmind.demo.sudoku, at most
``SUDOKU_STEPS`` steps logged per puzzle), captures the session into ``<mind>-sudoku``
(recreated on every run, so the night cycle always has the whole session to consolidate),
ends the session (which dreams) and prints the abstraction ladder from the principles down.
Then it imports Felix's topic memory and threads (``topics.jsonl``) into ``<mind>-topics`` and
prints the three digests as reflect material (seeded, so the demo prints the same sample).
Last, it copies Felix into ``<mind>-wander`` (recreated on every run), wanders
``WANDER_STEPS`` offline steps from a seed concept through Felix's memory (seeded: the same
walk every run), prints the walk's start, its crystals with their evidence, and draws the
session's map to ``$GRAPHMIND_HOME/demo/<mind>-wander.png`` when matplotlib is installed.
"""

from __future__ import annotations

from importlib import resources

import click

from graphmind.cli.dream_cmd import report_tree
from graphmind.cli.options import JSON
from graphmind.cli.render import emit, table
from graphmind.config import Settings
from graphmind.demo.sudoku import session_experiences
from graphmind.errors import ConfigError
from graphmind.mind import Mind
from graphmind.text import trim

BROWSER_QUERY = "MATCH (n:Memory {mind: $mind})-[r]->(m) RETURN n, r, m"
QUESTION = "Why did the race condition in the settlement worker come back?"
STIMULUS, SENDER = "Hey Felix, the race condition is back.", "Nicolas"
SUDOKU_SESSION, SUDOKU_STEPS = "sudoku-2026-01-04-001", 10
DIGEST_SEED = 1
WANDER_SEED, WANDER_STEPS, WANDER_RNG = "race conditions in async code", 200, 7
CRYSTAL_QUERY = "MATCH p = (:Crystal {mind: $mind})-[:EVIDENCED_BY]->() RETURN p"
LADDER_QUERY = (  # from each top node down, whatever the ladder's depth (3-5 levels)
    "MATCH p = (top:Abstraction {mind: $mind, status: 'active'})-[:SUBSUMES*1..3]->(:Pattern)"
    "<-[:EXEMPLIFIES]-(:Experience) WHERE NOT EXISTS { (:Abstraction {status: 'active'})-[:SUBSUMES]->(top) } "
    "RETURN p"
)


@click.command()
@click.option("--mind", "-m", default="felix", show_default=True, help="The mind to load the demo into.")
@JSON
def demo(mind: str, as_json: bool) -> None:
    """Load the demo mind (Felix, a backend agent) and show what was built."""
    settings = Settings.from_env()
    with Mind.open(mind, settings) as m, resources.as_file(_demo_file()) as path:
        schema = m.init_schema()
        report = m.import_jsonl(path)
        stats = m.stats()
        embedded = m.embed()
        recalled = m.recall(QUESTION, k=3)
        answer = m.ask(QUESTION)
        provider = m.llm.provider
        rumination = m.ruminate(STIMULUS, sender=SENDER)
    with Mind.open(f"{mind}-sudoku", settings) as sudoku:
        sudoku.delete()
        sudoku.capture_many(
            [
                {"id": e["id"], **e["properties"]}
                for e in session_experiences(SUDOKU_SESSION, limit_per_puzzle=SUDOKU_STEPS)
            ],
            metadata={"puzzles": 6, "solver": "graphmind.demo.sudoku"},
        )
        dream = sudoku.end_session(SUDOKU_SESSION)
    with Mind.open(f"{mind}-topics", settings) as topics, resources.as_file(_demo_file("topics.jsonl")) as path:
        topics.import_jsonl(path)
        digest = topics.digest(rng_seed=DIGEST_SEED)
    wander, wander_crystals, map_line = _wander(mind, settings)
    text = "\n".join(
        [
            f"schema version {schema.version}: {schema.indexes_online} indexes ONLINE",
            f"imported {report.nodes} nodes and {report.edges} edges into mind {mind!r} (idempotent)",
            table(stats.labels, "labels"),
            table(stats.relationships, "relationships"),
            f"embedded {embedded.embedded} memories with {embedded.model_id} ({embedded.current} already current)",
            "",
            f"recall {QUESTION!r}:",
            *[
                f"  {hit.label}:{hit.id}  score {hit.score:.4f}  ({' + '.join(k for k in hit.why() if k != 'outdated')})"
                for hit in recalled.hits
            ],
            "",
            f"ask (LLM: {provider}, tools called: {', '.join(c.tool for c in answer.calls) or 'none'}):",
            f"  {answer.output.answer}",
            "",
            f"ruminate in mind '{mind}': {SENDER} says {STIMULUS!r}",
            "",
            rumination.context_markdown,
            *[step.trace_line() for step in rumination.steps],
            f"stopped: {rumination.stopped_reason}, final gap {rumination.final_gap_score:.2f}, "
            f"context {rumination.context.token_count} tokens, run {rumination.run_id}",
            "",
            "Look at it in Neo4j Browser (see 'graphmind neo4j status' for the address), with:",
            f"  :param mind => '{mind}'",
            f"  {BROWSER_QUERY}",
            f"and the rumination: MATCH p = (:RuminationRun {{mind: '{mind}'}})-[:FOUND]->()-[:CITES]->() RETURN p",
            "",
            f"dream in mind '{mind}-sudoku' (a Sudoku session of {dream.experiences} logged steps, session complete):",
            dream.message,
            *report_tree(dream),
            f"walk it in Neo4j Browser: :param mind => '{mind}-sudoku'",
            f"  {LADDER_QUERY}",
            "",
            f"digest of mind '{mind}-topics' (reflect material; shown entries count a hit):",
            digest.material(),
            "",
            f"wander in mind '{mind}-wander' (a copy of Felix) from {WANDER_SEED!r}, {WANDER_STEPS} offline steps:",
            *[f"  {r.step_number:>3}. {trim(r.to_locus['concept'], 70)}  [{r.strategy}]" for r in wander.steps[:8]],
            f"  ... {wander.steps_completed} steps, {wander.crystals_formed} crystals, stopped: {wander.stopped_reason}",
            *[
                f"  crystal {c['id']}: {trim(c['insight'], 110)}\n    evidence: {', '.join(c['evidence'][:6])}"
                for c in wander_crystals[:3]
            ],
            map_line,
            f"see the crystals in Neo4j Browser: :param mind => '{mind}-wander'",
            f"  {CRYSTAL_QUERY}",
        ]
    )
    emit(
        {
            "mind": mind,
            "import": report.as_dict(),
            "stats": stats.as_dict(),
            "embedded": embedded.as_dict(),
            "recall": recalled.as_dict(),
            "answer": answer.output.model_dump(mode="json"),
            "rumination": rumination.as_dict(),
            "dream": dream.as_dict(),
            "digest": digest.as_dict(),
            "wander": wander.as_dict(),
        },
        as_json,
        text,
    )


def _wander(mind: str, settings: Settings):
    """The demo's wander through a fresh copy of Felix: (run report, crystals, map line)."""
    with Mind.open(f"{mind}-wander", settings) as m, resources.as_file(_demo_file()) as path:
        m.delete()
        m.import_jsonl(path)
        handle = m.wander(WANDER_SEED, steps=WANDER_STEPS, rng_seed=WANDER_RNG, human_checkpoint_frequency=0)
        crystals = [c for c in handle.crystals() if c.get("status") == "active"]
        out = settings.home / "demo" / f"{mind}-wander.png"
        try:
            drawn = handle.map(out)
            line = f"map of the walk: {drawn.out} ({drawn.loci} loci, {drawn.projection})"
        except ConfigError as exc:
            line = f"no map: {exc}"
        return handle.last_run, crystals, line


def _demo_file(name: str = "felix.jsonl"):
    return resources.files("graphmind") / "demo" / name
