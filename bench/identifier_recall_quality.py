"""Does recall find the memory an identifier names, among memories with near-twin identifiers?

    python bench/identifier_recall_quality.py [--write]

Each line of the hand-written crossed logs (tests/data/dream_crossed_*: on-call, workshop,
helpdesk, market garden, cloud incidents; 492 lines) becomes a memory of one mind, prefixed
with a ticket id drawn without replacement from a dense range of one prefix per log ("OPS-4102",
"WS-4117", ...), so most ids have a twin one digit away. Three kinds of question per
memory, on a sample of 150 memories:

- the id alone ("OPS-4102");
- the id and three content words of its own memory ("what happened on OPS-4102: rollback ...");
- the id and three content words of *another* memory of the same log (the hard case: the words
  point elsewhere, the id says which);
- an id no memory holds and three content words of one memory (the answer: that memory; no
  harm where the id names nothing).

A question scores when its memory is ranked first (hit@1). The offline ``ask`` is right when,
with the id in memory, it answers citing that memory alone, and, with an absent id, it answers
``found: false`` saying that no memory names it. graphmind (identifiers matched as
phrases and ranked first, ``graphmind/recall/identifiers.py``) against the baseline, the same
recall with identifier handling off (the fused order of the vector and full-text searches
alone), and against the phrases alone (matched whole by the full-text search, not reordered).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import bench_store, scratch_mind, write_results

import graphmind.recall.hits as hits_module
import graphmind.recall.offline as offline_module
import graphmind.recall.recaller as recaller_module
from graphmind.mind import Mind
from graphmind.recall._logic import query_terms

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
LOGS = {
    "OPS": "dream_crossed_ops",
    "WS": "dream_crossed_workshop",
    "HD": "dream_crossed_helpdesk",
    "MG": "dream_crossed_garden",
    "INC": "dream_crossed_incidents",
}
KINDS = ("id alone", "id + own words", "id + other words", "absent id + words")
SAMPLE = 150


def memories(rng: random.Random) -> list[dict]:
    out = []
    for prefix, folder in LOGS.items():
        lines = [json.loads(x) for x in (DATA / folder / "log.jsonl").read_text().splitlines() if x.strip()]
        numbers = rng.sample(range(4100, 4100 + 2 * len(lines)), len(lines))
        for line, number in zip(lines, numbers):
            ticket = f"{prefix}-{number}"
            out.append(
                {
                    "id": f"m{len(out):04d}",
                    "ticket": ticket,
                    "log": prefix,
                    "description": f"{ticket}: {line['description']}",
                    "outcome": line.get("outcome", "success"),
                    "kind": "move",
                }
            )
    return out


def questions(items: list[dict], rng: random.Random) -> list[tuple[str, str, str]]:
    """(kind, question, id of the memory the question's identifier names)."""
    out = []
    for item in rng.sample(items, SAMPLE):
        other = rng.choice([x for x in items if x["log"] == item["log"] and x is not item])
        own_words = query_terms(item["description"].split(":", 1)[1])[:3]
        other_words = query_terms(other["description"].split(":", 1)[1])[:3]
        out.append((KINDS[0], item["ticket"], item["id"]))
        out.append((KINDS[1], f"what happened on {item['ticket']}: {' '.join(own_words)}", item["id"]))
        out.append((KINDS[2], f"what happened on {item['ticket']}: {' '.join(other_words)}", item["id"]))
        absent = f"{item['log']}-{9000 + len(out)}"  # no memory names it: the words' memory is the answer
        out.append((KINDS[3], f"what happened on {absent}: {' '.join(own_words)}", item["id"]))
    return out


def hit_at_1(mind: Mind, asked: list[tuple[str, str, str]]) -> dict[str, float]:
    scores: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for kind, question, target in asked:
        hits = mind.recall(question, k=5, labels=["Experience"]).hits
        scores[kind].append(int(bool(hits) and hits[0].id == target))
    return {kind: sum(v) / len(v) for kind, v in scores.items()}


def ask_right(mind: Mind, asked: list[tuple[str, str, str]]) -> dict[str, float]:
    """The offline ``ask``: with the id in memory, answered (found) citing only its memory; with
    an absent id, found False and saying that no memory names it."""
    scores: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for kind, question, target in asked:
        out = mind.ask(question).output
        if kind == KINDS[3]:
            scores[kind].append(int(not out.found and out.answer.startswith("No memory names")))
        else:
            scores[kind].append(int(out.found and out.cited_ids == [target]))
    return {kind: sum(v) / len(v) for kind, v in scores.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    items = memories(rng)
    asked = questions(items, rng)
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-identifiers"), store, settings)
        try:
            mind.capture_many([{k: v for k, v in x.items() if k not in ("ticket", "log")} for x in items])
            mind.embed()
            ours = hit_at_1(mind, asked)
            ask_ours = ask_right(mind, asked)
            named, first, said = recaller_module.identifiers, hits_module.named_by, offline_module.identifiers
            try:
                hits_module.named_by = lambda texts, wanted, most=None: [[] for _ in texts]
                phrases = hit_at_1(mind, asked)  # phrases only: matched whole, not reordered
                recaller_module.identifiers = lambda text: []  # the baseline: identifier handling off
                base = hit_at_1(mind, asked)
                offline_module.identifiers = lambda text: []
                ask_base = ask_right(mind, asked)
            finally:
                recaller_module.identifiers, hits_module.named_by = named, first
                offline_module.identifiers = said
        finally:
            mind.delete()
            mind.close()
    lines = [
        "| question | graphmind hit@1 | phrases only | baseline (fused order) | ratio to the baseline "
        "| offline ask right: graphmind | baseline |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in KINDS:
        ratio = f"{ours[kind] / base[kind]:.2f}" if base[kind] else "-"
        lines.append(
            f"| {kind} | {ours[kind]:.2f} | {phrases[kind]:.2f} | {base[kind]:.2f} | {ratio} "
            f"| {ask_ours[kind]:.2f} | {ask_base[kind]:.2f} |"
        )
    table = "\n".join(lines)
    print(table)
    if args.write:
        command = f"python bench/identifier_recall_quality.py --seed {args.seed}"
        header = f"`{command}` ({len(items)} memories, {SAMPLE} questions of each kind, MiniLM):"
        write_results("identifier-recall", f"{header}\n\n{table}")


if __name__ == "__main__":
    main()
