"""``Mind.query_knowledge``: the consolidated patterns that match a text, each with its
ladder path (category, principle, meta-principle), the experiences it stands on and, when
it records a failure, the experiences that failed.

A failed approach is a result. For a question whether something helps or works ("does
brining help?", "is a longer hold timer worth it?", ``asks_whether_it_works``), the
patterns that record a failure (``Tally.records_failure``) about that thing (``about``) get
up to half the places (``surface_failures``), so the answer shows what did not work beside
what did, however the successes rank.

A pattern answers only when it is about the query: its cosine to the query is above what texts
about unrelated matters reach (``DreamParams.relevance_quantile``; ``relevant``). An off-topic
question usually gets no pattern rather than the nearest ones (bench/knowledge_quality.py: less
often for a question from a nearby field). A failure about the question's subject is surfaced
only when it clears the floor too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import numpy as np

from graphmind.dream.clustering import unit_rows
from graphmind.dream.coherence import relevance_floor
from graphmind.dream.items import Tally
from graphmind.dream.params import DreamParams
from graphmind.dream.question_names import name_runs, query_names, without
from graphmind.embed import Embedder
from graphmind.models.base import as_datetime
from graphmind.recall import Recaller, RecallHit, RecallResult
from graphmind.recall._logic import check_k as check_recall_k
from graphmind.recall.hit_counter import count_hits
from graphmind.recall.identifiers import identifiers, names
from graphmind.recall.validity import moment
from graphmind.store import GraphStore
from graphmind.text import rank_by_overlap, stems, words

EXAMPLES_READ = 50
"""A pattern's experiences read as candidate examples (those it cites first)."""
EXAMPLES_SHOWN = 12
"""Examples a match carries (``about_first``)."""
MAX_K = 100
"""At most this many patterns per answer, everywhere (Python, CLI, REST, MCP); recall reads 3 x k."""

_AUXILIARY = r"(?:does|do|did|is|are|was|were|will|would|can|could|should|might|has|have|had)(?:n't|\s+not)?"
_EFFICACY = (
    r"help(?:s|ed|ful)?|work(?:s|ed)?|improve[sd]?|fix(?:es|ed)?|solve[sd]?|worth|effective|useful"
    r"|matter(?:s|ed)?|pay(?:s)?\s+off|paid\s+off|succeed(?:s|ed)?|beneficial|make\s+a\s+difference"
    r"|better|faster|speed\s+up|reduce[sd]?|prevent(?:s|ed)?|stop(?:s|ped)?"
)
_YES_NO = re.compile(rf"^\W*{_AUXILIARY}\b", re.I)
_ASKS_EFFICACY = re.compile(rf"\b(?:{_EFFICACY})\b", re.I)
_NOT_SUBJECT = re.compile(rf"\b(?:{_AUXILIARY}|{_EFFICACY}|it|really|actually)\b", re.I)


@dataclass(frozen=True)
class KnowledgeMatch:
    id: str
    name: str
    description: str
    score: float
    similarity: float | None = None
    """Its cosine to the query."""
    conditions: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    success_rate: float | None = None
    usage_count: int | None = None
    confidence: float | None = None
    verification_status: str | None = None
    ladder: list[dict[str, Any]] = field(default_factory=list)
    """The active abstractions above the pattern, level 2 first."""
    examples: list[dict[str, Any]] = field(default_factory=list)
    failure_count: int = 0
    records_failure: bool = False
    """At least ``DreamParams.failure_share`` of its experiences failed: a negative result."""
    failures: list[dict[str, Any]] = field(default_factory=list)
    """Up to five of its experiences that failed (id, description, outcome)."""
    outdated: str | None = None
    """Why it may no longer hold: every experience behind it was superseded ("every example
    superseded since 2026-05-01 09:30 UTC"); such a pattern comes after the others."""
    stale: str | None = None
    """Why its wording may state a replaced fact: experiences of it stopped holding after it was
    extracted ("examples superseded since ...: the next dream words it again")."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def text(self) -> str:
        """Everything it says, its failed experiences included: what ``about`` reads."""
        return " ".join(
            [
                self.name,
                self.description,
                *self.conditions,
                *self.actions,
                *(e.get("description") or "" for e in self.failures),
            ]
        )


def query_knowledge(
    store: GraphStore,
    recaller: Recaller,
    embedder: Embedder,
    mind: str,
    text: str,
    k: int = 5,
    params: DreamParams = DreamParams(),
) -> list[KnowledgeMatch]:
    """The ``k`` active patterns that best match ``text`` (recall restricted to patterns) among
    those ``relevant`` to it; for a question whether something works, the failures about it
    among them (``surface_failures``)."""
    check_k(k)
    hits = recaller.recall(mind, text, k * 3, ["Pattern"], count=False).hits
    query = np.asarray(recaller.query_vector(text), np.float64)  # embedded once, by the recall above
    similarity = dict(zip([h.id for h in hits], cosines(embedder, query, hits), strict=True))
    if params.relevance_quantile is not None and hits:
        floor = relevance_floor(embedder, query, params.relevance_quantile)
        hits = [h for h in hits if relevant(similarity[h.id], floor)]
    scores = {h.id: h.score for h in hits}
    rows = store.read("dream/find_knowledge", mind=mind, ids=list(scores), per_pattern=EXAMPLES_READ)
    matches = [
        replace(m, examples=about_first(m.examples, text))
        for m in (
            _match(r, scores[r["id"]], similarity[r["id"]], params)
            for r in rows
            if (r["pattern"].get("status") or "active") == "active"
        )
    ]
    ranked = sorted(matches, key=lambda m: (m.outdated is not None, -m.score, m.id))
    answer = surface_failures(ranked, text, k, params) if asks_whether_it_works(text) else ranked[:k]
    count_hits(store, mind, [f"{mind}:{m.id}" for m in answer])  # the patterns given, not those read
    return answer


def about_first(examples: list[dict[str, Any]], question: str) -> list[dict[str, Any]]:
    """The first ``EXAMPLES_SHOWN`` of ``examples`` (valid ones first, as read), those sharing
    most words with the question first: a pattern's own first members were shown whatever was
    asked (a trial's "gears ghost shifting" got a wheel, a chain and a BB job of its pattern)."""
    first: dict[str, dict[str, Any]] = {}
    for e in examples:  # a duplicate's text once (it exemplifies too)
        first.setdefault(str(e.get("description")), e)
    once = list(first.values())
    for_now = [e for e in once if not e.get("outdated")]
    ranked = [for_now[i] for i in rank_by_overlap([str(e.get("description") or "") for e in for_now], question)]
    return (ranked + [e for e in once if e.get("outdated")])[:EXAMPLES_SHOWN]


def check_k(k: object) -> None:
    """ValidationError unless ``k`` is a whole number from 1 to ``MAX_K`` (recall's check)."""
    check_recall_k(k, MAX_K)


def about_only(embedder: Embedder, recaller: Recaller, result: RecallResult, quantile: float) -> RecallResult:
    """``result`` with only the hits about its query, as ``query_knowledge`` keeps patterns: more
    alike to it than texts about unrelated matters are (a hit that names an identifier of the
    query stays whatever its cosine; for a query that names something, the texts without its
    names are compared, ``_about_beyond_names``, and none that names other things is about a
    name no memory holds, ``unheard_names``); ``off_topic`` counts the others. For ``Mind.ask``, whose
    recall tool would otherwise hand the LLM the nearest memories of another matter."""
    if not result.hits:
        return result
    query = np.asarray(recaller.query_vector(result.query), np.float64)
    floor = relevance_floor(embedder, query, quantile)
    asked = identifiers(result.query)
    named = {h.id for h in result.hits if any(names(f"{h.id}\n{h.text or ''}", i) for i in asked)}
    near = {
        h.id for h, cos in zip(result.hits, cosines(embedder, query, result.hits), strict=True) if relevant(cos, floor)
    }
    about = {h.id: h.id in named or h.id in near for h in result.hits}
    judged = [h for h in result.hits if h.id in near - named]
    unheard = unheard_names(recaller, result.mind, result.query)
    if unheard:  # what the mind never heard of: a memory naming something else is about that
        asked_names = query_names(result.query)
        kin = {w for heard in unheard.values() for w in heard}  # "Tate" of "Harold Tate" unheard
        about |= {h.id: False for h in judged if query_names(h.text or "") - asked_names or kin & _words(h.text)}
        judged = [h for h in judged if about[h.id]]
    about.update(_about_beyond_names(embedder, result.query, judged, quantile))
    for h in result.hits:  # what replaced a hit about the query is about it too (recall.hits.with_replacements)
        about[h.id] |= bool(h.replaced and about.get(h.replaced))
    kept = [h for h in result.hits if about[h.id]]
    return replace(result, hits=kept, off_topic=len(result.hits) - len(kept), unheard=sorted(unheard))


def unheard_names(recaller: Recaller, mind: str, query: str) -> dict[str, list[str]]:
    """The names of ``query`` the mind has never heard of (a word of the name no memory of
    ``mind`` holds, as written or, ending in "s", in the singular), each with its words the mind
    has heard. A memory that names things the question does not is then about those, and one
    that holds a heard word of such a name speaks of another thing of that name ("Mrs Tate"
    for "Harold Tate", "Apex Lifts" for "Summit Lifts"), however near its other words come;
    one that names nothing may still speak of the matter in general."""
    words = {" ".join(run): [(w, _forms(w)) for w in run] for run in name_runs(query)}
    unheard = recaller.unheard(mind, {f for forms in words.values() for _, fs in forms for f in fs})
    return {
        name: [w for w, fs in forms if not fs or not fs <= unheard]
        for name, forms in words.items()
        if any(fs and fs <= unheard for _, fs in forms)
    }


def _words(text: str | None) -> set[str]:
    """The lower-case words of ``text``, a plural also as its singular (as ``_forms`` asks)."""
    found = set(words(text or ""))
    return found | {w[:-1] for w in found if w.endswith("s") and len(w) >= 5}


def _forms(word: str) -> set[str]:
    """A word's forms to look up (itself, and its singular if it ends in "s"); none for a word
    the index cannot be asked about as a term (it counts as heard)."""
    if not word.isalnum():
        return set()
    return {word, word[:-1]} if word.endswith("s") and len(word) >= 5 else {word}


def _about_beyond_names(embedder: Embedder, query: str, hits: Sequence[RecallHit], quantile: float) -> dict[str, bool]:
    """When ``query`` names something ("What is Okafor's payroll schedule?"), whether each of
    ``hits`` is about the rest of it: the two texts without the query's names are more alike
    than unrelated texts are to that rest. A name makes any text that holds it, or a word spelled
    like it ("Hensby Paper", "matte paper"), alike to the query whatever each says of it, so it
    cannot make a memory about the question. A query that holds nothing but names ("What about
    Okafor?") judges none, nor is a hit whose text is nothing but them judged."""
    asked = query_names(query)
    rest = without(query, asked)
    if not asked or not stems(rest):
        return {}
    rests = {h.id: without(h.text or "", asked) for h in hits}
    judged = [h for h in hits if stems(rests[h.id])]
    if not judged:
        return {}
    vectors = unit_rows(np.asarray(embedder.embed([rest, *(rests[h.id] for h in judged)]), np.float64))
    floor = relevance_floor(embedder, vectors[0], quantile)
    return {h.id: relevant(float(vectors[0] @ v), floor) for h, v in zip(judged, vectors[1:], strict=True)}


def relevant(similarity: float, floor: float) -> bool:
    """A pattern at this cosine to the query is about it: more alike than texts about unrelated
    matters are to the query (``floor``, ``coherence.relevance_floor``)."""
    return similarity > floor


def cosines(embedder: Embedder, query: np.ndarray, hits: Sequence[RecallHit]) -> list[float]:
    """Each hit's cosine to the ``query`` vector: from the vector search's score ((1 + cos) / 2),
    or, for a hit only the full-text search found, from its text embedded now (-1 without text)."""
    out = [2 * h.similarity - 1 if h.similarity is not None else -1.0 for h in hits]
    missing = [i for i, h in enumerate(hits) if h.similarity is None and h.text]
    if missing:
        vectors = np.asarray(embedder.embed([hits[i].text or "" for i in missing]), np.float64)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        unit = query / max(float(np.linalg.norm(query)), 1e-12)
        for i, value in zip(missing, vectors @ unit, strict=True):
            out[i] = float(value)
    return out


def asks_whether_it_works(text: str) -> bool:
    """A yes/no question (opening with an auxiliary verb: "does", "is", "would", ...) about
    whether something helps, works, fixes, is worth it, ...; what people ask before trying
    something again, where a failure is the answer that matters. "How do I brine a chicken"
    and "salting the water" are not."""
    return bool(_YES_NO.search(text) and _ASKS_EFFICACY.search(text))


def subject(question: str) -> set[str]:
    """The stems of what ``question`` asks about: its content terms without the auxiliary
    and the efficacy words ("does brining the turkey help" → {"brin", "turkey"})."""
    return stems(_NOT_SUBJECT.sub(" ", question))


def about(match: KnowledgeMatch, asked: set[str], params: DreamParams) -> bool:
    """Whether ``match`` speaks of the ``asked`` subject: it shares at least
    ``params.subject_share`` of the subject's stems (at least one)."""
    if not asked:
        return False
    return len(stems(match.text) & asked) >= max(1, math.ceil(params.subject_share * len(asked)))


def surface_failures(ranked: list[KnowledgeMatch], question: str, k: int, params: DreamParams) -> list[KnowledgeMatch]:
    """The ``k`` best of ``ranked`` (best first), where the patterns that record a failure
    about the question's subject hold up to half the places (at least one), whatever their
    rank; in score order."""
    asked = subject(question)
    failures = [m for m in ranked if m.records_failure and about(m, asked, params)][: max(1, k // 2)]
    chosen = {m.id for m in failures}
    rest = [m for m in ranked if m.id not in chosen][: k - len(failures)]
    return sorted([*failures, *rest], key=lambda m: (-m.score, m.id))


def _match(row: dict[str, Any], score: float, similarity: float, params: DreamParams) -> KnowledgeMatch:
    p = row["pattern"]
    tally = Tally(
        success=p.get("success_count") or 0, progress=p.get("progress_count") or 0, failure=p.get("failure_count") or 0
    )
    return KnowledgeMatch(
        id=row["id"],
        name=p.get("name") or p["description"],
        description=p["description"],
        score=score,
        similarity=round(similarity, 4),
        conditions=list(p.get("conditions") or []),
        actions=list(p.get("actions") or []),
        success_rate=p.get("success_rate"),
        usage_count=p.get("usage_count") if p.get("usage_count") is not None else row.get("experiences"),
        confidence=p.get("confidence"),
        verification_status=p.get("verification_status"),
        ladder=list(row["ladder"]),
        examples=list(row["examples"]),
        failure_count=tally.failure,
        records_failure=tally.records_failure(params.failure_share),
        failures=list(row.get("failures") or []),
        outdated=outdated_note(row.get("outdated_since")),
        stale=stale_note(p.get("stale_since")),
    )


def stale_note(since: Any, now: datetime | None = None) -> str | None:
    """The mark of a pattern whose experiences stopped holding at ``since`` (passed), since it
    was worded."""
    at = as_datetime(since)
    if at is None or at > (now or datetime.now(UTC)):
        return None
    return f"examples superseded since {moment(at)}: the next dream words it again"


def outdated_note(since: Any) -> str | None:
    """The mark of a pattern whose every experience was superseded at ``since`` at the latest."""
    at = as_datetime(since)
    return None if at is None else f"every example superseded since {moment(at)}"
