"""Mind management (issue 27, item 10): list and delete minds; a typo'd mind is an error on
every read verb, not an empty success."""

from __future__ import annotations

import io
import json

import pytest

from graphmind.errors import NotFoundError
from graphmind.mind import Mind

from .helpers import DEMO, run_cli

pytestmark = pytest.mark.integration

READ_VERBS = [
    ["recall", "race condition"],
    ["ask", "what broke?"],
    ["embed"],
    ["stats"],
    ["export"],
    ["knowledge", "does retrying help"],
    ["digest"],
    ["dream"],
]


@pytest.mark.parametrize("verb", READ_VERBS, ids=lambda v: v[0])
def test_a_read_verb_on_an_unknown_mind_exits_2_and_points_to_minds_list(verb, cli_env, cli_mind, capsys):
    code, out, err = run_cli(capsys, *verb, "--mind", cli_mind)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "does not exist" in err and "graphmind minds list" in err
    assert "Traceback" not in err


def test_minds_list_shows_each_mind_and_delete_removes_only_that_one(mind, other_mind, cli_env, capsys):
    mind.import_jsonl(DEMO)
    other_mind.import_jsonl(DEMO)
    code, out, _ = run_cli(capsys, "minds", "list", "--json")
    assert code == 0
    listed = {row["mind"]: row for row in json.loads(out)["minds"]}
    assert listed[mind.name]["memories"] == mind.stats().nodes > 0
    assert other_mind.name in listed
    assert {m.name for m in Mind.list_minds(mind._settings)} >= {mind.name, other_mind.name}

    code, out, err = run_cli(capsys, "minds", "delete", mind.name, "--yes", "--json")
    assert code == 0, err
    assert json.loads(out)["deleted_nodes"] > 0
    assert not mind.exists() and other_mind.exists()
    code, out, _ = run_cli(capsys, "minds", "list")
    assert mind.name not in out and other_mind.name in out
    code, _, err = run_cli(capsys, "minds", "delete", mind.name, "--yes")
    assert code == 2 and "does not exist" in err


def test_minds_delete_without_yes_needs_a_terminal_and_keeps_the_mind_when_not_confirmed(
    mind, cli_env, capsys, monkeypatch
):
    mind.import_jsonl(DEMO)
    code, _, err = run_cli(capsys, "minds", "delete", mind.name)  # no terminal to ask on
    assert code == 2 and "--yes" in err
    assert mind.exists()
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    code, _, err = run_cli(capsys, "minds", "delete", mind.name)
    assert code == 1 and "aborted" in err
    assert mind.exists()


def test_open_with_must_exist_refuses_an_unknown_mind(settings, cli_mind):
    with pytest.raises(NotFoundError, match="graphmind minds list"):
        Mind.open(cli_mind, settings, must_exist=True)
    with Mind.open(cli_mind, settings) as fresh:  # without it, a new mind is fine
        assert not fresh.exists()
