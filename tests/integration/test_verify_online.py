"""``Mind.verify()`` with Claude, through the real SDK against the local Messages stub: the
contested edges of an abstractly named ladder go to ``dream.subsumes``, similar pattern pairs
to ``dream.contradicts``, and Claude's verdicts (worded freely) decide them."""

from __future__ import annotations

from graphmind.mind import Mind
from tests.fixtures.messages_stub import json_reply
from tests.integration.test_dream_online import claude
from tests.integration.test_verify import load

TOPICS = {
    "Sign-in recovery": [
        "password reset link expired",
        "forgot which email the account uses",
        "two-factor code never arrives by text",
    ],
    "Billing disputes": [
        "charged twice for one order",
        "refund not received after ten days",
        "retry a declined card payment at once",
        "never retry a declined card payment at once",
    ],
    "Delivery problems": [
        "parcel left at a neighbour's house without a note",
        "courier marked it delivered but nothing came",
        "box arrived crushed and wet",
    ],
}
KNOWS = {child: topic for topic, children in TOPICS.items() for child in children}
"""What Claude knows: which topic each situation belongs to."""
YES = [
    "Yes - every item is a case of {h}.",
    "{h} covers all of these; nothing is left out.",
    "All the listed situations fall under {h}.",
]


def support_lines(moved: dict[str, str] | None = None) -> list[dict]:
    """The ladder as import lines; ``moved`` files a situation under another topic."""
    lines = [
        {"type": "node", "label": "Abstraction", "id": "care", "properties": {"name": "Customer care", "level": 3}}
    ]
    topic_id = {topic: f"t{k}" for k, topic in enumerate(TOPICS)}
    for topic, children in TOPICS.items():
        lines.append(
            {"type": "node", "label": "Abstraction", "id": topic_id[topic], "properties": {"name": topic, "level": 2}}
        )
        lines.append({"type": "edge", "rel": "SUBSUMES", "from": "care", "to": topic_id[topic], "properties": {}})
        for j, text in enumerate(children):
            cid = f"{topic_id[topic]}.{j}"
            lines.append(
                {
                    "type": "node",
                    "label": "Pattern",
                    "id": cid,
                    "properties": {"name": text, "description": text, "success_count": 3},
                }
            )
            parent = topic_id[(moved or {}).get(text, topic)]
            lines.append({"type": "edge", "rel": "SUBSUMES", "from": parent, "to": cid, "properties": {}})
    return lines


def claude_verifier(request):
    """The stub as Claude: judges subsumption by what each situation is about, and calls two
    patterns contradictory when one says never to do what the other does."""
    prompt = request.body["messages"][-1]["content"]
    prompt = prompt if isinstance(prompt, str) else " ".join(b.get("text", "") for b in prompt)
    items = [line[1:].split("] ", 1) for line in prompt.splitlines() if line.startswith("[")]
    if prompt.startswith("Verify that the higher level"):
        (_, higher), lower = items[0], items[1:]
        higher = higher.split(";")[0].split(":")[0].strip()
        wrong = [i for i, text in lower if KNOWS.get(text.split(";")[0].strip()) != higher]
        if not wrong:
            return json_reply(
                {
                    "subsumes": True,
                    "uncovered_ids": [],
                    "message": YES[len(request.body["messages"][-1]["content"]) % 3].format(h=higher),
                }
            )
        return json_reply(
            {
                "subsumes": False,
                "uncovered_ids": wrong,
                "message": f"Not quite: {', '.join(wrong)} is not about {higher.lower()}.",
            }
        )
    if prompt.startswith("Check if patterns have conflicting"):
        a, b = (text.split(";")[0].strip() for _, text in items[:2])
        clash = a.removeprefix("never ") == b.removeprefix("never ") and a != b
        return json_reply(
            {
                "contradicts": clash,
                "shared_conditions": ["a declined card payment"] if clash else [],
                "message": "They give opposite advice for the same situation."
                if clash
                else "Different situations; no conflict.",
            }
        )
    raise AssertionError(f"unexpected prompt: {prompt[:80]}")


def test_claude_settles_contested_edges_and_finds_the_contradiction(mind, store, settings, tmp_path):
    load(mind, support_lines(), tmp_path)
    offline = mind.verify()
    contested = {(f.parent, f.child) for f in offline.flagged if f.check == "vertical_consistency"}
    with claude(claude_verifier) as (stub, llm):
        online = Mind(mind.name, store, settings, llm=llm).verify()
    prompts = [r.body["messages"][-1]["content"] for r in stub.requests]
    assert any(p.startswith("Verify that the higher level") for p in prompts)
    assert not {(f.parent, f.child) for f in online.flagged if f.check == "vertical_consistency"}
    assert offline.status == "flagged" and contested  # the embedder alone flags a true edge
    assert online.contradictions == [("t1.2", "t1.3")]
    assert online.status == "flagged" and online.checks["vertical_consistency"].passed


def test_claude_confirms_a_moved_edge(mind, store, settings, tmp_path):
    load(mind, support_lines(moved={"box arrived crushed and wet": "Sign-in recovery"}), tmp_path)
    with claude(claude_verifier) as (_, llm):
        online = Mind(mind.name, store, settings, llm=llm).verify()
    flagged = [f for f in online.flagged if f.check == "vertical_consistency"]
    assert [(f.parent, f.child) for f in flagged] == [("t0", "t2.2")]
    assert flagged[0].reason.startswith("the LLM: Not quite")
