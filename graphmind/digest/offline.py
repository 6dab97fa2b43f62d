"""Offline digests: links between sampled entries, thread convergence, forgotten-entry review.

- cross_pollination: every pair of entries from different topics sharing content terms;
  a contradiction when exactly one side is negated, an isomorphism when an entry itself
  speaks of one (同構, isomorphic, mirrors, same structure), otherwise "same thing" when they
  share two or more terms. Nothing found is reported as such (a signal in itself).
- convergence: the proposal's rule on shared capitalised concepts: 2+ = hint, 3+ = merge.
- forgotten: absorbed when most of the entry's terms are in one context item, reconnect when
  it shares two or more terms with another entry or item, fade otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from graphmind.llm.base import Tool
from graphmind.prompts.digest import (
    ConvergenceInput,
    ConvergenceOutput,
    ConvergencePair,
    CrossPollinationInput,
    CrossPollinationOutput,
    DigestLink,
    EntryReview,
    ForgottenInput,
    ForgottenOutput,
    LinkKind,
    shared_concepts,
)
from graphmind.text import join_names, term_set

TEMPLATE_WORDS = frozenset(
    """
same_thing isomorphism contradiction absorbed reconnect fade share shared terms contradicts
speaks links nothing found entries scattered mostly contained related memory hint merge
side other entry structure left with thing shares
""".split()
)

_NEGATION = re.compile(r"\b(?:not|never|no|cannot|isn't|doesn't|don't|without)\b|不|沒有|並非", re.I)
_ISOMORPHISM = re.compile(r"同構|isomorph|mirrors?|same structure|parallels?", re.I)


def cross_pollination(inputs: CrossPollinationInput, tools: Sequence[Tool]) -> CrossPollinationOutput:
    entries = [(s.topic, e) for s in inputs.samples for e in s.entries]
    links: list[tuple[int, DigestLink]] = []
    for (topic_a, a), (topic_b, b) in combinations(entries, 2):
        if topic_a == topic_b:
            continue
        shared = sorted(term_set(a.text) & term_set(b.text))
        kind = _link_kind(a.text, b.text, shared)
        if kind is None:
            continue
        note = _link_note(kind, topic_a, topic_b, shared)
        link = DigestLink(entry_ids=[a.id, b.id], kind=kind, shared_terms=shared, note=note)
        links.append((len(shared), link))
    links.sort(key=lambda pair: -pair[0])
    if not links:
        return CrossPollinationOutput(nothing_found=True, note="Nothing found: these entries may be too scattered.")
    return CrossPollinationOutput(links=[link for _, link in links[:5]], nothing_found=False)


def _link_kind(a: str, b: str, shared: list[str]) -> LinkKind | None:
    if not shared:
        return None
    if bool(_NEGATION.search(a)) != bool(_NEGATION.search(b)):
        return "contradiction"
    if _ISOMORPHISM.search(a) or _ISOMORPHISM.search(b):
        return "isomorphism"
    return "same_thing" if len(shared) >= 2 else None


def _link_note(kind: LinkKind, topic_a: str, topic_b: str, shared: list[str]) -> str:
    terms = join_names(shared[:5])
    if kind == "contradiction":
        return f"{topic_a} and {topic_b} share {terms}; one side contradicts the other."
    if kind == "isomorphism":
        return f"{topic_a} and {topic_b} share {terms}; one entry speaks of the same structure."
    return f"{topic_a} and {topic_b} share {terms}."


def convergence(inputs: ConvergenceInput, tools: Sequence[Tool]) -> ConvergenceOutput:
    active = inputs.threads
    pairs = []
    for a, b in combinations(active, 2):
        shared = shared_concepts(a.progress_notes, b.progress_notes)
        if len(shared) < 2:
            continue
        merge = len(shared) >= 3
        pairs.append(
            ConvergencePair(
                thread_ids=[a.id, b.id],
                shared_concepts=shared,
                action="merge" if merge else "hint",
                merged_title=f"{a.title} + {b.title}: {', '.join(shared[:3])}" if merge else None,
                touches=list(dict.fromkeys([*a.touches, *b.touches])) if merge else [],
            )
        )
    pairs.sort(key=lambda p: -len(p.shared_concepts))
    return ConvergenceOutput(pairs=pairs)


def forgotten(inputs: ForgottenInput, tools: Sequence[Tool]) -> ForgottenOutput:
    reviews = []
    others = [(e.id, e.text) for e in inputs.entries] + [(m.id, m.text) for m in inputs.context]
    context_ids = {m.id for m in inputs.context}
    for entry in sorted(inputs.entries, key=lambda e: -e.age_days):
        terms = term_set(entry.text)
        scored = sorted(
            ((len(terms & term_set(text)), oid) for oid, text in others if oid != entry.id), key=lambda pair: -pair[0]
        )
        best_count, best_id = scored[0] if scored else (0, "")
        if terms and best_id in context_ids and best_count / len(terms) >= 0.6:
            note = f"Mostly contained in {best_id} ({best_count} of {len(terms)} terms)."
            reviews.append(EntryReview(entry_id=entry.id, status="absorbed", related_ids=[best_id], note=note))
        elif best_count >= 2:
            related = [oid for count, oid in scored if count >= 2]
            shared = sorted(terms & term_set(dict(others)[best_id]))
            reviews.append(
                EntryReview(
                    entry_id=entry.id,
                    status="reconnect",
                    related_ids=related,
                    note=f"Shares {join_names(shared[:5])} with {best_id}.",
                )
            )
        else:
            reviews.append(EntryReview(entry_id=entry.id, status="fade", note="No related memory found: left to fade."))
    return ForgottenOutput(reviews=reviews)


BEHAVIOURS = {
    "digest.cross_pollination": cross_pollination,
    "digest.convergence": convergence,
    "digest.forgotten": forgotten,
}
