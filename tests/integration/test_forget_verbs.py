"""After ``graphmind forget --cascade``, no verb returns the forgotten text (issue 26, item 4).

A mind dreams, ruminates and wanders over memories of which three hold a unique marker word
(an experience, a conversation turn, a topic entry), and a crystal quotes one. Before the
forget the marker shows up in the verbs' output (so the check can fail); after it, recall, ask,
export, knowledge, digest, ruminate, stats, verify, minds, every wander verb and the forget's
own output hold no trace of it."""

from __future__ import annotations

import json

import pytest

from tests.integration.helpers import DEMO, edge, experiences, node, run_cli, write_jsonl

MARKER = "fennelwort"
TURN = f"I keep the {MARKER} ledger notes in the blue binder by the door"
ENTRY = f"The {MARKER} checklist caught the settlement rollback before it shipped"
QUESTION = "where are the ledger notes and the checklist kept?"


@pytest.fixture
def lived(mind, tmp_path):
    """A mind that imported, captured, dreamed, ruminated and wandered over the marker."""
    mind.import_jsonl(DEMO)
    exps = experiences()
    exps[0]["description"] += f"; the {MARKER} trick from the old notebook did it"
    ids = mind.capture_many(exps)
    mind.add_conversation(
        "s-x",
        [{"id": "turn-x1", "speaker": "Ann", "text": TURN}, {"id": "turn-x2", "speaker": "Bo", "text": "fine by me"}],
        started_at="2025-01-02T10:00:00Z",
    )
    mind.dream()
    mind.ruminate(f"Ann said: {TURN}")
    handle = mind.wander("ledger notes binder", steps=12, rng_seed=1, human_checkpoint_frequency=0)
    session = handle.session.id
    rows = [
        node("TopicEntry", "topic-x", topic="settlement", text=ENTRY, date="2024-01-05"),
        node("Crystal", "crystal-x", insight=f"Notes such as '{TURN}' belong with the code", session_id=session),
        edge("EVIDENCED_BY", "crystal-x", "turn-x1"),
        edge("EVIDENCED_BY", "crystal-x", ids[0]),
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "more.jsonl", rows))
    return mind, session, [ids[0], "turn-x1", "topic-x"]


def _outputs(capsys, mind: str, session: str) -> dict[str, str]:
    """The output of every read verb (and ruminate) on the mind, by verb."""
    verbs = {
        "recall": ["recall", QUESTION, "--json"],
        "recall-text": ["recall", QUESTION, "-k", "50"],
        "ask": ["ask", QUESTION, "--json"],
        "export": ["export"],
        "knowledge": ["knowledge", "only one candidate left placed the cell trick notebook", "--json"],
        "digest": ["digest", "-n", "50", "--min-age", "0", "--rng-seed", "1", "--json"],
        "ruminate": ["ruminate", QUESTION, "--json"],
        "stats": ["stats", "--json"],
        "verify": ["verify", "--json"],
        "crystals": ["wander", "crystals", "--all-sessions", "--json"],
        "wander-list": ["wander", "list", "--json"],
        "wander-show": ["wander", "show", session, "--json"],
        "wander-trace": ["wander", "trace", session, "--json"],
        "wander-loci": ["wander", "loci", session, "--json"],
        "wander-status": ["wander", "status", session, "--json"],
    }
    out = {}
    for name, args in verbs.items():
        code, stdout, stderr = run_cli(capsys, *args[:1], *_mind_after(args, mind))
        assert code in (0, 1), (name, code, stderr)  # verify exits 1 on a flagged ladder
        out[name] = stdout + stderr
    code, stdout, stderr = run_cli(capsys, "minds", "list", "--json")
    out["minds"] = stdout + stderr
    return out


def _mind_after(args: list[str], mind: str) -> list[str]:
    """``args`` without the verb, with ``--mind`` after the verb's subcommand, if any."""
    rest = args[1:]
    if args[0] == "wander":
        return [rest[0], "--mind", mind, *rest[1:]]
    return ["--mind", mind, *rest]


def test_no_verb_returns_forgotten_text_after_a_cascade(lived, cli_env, capsys):
    mind, session, ids = lived
    before = _outputs(capsys, mind.name, session)
    shown = sorted(verb for verb, text in before.items() if MARKER in text.lower())
    assert {"export", "recall", "recall-text", "digest", "knowledge", "crystals", "wander-loci"} <= set(shown), shown

    code, out, err = run_cli(capsys, "forget", *ids, "--mind", mind.name, "--cascade", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["counts"]["memories"] == 3 and "crystal-x" in [d["id"] for d in report["derived"]]
    assert MARKER not in out.lower()

    after = _outputs(capsys, mind.name, session)
    leaks = {
        verb: text[max(0, text.lower().find(MARKER) - 80) :][:200]
        for verb, text in after.items()
        if MARKER in text.lower()
    }
    assert leaks == {}
    export = after["export"]
    assert not any(f'"id": "{i}"' in export for i in ids)
    forget_runs = [json.loads(x) for x in export.splitlines() if '"ForgetRun"' in x]
    assert [r["properties"]["forgotten"] for r in forget_runs] == [sorted(ids)]
