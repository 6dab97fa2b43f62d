"""Every kind of bad input: exit 2, one sentence naming line and field, nothing written."""

import json
import re

import pytest

from tests.integration.helpers import edge, graph_snapshot, node, run_cli, write_jsonl

GOOD = node("Thread", "good", title="a good line before the bad one")
TEN_MB = "x" * (10 * 1024 * 1024)

CASES = {
    "malformed JSON": (['{"type": "node", "label": "Thread", "id": "x", '], 2, None, "not valid JSON"),
    "unknown label": ([node("Hacker", "x", title="t")], 2, "label", "unknown label 'Hacker'"),
    "missing id": ([{"type": "node", "label": "Thread", "properties": {"title": "t"}}], 2, "id", "missing"),
    "duplicate id": ([node("Thread", "good", title="again")], 2, "id", "duplicate id 'good' (first on line 1)"),
    "wrong property type": (
        [node("Conversation_Memory", "c", topic="t", message_count="many")],
        2,
        "message_count",
        "integer",
    ),
    "out-of-range value": (
        [node("Partnership", "p", partner_name="N", trust_level=1.7)],
        2,
        "trust_level",
        "less than or equal to 1",
    ),
    "edge to an unknown node": ([edge("FOLLOWS", "good", "nowhere")], 2, "to/from", "'nowhere' is not a node"),
    "injected relationship type": ([edge("KNOWS]->() DETACH DELETE n //", "good", "good")], 2, "rel", "is not allowed"),
    "label with a second label": (
        [node("Partnership:Admin", "p", partner_name="N")],
        2,
        "label",
        "unknown label 'Partnership:Admin'",
    ),
    "10 MB property": ([node("Thread", "big", title=TEN_MB)], 2, "title", "the limit is"),
    "empty property name": ([node("Thread", "e", title="t", **{"": "x"})], 2, "properties", "must not be empty"),
    "NUL in a property name": ([node("Thread", "z", title="t", **{"a\x00b": 1})], 2, "a\\x00b", "NUL"),
    "empty edge property name": ([edge("FOLLOWS", "good", "good", **{"": 1})], 2, "properties", "must not be empty"),
    "lone surrogate": (
        ['{"type": "node", "label": "Thread", "id": "s", "properties": {"title": "\\udcff"}}'],
        2,
        "title",
        "lone surrogate",
    ),
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


@pytest.mark.parametrize(
    ("content", "fragment"),
    [(b"", "is empty"), (b"\n  \n", "is empty"), (json.dumps(GOOD).encode() + b"\n\xff\n", "line 2: not valid UTF-8")],
)
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


@pytest.mark.parametrize("name", ["a:b", "", "x" * 65, "-lead", "a b", "felix\n"])
def test_bad_mind_names_are_usage_errors(name, cli_env, capsys, tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", [GOOD])
    code, _, err = run_cli(capsys, "import", str(path), "--mind", name)
    assert code == 2 and "mind name" in err


def test_unknown_options_are_usage_errors(cli_env, capsys):
    code, _, err = run_cli(capsys, "stats", "--mind", "test-x", "--colour")
    assert code == 2 and "No such option" in err and err.count("\n") == 1


MIXED = [  # line: why it is bad
    json.dumps(node("Thread", "a", title="A")).encode(),
    json.dumps(node("Thread", "e", title="t", **{"": "x"})).encode(),  # 2: an empty property name
    json.dumps(node("Thread", "z", title="t", **{"a\x00b": 1})).encode(),  # 3: a NUL in a property name
    b'{"type": "node", "label": "Thread", "id": "s", "properties": {"title": "\\udcff"}}',  # 4: a lone surrogate
    b'{"type": "node", "label": "Thread", "id": "u", "properties": {"title": "caf\xe9"}}',  # 5: Latin-1, not UTF-8
    json.dumps(node("Thread", "b", title="B")).encode(),
    json.dumps(edge("FOLLOWS", "a", "b", **{"": 1})).encode(),  # 7: an empty edge property name
    json.dumps(edge("FOLLOWS", "a", "b")).encode(),
]
MIXED_INVALID = [(2, "properties"), (3, "a\\x00b"), (4, "title"), (5, None), (7, "properties")]


def _mixed(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(MIXED) + b"\n")
    return path


def test_skip_invalid_names_each_bad_line_and_imports_the_rest(mind, cli_env, capsys, tmp_path):
    code, out, err = run_cli(capsys, "import", str(_mixed(tmp_path)), "--mind", mind.name, "--skip-invalid", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert [(i["line"], i["field"]) for i in report["invalid"]] == MIXED_INVALID
    assert (report["nodes"], report["edges"], report["skipped"]) == (2, 1, 5)
    assert "Traceback" not in err and "internal error" not in err
    skipped = [int(n) for n in re.findall(r"^graphmind: skipped line (\d+)", err, re.M)]
    assert skipped == [n for n, _ in MIXED_INVALID]
    assert mind.stats().labels == {"Thread": 2} and mind.stats().relationships == {"FOLLOWS": 1}


def test_the_python_api_skips_the_same_lines(mind, tmp_path):
    report = mind.import_jsonl(_mixed(tmp_path), strict=False)
    assert [(i.line, i.field) for i in report.invalid] == MIXED_INVALID
    assert (report.nodes, report.edges) == (2, 1)
    assert "not valid UTF-8" in report.invalid[3].message and "lone surrogate" in report.invalid[2].message


def test_strict_refuses_the_same_file_at_its_first_bad_line(mind, cli_env, capsys, tmp_path):
    code, out, err = run_cli(capsys, "import", str(_mixed(tmp_path)), "--mind", mind.name)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "line 2, field 'properties'" in err and "5 invalid line(s); nothing was written" in err
    assert mind.stats().nodes == 0
