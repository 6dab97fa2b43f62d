"""Forgetting's pure logic: what loses its support when memories go, and where their text was
copied verbatim (and what it reads once the copy is cut out).

Provenance (the edges the engines write, read as "derived from"):

- ``(:Experience)-[:EXEMPLIFIES]->(:Pattern)``           a pattern from its experiences (dream)
- ``(:Abstraction)-[:SUBSUMES]->(:Pattern|Abstraction)``  a ladder level from the one below (dream)
- ``(:Crystal)-[:EVIDENCED_BY]->(any)``                   a crystal from its evidence (wander)
- ``(:Locus)-[:REFERS_TO]->(:Memory)``                    a locus from the memory it stands for (wander)
- ``(:Residue)-[:DRAWS_ON]->(:Memory)``, ``-[:OF_STEP]->(:Locus)``   a step's residue (wander)
- ``(:Finding)-[:CITES]->(:Memory)``                      a rumination finding from what it cites
- ``(:RuminationRun)-[:FOUND]->(:Finding)``               the run (its Context Object) from its findings
- ``(:Thread)-[:MERGED_INTO]->(:Thread)``                 a merged thread from the two it merged (digest)
- ``(:Resonance)-[:SUPPORTED_BY]->(:Residue)``            a recurring theme from the residues (wander)
- a wander session's ``WarmMemory`` (no edge: its hot loci compressed) when one of the session's
  nodes derives from a forgotten memory: scrubbed, never removed

Derived text is cut two ways: a verbatim copy (a quote, a trimmed concept, a JSON trace), and
a distinctive word: a word of the forgotten text that no other memory of the mind holds (the
store tells which) can only have come from it, so it goes wherever a derived node repeats it
(an LLM's paraphrase, a theme list, "keep and <word>"). Text that was paraphrased without
such a word is not found.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from graphmind.dream.params import DreamParams

FORWARD = ("EXEMPLIFIES", "MERGED_INTO")
"""Provenance edges that point from the source to what is derived from it."""
BACKWARD = ("SUBSUMES", "EVIDENCED_BY", "REFERS_TO", "DRAWS_ON", "OF_STEP", "CITES", "FOUND", "SUPPORTED_BY")
"""Provenance edges that point from the derived node to its source."""
PROVENANCE = FORWARD + BACKWARD
MARK = "[forgotten]"
"""What replaces a verbatim copy of forgotten text."""

Action = Literal["remove", "unverify", "keep"]


@dataclass(frozen=True)
class ForgetParams:
    """Thresholds of the cascade and of the verbatim-copy search.

    ``min_pattern_experiences`` is dream's ``min_cluster_size`` (a pattern is never made from
    fewer); a crystal needs two pieces of evidence (wander forms one from a recurrence, never
    from one node). ``min_fragment_chars``: shorter texts (an outcome, a topic word) are
    shared by unrelated memories, so a copy of one is not evidence of copying.
    ``min_copy_chars``: a copy cut short (a trimmed concept, a quote ending in "…") is found
    from its first this-many characters on; a stored value this long that is a piece of the
    forgotten text is a copy too."""

    min_pattern_experiences: int = DreamParams().min_cluster_size
    min_crystal_evidence: int = 2
    min_fragment_chars: int = 12
    min_copy_chars: int = 32
    min_term_chars: int = 4
    """Shorter words ("ok", "r2", "so") say nothing about where a text came from."""
    max_terms: int = 500


@dataclass(frozen=True)
class Dependent:
    """A node derived from at least one node being removed, with all its provenance sources."""

    uid: str
    id: str
    label: str
    sources: tuple[tuple[str, str], ...]
    """(source uid, relationship type) for every provenance edge of this node."""
    source_type: str | None = None
    """A Locus's source_type (MEMORY: the locus stands for one memory)."""
    session_id: str | None = None
    """The wander session a locus, residue, resonance or crystal belongs to."""


@dataclass(frozen=True)
class Judged:
    uid: str
    id: str
    label: str
    via: tuple[str, ...]
    """The relationship types that tie it to what is removed."""
    support_before: int
    support_after: int
    action: Action


def minimum_support(dep: Dependent, params: ForgetParams) -> int:
    """How many provenance sources ``dep`` needs to stand; 0: it is never removed (a residue is
    a walk's history, a rumination run a record; their copied text is scrubbed instead)."""
    if dep.label == "Pattern":
        return params.min_pattern_experiences
    if dep.label == "Crystal":
        return params.min_crystal_evidence
    if dep.label == "Locus":
        return 1 if dep.source_type == "MEMORY" else 0
    if dep.label in ("Abstraction", "Finding", "Thread"):
        return 1
    return 0


def _support(dep: Dependent) -> list[str]:
    """The sources that count as support: a pattern's experiences, a crystal's evidence, ..."""
    wanted = {
        "Pattern": ("EXEMPLIFIES",),
        "Abstraction": ("SUBSUMES",),
        "Crystal": ("EVIDENCED_BY",),
        "Locus": ("REFERS_TO",),
        "Finding": ("CITES",),
        "Thread": ("MERGED_INTO",),
        "RuminationRun": ("FOUND",),
    }.get(dep.label)
    return sorted({uid for uid, rel in dep.sources if wanted is None or rel in wanted})


def judge(
    dependents: Iterable[Dependent], forgotten: Iterable[str], params: ForgetParams, *, cascade: bool
) -> list[Judged]:
    """What happens to each node derived from the ``forgotten`` uids (directly or through other
    derived nodes). Without ``cascade`` every one is kept (it only loses its edges). With it,
    a node left with fewer sources than ``minimum_support`` is removed, which can take away the
    support of others (to a fixed point); a pattern or abstraction that lost some support but
    keeps enough is flagged for verification again; the rest is kept. Every node derived, however
    far, is listed (``via``: the provenance edges to what it derives from in the forget)."""
    deps = {d.uid: d for d in dependents}
    removed = set(forgotten)
    changed = cascade
    while changed:
        changed = False
        for dep in deps.values():
            if dep.uid in removed:
                continue
            support = _support(dep)
            left = [s for s in support if s not in removed]
            if len(left) < len(support) and len(left) < minimum_support(dep, params):
                removed.add(dep.uid)
                changed = True
    reached = removed | set(deps)
    out = []
    for dep in sorted(deps.values(), key=lambda d: (d.label, d.id)):
        support = _support(dep)
        left = [s for s in support if s not in removed]
        via = tuple(sorted({rel for uid, rel in dep.sources if uid in reached}))
        if not via:
            continue  # derives from nothing this forget touches
        action: Action = "keep"
        if cascade and dep.uid in removed:
            action = "remove"
        elif cascade and len(left) < len(support) and dep.label in ("Pattern", "Abstraction"):
            action = "unverify"
        out.append(Judged(dep.uid, dep.id, dep.label, via, len(support), len(left), action))
    return out


def fragments(texts: Iterable[str], params: ForgetParams) -> list[str]:
    """The forgotten texts worth searching for (long enough to be evidence of copying), with
    their whitespace-collapsed and JSON-escaped forms, longest first."""
    out: set[str] = set()
    for text in texts:
        for form in (text, " ".join(text.split())):
            form = form.strip()
            if len(form) >= params.min_fragment_chars:
                out.add(form)
                out.add(json.dumps(form, ensure_ascii=False)[1:-1])
                out.add(json.dumps(form)[1:-1])
    return sorted(out, key=lambda f: (-len(f), f))


def probes(frags: Sequence[str], params: ForgetParams) -> list[str]:
    """What the store searches stored values for: each fragment's first ``min_copy_chars``."""
    return sorted({f[: params.min_copy_chars] for f in frags})


def scrub_text(value: str, frags: Sequence[str], params: ForgetParams) -> str:
    """``value`` with every verbatim copy of a fragment replaced by MARK: a whole copy, a copy
    cut short after at least ``min_copy_chars`` (the match runs as far as the characters agree),
    and a value that is itself a long piece of a fragment."""
    for frag in frags:
        if len(value) >= params.min_copy_chars and value in frag:
            return MARK
        probe = frag[: params.min_copy_chars]
        start = value.find(probe)
        while start >= 0:
            end = start + len(probe)
            while end < len(value) and end - start < len(frag) and value[end] == frag[end - start]:
                end += 1
            value = value[:start] + MARK + value[end:]
            start = value.find(probe, start + len(MARK))
    return value


_WORD = re.compile(r"[^\W_]+")


_EDGE_PUNCTUATION = ".,;:!?'\"()[]{}<>"


def candidate_terms(texts: Iterable[str], params: ForgetParams) -> list[str]:
    """The lower-case words of the forgotten texts long enough to tell where a text came from,
    and the compound tokens made of short parts (``vm-ci-14``, ``9-1-5-5``, ``v2.3.1``); the
    store then keeps those no other memory holds: the distinctive ones."""
    out: dict[str, None] = {}
    for text in texts:
        lowered = text.lower()
        for word in _WORD.findall(lowered):
            if len(word) >= params.min_term_chars:
                out.setdefault(word)
        for token in lowered.split():
            token = token.strip(_EDGE_PUNCTUATION)
            parts = _WORD.findall(token)
            if len(parts) > 1 and len(token) >= params.min_term_chars and "".join(parts) != token:
                if any(len(p) < params.min_term_chars for p in parts) and not _WORD.fullmatch(token):
                    out.setdefault(token)
    return list(out)[: params.max_terms]


LONGEST_INDEXED_TERM = 255
"""Lucene's standard tokenizer cuts a longer token into pieces, so the full-text index cannot be
asked about it (one query of a 300,000-character word is over a thousand clauses)."""


def unaskable(terms: Iterable[str]) -> list[str]:
    """The ``terms`` too long to look up in the full-text index: no other memory is taken to hold
    them, so they count as distinctive (forget errs towards cutting)."""
    return [t for t in terms if len(t) > LONGEST_INDEXED_TERM]


def is_plain_word(term: str) -> bool:
    """A term made of one word (searched as a term; a compound token is searched as a phrase)."""
    return _WORD.fullmatch(term) is not None


def term_pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    """One case-insensitive whole-word pattern for the distinctive ``terms``."""
    if not terms:
        return None
    alternatives = "|".join(re.escape(t) for t in sorted(terms, key=lambda t: (-len(t), t)))
    return re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])", re.IGNORECASE)


def scrub_value(
    value: Any,
    frags: Sequence[str],
    forgotten_ids: Iterable[str],
    params: ForgetParams,
    terms: re.Pattern[str] | None = None,
) -> Any:
    """A stored property without the forgotten text: text loses its verbatim copies, then its
    distinctive words (``terms``); in a list of text, an element that was all forgotten text,
    or is a forgotten id (a pattern's examples), is dropped."""

    def clean(text: str) -> str:
        text = scrub_text(text, frags, params)
        return terms.sub(MARK, text) if terms is not None else text

    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        ids = set(forgotten_ids)
        kept = [clean(v) for v in value if v not in ids]
        return [v for v in kept if v != MARK]
    return value


def scrubbed(
    props: Mapping[str, Any],
    frags: Sequence[str],
    forgotten_ids: Iterable[str],
    params: ForgetParams,
    terms: re.Pattern[str] | None = None,
) -> dict[str, Any]:
    """The properties of ``props`` whose value changes once the forgotten text is cut out."""
    ids = list(forgotten_ids)
    out = {}
    for key, value in props.items():
        new = scrub_value(value, frags, ids, params, terms)
        if new != value:
            out[key] = new
    return out


def memory_texts(props: Mapping[str, Any], text_fields: Sequence[str]) -> list[str]:
    """The text a memory holds (its model's text fields and ``text``), each list item apart."""
    out: list[str] = []
    for name in (*text_fields, "text"):
        value = props.get(name)
        items = value if isinstance(value, list) else [value]
        out += [v for v in items if isinstance(v, str) and v.strip()]
    return list(dict.fromkeys(out))


def turn_gaps(
    turns: Iterable[Mapping[str, Any]], forgotten: Iterable[str]
) -> tuple[list[dict[str, str]], dict[str, int]]:
    """(NEXT links that close the gaps forgotten turns leave, turns removed per session).
    ``turns``: {uid, previous, next, session} of each forgotten turn; a run of forgotten turns
    is bridged from the kept turn before it to the kept turn after it."""
    gone = set(forgotten)
    by_uid = {t["uid"]: t for t in turns}
    links = []
    for turn in by_uid.values():
        before = turn["previous"]
        if before is None or before in gone:
            continue  # not the first of its run
        after = turn["next"]
        seen = {turn["uid"]}
        while after in gone and after in by_uid and after not in seen:
            seen.add(after)
            after = by_uid[after]["next"]
        if after is not None and after not in gone:
            links.append({"from": before, "to": after})
    removed: dict[str, int] = {}
    for turn in by_uid.values():
        if turn["session"] is not None:
            removed[turn["session"]] = removed.get(turn["session"], 0) + 1
    return sorted(links, key=lambda link: link["from"]), removed
