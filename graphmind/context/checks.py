"""The context-object spec's form rules, as pure checks (the grounding check is grounding.py).

- **Specific identity.** "Who I Am Right Now" never describes a generic assistant, and when
  the mind has an Identity node it names the mind.
- **The stimulus quoted.** "Current Situation" holds the stimulus exactly, in double quotes
  (spacing aside).
- **No node dumps.** No section shows memories the way the graph or the prompts hold them:
  "[id] (Label)" references, JSON braces, or ``snake_case: value`` property lines.
- **No continuation of a weak match.** When relevance marks the match weak (the stimulus
  shares only a partner's name with what memory holds) or keeps no on-topic conversation, no
  section frames the stimulus as continuing an earlier exchange ("continues our discussion
  about", "picking up where we left off", "following up on our earlier conversation", "as we
  discussed", ...). The grounded wording is the templates' ("<partner> last spoke about X;
  nothing in memory about Y").
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


_CONVERSATION = r"(?:discussion|conversation|talk|chat|exchange|thread|dialogue|correspondence)s?"
_CONTINUATION = re.compile(
    r"\bcontinu(?:es|ing|ation of|e)\b[^.;\n]{0,30}?\b"
    + _CONVERSATION
    + r"|\b(?:pick|picks|picking|picked) (?:it |things |this )?(?:up|back up) where\b"
    r"|\bwhere (?:we|you|I) left (?:off|it|things)\b"
    r"|\bfollow(?:s|ing|ed)?[- ]up (?:on|to|from) (?:our|the|your|my|that|an?) (?:\w+ ){0,2}"
    + _CONVERSATION
    + r"|\bas (?:we|you|I) (?:discussed|talked about|were saying|mentioned|agreed)\b"
    r"|\b(?:back|returning|returns|return|coming back|circling back) to (?:our|the|that) (?:\w+ ){0,2}"
    + _CONVERSATION
    + r"|\b(?:our|the) (?:ongoing|earlier|previous|last) "
    + _CONVERSATION
    + r" (?:continues|goes on|resumes)\b"
    r"|\b(?:resum(?:e|es|ing)|revisit(?:s|ing)?|carr(?:y|ies|ying) on|build(?:s|ing)? on) (?:our|the|that) (?:\w+ ){0,2}"
    + _CONVERSATION
    + r"|\b(?:ongoing|continuing) "
    + _CONVERSATION,
    re.IGNORECASE,
)


_NEGATED = (
    r"(?:not|n't|never|no longer|hardly)\b[^.;:!?]{0,40}?\b"
    r"(?:relevant|related|relate|connected|pertinent|apply|applies|linked|about (?:this|that|it))\b"
)
DISMISSAL = re.compile(
    r"\b(?:" + _NEGATED + r"|irrelevant|unrelated|dead[- ]end|red herring|distract(?:ion|or)|off[- ]topic"
    r"|beside the point|nothing to do with|no bearing|ruled? out|set (?:it|this|that) aside"
    r"|(?:a|an|another) (?:different|separate|unrelated) (?:matter|problem|issue|story|topic|thread)"
    r"|coincidence|only shares? (?:a|the) name)",
    re.IGNORECASE,
)
"""A finding's words saying that something does not matter here (ruminate/established.py)."""


def is_dump(text: str) -> bool:
    """Whether ``text`` shows memories the way the graph or the prompts hold them."""
    return any(pattern.search(text) for pattern in _DUMPS)


def continuation(text: str) -> str | None:
    """The first phrase of ``text`` that frames the stimulus as continuing an earlier exchange."""
    match = _CONTINUATION.search(text)
    return match.group(0) if match else None


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
    weak_match: bool = False,
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
        phrase = continuation(text.replace(quoted, "")) if weak_match else None
        if phrase:
            found.append((key, f"frames a weak match as a continuation ({phrase!r})"))
    for key, text in texts.items():
        if is_dump(text.replace(quoted, "")):
            found.append((key, "the section dumps memories as the graph holds them"))
    if tokens < MIN_TOKENS and not note and not trimmed:
        found.append(("document", f"under {MIN_TOKENS:,} tokens without saying why"))
    if tokens >= MIN_TOKENS and note:
        found.append(("document", f"says it is short at {tokens:,} tokens"))
    return found


def _spaced(text: str) -> str:
    return " ".join(text.replace("“", '"').replace("”", '"').split())
