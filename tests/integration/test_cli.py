"""The installed ``graphmind`` console script, end to end, as a user runs it."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from graphmind.store.minds import delete_mind
from tests.conftest import new_mind_name
from tests.integration.helpers import DEMO, node, write_jsonl

GRAPHMIND = shutil.which("graphmind", path=str(Path(sys.executable).parent)) or "graphmind"


def graphmind(env, *args, stdin=None):
    return subprocess.run([GRAPHMIND, *args], env=env, capture_output=True, text=True, input=stdin, check=False)


def test_import_stats_export_pipe_round_trip(cli_env, cli_mind, store, settings, tmp_path):
    done = graphmind(cli_env, "import", str(DEMO), "--mind", cli_mind, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["mind"], result["nodes"], result["edges"], result["invalid"]) == (cli_mind, 28, 23, [])
    assert set(result["timings"]) == {"validate_s", "nodes_s", "edges_s"}

    stats = json.loads(graphmind(cli_env, "stats", "--mind", cli_mind, "--json").stdout)
    assert stats["labels"]["Conversation_Memory"] == 4 and stats["relationships"]["INVOLVES"] == 4

    exported = graphmind(cli_env, "export", "--mind", cli_mind).stdout
    copy = tmp_path / "copy.jsonl"
    copy.write_text(exported)
    twin = new_mind_name()
    try:
        assert graphmind(cli_env, "import", str(copy), "--mind", twin).returncode == 0
        assert graphmind(cli_env, "export", "--mind", twin).stdout == exported
    finally:
        delete_mind(store, twin)


def test_stats_tells_the_nodes_kept_out_of_use_apart(cli_env, cli_mind, tmp_path):
    rows = [
        node("Abstraction", "a1", level=2, name="Kept", status="active"),
        node("Abstraction", "a2", level=2, name="Rebuilt without", status="retired"),
        node("Experience", "e1", description="The old rate", outcome="success", invalid_at="2020-01-01T00:00:00Z"),
        node("Experience", "e2", description="The new rate", outcome="success"),
        node("Experience", "e3", description="Valid until later", outcome="success", invalid_at="2999-01-01T00:00:00Z"),
    ]
    assert (
        graphmind(cli_env, "import", str(write_jsonl(tmp_path / "m.jsonl", rows)), "--mind", cli_mind).returncode == 0
    )
    stats = json.loads(graphmind(cli_env, "stats", "--mind", cli_mind, "--json").stdout)
    assert stats["labels"] == {"Abstraction": 2, "Experience": 3}
    assert stats["out_of_use"] == {"Abstraction": 1, "Experience": 1}
    text = graphmind(cli_env, "stats", "--mind", cli_mind).stdout
    assert "(1 out of use)" in next(line for line in text.splitlines() if "Abstraction" in line)


def test_import_says_when_it_makes_a_mind_and_names_one_differing_only_in_case(cli_env, cli_mind, store, tmp_path):
    rows = write_jsonl(tmp_path / "one.jsonl", [node("Experience", "e1", description="First", outcome="success")])
    first = json.loads(graphmind(cli_env, "import", str(rows), "--mind", cli_mind, "--json").stdout)
    again = json.loads(graphmind(cli_env, "import", str(rows), "--mind", cli_mind, "--json").stdout)
    assert (first["new_mind"], again["new_mind"]) == (True, False)
    twin = cli_mind.upper()
    try:
        done = graphmind(cli_env, "import", str(rows), "--mind", twin)
        assert done.returncode == 0, done.stderr
        assert f"mind {twin!r} is new" in done.stdout and f"mind {cli_mind!r} exists" in done.stdout
    finally:
        delete_mind(store, twin)


def test_errors_are_one_sentence_without_traceback(cli_env, cli_mind, tmp_path):
    bad = write_jsonl(tmp_path / "bad.jsonl", [node("Partnership", "p", partner_name="N", trust_level=3)])
    done = graphmind(cli_env, "import", str(bad), "--mind", cli_mind)
    assert done.returncode == 2
    assert done.stderr.startswith("graphmind: line 1, field 'trust_level'")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_an_unreachable_database_exits_1_with_one_sentence(cli_env, cli_mind):
    env = {**cli_env, "NEO4J_URI": "bolt://127.0.0.1:1"}
    done = graphmind(env, "stats", "--mind", cli_mind, "--json")
    assert done.returncode == 1
    assert "not reachable" in json.loads(done.stdout)["error"]
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_init_reports_the_applied_schema(cli_env):
    done = graphmind(cli_env, "init", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["applied"] == [
        "001_constraints.cypher",
        "002_range_indexes.cypher",
        "003_search_indexes.cypher",
        "004_embedding_state.cypher",
        "005_retire_memory_text.cypher",
        "006_vector_stamp.cypher",
        "007_dream_lease.cypher",
        "008_wander_loci.cypher",
        "009_api_keys.cypher",
        "010_turn_recall.cypher",
    ]


def test_demo_loads_the_demo_mind_and_ruminates_as_that_mind(cli_env, cli_mind, store, settings):
    done = graphmind(cli_env, "demo", "--mind", cli_mind, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["stats"]["labels"]["Identity"] == 1
    assert result["stats"]["relationships"]["ABOUT"] == 5
    rumination = result["rumination"]
    assert rumination["validation"]["valid"] and len(rumination["sections"]) == 7
    assert rumination["mind"] == cli_mind  # the Felix it loaded, not another one
    assert "backend engineering agent" in rumination["context_markdown"]
    assert "I feel frustration (0.6/1.0)" in rumination["context_markdown"]
