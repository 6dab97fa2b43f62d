"""Deed quality: is a pattern's action taken from the sentence that says what was done?

    python bench/deed_quality.py [--write]

Reads the labelled work-log entries of tests/data/deeds (its README): notes.jsonl (8 domains;
the rules of graphmind.dream.deeds were adjusted on it), notes_heldout.jsonl (6 other domains,
written after a first version of the rules, then used to adjust them), notes_blind3.jsonl
(6 more, scored once, then used to adjust them) and notes_blind4.jsonl (6 more, written after
that, scored once), each with the index of the sentence that states the situation and of the
one that says what was done. Scores, over the entries that did something:

- action: the sentence the offline rules act on (``deeds.state_then_deed``'s deed, else the
  opening) is the labelled one; baseline: the opening, what the rules took before;
- state: among entries labelled situation first, how many the rules split into that state and
  a later deed (the baseline never splits);
- sentences: ``opens_with_deed`` on each labelled action sentence (a deed) and each labelled
  situation sentence apart from it (no deed), balanced accuracy; baseline: the first word ends
  in "-ed".

``--write`` puts the table in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _common import write_table

from graphmind.dream.deeds import opens_with_deed, state_then_deed

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "deeds"
SETS = {
    "calibration": "notes.jsonl",
    "second": "notes_heldout.jsonl",
    "third": "notes_blind3.jsonl",
    "blind": "notes_blind4.jsonl",
}


def scores(rows: list[dict]) -> dict[str, float]:
    acted = [r for r in rows if r["action"] is not None]
    hits = base = 0
    for r in acted:
        told = state_then_deed(r["text"])
        picked = r["sentences"].index(told[1]) if told and told[1] in r["sentences"] else 0
        hits += picked == r["action"]
        base += r["action"] == 0
    first = [r for r in acted if r["state"] == 0 and r["action"] > 0]
    split = sum(1 for r in first if state_then_deed(r["text"]) is not None)
    deeds = [r["sentences"][r["action"]] for r in acted if not r["mixed"]]
    states = [
        r["sentences"][r["state"]]
        for r in rows
        if r["state"] is not None and r["state"] != r["action"] and not r["mixed"]
    ]
    return {
        "entries": len(acted),
        "action": hits / len(acted),
        "action_base": base / len(acted),
        "state": split / len(first) if first else 0.0,
        "sentences": _balanced([opens_with_deed(s) for s in deeds], [opens_with_deed(s) for s in states]),
        "sentences_base": _balanced([_ed(s) for s in deeds], [_ed(s) for s in states]),
    }


def _ed(sentence: str) -> bool:
    words = sentence.split()
    return bool(words) and words[0].strip(",.;:").casefold().endswith("ed")


def _balanced(on_deeds: list[bool], on_states: list[bool]) -> float:
    return (sum(on_deeds) / len(on_deeds) + (1 - sum(on_states) / len(on_states))) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the table in bench/RESULTS.md")
    args = parser.parse_args()
    lines = [
        "| set | entries that acted | action sentence (baseline: the opening) | situation first, split | "
        "deed or not, balanced accuracy (baseline: '-ed') |",
        "|---|---|---|---|---|",
    ]
    for name, file in SETS.items():
        path = DATA / file
        if not path.exists():
            continue
        s = scores([json.loads(line) for line in path.read_text().splitlines() if line.strip()])
        lines.append(
            f"| {name} | {s['entries']} | {s['action']:.2f} ({s['action_base']:.2f}, "
            f"{s['action'] / s['action_base']:.2f}x) | {s['state']:.2f} (0.00) | "
            f"{s['sentences']:.2f} ({s['sentences_base']:.2f}) |"
        )
    print("\n".join(lines))
    if args.write:
        write_table("deed_quality", "deed_quality.py", lines, "offline rules, no model")


if __name__ == "__main__":
    main()
