"""Crystals with Claude (issue 22, item 2), through the real SDK against the local Messages stub:
what ``wander.crystallize`` answers is checked against the memories it cites the same way as
offline: a template, an insight that cites one memory (or a residue) and one that names nothing
connecting its memories make no crystal; a real one is stored with memories only as evidence;
the same insight again merges."""

from __future__ import annotations

import json

from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import LocusItem, ResidueItem, ResonanceItem
from graphmind.wander.crystals import Crystals
from tests.fixtures.messages_stub import json_reply
from tests.integration.test_dream_online import claude

MEMORIES = [
    {
        "id": "e1",
        "description": "The north colony swarmed in May after the brood box filled; the super went on late.",
        "outcome": "failure",
    },
    {"id": "e2", "description": "A second colony swarmed once the brood box was crowded.", "outcome": "failure"},
    {"id": "e3", "description": "Varroa counts rose in late summer at the heather site.", "outcome": "progress"},
]
ITEMS = [MemoryItem(id=m["id"], label="Experience", text=m["description"]) for m in MEMORIES]
LOCUS = LocusItem(id="locus-e1", concept="swarming colonies", domains=["beekeeping"])
RESONANCE = ResonanceItem(id="res-1", themes=["swarm", "brood box"], occurrences=3, strength=2.0)
RESIDUE = ResidueItem(id="residue-1", connection="swarming follows a crowded brood box", themes=["swarm"])


def _prompt(request) -> str:
    content = request.body["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


def responder(answer: dict):
    """Claude: crystallizes with ``answer`` (keys in its own order) and validates in free words."""

    def reply(request):
        prompt = _prompt(request)
        if "Does this insight hold" in prompt:
            return json_reply(
                {
                    "notes": "Yes - the two call-outs tell the same story about room in the hive.",
                    "unsupported": [],
                    "holds": True,
                    "confidence": 0.8,
                }
            )
        return json_reply(dict(reversed(list(answer.items()))))

    return reply


def crystal(insight: str, evidence: list[str]) -> dict:
    return {
        "formed": True,
        "insight": insight,
        "confidence": 1.0,
        "actionability": 0.7,
        "domains": ["beekeeping"],
        "evidence_ids": evidence,
    }


def _attempt(mind, answer: dict):
    with claude(responder(answer)) as (stub, llm):
        result = Crystals(mind.store, llm, mind.name).attempt(LOCUS, [RESONANCE], [RESIDUE], ITEMS, session_id="s1")
        return result, [json.loads(r.body and json.dumps(r.body))["model"] for r in stub.requests]


def test_claude_crystals_are_checked_against_their_memories(mind):
    mind.capture_many(MEMORIES)
    template = _attempt(mind, crystal("Both swarming and brood boxes appear in the memories given.", ["e1", "e2"]))[0]
    assert not template.formed and "template" in template.notes
    lonely = _attempt(mind, crystal("The north colony swarmed after the brood box filled.", ["e1", "residue-1"]))[0]
    assert not lonely.formed and "two memories" in lonely.notes  # a residue is not evidence
    loose = _attempt(mind, crystal("Late summer brings swarms.", ["e2", "e3"]))[0]
    assert not loose.formed and "connects" in loose.notes
    assert "Crystal" not in mind.stats().labels
    good, models = _attempt(
        mind,
        crystal("A crowded brood box and a late super made the colony swarm.", ["e1", "e2", "residue-1", "locus-e1"]),
    )
    assert good.formed and good.status == "active" and set(good.evidence) == {"e1", "e2"}
    assert models == ["claude-stub-1", "claude-stub-1"]  # crystallize, then validate
    stored = mind.get(good.crystal_id)
    assert stored.validated_by == "anthropic" and 0 < stored.confidence <= 0.8
    assert mind.stats().relationships["EVIDENCED_BY"] == 2  # the two memories, nothing else
    again, _ = _attempt(
        mind, crystal("The colony swarmed because the brood box was crowded and the super late.", ["e2", "e1"])
    )
    assert (again.crystal_id, again.status) == (good.crystal_id, "merged")
    assert mind.stats().labels["Crystal"] == 1
