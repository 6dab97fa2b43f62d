"""A row Neo4j refuses costs only that row: its batch is bisected, the valid rows land and
the bad row is named by its line (issue 27, item 1).

Validation now refuses every row the server is known to refuse (an empty property name or
one with a NUL, the original report), so these tests switch that check off to let such a row
reach the server, as a row of a kind nobody foresaw would.
"""

import json
import re
from dataclasses import replace

import pytest

from graphmind.errors import NotFoundError
from graphmind.mind import Mind
from tests.integration.helpers import edge, node, run_cli, write_jsonl

ROWS, BATCH, BAD = 600, 50, 551  # the report's 6,000 rows, batches of 5,000 and row 5,501, scaled down


@pytest.fixture
def unchecked_names(monkeypatch):
    """Property names go to the server unchecked (so it refuses the empty one itself)."""
    monkeypatch.setattr("graphmind.io.jsonl.check_property_name", lambda name: None)
    monkeypatch.setattr("graphmind.models.base.check_property_name", lambda name: None)


def _threads(tmp_path, bad: int = BAD):
    items = [node("Thread", f"t{i:04d}", title=f"thread {i}") for i in range(1, ROWS + 1)]
    items[bad - 1]["properties"][""] = "no name"
    return write_jsonl(tmp_path / "threads.jsonl", items)


def test_a_refused_row_costs_only_itself_through_the_python_api(unchecked_names, store, settings, mind, tmp_path):
    small = Mind(mind.name, store, replace(settings, import_batch_size=BATCH))
    report = small.import_jsonl(_threads(tmp_path), strict=False)
    assert [(e.line, e.field) for e in report.invalid] == [(BAD, None)]
    assert "Neo4j refused it" in report.invalid[0].message and "token name" in report.invalid[0].message
    assert report.nodes == ROWS - 1 and report.skipped == 1
    assert mind.stats().labels == {"Thread": ROWS - 1}
    with pytest.raises(NotFoundError, match="no node"):
        mind.get(f"t{BAD:04d}")


def test_skip_invalid_names_the_refused_row_on_the_command_line(
    unchecked_names, cli_env, monkeypatch, capsys, mind, tmp_path
):
    monkeypatch.setenv("GRAPHMIND_IMPORT_BATCH", str(BATCH))
    code, out, err = run_cli(capsys, "import", str(_threads(tmp_path)), "--mind", mind.name, "--skip-invalid", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["nodes"], report["skipped"]) == (ROWS - 1, 1)
    assert re.findall(r"skipped line (\d+): Neo4j refused it", err) == [str(BAD)]
    assert mind.stats().labels == {"Thread": ROWS - 1}


def test_strict_stops_at_the_refused_row_in_one_sentence_that_does_not_say_run_it_again(
    unchecked_names, cli_env, monkeypatch, capsys, mind, tmp_path
):
    monkeypatch.setenv("GRAPHMIND_IMPORT_BATCH", str(BATCH))
    code, out, err = run_cli(capsys, "import", str(_threads(tmp_path)), "--mind", mind.name)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"line {BAD}: Neo4j refused it" in err and "run it again" not in err
    assert "fix the line" in err


def test_refused_edges_cost_only_themselves_and_edges_of_a_refused_node_are_named(
    unchecked_names, store, settings, mind, tmp_path
):
    items = [node("Thread", f"t{i}", title=str(i)) for i in range(20)] + [node("DreamRun", "run")]
    items[7]["properties"][""] = 1  # line 8: node t7 is refused, so are its two edges
    items += [edge("FOLLOWS", f"t{i}", f"t{i + 1}", w=i) for i in range(19)]  # lines 22-40, new memory edges
    items[21 + 12]["properties"][""] = 1  # line 34: t12 -> t13
    items += [edge("PRODUCED", "run", f"t{i}") for i in range(10)]  # lines 41-50, through link_edges
    items[40 + 3]["properties"][""] = 1  # line 44: run -> t3
    path = write_jsonl(tmp_path / "chain.jsonl", items)
    small = Mind(mind.name, store, replace(settings, import_batch_size=4))
    report = small.import_jsonl(path, strict=False)
    assert [(e.line, e.field) for e in report.invalid] == [
        (8, None),
        (28, "to/from"),
        (29, "to/from"),
        (34, None),
        (44, None),
        (48, "to/from"),
    ]
    assert "edge endpoint 't7' was not written: Neo4j refused line 8" in report.invalid[1].message
    assert (report.nodes, report.edges) == (20, 19 - 3 + 10 - 2)
    assert mind.stats().relationships == {"FOLLOWS": 16, "PRODUCED": 8}
