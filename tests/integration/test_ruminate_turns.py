"""What a new user's brewery trial found in rumination, on the real Neo4j: conversations recorded
the documented way (Turn nodes) never reached Relevant History, a memory sharing one word with
the stimulus was dropped as "sharing nothing", and the experiences no pattern holds took every
seat of the first look ahead of the better match a pattern holds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .helpers import edge, node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

STIMULUS = "Another kiln shelf has cracked during a glaze firing"


def _studio_rows() -> list[dict[str, Any]]:
    """A pottery studio: Ana's talk about the kiln shelf, her talk about clay, Me's notes."""
    conversation = {
        "type": "conversation",
        "session_id": "talk-shelf",
        "started_at": "2026-02-03T09:00:00Z",
        "participants": ["Ana Ruiz", "Me"],
        "turns": [
            {
                "id": "ana-1",
                "speaker": "Ana Ruiz",
                "text": "The big kiln shelf cracked right across.",
                "timestamp": "2026-02-03T09:00:00Z",
            },
            {
                "id": "me-2",
                "speaker": "Me",
                "text": "Was it the old cordierite one with the chipped corner?",
                "timestamp": "2026-02-03T09:01:00Z",
            },
            {
                "id": "ana-3",
                "speaker": "Ana Ruiz",
                "text": "Yes. I'll order two silicon carbide ones.",
                "timestamp": "2026-02-03T09:02:00Z",
            },
        ],
    }
    clay = {
        "type": "conversation",
        "session_id": "talk-clay",
        "started_at": "2026-02-10T09:00:00Z",
        "participants": ["Ana Ruiz", "Me"],
        "turns": [
            {
                "id": "ana-clay-1",
                "speaker": "Ana Ruiz",
                "text": "Can you order more porcelain clay for the spring fair?",
                "timestamp": "2026-02-10T09:00:00Z",
            }
        ],
    }
    return [
        node(
            "Identity", "me", name="Tern Lane pottery log", role="studio manager", focus_area="a shared pottery studio"
        ),
        node("Partnership", "p-ana", partner_name="Ana Ruiz", duration="two years", trust_level=0.8),
        node(
            "Experience",
            "x-fair",
            description="Packed the finished pieces for the spring fair after the last firing",
            outcome="success",
        ),
        conversation,
        clay,
    ]


def test_cli_ruminate_json_shows_the_senders_turns_and_says_which_word_a_dropped_memory_shares(
    cli_env, cli_mind, capsys, tmp_path
):
    code, _, err = run_cli(capsys, "import", str(write_jsonl(tmp_path / "s.jsonl", _studio_rows())), "--mind", cli_mind)
    assert code == 0, err
    code, out, err = run_cli(capsys, "ruminate", STIMULUS, "--mind", cli_mind, "--sender", "Ana Ruiz", "--json")
    assert code == 0, err
    payload = json.loads(out)
    history = next(s for s in payload["sections"] if s["key"] == "relevant_history")
    assert "ana-1" in history["node_ids"], history
    assert '"The big kiln shelf cracked right across."' in history["text"]
    assert "No conversation history" not in payload["context_markdown"]
    assert "ana-clay-1" not in history["node_ids"]  # her other talk shares nothing with the stimulus
    reasons = payload["coverage"]["relevance"]
    assert reasons["x-fair"] == (
        "dropped: shares only 'firing' with the stimulus (on topic takes 2 shared words) and is linked to nothing on topic"
    )
    conversations = payload["coverage"]["types"]["Conversation_Memory"]
    assert "ana-1" in conversations["matched"] and conversations["found"] is True  # the first look sees the turn


def _glaze_rows() -> list[dict[str, Any]]:
    """A pattern holding the entry that matches the stimulus best, and six waiting entries that
    match it less (each names a glaze or the mugs)."""
    waiting = [
        "Glazed a batch of mugs in the shino glaze for the spring fair",
        "The mugs sold out at the market on Saturday morning",
        "Mixed a new bucket of tenmoku glaze and sieved it twice",
        "Handles cracked off three mugs in the bisque firing",
        "Tested the celadon glaze on porcelain tiles for the bathroom order",
        "Glaze dripped onto the kiln shelf and had to be ground off",
    ]
    return [
        node("Identity", "me", name="Tern Lane pottery log", role="studio manager"),
        node("Pattern", "pat-cool", name="slow cooling", description="Slow cooling above 900C in the electric kiln"),
        node(
            "Experience",
            "e-crawl",
            description="The celadon glaze crawled off the mugs after a fast cool in the electric kiln",
            outcome="failure",
        ),
        edge("EXEMPLIFIES", "e-crawl", "pat-cool"),
        *(node("Experience", f"w-{i}", description=text, outcome="success") for i, text in enumerate(waiting)),
    ]


def test_the_first_look_takes_the_best_matching_experience_even_when_a_pattern_holds_it(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "g.jsonl", _glaze_rows()))
    result = mind.ruminate("The celadon glaze crawled on the mugs again")
    assert "e-crawl" in result.steps[0].found_ids, result.steps[0].found_ids
    assert result.coverage["relevance"]["e-crawl"].startswith("kept: shares")
    assert "e-crawl" in {i for s in result.context.sections for i in s.node_ids}


def test_a_seat_of_the_first_look_stays_with_the_best_experience_no_pattern_holds(mind, tmp_path, store):
    rows = [
        node("Pattern", "pat", description="glaze crawling"),
        *(
            node("Experience", f"held-{i}", description=f"the glaze crawled on pot {i}", outcome="failure")
            for i in range(6)
        ),
        *(edge("EXEMPLIFIES", f"held-{i}", "pat") for i in range(6)),
        node("Experience", "new-1", description="the glaze crawled on the new bowl", outcome="failure"),
        node("Experience", "new-2", description="the glaze crawled on the big jug", outcome="failure"),
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "seats.jsonl", rows))
    pending = [f"{mind.name}:held-{i}" for i in range(6)] + [f"{mind.name}:new-1", f"{mind.name}:new-2"]
    row = store.read(
        "ruminate/get_coverage",
        mind=mind.name,
        seeds=[],
        pending=pending,
        pending_limit=5,
        waiting_seats=1,
        candidates=[],
        labels=["Experience"],
        neighbours=0,
    )[0]
    # the best four whatever holds them, and one seat for the best that no pattern holds
    assert row["coverage"][0]["matched"] == ["held-0", "held-1", "held-2", "held-3", "new-1"]
