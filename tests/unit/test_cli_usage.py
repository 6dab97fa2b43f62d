"""CLI usage handling that needs no database: help, usage errors, bad settings."""

import json

from graphmind.cli.main import main


def run(capsys, *args):
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_bare_command_shows_the_help(capsys):
    code, out, err = run(capsys)
    assert code == 0 and "Commands:" in out and err == ""


def test_missing_arguments_are_usage_errors_in_one_line(capsys):
    code, out, err = run(capsys, "import", "--mind", "m")
    assert code == 2 and out == "" and err == "graphmind: Missing argument 'FILE'.\n"


def test_unknown_commands_are_usage_errors(capsys):
    code, _, err = run(capsys, "bogus", "--json")
    assert code == 2 and err.count("\n") == 1 and "No such command" in err


def test_bad_settings_are_input_errors_with_json(capsys, monkeypatch):
    monkeypatch.setenv("GRAPHMIND_IMPORT_BATCH", "lots")
    code, out, err = run(capsys, "stats", "--mind", "m", "--json")
    assert code == 2 and "GRAPHMIND_IMPORT_BATCH" in json.loads(out)["error"] and err.count("\n") == 1


def test_no_database_configured_is_a_run_error(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("GRAPHMIND_HOME", str(tmp_path))
    code, _, err = run(capsys, "stats", "--mind", "m")
    assert code == 1 and "graphmind neo4j start" in err and "Traceback" not in err
