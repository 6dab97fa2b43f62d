"""Contradiction quality: does the offline rule tell opposite advice for one situation?

    python bench/contradiction_quality.py [--write]

On the hand-labelled pattern pairs of tests/data/contradictions (``pairs.jsonl``, five
domains; ``heldout.jsonl``, four more, written after the lexicon of opposites was fixed),
graphmind's ``rules.contradiction`` (the same conditions, Jaccard >= 0.5 of their stemmed
terms, and actions one of which negates or reverses the other) is scored by precision and
recall, beside two plain baselines: the rule graphmind used before (raw terms, negation words
only), and "the same conditions" alone (any pair whose conditions share half their terms).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_results

from graphmind.dream import rules
from graphmind.prompts.dream import PatternItem
from graphmind.text import jaccard, term_set

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "contradictions"
Judge = Callable[[PatternItem, PatternItem], bool]


def item(key: str, fields: dict) -> PatternItem:
    return PatternItem(
        id=key, description="; ".join(fields["actions"]), conditions=fields["conditions"], actions=fields["actions"]
    )


def graphmind(a: PatternItem, b: PatternItem) -> bool:
    return rules.contradiction(a, b) is not None


def negation_only(a: PatternItem, b: PatternItem) -> bool:
    """The rule before the lexicon of opposites and the stems."""
    ca, cb = rules.terms(a.conditions), rules.terms(b.conditions)
    negated = any(
        bool(rules._NEGATION.search(x)) != bool(rules._NEGATION.search(y)) and term_set(x) & term_set(y)
        for x in a.actions
        for y in b.actions
    )
    return bool(ca & cb) and jaccard(ca, cb) >= 0.5 and negated


def same_conditions(a: PatternItem, b: PatternItem) -> bool:
    ca, cb = rules.terms(a.conditions), rules.terms(b.conditions)
    return bool(ca & cb) and jaccard(ca, cb) >= 0.5


def score(rows: list[dict], judge: Judge) -> tuple[float, float]:
    said = [judge(item("a", r["a"]), item("b", r["b"])) for r in rows]
    hit = sum(s and r["contradicts"] for s, r in zip(said, rows))
    return hit / max(1, sum(said)), hit / sum(r["contradicts"] for r in rows)


def table() -> str:
    judges = {"graphmind": graphmind, "negation only (before)": negation_only, "same conditions": same_conditions}
    lines = [
        "`python bench/contradiction_quality.py` (precision, recall of the contradicting pairs):",
        "",
        "| set | pairs (contradicting) | " + " | ".join(judges) + " |",
        "|---|---|" + "---|" * len(judges),
    ]
    for name in ("pairs", "heldout"):
        rows = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]
        cells = [f"{p:.2f}, {r:.2f}" for p, r in (score(rows, judge) for judge in judges.values())]
        positive = sum(r["contradicts"] for r in rows)
        lines.append(f"| {name}.jsonl | {len(rows)} ({positive}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="put the table into bench/RESULTS.md (contradiction-quality)"
    )
    args = parser.parse_args()
    block = table()
    print(block)
    if args.write:
        write_results("contradiction-quality", block)


if __name__ == "__main__":
    main()
