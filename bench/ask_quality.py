"""Does ``Mind.ask`` answer from the memories about the question, and say it found nothing when
no memory is about it?

    python bench/ask_quality.py [--data blind-near,blind-far,campus,...] [--write]

The question sets of ``bench/knowledge_quality.py``: each labelled set captured without the last
two experiences of each label, which are asked (on topic), beside forty lines of a set from
another field (off topic); ``blind-far`` and ``blind-near``: tests/data/knowledge_blind's
water-treatment plant and its questions from far and from nearby fields; ``agency-names``: a
translation agency's log and questions naming its clients, half about matters the log does
not hold (``named_questions``); ``vet-names`` and ``builder-names``: a veterinary practice's
and a renovation firm's logs with questions of the same shape (tests/data/ask_names_*), written
after the rule for named questions was built on ``agency-names``; ``library-*`` and
``boatyard-*``: a library branch's and a boatyard's logs with the same shape, and
``*-unknown``: questions about the matters they log, for names they never hold (the boatyard's
written after the rule for such names was built); ``studio-*``: a recording studio's log, written
after every rule. No dream: ``ask``
recalls memories. Offline LLM. For graphmind (the recall tool keeps only memories about the
query, ``dream.knowledge.about_only``) and the baseline (``only_about=False``: the nearest):

- on topic right: found, and its first citation carries the question's label;
- off topic silent: ``found`` False.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import bench_store, scratch_mind, write_table
from knowledge_quality import questions

from graphmind.mind import Mind

NAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "ruminate_capture"
VET = NAMES.parent / "ask_names_vet"
BUILDER = NAMES.parent / "ask_names_builder"
LIBRARY = NAMES.parent / "ask_names_library"
BOATYARD = NAMES.parent / "ask_names_boatyard"
STUDIO = NAMES.parent / "ask_names_studio"


NAMED = {
    "agency-names": (NAMES, "agency.jsonl"),
    "vet-names": (VET, "log.jsonl"),
    "builder-names": (BUILDER, "log.jsonl"),
    "library-names": (LIBRARY, "log.jsonl"),
    "library-unknown": (LIBRARY, "log.jsonl", "unknown_names"),
    "boatyard-names": (BOATYARD, "log.jsonl"),
    "boatyard-unknown": (BOATYARD, "log.jsonl", "unknown_names"),
    "studio-names": (STUDIO, "log.jsonl"),
    "studio-unknown": (STUDIO, "log.jsonl", "unknown_names"),
}


def named_questions(
    directory: Path = NAMES, log_file: str = "agency.jsonl", off: str = "off_topic"
) -> tuple[list[dict], list[str], list[tuple[str, str | None]]]:
    """A log and questions naming its clients, people or animals (``ask_names.json`` beside it:
    on-topic questions with the experiences that answer them, off-topic ones under ``off``:
    ``off_topic``, or ``unknown_names``, naming what the log never names), in ``questions``'
    shape: an on-topic question's label is its own, carried by those experiences."""
    log = [json.loads(line) for line in (directory / log_file).read_text().splitlines() if line.strip()]
    asked_for = json.loads((directory / "ask_names.json").read_text())[log_file]
    label_of = {i: f"q{n}" for n, (_, ids) in enumerate(asked_for["on_topic"]) for i in ids}
    asked = [(q, f"q{n}") for n, (q, _) in enumerate(asked_for["on_topic"])] + [(q, None) for q in asked_for[off]]
    return log, [label_of.get(e["id"], "") for e in log], asked


def score(name: str) -> dict[str, tuple[float, float]]:
    kept, labels, asked = named_questions(*NAMED[name]) if name in NAMED else questions(name)
    label_of = {e["id"]: label for e, label in zip(kept, labels)}
    out: dict[str, tuple[float, float]] = {}
    with bench_store() as (store, settings):
        mind = Mind(scratch_mind("bench-ask"), store, settings)
        try:
            for e in kept:  # one by one: a capture may supersede an older one
                mind.capture({k: v for k, v in e.items() if k != "supersedes"}, supersedes=e.get("supersedes", ()))
            mind.flush()
            for who, only in (("graphmind", True), ("baseline", False)):
                right, silent = [], []
                for text, label in asked:
                    said = mind.ask(text, only_about=only).output
                    if label is None:
                        silent.append(not said.found)
                    else:
                        right.append(said.found and bool(said.cited_ids) and label_of.get(said.cited_ids[0]) == label)
                out[who] = (sum(right) / max(1, len(right)), sum(silent) / max(1, len(silent)))
        finally:
            mind.delete()
            mind.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        default="blind-near,blind-far,ops,campus,transit,garden,agency-names,vet-names,builder-names,"
        "library-names,library-unknown,boatyard-names,boatyard-unknown,studio-names,studio-unknown",
    )
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md (ask-quality)")
    args = parser.parse_args()
    lines = [
        "| data | on topic right: graphmind | baseline | off topic silent: graphmind | baseline |",
        "|---|---|---|---|---|",
    ]
    for name in args.data.split(","):
        got = score(name)
        (right, silent), (base_right, base_silent) = got["graphmind"], got["baseline"]
        line = f"| {name} | {right:.2f} | {base_right:.2f} | {silent:.2f} | {base_silent:.2f} |"
        print(line, flush=True)
        lines.append(line)
    if args.write:
        write_table("ask-quality", "ask_quality.py", lines, "offline LLM, MiniLM")


if __name__ == "__main__":
    main()
