"""Graph expansion and reranking of conversation turns after the hybrid first stage (pure logic).

The first stage gives scored seed turns. Expansion brings in, each with the path that found it:
the turns next to a seed in its session (NEXT), the turns of sessions dated inside the question's time
window (IN_SESSION), the turns of a speaker the question names (SPOKEN_BY) and the turns that mention a
name the question names (MENTIONS). A linear feature model (coefficients shipped as data, fitted by
bench/recall_quality.py --fit) scores every candidate.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources

from graphmind.recall.timeparse import TimeWindow, parse_time, shift_window

FEATURES = ("first", "cosine", "overlap", "in_window", "near_seed", "speaker", "entity", "length")
SEEDS = 20
"""How many first-stage hits seed the expansion."""
NEIGHBOURS = 2
"""How many turns either side of a seed, along NEXT, join the candidates."""
_STOP = frozenset(
    "a an the and or but of to in on at for with from by is are was were be been did do does what when where who "
    "whom which why how after before during his her their its he she they it this that there than then into about "
    "would could should will can has have had any some my your our me you i we us not no yes so as up out".split()
)


@dataclass(frozen=True)
class Turn:
    """One conversation turn as the graph holds it."""

    id: str
    session: str
    position: int
    speaker: str
    date: dt.date
    text: str


@dataclass
class Candidate:
    """A turn under consideration, its features and the paths that brought it in."""

    turn: Turn
    features: dict[str, float] = field(default_factory=lambda: dict.fromkeys(FEATURES, 0.0))
    paths: list[str] = field(default_factory=list)
    score: float = 0.0


@dataclass(frozen=True)
class FeatureModel:
    """Logistic-regression weights over FEATURES."""

    weights: tuple[float, ...]
    intercept: float

    def score(self, features: Mapping[str, float]) -> float:
        z = self.intercept + sum(w * features[f] for w, f in zip(self.weights, FEATURES, strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def to_json(self) -> str:
        return json.dumps({"features": list(FEATURES), "weights": list(self.weights), "intercept": self.intercept})

    @classmethod
    def from_json(cls, text: str) -> FeatureModel:
        data = json.loads(text)
        if data.get("features") != list(FEATURES):
            raise ValueError("the turn rerank model was fitted on other features")
        return cls(tuple(float(w) for w in data["weights"]), float(data["intercept"]))


def shipped_model() -> FeatureModel:
    """The model fitted on the calibration conversations (graphmind/recall/turn_rerank.json)."""
    return FeatureModel.from_json(resources.files("graphmind.recall").joinpath("turn_rerank.json").read_text())


def stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


@functools.lru_cache(maxsize=65_536)
def content_terms(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (kept for the texts met most recently: a recall
    scores hundreds of turns, and the same turns come back across recalls)."""
    return frozenset(stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1)


def named(question: str, names: Sequence[str]) -> list[str]:
    """The names (speakers or capitalised words) the question mentions."""
    words = set(re.findall(r"[A-Za-z]+", question))
    return [n for n in names if n in words]


def question_window(question: str, today: dt.date, seeds: Sequence[Candidate]) -> TimeWindow | None:
    """The question's time window; a relative shift is taken from the best seed's session date."""
    parsed = parse_time(question, today)
    if parsed.window is not None:
        return parsed.window
    if parsed.shift is not None and seeds:
        return shift_window(seeds[0].turn.date, parsed.shift)
    return None


def question_entities(question: str, asked: Sequence[str]) -> list[str]:
    """The capitalised words of ``question`` that are neither a speaker it names (``asked``) nor a
    stopword: the names whose mentions bring turns in."""
    capitalised = set(re.findall(r"\b[A-Z][a-z]+\b", question))
    return sorted(w for w in capitalised if w not in asked and w.lower() not in _STOP)


def _at(order: Sequence[str] | Mapping[int, str], pos: int) -> str | None:
    if isinstance(order, Mapping):
        return order.get(pos)
    return order[pos] if 0 <= pos < len(order) else None


def expand(
    question: str,
    seeds: Sequence[tuple[str, float, float]],
    turns: Mapping[str, Turn],
    sessions: Mapping[str, Sequence[str] | Mapping[int, str]],
    *,
    today: dt.date,
    speakers: Sequence[str] | None = None,
) -> list[Candidate]:
    """Candidates from seeds (turn id, first-stage score in [0, 1], cosine) grown through the graph.

    ``sessions`` orders each session's turns: a list by position, or (when only part of a session
    was read) a mapping from position to turn id. ``speakers`` defaults to those of ``turns``."""
    cands: dict[str, Candidate] = {}

    def add(turn_id: str, path: str) -> Candidate:
        cand = cands.get(turn_id)
        if cand is None:
            cand = cands[turn_id] = Candidate(turns[turn_id])
        if path not in cand.paths:
            cand.paths.append(path)
        return cand

    for rank, (tid, first, cosine) in enumerate(seeds[:SEEDS]):
        cand = add(tid, f"hybrid rank {rank + 1}")
        cand.features["first"] = first
        cand.features["cosine"] = cosine
    top = [cands[tid] for tid, _, _ in seeds[:SEEDS]]
    for seed in top[: SEEDS // 2]:
        order = sessions[seed.turn.session]
        for step in range(1, NEIGHBOURS + 1):
            for pos in (seed.turn.position - step, seed.turn.position + step):
                near_id = _at(order, pos)
                if near_id is not None:
                    near = add(near_id, f"NEXT x{step} from {seed.turn.id}")
                    near.features["near_seed"] = max(near.features["near_seed"], seed.features["first"] / step)
    window = question_window(question, today, top)
    asked = named(question, sorted(set(speakers) if speakers is not None else {t.speaker for t in turns.values()}))
    entities = question_entities(question, asked)
    entity_terms = {e.lower() for e in entities}
    for turn in turns.values():
        in_window = window is not None and window.contains(turn.date)
        mentions = bool(entity_terms) and bool(entity_terms & set(re.findall(r"[a-z]+", turn.text.lower())))
        if in_window and window is not None:
            add(turn.id, f"IN_SESSION {turn.session} dated {turn.date} within {window.said!r}").features[
                "in_window"
            ] = 1.0
        if mentions:
            add(turn.id, f"MENTIONS {', '.join(entities)}").features["entity"] = 1.0
    q_terms = content_terms(question)
    for cand in cands.values():
        terms = content_terms(cand.turn.text)
        cand.features["overlap"] = len(q_terms & terms) / (len(q_terms) or 1)
        cand.features["length"] = min(len(terms), 12) / 12
        if window is not None and cand.features["in_window"] == 0.0:
            cand.features["in_window"] = -min(window.distance_days(cand.turn.date), 90) / 90
        if asked and cand.turn.speaker in asked:
            cand.features["speaker"] = 1.0
            cand.paths.append(f"SPOKEN_BY {cand.turn.speaker}")
    return list(cands.values())


def rerank(cands: list[Candidate], model: FeatureModel, k: int) -> list[Candidate]:
    for cand in cands:
        cand.score = model.score(cand.features)
    return sorted(cands, key=lambda c: (-c.score, c.turn.id))[:k]
