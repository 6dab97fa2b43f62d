"""Forgetting's scrub on a labelled set (tests/data/forget/copies.jsonl, issue 26 item 4).

Each case is a forgotten memory, the other memories of its mind, and the text of one derived
node, with the spans of that text that carry the forgotten content (traces: they must go) and
the spans that do not (keeps: they must stay), marked by hand in two domains (an operations
team, a family). A distinctive word is one of the forgotten text's words that no other memory
holds (what the full-text index tells graphmind; here, the words of the case's other memories
and of the other cases' forgotten memories of its domain: the mind holds them too). Printed per domain and
overall: the share of traces removed and of keeps kept, for graphmind's scrub (verbatim copies
and distinctive words), verbatim copies alone, and the plain baseline that replaces only a
whole copy of the forgotten text. Two cases are paraphrases with no word of the original:
no method can find them, and they count as misses.

    .venv/bin/python bench/forget_quality.py
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from graphmind.forget._logic import (
    MARK,
    ForgetParams,
    candidate_terms,
    fragments,
    is_plain_word,
    scrub_value,
    term_pattern,
)

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "forget" / "copies.jsonl"
P = ForgetParams()
Method = Callable[[dict], str]


def load() -> list[dict]:
    cases = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    others = background(cases)
    return [{**c, "background": others[c["id"]]} for c in cases]


def background(cases: list[dict]) -> dict[str, list[str]]:
    """Per case: the texts of the other memories of its mind (its own list, and the forgotten
    memories of the other cases of its domain that forget another text)."""
    return {
        c["id"]: c["others"]
        + [o["forgotten"] for o in cases if o["domain"] == c["domain"] and o["forgotten"] != c["forgotten"]]
        for c in cases
    }


def distinctive(case: dict) -> list[str]:
    texts = [t.lower() for t in case["background"]]
    held = {w for text in texts for w in re.findall(r"[^\W_]+", text)}
    terms = candidate_terms([case["forgotten"]], P)
    return [t for t in terms if (t not in held if is_plain_word(t) else not any(t in text for text in texts))]


def graphmind_scrub(case: dict) -> str:
    frags = fragments([case["forgotten"]], P)
    return str(scrub_value(case["derived"], frags, [], P, term_pattern(distinctive(case))))


def verbatim_only(case: dict) -> str:
    return str(scrub_value(case["derived"], fragments([case["forgotten"]], P), [], P))


def whole_copy(case: dict) -> str:
    return str(case["derived"]).replace(case["forgotten"], MARK)


METHODS: dict[str, Method] = {"graphmind": graphmind_scrub, "verbatim only": verbatim_only, "whole copy": whole_copy}


def score(cases: list[dict], method: Method) -> tuple[float, float]:
    """(share of traces removed, share of keeps kept) over ``cases``."""
    removed = kept = traces = keeps = 0
    for case in cases:
        out = method(case).lower()
        traces += len(case["traces"])
        removed += sum(t.lower() not in out for t in case["traces"])
        keeps += len(case["keeps"])
        kept += sum(k.lower() in out for k in case["keeps"])
    return removed / max(traces, 1), kept / max(keeps, 1)


def main() -> None:
    cases = load()
    groups = {"all": cases} | {d: [c for c in cases if c["domain"] == d] for d in sorted({c["domain"] for c in cases})}
    print(f"{'method':<14} {'cases':>10} {'traces removed':>15} {'keeps kept':>11}")
    for name, method in METHODS.items():
        for group, members in groups.items():
            removed, kept = score(members, method)
            print(f"{name:<14} {group + f' ({len(members)})':>10} {removed:>15.2f} {kept:>11.2f}")


if __name__ == "__main__":
    main()
