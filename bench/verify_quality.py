"""Verification quality: does the vertical check flag misplaced edges, and only those?

    python bench/verify_quality.py [--seeds 3]

For each labelled hierarchy (NAICS 2022 from the ``naics`` package, externally authored; the
household hierarchy of tests/data/verify), runs graphmind's verification
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

from graphmind.dream import rules
from graphmind.dream.integrate import item
from graphmind.dream.ladder import node_item
from graphmind.dream.params import DreamParams
from graphmind.dream.verifier import check
from graphmind.embed import CachingEmbedder, MiniLMEmbedder
from tests.fixtures.hierarchies import Hierarchy, as_ladder, corrupt, households, naics, recall_precision


def semantic(h: Hierarchy, embedder) -> set[tuple[str, str]]:
    patterns, nodes = as_ladder(h)
    result = check(patterns, nodes, DreamParams(), embedder)
    return {(f.parent, f.child) for f in result.flagged if f.check == "vertical_consistency" and f.parent and f.child}


def lexical(h: Hierarchy, embedder=None) -> set[tuple[str, str]]:
    patterns, nodes = as_ladder(h)
    items = {p.id: item(p) for p in patterns} | {n.id: node_item(n) for n in nodes}
    return {(n.id, c) for n in nodes for c in rules.uncovered(items[n.id], [items[m] for m in n.members])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    embedder = CachingEmbedder(MiniLMEmbedder())
    print(f"{'hierarchy':<11} {'edges':>5}  {'check':<9} {'true flagged':>12} {'recall':>7} {'precision':>9}")
    for name, h in (("naics", naics()), ("households", households())):
        for label, judge in (("semantic", semantic), ("lexical", lexical)):
            true_rate = len(judge(h, embedder)) / len(h.edges)
            scores = [
                recall_precision(judge(c, embedder), moved)
                for c, moved in (corrupt(h, 0.25, seed) for seed in range(args.seeds))
            ]
            recall = sum(r for r, _ in scores) / len(scores)
            precision = sum(p for _, p in scores) / len(scores)
            print(f"{name:<11} {len(h.edges):>5}  {label:<9} {true_rate:>12.3f} {recall:>7.3f} {precision:>9.3f}")


if __name__ == "__main__":
    main()
