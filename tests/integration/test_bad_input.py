"""Every kind of bad input: exit 2, one sentence naming line and field, nothing written."""

import json

import pytest

from tests.integration.helpers import edge, graph_snapshot, node, run_cli, write_jsonl

GOOD = node("Thread", "good", title="a good line before the bad one")
TEN_MB = "x" * (10 * 1024 * 1024)

CASES = {
    "malformed JSON": (['{"type": "node", "label": "Thread", "id": "x", '], 2, None, "not valid JSON"),
    "unknown label": ([node("Hacker", "x", title="t")], 2, "label", "unknown label 'Hacker'"),
    "missing id": ([{"type": "node", "label": "Thread", "properties": {"title": "t"}}], 2, "id", "missing"),
    "duplicate id": ([node("Thread", "good", title="again")], 2, "id", "duplicate id 'good' (first on line 1)"),
    "wrong property type": ([node("Conversation_Memory", "c", topic="t", message_count="many")], 2,
                            "message_count", "integer"),
    "out-of-range value": ([node("Partnership", "p", partner_name="N", trust_level=1.7)], 2,
                           "trust_level", "less than or equal to 1"),
    "edge to an unknown node": ([edge("FOLLOWS", "good", "nowhere")], 2, "to/from", "'nowhere' is not a node"),
    "injected relationship type": ([edge("KNOWS]->() DETACH DELETE n //", "good", "good")], 2, "rel",
                                   "is not allowed"),
    "label with a second label": ([node("Partnership:Admin", "p", partner_name="N")], 2, "label",
                                  "unknown label 'Partnership:Admin'"),
    "10 MB property": ([node("Thread", "big", title=TEN_MB)], 2, "title", "the limit is"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_line_is_refused_whole(case, mind, cli_env, capsys, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "seed.jsonl", [node("Thread", "seed", title="already here")]))
    before = graph_snapshot(mind)
    bad_lines, line, field, fragment = CASES[case]
    path = write_jsonl(tmp_path / "bad.jsonl", [GOOD, *bad_lines])
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"line {line}" in err and fragment in err
    if field:
        assert f"field '{field}'" in err
    assert "nothing was written" in err
    assert graph_snapshot(mind) == before


def test_json_mode_reports_the_error_as_an_object(mind, cli_env, capsys, tmp_path):
    path = write_jsonl(tmp_path / "bad.jsonl", [node("Hacker", "x")])
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name, "--json")
    assert code == 2
    assert "unknown label" in json.loads(out)["error"]


@pytest.mark.parametrize(("content", "fragment"), [(b"", "is empty"), (b"\n  \n", "is empty"),
                                                   (b'{"type": "node"}\n\xff\n', "line 2 is not valid UTF-8")])
def test_empty_or_undecodable_files_are_refused(content, fragment, mind, cli_env, capsys, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(content)
    code, _, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 2 and fragment in err and err.count("\n") == 1
    assert mind.stats().nodes == 0


def test_a_missing_file_is_refused(mind, cli_env, capsys, tmp_path):
    code, _, err = run_cli(capsys, "import", str(tmp_path / "nope.jsonl"), "--mind", mind.name)
    assert code == 2 and "does not exist" in err


def test_changing_the_label_of_an_existing_id_is_refused(mind, cli_env, capsys, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "a.jsonl", [node("Thread", "x", title="t")]))
    before = graph_snapshot(mind)
    path = write_jsonl(tmp_path / "b.jsonl", [node("Locus", "x", concept="c")])
    code, _, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 2 and "already exists" in err and "as Thread" in err
    assert graph_snapshot(mind) == before


@pytest.mark.parametrize("name", ["a:b", "", "x" * 65, "-lead", "a b"])
def test_bad_mind_names_are_usage_errors(name, cli_env, capsys, tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", [GOOD])
    code, _, err = run_cli(capsys, "import", str(path), "--mind", name)
    assert code == 2 and "mind name" in err


def test_unknown_options_are_usage_errors(cli_env, capsys):
    code, _, err = run_cli(capsys, "stats", "--mind", "test-x", "--colour")
    assert code == 2 and "No such option" in err and err.count("\n") == 1
