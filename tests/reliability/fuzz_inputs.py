"""Hypothesis strategies and budgets for the fuzz suites (issue 25, item 4).

Two profiles, chosen with the ``HYPOTHESIS_PROFILE`` environment variable:

- ``ci`` (the default): about 500 cases over all the fuzz tests, derandomized, so a CI run
  tries the same cases every time;
- ``bench``: twenty times as many (about 10,000), still derandomized (``bench/fuzz_bench.py``).

Each test asks ``budget(share)`` for its part of the profile's cases, and reports how many it
ran as the JUnit property ``fuzz_cases`` (bench/reliability_table.py counts them)."""

from __future__ import annotations

import json
import os
import string
from importlib import resources
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

SCALE = {"ci": 1, "bench": 20}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in SCALE:
    raise SystemExit(f"HYPOTHESIS_PROFILE must be one of {sorted(SCALE)}, not {PROFILE!r}")
for _name in SCALE:
    settings.register_profile(
        _name, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck), print_blob=True
    )
settings.load_profile(PROFILE)


def budget(ci_cases: int, *, shrink: bool = True) -> settings:
    """Hypothesis settings for a test that tries ``ci_cases`` cases under the ci profile.
    ``shrink=False`` reports a failing case as found: shrinking one that needs the database
    can take Hypothesis's five-minute limit."""
    phases = list(Phase) if shrink else [p for p in Phase if p is not Phase.shrink]
    return settings(max_examples=ci_cases * SCALE[PROFILE], phases=phases)


class Counter:
    """Counts the cases a @given function ran, for the ``fuzz_cases`` JUnit property."""

    def __init__(self) -> None:
        self.cases = 0

    def __call__(self) -> None:
        self.cases += 1


# -- text that breaks things ------------------------------------------------------------------
HOSTILE = [
    "",
    " ",
    "..",
    "../..",
    "../escape",
    "a/../../b",
    "/tmp/x",
    "C:\\x",
    "it's",
    'say "hi"',
    "`id`",
    "$(id)",
    "${HOME}",
    "' OR 1=1 //",
    "}) DETACH DELETE n //",
    "naïve",
    "名前",
    "😀",
    "e\u0301",
    "\u202eevil",
    "a\x00b",
    "a\nb",
    "a\rb",
    "\t",
    "-rf",
    "--help",
    "-",
    "NaN",
    "-1",
    "1e309",
    "0x10",
    "x" * 65,
    "test-" + "a" * 60,
    "9" * 5_000,
    "[" * 100_000,
]
"""Fixed nasties every strategy mixes in: quotes, ``..``, paths, injection, unicode, controls."""

_UNICODE = st.characters(codec="utf-8")  # every code point that can be UTF-8 (no lone surrogates)


def ten_kb() -> st.SearchStrategy[str]:
    """Strings of about 10 kB, repeated from a short random seed."""
    return st.builds(
        lambda seed, n: (seed * n)[:n], st.text(_UNICODE, min_size=1, max_size=4), st.integers(9_000, 10_240)
    )


def many_words() -> st.SearchStrategy[str]:
    """A long message of many distinct words, or a long run of ideographs: each word or character
    is a full-text clause per field searched (64 words once took recall past Lucene's 1,024)."""
    return st.one_of(
        st.lists(st.from_regex(r"[a-z]{3,9}", fullmatch=True), min_size=40, max_size=90, unique=True).map(" ".join),
        st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=60, max_size=400),
    )


def hostile_text(max_size: int = 60) -> st.SearchStrategy[str]:
    """A string a user or an attacker could type: the fixed nasties, random unicode, 10 kB, many
    distinct words."""
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.text(_UNICODE, max_size=max_size),
        st.text(string.printable, max_size=max_size),
        ten_kb(),
        many_words(),
    )


def mind_names() -> st.SearchStrategy[str]:
    """Mind names, mostly invalid, some valid (letters, digits, ``_ . -``, up to 64)."""
    return st.one_of(hostile_text(), st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,70}", fullmatch=True))


# -- JSON ------------------------------------------------------------------------------------
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text(30),
)


def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    return st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text(12), inner, max_size=4),
        max_leaves=max_leaves,
    )


def mutated(template: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``template`` with some keys dropped, some values replaced by any JSON, some keys added."""
    keys = list(template)
    return st.builds(
        _mutate,
        st.just(template),
        st.sets(st.sampled_from(keys), max_size=len(keys)) if keys else st.just(set()),
        st.dictionaries(st.sampled_from(keys), json_values(), max_size=3) if keys else st.just({}),
        st.dictionaries(hostile_text(12), json_values(4), max_size=2),
    )


def _mutate(template: dict[str, Any], drop: set[str], replace: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in template.items() if k not in drop}
    out.update(replace)
    if extra:
        out.update(extra)
    return out


def nested_mutated(template: dict[str, Any], key: str) -> st.SearchStrategy[dict[str, Any]]:
    """``template`` mutated, or with its ``key`` object mutated in place."""
    return st.one_of(mutated(template), mutated(template[key]).map(lambda inner: {**template, key: inner}))


def dumps(value: Any) -> str:
    """JSON text of ``value`` as a client would send it (non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


# -- import lines ----------------------------------------------------------------------------
DEMO = Path(str(resources.files("graphmind") / "demo" / "felix.jsonl"))
CONVERSATION = {
    "type": "conversation",
    "session_id": "s1",
    "started_at": "2024-05-02T10:00:00Z",
    "participants": ["Ana", "Ben"],
    "turns": [
        {"id": "s1-1", "speaker": "Ana", "text": "the kiln cracked", "timestamp": "2024-05-02T10:00:00Z"},
        {"id": "s1-2", "speaker": "Ben", "text": "which shelf?"},
    ],
}
TEMPLATES: list[dict[str, Any]] = [json.loads(line) for line in DEMO.read_text().splitlines() if line.strip()]
TEMPLATES.append(CONVERSATION)
NESTED = {"node": "properties", "edge": "properties", "conversation": "turns"}


def _template_line(template: dict[str, Any]) -> st.SearchStrategy[str]:
    key = NESTED[template["type"]]
    if isinstance(template[key], dict) and template[key]:
        return nested_mutated(template, key).map(dumps)
    return st.builds(dumps, st.just(template)) | nested_mutated({**template, key: {"x": 1}}, key).map(dumps)


def import_lines() -> st.SearchStrategy[str | bytes]:
    """One import line: a real line mutated, any JSON, any text, a cut line, or raw bytes."""
    template = st.sampled_from(TEMPLATES)
    return st.one_of(
        template.flatmap(_template_line),
        template.flatmap(_template_line),  # twice: near-valid lines reach the deepest checks
        json_values().map(dumps),
        hostile_text(),
        st.builds(lambda t, n: dumps(t)[:n], template, st.integers(0, 200)),
        st.binary(max_size=40),
    )
