"""Rumination over a mind built by capture alone, scored against hand labels.

    python bench/ruminate_capture_quality.py [--write]

``tests/data/ruminate_capture/agency.jsonl`` (72 experiences of a translation agency's log,
some superseding older ones) is captured into a scratch mind, and each stimulus of
``labels.json`` is ruminated on offline, without a dream and again after one (the second row). The experiences the Context Object cites
are scored: on-topic, whether one of them is about the stimulus (``hit``) and the share of
them that are (``precision``); off-topic, whether it cites none (``silent``). Beside it, the
plain baseline: the top 3 of ``Mind.recall(stimulus)`` that are about it by knowledge's
relevance floor (``dream.knowledge.about_only``, what ``ask``'s recall tool hands the LLM).
Before 2026-11-27 rumination read no experience at all: hit 0, silent 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import bench_store, scratch_mind, write_table

from graphmind.dream import DreamParams
from graphmind.dream.knowledge import about_only
from graphmind.mind import Mind

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "ruminate_capture"
FLOOR = DreamParams().relevance_quantile or 0.0


def capture(mind: Mind, rows: list[dict]) -> None:
    for row in rows:
        fields = {k: v for k, v in row.items() if k != "supersedes"}
        mind.capture(fields, supersedes=row.get("supersedes", ()), wait=True)


def scores(cited: list[str], relevant: set[str], on_topic: bool) -> tuple[float, float | None]:
    """(hit or silent, precision or None)."""
    if not on_topic:
        return float(not cited), None
    right = [i for i in cited if i in relevant]
    return float(bool(right)), (len(right) / len(cited) if cited else None)


def score(mind: Mind, name: str, stimuli: list[dict], ids: set[str]) -> str:
    """The table row of ``name``: each stimulus ruminated on, and recall's baseline."""
    got: dict[str, list[tuple[float, float | None]]] = {"ours": [], "recall": []}
    off: dict[str, list[float]] = {"ours": [], "recall": []}
    for s in stimuli:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            context = mind.ruminate(s["stimulus"]).context
        cited = list(dict.fromkeys(i for sec in context.sections for i in sec.node_ids if i in ids))
        found = mind.recall(s["stimulus"], k=3)  # about the query only, as ask's recall tool keeps
        top = [h.id for h in about_only(mind.embedder, mind.recaller, found, FLOOR).hits]
        on = s["kind"] == "on-topic"
        for who, chosen in (("ours", cited), ("recall", top)):
            (got[who] if on else off[who]).append(scores(chosen, set(s["relevant"]), on))
        print(f"{s['kind']:9} {s['stimulus'][:60]:60} cited {cited}  recall {top}", flush=True)

    def mean(values: list[float]) -> str:
        return f"{sum(values) / len(values):.2f}" if values else "-"

    hit = {w: mean([h for h, _ in got[w]]) for w in got}
    precision = {w: mean([p for _, p in got[w] if p is not None]) for w in got}
    silent = {w: mean([h for h, _ in off[w]]) for w in off}
    return (
        f"| {name} | {len(stimuli)} | {hit['ours']} / {hit['recall']} | {precision['ours']} / "
        f"{precision['recall']} | {silent['ours']} / {silent['recall']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md")
    args = parser.parse_args()
    labels = json.loads((DATA / "labels.json").read_text())
    lines = [
        "| mind | stimuli | on-topic hit: rumination / recall top 3 above the floor | precision: rumination / recall "
        "| off-topic silent: rumination / recall |",
        "|---|---|---|---|---|",
    ]
    with bench_store() as (store, settings):
        for name, stimuli in labels.items():
            rows = [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]
            ids = {r["id"] for r in rows}
            mind = Mind(scratch_mind("bench-ruminate-capture"), store, settings)
            try:
                capture(mind, rows)
                for dreamed in (False, True):
                    if dreamed:  # the same mind after its night: patterns now hold most experiences
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            mind.dream()
                    lines.append(score(mind, f"{name}{', after a dream' if dreamed else ''}", stimuli, ids))
            finally:
                mind.delete()
                mind.close()
    print("\n".join(lines))
    if args.write:
        write_table("ruminate-capture", "ruminate_capture_quality.py", lines, "offline LLM, MiniLM")


if __name__ == "__main__":
    main()
