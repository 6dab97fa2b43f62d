"""Opposite actions: pairs of common English words that undo or reverse each other
("raise"/"lower", "enable"/"disable", "earlier"/"later"), as ``rules.conflicting`` reads them.

A general lexicon of directions, quantities, states and timing, written once from the
language, not from any data set; words compare by their stem (``text.stem``), so "raises"
and "raising" count as "raise". ``bench/contradiction_quality.py`` measures what it adds.
"""

from __future__ import annotations

from functools import cache

from graphmind.text import stem

PAIRS = (
    ("increase", "decrease"), ("increase", "reduce"), ("raise", "lower"), ("raise", "reduce"),
    ("add", "remove"), ("enable", "disable"), ("on", "off"), ("open", "close"), ("start", "stop"),
    ("more", "less"), ("more", "fewer"), ("higher", "lower"), ("high", "low"), ("up", "down"),
    ("early", "late"), ("earlier", "later"), ("before", "after"), ("longer", "shorter"),
    ("long", "short"), ("closer", "further"), ("closer", "farther"), ("tighten", "loosen"),
    ("tighten", "release"), ("inflate", "deflate"), ("cover", "uncover"), ("lock", "unlock"),
    ("include", "exclude"), ("accept", "reject"), ("allow", "block"), ("allow", "deny"),
    ("grant", "revoke"), ("expand", "shrink"), ("grow", "shrink"), ("extend", "shorten"),
    ("hot", "cold"), ("warm", "cool"), ("wet", "dry"), ("fast", "slow"), ("faster", "slower"),
    ("keep", "remove"), ("keep", "cut"), ("keep", "cancel"), ("keep", "pause"), ("keep", "stop"),
    ("continue", "stop"), ("continue", "pause"), ("buy", "sell"), ("save", "spend"),
    ("deposit", "withdraw"), ("attach", "detach"), ("connect", "disconnect"),
    ("install", "uninstall"), ("upgrade", "downgrade"), ("mount", "unmount"), ("push", "pull"),
    ("fill", "empty"), ("thicken", "thin"), ("heavier", "lighter"), ("heavy", "light"),
    ("wider", "narrower"), ("larger", "smaller"), ("bigger", "smaller"), ("maximum", "minimum"),
    ("most", "least"), ("first", "last"), ("join", "leave"), ("hire", "fire"), ("show", "hide"),
    ("light", "dark"), ("loud", "quiet"), ("strong", "weak"), ("stronger", "weaker"),
    ("often", "rarely"), ("together", "separately"), ("inside", "outside"), ("above", "below"),
    ("forward", "back"), ("forward", "backward"), ("upper", "lower"),
    ("import", "export"), ("encrypt", "decrypt"), ("compress", "decompress"), ("freeze", "thaw"),
    ("heat", "cool"), ("soften", "harden"), ("shorten", "lengthen"), ("widen", "narrow"),
    ("tight", "loose"),
)  # fmt: skip


PARTICLES = frozenset({"on", "off", "up", "down"})
"""Opposites only after the same word: "turn it on" / "turn it off", "scale up" / "scale down"."""


@cache
def opposites() -> dict[str, frozenset[str]]:
    """Each stem → the stems of its opposites."""
    found: dict[str, set[str]] = {}
    for x, y in PAIRS:
        found.setdefault(stem(x), set()).add(stem(y))
        found.setdefault(stem(y), set()).add(stem(x))
    return {w: frozenset(v) for w, v in found.items()}
