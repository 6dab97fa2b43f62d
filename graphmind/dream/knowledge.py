"""``Mind.query_knowledge``: the consolidated patterns that match a text, each with its
ladder path (category, principle, meta-principle) and the experiences it stands on."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from graphmind.recall import Recaller
from graphmind.store import GraphStore


@dataclass(frozen=True)
class KnowledgeMatch:
    id: str
    name: str
    description: str
    score: float
    conditions: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    success_rate: float | None = None
    usage_count: int | None = None
    confidence: float | None = None
    verification_status: str | None = None
    ladder: list[dict[str, Any]] = field(default_factory=list)
    """The active abstractions above the pattern, level 2 first."""
    examples: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def query_knowledge(store: GraphStore, recaller: Recaller, mind: str, text: str, k: int = 5) -> list[KnowledgeMatch]:
    """The ``k`` active patterns that best match ``text`` (recall restricted to patterns)."""
    hits = recaller.recall(mind, text, k * 3, ["Pattern"]).hits
    scores = {h.id: h.score for h in hits}
    rows = store.read("dream/find_knowledge", mind=mind, ids=list(scores))
    matches = [_match(r, scores[r["id"]]) for r in rows if (r["pattern"].get("status") or "active") == "active"]
    return sorted(matches, key=lambda m: -m.score)[:k]


def _match(row: dict[str, Any], score: float) -> KnowledgeMatch:
    p = row["pattern"]
    return KnowledgeMatch(
        id=row["id"], name=p.get("name") or p["description"], description=p["description"], score=score,
        conditions=list(p.get("conditions") or []), actions=list(p.get("actions") or []),
        success_rate=p.get("success_rate"), usage_count=p.get("usage_count"), confidence=p.get("confidence"),
        verification_status=p.get("verification_status"), ladder=list(row["ladder"]),
        examples=list(row["examples"]))
