"""What graphmind ships for Neo4j Browser (issue 24, item 4): the queries `graphmind browse`
prints run on a real mind and draw what they say; the style sheet covers every label."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from graphmind.models import NODE_TYPES
from tests.integration.helpers import DEMO, experiences, run_cli

pytestmark = pytest.mark.integration


def test_each_browser_query_draws_its_part_of_a_real_mind(mind):
    mind.import_jsonl(DEMO)
    mind.capture_many(experiences())
    report = mind.dream()
    mind.ruminate("Hey Felix, the race condition is back.", sender="Nicolas")
    walk = mind.wander("race conditions in async code", steps=5, rng_seed=1, human_checkpoint_frequency=0)

    ladder = mind.store.read("browser/find_ladder", mind=mind.name)
    assert ladder and all(len(row["p"].relationships) >= 1 for row in ladder)
    pattern = report.new_patterns[0]["id"]
    why = mind.store.read("browser/find_provenance", mind=mind.name, id=pattern)[0]
    assert why["x"]["id"] == pattern and why["evidence"] and why["made"] and why["above"]
    trace = mind.store.read("browser/find_trace", mind=mind.name, session=walk.id)
    assert len(trace) == 5
    evidence = mind.store.read("browser/find_rumination_evidence", mind=mind.name)
    assert evidence and {r["p"].nodes[0]["mind"] for r in evidence} == {mind.name}


def test_browse_prints_the_param_the_style_sheet_and_the_queries(cli_env, cli_mind, capsys):
    code, out, _ = run_cli(capsys, "browse", "--mind", cli_mind, "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["param"] == f":param mind => '{cli_mind}'"
    assert [q["name"] for q in shown["queries"]] == [
        "browser/find_ladder",
        "browser/find_provenance",
        "browser/find_trace",
        "browser/find_rumination_evidence",
    ]
    assert shown["style_file"].endswith("graphmind.grass")
    code, _, err = run_cli(capsys, "browse", "--mind", "bad name")
    assert code == 2 and "mind name" in err


def test_the_style_sheet_styles_every_label_with_a_field_it_has():
    sheet = (resources.files("graphmind") / "browser" / "graphmind.grass").read_text()
    styled = dict(re.findall(r"node\.(\w+) \{[^}]*caption: \"\{(\w+)\}\"", sheet))
    assert styled.keys() == NODE_TYPES.keys()
    for label, field in styled.items():
        assert field in NODE_TYPES[label].model_fields
