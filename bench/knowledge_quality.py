"""Does ``Mind.query_knowledge`` answer with patterns about the question, and with none when
nothing in the mind is about it?

    python bench/knowledge_quality.py [--data clinc,civic,...] [--calibrate] [--write]

Each labelled set of ``bench/dream_quality.py`` is dreamed without the last two experiences of
each label; those are asked as questions (on topic). Forty lines of another set, from another
field, are asked too (off topic). ``blind-far`` and ``blind-near`` dream all of
tests/data/knowledge_blind (a water-treatment plant, written blind) and ask its questions: the
on-topic ones, and those from far or from nearby fields. A pattern is relevant to an on-topic question when most of its
experiences carry the question's label. For graphmind (``DreamParams.relevance_quantile``) and
the baseline (the nearest patterns, no cut-off), with k = 5:

- relevant kept: the share of the baseline's relevant answers that graphmind keeps;
- answered: the on-topic questions given at least one relevant pattern;
- precision: the share of the patterns given for on-topic questions that are relevant;
- off-topic silent: the off-topic questions given no pattern at all.

``--calibrate`` scores quantiles 80-99.5 of the floor, and picks one on all sets but one by the
mean of relevant kept and off-topic answers dropped, then scores the one left out.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import bench_store, scratch_mind, write_results
from dream_nights_quality import labelled
from dream_quality import experiences

from graphmind.dream import DreamParams
from graphmind.dream.coherence import relevance_floor
from graphmind.mind import Mind

CALIBRATION = "clinc,civic,ops,workshop,helpdesk,crossed"
HELD_OUT = "campus,transit,garden,incidents,blind-far,blind-near"
OFF_TOPIC = {
    "clinc": "workshop",
    "civic": "incidents",
    "ops": "campus",
    "workshop": "transit",
    "helpdesk": "garden",
    "crossed": "civic",
    "campus": "ops",
    "transit": "helpdesk",
    "garden": "clinc",
    "incidents": "workshop",
}
"""Each set's off-topic questions come from a set about another field."""
DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
QUANTILES = (80.0, 85.0, 90.0, 95.0, 97.5, 99.0, 99.5)
K = 5


def blind(off_topic: str) -> tuple[list[dict], list[str], list[tuple[str, str | None]]]:
    """tests/data/knowledge_blind: a water-treatment plant's experiences and questions asked as
    people ask them, written blind: the on-topic ones and the off-topic ones of ``off_topic``
    ("far": other fields; "near": nearby fields the plant's mind knows nothing about)."""
    folder = DATA / "knowledge_blind"
    rows = [json.loads(x) for x in (folder / "experiences.jsonl").read_text().splitlines() if x.strip()]
    asked = [json.loads(x) for x in (folder / "questions.jsonl").read_text().splitlines() if x.strip()]
    kept = experiences([{"description": r["description"], "outcome": r["outcome"], "kind": "move"} for r in rows])
    chosen = [q for q in asked if q["kind"] in ("on_topic", off_topic)]
    return kept, [r["technique"] for r in rows], [(q["question"], q["about"]) for q in chosen]


def questions(name: str) -> tuple[list[dict], list[str], list[tuple[str, str | None]]]:
    """(experiences to dream, their labels, [(question, label or None when off topic)])."""
    if name.startswith("blind-"):
        return blind(name.removeprefix("blind-"))
    captured, labels = labelled(name, 12 if name == "clinc" else 10)
    total, seen = Counter(labels), Counter()
    kept, kept_labels, asked = [], [], []
    for experience, label in zip(captured, labels):
        seen[label] += 1
        if seen[label] > total[label] - 2:
            asked.append((experience["description"], label))
        else:
            kept.append(experience)
            kept_labels.append(label)
    other, _ = labelled(OFF_TOPIC[name], 10)
    off = [e["description"] for e in other[:: max(1, len(other) // 40)]][:40]
    return kept, kept_labels, asked + [(q, None) for q in off]


def answers(name: str) -> list[dict]:
    """Per question: its label, the candidates (id, cosine, relevant) nearest first, the floor
    at each quantile, and what graphmind answered with its defaults."""
    kept, labels, asked = questions(name)
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-knowledge"), store, settings)
        try:
            mind.capture_many(kept)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                mind.dream(DreamParams())
            label_of = {e["id"]: label for e, label in zip(kept, labels)}
            owners: dict[str, Counter] = defaultdict(Counter)
            for row in mind.store.read("dream/list_memberships", mind=mind.name):
                if row["pattern"]:
                    owners[row["pattern"]][label_of[row["id"]]] += 1
            major = {p: c.most_common(1)[0][0] for p, c in owners.items()}
            out = []
            for text, label in asked:
                everything = mind.query_knowledge(text, K * 3, DreamParams(relevance_quantile=None))
                given = mind.query_knowledge(text, K)
                vector = mind.embedder.embed([text])[0]
                out.append(
                    {
                        "label": label,
                        "candidates": [(m.id, m.similarity, major.get(m.id) == label) for m in everything],
                        "floors": {q: relevance_floor(mind.embedder, vector, q) for q in QUANTILES},
                        "given": [m.id for m in given],
                    }
                )
        finally:
            mind.delete()
            mind.close()
    return out


def measure(rows: list[dict], quantile: float | str | None) -> dict[str, float]:
    """The four figures (see the module docstring) for answers cut at ``quantile`` (None: the
    baseline; "given": what graphmind answered)."""
    kept_relevant = relevant = given_on = given_relevant = answered = on = 0
    silent = off = off_given = off_dropped = 0
    for row in rows:
        nearest = row["candidates"][:K]
        if quantile == "given":
            chosen = set(row["given"])
        elif quantile is None:
            chosen = {c[0] for c in nearest}
        else:
            floor = row["floors"][quantile]
            chosen = set([c[0] for c in row["candidates"] if c[1] > floor][:K])
        is_relevant = {c[0]: c[2] for c in row["candidates"]}
        if row["label"] is None:
            off += 1
            silent += not chosen
            off_given += len(nearest)
            off_dropped += sum(c[0] not in chosen for c in nearest)
        else:
            on += 1
            relevant += sum(c[2] for c in nearest)
            kept_relevant += sum(c[2] and c[0] in chosen for c in nearest)
            given_on += len(chosen)
            given_relevant += sum(is_relevant.get(i, False) for i in chosen)
            answered += any(is_relevant.get(i, False) for i in chosen)
    return {
        "relevant kept": kept_relevant / max(1, relevant),
        "answered": answered / max(1, on),
        "precision": given_relevant / max(1, given_on),
        "off-topic silent": silent / max(1, off),
        "off-topic dropped": off_dropped / max(1, off_given),
    }


def calibrate(results: dict[str, list[dict]]) -> list[str]:
    """Leave one set out: the quantile the others choose, and how it scores on the one left out."""
    names = list(results)
    table = {n: {q: measure(results[n], q) for q in QUANTILES} for n in names}

    def merit(figures: dict[str, float]) -> float:
        return (figures["relevant kept"] + figures["off-topic dropped"]) / 2

    lines = ["| left out | quantile chosen on the others | relevant kept | off-topic silent |", "|---|---|---|---|"]
    for name in names:
        others = [n for n in names if n != name]
        chosen = max(QUANTILES, key=lambda q: (np.mean([merit(table[o][q]) for o in others]), -q))
        figures = table[name][chosen]
        lines.append(f"| {name} | {chosen} | {figures['relevant kept']:.2f} | {figures['off-topic silent']:.2f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=f"{CALIBRATION},{HELD_OUT}")
    parser.add_argument("--calibrate", action="store_true", help="leave-one-set-out choice of the quantile")
    parser.add_argument("--write", action="store_true", help="put the tables into bench/RESULTS.md")
    args = parser.parse_args()
    default = DreamParams.model_fields["relevance_quantile"].default
    lines = [
        f"| data | graphmind (floor at the {default}th percentile): relevant kept, answered, precision, "
        "off-topic silent | baseline (nearest 5): answered, precision, off-topic silent |",
        "|---|---|---|",
    ]
    results = {}
    for name in args.data.split(","):
        results[name] = rows = answers(name)
        ours, base = measure(rows, "given"), measure(rows, None)
        line = (
            f"| {name} | {ours['relevant kept']:.2f}, {ours['answered']:.2f}, {ours['precision']:.2f}, "
            f"{ours['off-topic silent']:.2f} | {base['answered']:.2f}, {base['precision']:.2f}, "
            f"{base['off-topic silent']:.2f} |"
        )
        print(line, flush=True)
        lines.append(line)
    block = "\n".join(lines)
    if args.calibrate:
        calibration = "\n".join(calibrate({n: results[n] for n in CALIBRATION.split(",") if n in results}))
        print(calibration)
        block += "\n\nLeave one calibration set out (`--calibrate`):\n\n" + calibration
    if args.write:
        flags = " ".join(a for a in sys.argv[1:] if a != "--write")
        command = f"python bench/knowledge_quality.py {flags}".strip()
        write_results("knowledge-quality", f"`{command}` (offline LLM, MiniLM; k = 5):\n\n{block}")


if __name__ == "__main__":
    main()
