"""Offline wander: dwelling, resonance and crystals from the concepts and memories given.

- dwell: each locus gathers the memories sharing most terms with its concept; the
  connection names the terms both sides share and quotes a memory that carries them; the
  tension quotes a contrasting sentence ("but", "not", "failed", ...); the surprise lists
  terms new to the session; interestingness = half novelty, half shared ground;
  actionability = the share of the memories that are strategies, failures, constraints or code.
- resonance: theme overlap (Jaccard) with each known resonance.
- crystallize: extractive (``graphmind.wander.crystal_rules``): the sentences of two memories
  that carry most of what the memories share (the resonances' themes first); no crystal when
  no two memories share anything. Residues are the walk's echo, never evidence.
- validate_crystal: ``crystal_rules.check`` (terms in the evidence, a connection named, no
  template text).
- dwell_rlm: answers as the seed asks, in prose around a ```repl block: first ``RLM_PROBE``
  (the loci nearest the current one, its graph neighbours, an ``llm_query`` on what they share,
  appended to the session's ``theme_buffer``, which lives on in the REPL), then a line
  ``FINAL({...})`` with what ``dwell`` makes of the loci the probe printed added to the memories.
- sub_query: the terms that at least two items of the context share.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from graphmind.llm.base import Tool
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import (
    CrystalCheckInput,
    CrystalCheckOutput,
    CrystalInput,
    CrystalOutput,
    DwellInput,
    DwellOutput,
    LocusItem,
    ResonanceInput,
    ResonanceMatch,
    ResonanceOutput,
    RlmDwellInput,
    RlmTurn,
    SubQueryInput,
    SubQueryOutput,
)
from graphmind.text import (
    as_sentence,
    jaccard,
    join_names,
    rank_by_overlap,
    sentences,
    shared_terms,
    stem,
    term_set,
    top_terms,
    trim,
)
from graphmind.wander import crystal_rules as rules

TEMPLATE_WORDS = frozenset(
    """
both involve appear shared terms between memories given tension found within unexpected every
theme themes seen before here nothing applied supported unsupported evidence insight
carried holds enough resonances across
hold crystal needs least template text statement names connects terms share
""".split()
)

_CONTRAST = re.compile(r"\b(?:but|however|not|never|failed|without|cannot|didn't|although|yet|instead)\b", re.I)
_ACTIONABLE = {"Strategy_Pattern", "Failed_Attempt", "Constraint", "Code_Reference", "Technical_Context"}


def dwell(inputs: DwellInput, tools: Sequence[Tool]) -> DwellOutput:
    here, there = inputs.current, inputs.next
    near_here, near_there = _near(inputs.memories, here), _near(inputs.memories, there)
    concept_terms = term_set(here.concept) | term_set(there.concept)
    side_here = _without(term_set(" ".join(m.text for m in near_here)), concept_terms)
    side_there = _without(term_set(" ".join(m.text for m in near_there)), concept_terms)
    texts = [m.text for m in inputs.memories]
    ordered = top_terms([here.concept, there.concept, *texts], k=200)
    shared = [t for t in ordered if t in side_here and t in side_there]
    bridging = [m for m in near_here if m in near_there]
    used: set[str] = set()
    connection = _connection(here, there, shared, bridging, used)
    tension = _tension(texts, f"{here.concept} {there.concept}", used)
    themes = [t for t in ordered if t in concept_terms] + shared
    themes = list(dict.fromkeys(themes + ordered))[:5]
    return DwellOutput(
        connection=connection,
        tension=tension,
        bridge=_bridge(here, there, shared),
        surprise=_surprise(side_there, inputs.recent_themes, ordered),
        possibility=_possibility(inputs.memories, here, there, used),
        themes=themes,
        interestingness=round(0.5 * _novelty(themes, inputs.recent_themes) + 0.5 * min(1.0, len(shared) / 3), 2),
        actionability=round(sum(m.label in _ACTIONABLE for m in inputs.memories) / len(inputs.memories), 2)
        if inputs.memories
        else 0.0,
        memory_ids=list(dict.fromkeys(m.id for m in [*near_here, *near_there])),
    )


def _without(terms: set[str], concept_terms: set[str]) -> set[str]:
    """``terms`` minus the concepts' own words (and their plurals)."""
    stems = {t.rstrip("s") for t in concept_terms}
    return {t for t in terms if t.rstrip("s") not in stems}


def _near(memories: list[MemoryItem], locus: LocusItem, k: int = 3) -> list[MemoryItem]:
    concept_terms = term_set(locus.concept)
    ranked = rank_by_overlap([m.text for m in memories], locus.concept)
    return [memories[i] for i in ranked[:k] if term_set(memories[i].text) & concept_terms]


def _quote(candidates: list[str], focus: str, used: set[str], min_overlap: int = 1) -> str | None:
    fresh = [c for c in candidates if c not in used]
    for i in rank_by_overlap(fresh, focus):
        if len(term_set(fresh[i]) & term_set(focus)) >= min_overlap:
            used.add(fresh[i])
            return as_sentence(trim(fresh[i], 200))
    return None


def _connection(
    here: LocusItem, there: LocusItem, shared: list[str], bridging: list[MemoryItem], used: set[str]
) -> str:
    if bridging:
        ids = join_names([m.id for m in bridging])
        quote = _quote(
            [s for m in bridging for s in sentences(m.text, fine=True)], f"{here.concept} {there.concept}", used
        )
        return f"Both {here.concept} and {there.concept} appear in {ids}: {quote}"
    if shared:
        return f"Both {here.concept} and {there.concept} involve {join_names(shared[:3])}."
    return f"No shared terms between {here.concept} and {there.concept} in the memories given."


def _tension(texts: list[str], focus: str, used: set[str]) -> str:
    contrasting = [s for t in texts for s in sentences(t, fine=True) if _CONTRAST.search(s)]
    return _quote(contrasting, focus, used, min_overlap=0) or "No tension found in the memories given."


def _bridge(here: LocusItem, there: LocusItem, shared: list[str]) -> str:
    via = join_names(shared[:2], empty=there.concept)
    crossing = [d for d in there.domains if d not in here.domains]
    if here.domains and crossing:
        return f"{', '.join(here.domains)} ↔ {', '.join(crossing)}: {via}."
    within = ", ".join(here.domains or there.domains)
    return f"Within {within}: {via}." if within else f"{here.concept} ↔ {there.concept}: {via}."


def _surprise(new_terms: set[str], recent: list[str], ordered: list[str]) -> str:
    seen = {w for theme in recent for w in term_set(theme)}
    fresh = [t for t in ordered if t in new_terms and t not in seen]
    if not fresh:
        return "Nothing unexpected: every theme here was seen before."
    return f"New here: {join_names(fresh[:4])}."


def _possibility(memories: list[MemoryItem], here: LocusItem, there: LocusItem, used: set[str]) -> str:
    """A sentence near both concepts, from strategies first: what might be done here."""
    focus = f"{here.concept} {there.concept}"
    for group in ([m for m in memories if m.label == "Strategy_Pattern"], memories):
        quote = _quote([s for m in group for s in sentences(m.text, fine=True)], focus, used)
        if quote:
            return quote
    return f"{here.concept} applied to {there.concept}."


def _novelty(themes: list[str], recent: list[str]) -> float:
    if not themes:
        return 0.0
    seen = {w for theme in recent for w in term_set(theme)}
    return sum(t not in seen for t in themes) / len(themes)


def resonance(inputs: ResonanceInput, tools: Sequence[Tool]) -> ResonanceOutput:
    mine = {t.lower(): t for t in inputs.residue.themes}
    matches, matched = [], set()
    for candidate in inputs.candidates:
        theirs = {t.lower() for t in candidate.themes}
        shared = [mine[t] for t in mine if t in theirs]
        strength = round(jaccard(mine, theirs), 4)
        if len(shared) >= 2 or (shared and strength >= 0.2):
            matches.append(ResonanceMatch(resonance_id=candidate.id, shared_themes=shared, strength=strength))
            matched |= {t.lower() for t in shared}
    matches.sort(key=lambda m: -m.strength)
    return ResonanceOutput(matches=matches, new_themes=[mine[t] for t in mine if t not in matched])


def crystallize(inputs: CrystalInput, tools: Sequence[Tool]) -> CrystalOutput:
    """Extractive: from the memories that share terms (preferring the resonances' themes), the
    sentence of each that carries most of what they share, two memories at most; nothing when
    no two memories share anything (residues only echo the walk and are not evidence)."""
    memories = rules.memory_evidence(rules.Evidence(m.id, m.label, m.text) for m in inputs.memories)
    joined = rules.connection(memories)
    if len(memories) < max(2, inputs.min_evidence) or not joined:
        return CrystalOutput(formed=False, domains=list(inputs.locus.domains))
    themes = {stem(w) for r in inputs.resonances for t in r.themes for w in term_set(t)}
    weight = {s: 1 + (s in themes) for s in joined.shared}
    picked: list[tuple[float, str, str]] = []
    for m in memories:
        scored = [(sum(weight.get(stem(t), 0) for t in term_set(s)), s) for s in sentences(m.text, fine=True)]
        if scored:
            best = max(scored, key=lambda x: x[0])
            if best[0] > 0:
                picked.append((best[0], m.id, best[1]))
    picked.sort(key=lambda x: (-x[0], x[1]))
    chosen: list[tuple[str, str]] = []
    for _, mid, sentence in picked:
        if len(chosen) == 2:
            break
        if any(jaccard(term_set(sentence), term_set(c)) >= 0.8 for _, c in chosen):
            continue
        chosen.append((mid, as_sentence(trim(sentence, 160))))
    if len(chosen) < 2:
        return CrystalOutput(formed=False, domains=list(inputs.locus.domains))
    insight = " ".join(c for _, c in chosen)
    verdict = rules.check(insight, memories)
    if not verdict.holds:
        return CrystalOutput(formed=False, domains=list(inputs.locus.domains))
    backing = sorted({i for s in term_set(insight) for i in joined.shared.get(stem(s), ())})
    return CrystalOutput(
        formed=True,
        insight=insight,
        confidence=verdict.confidence,
        actionability=round(sum(m.label in _ACTIONABLE for m in memories if m.id in backing) / len(backing), 2),
        domains=list(inputs.locus.domains),
        evidence_ids=backing,
    )


def validate_crystal(inputs: CrystalCheckInput, tools: Sequence[Tool]) -> CrystalCheckOutput:
    verdict = rules.check(inputs.insight, [rules.Evidence(m.id, m.label, m.text) for m in inputs.evidence])
    notes = f"Holds: {verdict.reason}." if verdict.holds else f"Does not hold: {verdict.reason}."
    return CrystalCheckOutput(
        holds=verdict.holds, confidence=verdict.confidence, unsupported=list(verdict.unsupported), notes=notes
    )


_RLM_WORDS = frozenset(
    """
look around current locus first probe found nearby loci enough dwell final connection tension
surprise possibility bridge themes interestingness actionability
""".split()
)  # the prose around the REPL's code and the dwelling's keys
TEMPLATE_WORDS = TEMPLATE_WORDS | _RLM_WORDS

RLM_PROBE = """\
try:
    theme_buffer
except NameError:
    theme_buffer = []
similar = query_similar(current_locus['embedding'], k=4)
found = [s for s in similar if s['id'] != current_locus['id']][:3]
seen = [f['id'] for f in found]
for n in get_neighbors(current_locus['id'])[:3]:
    if n['id'] not in seen:
        found.append(n)
        seen.append(n['id'])
summary = llm_query('What do these concepts share?', context=json.dumps([f['concept'] for f in found]))
theme_buffer.append(summary)
print(json.dumps({'found': [{'id': f['id'], 'concept': f['concept']} for f in found], 'summary': summary,
                  'themes_so_far': len(theme_buffer)}))
"""


def dwell_rlm(inputs: RlmDwellInput, tools: Sequence[Tool]) -> RlmTurn:
    if not inputs.transcript:
        return RlmTurn(text=f"I will look around the current locus first.\n\n```repl\n{RLM_PROBE}```\n")
    probe = _last_json(inputs.transcript[-1])
    found = [
        MemoryItem(id=str(f["id"]), label="Locus", text=str(f["concept"]))
        for f in (probe or {}).get("found", [])
        if isinstance(f, dict) and f.get("id") and f.get("concept")
    ]
    dwelling = inputs.dwell.model_copy(update={"memories": [*inputs.dwell.memories, *found]})
    final = json.dumps(dwell(dwelling, tools).model_dump(mode="json"))
    return RlmTurn(text=f"The probe found {len(found)} nearby loci; that is enough to dwell.\n\nFINAL({final})\n")


def _last_json(run: str) -> dict | None:
    output = run.split("OUTPUT:", 1)[-1]
    for line in reversed(output.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def sub_query(inputs: SubQueryInput, tools: Sequence[Tool]) -> SubQueryOutput:
    try:
        items = [str(x) for x in json.loads(inputs.context)] if inputs.context.strip().startswith("[") else []
    except ValueError:
        items = []
    items = items or sentences(inputs.context, fine=True)
    shared = shared_terms(items)
    return SubQueryOutput(
        answer=f"They share {join_names(shared[:5])}." if shared else "The context given shows nothing they share."
    )


BEHAVIOURS = {
    "wander.dwell": dwell,
    "wander.resonance": resonance,
    "wander.crystallize": crystallize,
    "wander.validate_crystal": validate_crystal,
    "wander.dwell_rlm": dwell_rlm,
    "wander.sub_query": sub_query,
}
