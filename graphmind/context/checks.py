"""The context-object spec's form rules, as pure checks (the grounding check is grounding.py).

- **Specific identity.** "Who I Am Right Now" never describes a generic assistant, and when
  the mind has an Identity node it names the mind.
- **The stimulus quoted.** "Current Situation" holds the stimulus exactly, in double quotes
  (spacing aside).
- **No node dumps.** No section shows memories the way the graph or the prompts hold them:
  "[id] (Label)" references, JSON braces, or ``snake_case: value`` property lines.
- **No padding.** Under ``MIN_TOKENS`` the Context Object says so in its note (how many
  memories it drew from) instead of being filled; a note over a document that reaches the
  minimum is wrong too. (A document trimmed to a smaller budget is short by request.)

Calibration: the patterns were written against the prompts' own memory format
(``format_memory``, the compose prompt's "key: value; key: value" lines) and the spec's
anti-hallucination rule ("No generic identity ('helpful assistant')"); the templates' own
output (tests/unit/test_context.py) must pass, and the unit tests hold a case of each that
must fail.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

MIN_TOKENS = 1_500
"""The spec's lower bound: a context under it says why (the mind holds no more)."""

_GENERIC = re.compile(
    r"\b(?:helpful|friendly|virtual|ai)\s+assistant\b|\blanguage model\b|\bas an ai\b"
    r"|\bchatbot\b|\bi am an ai\b",
    re.IGNORECASE,
)
_DUMPS = (
    re.compile(r"\[[\w:.-]+\]\s*\([A-Z][A-Za-z_]+\)"),  # "[tc-race] (Technical_Context)"
    re.compile(r"[{][\"']|[\"'][}]|[\"']\s*:\s*[\"'\d\[{]"),  # JSON / dict text
    re.compile(r"(?m)^\s*(?:[-*]\s*)?[a-z]+(?:_[a-z]+)+\s*[:=]\s*\S"),  # "partner_name: Ada"
    re.compile(r"(?m)(?:^\s*(?:[-*]\s*)?[a-z]+\s*:\s*\S.*\n){1}^\s*(?:[-*]\s*)?[a-z]+\s*:\s*\S"),
    # two "status: open" lines in a row (the templates' own titles are capitalised)
)


def short_note(tokens: int, memories: int) -> str:
    """What a context under ``MIN_TOKENS`` says about itself."""
    held = "no memories" if memories == 0 else "only 1 memory" if memories == 1 else f"only {memories} memories"
    return (
        f"_This context is shorter than {MIN_TOKENS:,} tokens because the mind holds "
        f"{held} relevant to this stimulus; nothing was added to fill it._"
    )


def problems(
    texts: Mapping[str, str],
    *,
    stimulus: str,
    identity_name: str | None,
    note: str = "",
    tokens: int = 0,
    trimmed: bool = False,
) -> list[tuple[str, str]]:
    """Every broken form rule, as (section or "document", what is wrong). A document trimmed
    to a budget below the minimum is short because of the budget, not the mind."""
    found: list[tuple[str, str]] = []
    identity = texts.get("identity", "")
    if _GENERIC.search(identity):
        found.append(("identity", "the identity is a generic assistant's"))
    elif identity_name and identity_name.lower() not in identity.lower():
        found.append(("identity", f"the identity does not name {identity_name}"))
    if f'"{_spaced(stimulus)}"' not in _spaced(texts.get("current_situation", "")):
        found.append(("current_situation", "the stimulus is not quoted exactly"))
    quoted = f'"{stimulus}"'
    for key, text in texts.items():
        if any(pattern.search(text.replace(quoted, "")) for pattern in _DUMPS):
            found.append((key, "the section dumps memories as the graph holds them"))
    if tokens < MIN_TOKENS and not note and not trimmed:
        found.append(("document", f"under {MIN_TOKENS:,} tokens without saying why"))
    if tokens >= MIN_TOKENS and note:
        found.append(("document", f"says it is short at {tokens:,} tokens"))
    return found


def _spaced(text: str) -> str:
    return " ".join(text.replace("“", '"').replace("”", '"').split())
