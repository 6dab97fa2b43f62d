"""The REPL dweller (issue 22, item 3): it answers in prose around ```repl blocks, and the
variables its code sets (the spec's ``theme_buffer``) live on between blocks, turns and
dwellings of a session, offline and through the real SDK against the Messages stub."""

from __future__ import annotations

import json
import re

import pytest

from graphmind.mind import Mind
from tests.conftest import new_mind_name
from tests.fixtures.messages_stub import json_reply, text_reply
from tests.integration.helpers import DEMO, claude_wander_settings, run_cli

pytestmark = pytest.mark.integration

SEED = "race conditions in async code"


def test_the_theme_buffer_lives_on_between_the_dwellings_of_a_session(mind):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, rng_seed=3, dweller="rlm", human_checkpoint_frequency=0)
    handle.run(3)
    repl = handle._walker._rlm.repl(handle.id)
    runs = handle._walker._rlm.runs
    assert len(runs) == 3 and all(r.success for r in runs)
    assert [json.loads(r.stdout)["themes_so_far"] for r in runs] == [1, 2, 3]
    assert len(repl.state["theme_buffer"]) == 3
    other = mind.wander("keeping promises to a partner", rng_seed=4, dweller="rlm", human_checkpoint_frequency=0)
    other.run(1)
    (first,) = other._walker._rlm.runs
    assert json.loads(first.stdout)["themes_so_far"] == 1  # one session's REPL is not another's
    assert {"language", "process", "limits", "channel"} <= set(first.layers)


def test_a_new_handle_on_the_session_starts_from_the_saved_variables(mind, store, caplog):
    mind.import_jsonl(DEMO)
    handle = mind.wander(SEED, rng_seed=3, dweller="rlm", human_checkpoint_frequency=0)
    handle.run(2)
    again = mind.wander(session_id=handle.id)  # a new handle, as a later process would open
    again.run(1)
    (run,) = again._walker._rlm.runs
    assert json.loads(run.stdout)["themes_so_far"] == 3
    assert "repl_state" not in mind.wander_sessions.show(handle.id)  # engine state, not a setting
    store.write("wander/mark_repl_state", mind=mind.name, id=handle.id, state='{"theme_buffer": [')  # corrupted
    fresh = mind.wander(session_id=handle.id)
    fresh.run(1)
    (run,) = fresh._walker._rlm.runs
    assert json.loads(run.stdout)["themes_so_far"] == 1 and "saved REPL state" in caplog.text


def test_cli_wander_run_with_the_rlm_dweller(capsys, cli_env, cli_mind):
    assert run_cli(capsys, "import", str(DEMO), "--mind", cli_mind)[0] == 0
    code, out, err = run_cli(
        capsys,
        "wander",
        "run",
        "--mind",
        cli_mind,
        "--seed",
        SEED,
        "--steps",
        "3",
        "--rng-seed",
        "5",
        "--dweller",
        "rlm",
        "--json",
    )
    assert code == 0, err
    assert json.loads(out)["steps_completed"] == 3


# Claude as the stub plays it: prose around the blocks, in a different order each turn.

DWELLING = {
    "possibility": "the wait is the signal",
    "tension": "speed against care",
    "surprise": "little",
    "bridge": "both hold a queue",
    "connection": "a held breath",
    "themes": ["held breath"],
    "interestingness": 0.4,
    "actionability": 0.3,
}

TURNS = [
    # prose first, then a block that starts (or extends) the buffer
    "Let me see what sits near this locus before I say anything.\n\n```repl\n"
    "try:\n    theme_buffer\nexcept NameError:\n    theme_buffer = []\n"
    "near = query_similar(current_locus['embedding'], k=3)\n"
    "theme_buffer.append(llm_query('Name the theme', context=json.dumps([n['concept'] for n in near])))\n"
    "print(len(theme_buffer), theme_buffer[-1])\n```\n\nI'll read the output next.",
    # two blocks with a remark between, the second ending with FINAL
    "```repl\nprint(sorted(theme_buffer)[:1])\n```\nThat is the buffer so far. Now the dwelling:\n"
    "```repl\nFINAL(dict(DWELLING, themes=[t for t in theme_buffer][-1:] + ['held breath']))\n```",
    # a bare FINAL line after the prose, no code
    "The buffer already says enough.\n\nFINAL(" + json.dumps(DWELLING) + ")\n\nThat is my answer.",
]


def _claude(request):
    body = request.body
    prompt = body["messages"][-1]["content"]
    if "output_config" not in body:  # wander.dwell_rlm: prose, no schema
        printed = re.findall(r"OUTPUT:\n(\d+) waiting", prompt)
        # a dwelling's first turn; its second (the buffer held 1: the session's first dwelling)
        text = TURNS[0] if not printed else TURNS[1] if printed[0] == "1" else TURNS[2]
        return text_reply(
            text.replace("dict(DWELLING,", f"dict({json.dumps(DWELLING)},"), input_tokens=200, output_tokens=60
        )
    fields = body["output_config"]["format"]["schema"].get("properties", {})
    if "answer" in fields:  # llm_query
        return json_reply({"answer": f"waiting {len(prompt) % 7}"}, input_tokens=30, output_tokens=5)
    if "connection" in fields:  # the plain dwelling prompt, the REPL's fallback
        return json_reply(dict(DWELLING, themes=["plain prompt"]))
    if "formed" in fields:
        return json_reply({"formed": False})
    return json_reply({"notes": "the evidence does not say this", "holds": False, "confidence": 0.2})


@pytest.fixture
def claude_settings(settings):
    with claude_wander_settings(settings, _claude) as configured:
        yield configured


def test_claude_like_prose_around_repl_blocks_drives_the_dweller(store, claude_settings):
    settings, stub = claude_settings
    with Mind(new_mind_name(), store, settings) as mind:
        try:
            mind.import_jsonl(DEMO)
            handle = mind.wander(SEED, rng_seed=7, dweller="rlm", human_checkpoint_frequency=0, cloud_budget_cents=500)
            report = handle.run(2)
            rlm = handle._walker._rlm
            state = rlm.repl(handle.id).state
            trace = handle.trace()
        finally:
            mind.delete()
    assert report.steps_completed == 2
    dwell_requests = [r for r in stub.requests if "output_config" not in r.body]
    assert dwell_requests and all("```repl" in json.dumps(r.body["system"]) for r in dwell_requests)
    assert all(r.success for r in rlm.runs) and len(rlm.runs) >= 3
    assert len(state["theme_buffer"]) >= 1 and all(t.startswith("waiting") for t in state["theme_buffer"])
    later = [r.body["messages"][-1]["content"] for r in dwell_requests[1:]]
    assert any("YOUR VARIABLES FROM EARLIER CODE: " in p and "theme_buffer" in p for p in later)
    assert any(re.search(r"OUTPUT:\n1 waiting", p) for p in later)  # the block's output went back
    assert any(re.search(r"OUTPUT:\n2 waiting", p) for p in later)  # the second dwelling's buffer
    themes = [t for row in trace for t in (row["themes"] or [])]
    assert "held breath" in themes and "plain prompt" not in themes  # FINAL, not the fallback
