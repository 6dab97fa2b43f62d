"""One mind never sees another's nodes, through any verb."""

import json

from tests.integration.helpers import DEMO, edge, node, run_cli, write_jsonl


def test_no_verb_of_one_mind_shows_the_other(mind, other_mind, cli_env, capsys, tmp_path):
    mind.import_jsonl(DEMO)
    other_mind.import_jsonl(
        write_jsonl(
            tmp_path / "other.jsonl",
            [
                node("Partnership", "nicolas", partner_name="Someone Else", trust_level=0.1),
                node("Thread", "secret", title="other mind's thread"),
                edge("FOLLOWS", "secret", "nicolas"),
            ],
        )
    )

    code, out, _ = run_cli(capsys, "stats", "--mind", other_mind.name, "--json")
    stats = json.loads(out)
    assert code == 0 and stats["labels"] == {"Partnership": 1, "Thread": 1}
    assert stats["relationships"] == {"FOLLOWS": 1}

    code, out, _ = run_cli(capsys, "export", "--mind", other_mind.name)
    exported = [json.loads(x) for x in out.splitlines()]
    assert {x["id"] for x in exported if x["type"] == "node"} == {"nicolas", "secret"}
    assert "Someone Else" in out and "Nicolas" not in out.replace("Someone Else", "")

    code, out, _ = run_cli(capsys, "export", "--mind", mind.name)
    assert "secret" not in out and "Someone Else" not in out
    assert json.loads(run_cli(capsys, "stats", "--mind", mind.name, "--json")[1])["nodes"] == 28


def test_the_same_id_in_two_minds_is_two_nodes(mind, other_mind, tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", [node("Thread", "shared-id", title="mine")])
    mind.import_jsonl(path)
    other_mind.import_jsonl(path)
    mind.delete()
    assert other_mind.stats().labels == {"Thread": 1}
    assert mind.stats().nodes == 0


def test_an_edge_cannot_reach_into_another_mind(mind, other_mind, cli_env, capsys, tmp_path):
    other_mind.import_jsonl(write_jsonl(tmp_path / "o.jsonl", [node("Thread", "theirs", title="t")]))
    path = write_jsonl(tmp_path / "m.jsonl", [node("Thread", "mine", title="t"), edge("FOLLOWS", "mine", "theirs")])
    code, _, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 2 and "'theirs' is not a node of mind" in err
    assert mind.stats().nodes == 0 and other_mind.stats().relationships == {}
