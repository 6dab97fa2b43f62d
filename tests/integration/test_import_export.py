import gc
import json
from collections import Counter
from datetime import UTC

import pytest

from graphmind.io import Importer
from tests.integration.helpers import DEMO, edge, fail_third_write, graph_snapshot, node, run_cli, write_jsonl


def test_import_export_reimport_gives_the_identical_graph(mind, other_mind, tmp_path):
    report = mind.import_jsonl(DEMO)
    assert (report.nodes, report.edges, report.invalid) == (28, 23, [])
    exported = write_jsonl(tmp_path / "out.jsonl", list(mind.export_jsonl()))
    other_mind.import_jsonl(exported)
    assert graph_snapshot(other_mind) == graph_snapshot(mind)
    assert other_mind.stats().labels == mind.stats().labels
    assert other_mind.stats().relationships == mind.stats().relationships


def _types(store, mind) -> dict:
    """Every node and relationship property's Cypher type, counted (embeddings aside: they come back with the embedding pass)."""
    rows = store.read("stats/count_value_types", mind=mind.name)
    return {
        (r["kind"], r["owner"], r["key"], r["type"]): r["count"] for r in rows if not r["key"].startswith("embedding")
    }


def test_a_mind_the_engines_wrote_round_trips_exactly(store, mind, other_mind, tmp_path):
    """Dream and wander output: parallel STEP edges (a walk crosses one pair of loci many
    times), OF_STEP pairs to one locus, and date-times the engines stamp on nodes and edges."""
    mind.import_jsonl(DEMO)
    mind.dream()
    mind.wander("race conditions in async code", steps=60, rng_seed=42)
    exported = write_jsonl(tmp_path / "out.jsonl", list(mind.export_jsonl()))
    other_mind.import_jsonl(exported)
    assert graph_snapshot(other_mind) == graph_snapshot(mind)
    assert other_mind.stats().relationships == mind.stats().relationships
    steps = Counter((x["from"], x["to"]) for x in map(json.loads, graph_snapshot(mind)) if x.get("rel") == "STEP")
    assert max(steps.values()) > 1  # the walk crossed one pair of loci more than once
    assert _types(store, other_mind) == _types(store, mind)
    assert ("rel", "STEP", "created_at", "ZONED DATETIME NOT NULL") in _types(store, mind)
    before = graph_snapshot(mind)
    mind.import_jsonl(exported)  # into itself: nothing changes, parallel edges keep their own values
    assert graph_snapshot(mind) == before and _types(store, mind) == _types(store, other_mind)


def test_reimporting_the_same_file_changes_nothing(mind):
    mind.import_jsonl(DEMO)
    before = graph_snapshot(mind)
    mind.import_jsonl(DEMO)
    assert graph_snapshot(mind) == before


def test_datetimes_lists_and_edge_properties_survive_the_round_trip(mind):
    mind.import_jsonl(DEMO)
    lines = [json.loads(x) for x in mind.export_jsonl()]
    conv = next(x for x in lines if x.get("id") == "conv-race-1")
    assert conv["properties"]["timestamp"] == "2026-10-02T14:10:00+00:00"
    assert conv["properties"]["key_points"][0] == "two workers pick up the same settlement batch"
    follows = next(x for x in lines if x.get("rel") == "FOLLOWS")
    assert follows["properties"] == {"days_later": 17}


def test_small_batches_page_through_everything(store, settings, mind, tmp_path):
    items = [node("Thread", f"t{i:03d}", title=f"thread {i}") for i in range(23)]
    items += [edge("FOLLOWS", f"t{i:03d}", f"t{i + 1:03d}") for i in range(22)]
    path = write_jsonl(tmp_path / "many.jsonl", items)
    report = Importer(store, batch_size=4).run(path, mind.name)
    assert (report.nodes, report.edges) == (23, 22)
    assert mind.stats().relationships == {"FOLLOWS": 22}


def test_edges_may_point_at_nodes_already_in_the_mind(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "a.jsonl", [node("Thread", "a", title="A")]))
    report = mind.import_jsonl(
        write_jsonl(tmp_path / "b.jsonl", [node("Thread", "b", title="B"), edge("FOLLOWS", "b", "a")])
    )
    assert report.edges == 1


def test_run_nodes_link_to_memories(mind, tmp_path):
    path = write_jsonl(
        tmp_path / "runs.jsonl",
        [
            node("DreamRun", "run-1", status="completed"),
            node("Pattern", "p1", description="idempotent consumers", conditions=["at-least-once queue"]),
            edge("PRODUCED", "run-1", "p1"),
        ],
    )
    mind.import_jsonl(path)
    assert mind.stats().relationships == {"PRODUCED": 1}
    assert mind.stats().labels == {"DreamRun": 1, "Pattern": 1}


def test_skip_invalid_writes_the_good_lines_and_reports_the_rest(mind, tmp_path, cli_env, capsys):
    path = write_jsonl(
        tmp_path / "mixed.jsonl",
        [
            node("Thread", "ok", title="fine"),
            node("Thread", "bad", title="x", status="exploded"),
            edge("FOLLOWS", "ok", "bad"),
        ],
    )
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name, "--skip-invalid", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["nodes"] == 1 and result["edges"] == 0
    assert [(i["line"], i["field"]) for i in result["invalid"]] == [(2, "status"), (3, "to/from")]
    assert "skipped line 2" in err
    assert mind.stats().labels == {"Thread": 1}


def test_a_repeated_edge_is_one_relationship_with_the_last_properties(mind, tmp_path):
    path = write_jsonl(
        tmp_path / "dup.jsonl",
        [
            node("Thread", "a", title="A"),
            node("Thread", "b", title="B"),
            edge("FOLLOWS", "a", "b", weight=1),
            edge("FOLLOWS", "a", "b", weight=2),
            edge("REFINES", "a", "b"),
        ],
    )
    mind.import_jsonl(path)
    mind.import_jsonl(path)
    assert mind.stats().relationships == {"FOLLOWS": 1, "REFINES": 1}
    lines = [json.loads(x) for x in mind.export_jsonl()]
    assert [x["properties"] for x in lines if x.get("rel") == "FOLLOWS"] == [{"weight": 2}]


def test_stored_nodes_map_back_to_their_models(mind):
    from datetime import datetime

    from graphmind.errors import NotFoundError
    from graphmind.models import Conversation_Memory, Partnership

    mind.import_jsonl(DEMO)
    nicolas = mind.get("nicolas")
    assert isinstance(nicolas, Partnership)
    assert nicolas.trust_level == 0.9 and nicolas.shared_history[0] == "shipped the ledger rewrite together"
    conversation = mind.get("conv-race-1")
    assert isinstance(conversation, Conversation_Memory)
    assert conversation.timestamp == datetime(2026, 10, 2, 14, 10, tzinfo=UTC)
    assert conversation.created_at is not None
    with pytest.raises(NotFoundError):
        mind.get("nobody")


def test_skip_invalid_never_relabels_an_existing_node(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "a.jsonl", [node("Thread", "x", title="t")]))
    report = mind.import_jsonl(
        write_jsonl(
            tmp_path / "b.jsonl",
            [node("Locus", "x", concept="c"), node("Locus", "y", concept="d"), edge("NEAR", "y", "x")],
        ),
        strict=False,
    )
    assert [(i.line, i.field) for i in report.invalid] == [(1, "label")]
    assert mind.stats().labels == {"Thread": 1, "Locus": 1}
    assert mind.stats().relationships == {"NEAR": 1}


def test_skip_invalid_links_edges_of_a_refused_node_to_the_stored_one_across_kinds(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "a.jsonl", [node("DreamRun", "x")]))
    report = mind.import_jsonl(
        write_jsonl(
            tmp_path / "b.jsonl",
            [
                node("Thread", "x", title="t"),
                node("Pattern", "y", name="p", description="d"),
                edge("SUPPORTS", "y", "x"),
            ],
        ),
        strict=False,
    )
    assert [(i.line, i.field) for i in report.invalid] == [(1, "label")]
    assert (report.nodes, report.edges) == (1, 1)
    assert mind.stats().labels == {"DreamRun": 1, "Pattern": 1}
    assert mind.stats().relationships == {"SUPPORTS": 1}


def test_more_bad_lines_than_are_reported_are_all_skipped(store, mind, tmp_path, monkeypatch):
    from graphmind.io import importer

    items = [node("Thread", "a", title="A")] + [edge("FOLLOWS", "a", f"missing-{i}") for i in range(30)]
    path = write_jsonl(tmp_path / "many-bad.jsonl", items)
    monkeypatch.setattr(importer, "MAX_REPORTED_ERRORS", 5)
    report = importer.Importer(store, batch_size=7).run(path, mind.name, strict=False)
    assert len(report.invalid) == 5 and report.skipped == 30 and (report.nodes, report.edges) == (1, 0)


def test_progress_is_reported_for_both_write_phases(store, mind, tmp_path):
    items = [node("Thread", f"t{i}", title="t") for i in range(10)] + [
        edge("FOLLOWS", "t0", f"t{i}") for i in range(1, 6)
    ]
    calls = []
    Importer(store, batch_size=4).run(
        write_jsonl(tmp_path / "p.jsonl", items),
        mind.name,
        progress=lambda phase, done, total: calls.append((phase, done, total)),
    )
    assert calls[-1] == ("edges", 5, 5)
    assert ("nodes", 10, 10) in calls
    assert [c for c in calls if c[0] == "nodes"] == sorted(c for c in calls if c[0] == "nodes")


def test_the_collector_stays_on_while_writing_and_each_batch_is_freed_after_its_write(store, mind, tmp_path):
    items = [node("Thread", f"t{i}", title="t") for i in range(600)] + [
        edge("FOLLOWS", f"t{i}", f"t{i + 1}") for i in range(599)
    ]
    path = write_jsonl(tmp_path / "many.jsonl", items)
    seen = set()
    Importer(store, batch_size=50).run(path, mind.name, progress=lambda *_: seen.add(gc.isenabled()))
    assert seen == {True}  # no process-wide switch (issue 23): other threads' garbage is still collected

    gc.collect()
    gc.disable()  # nothing is collected during the import: what it leaves in cycles stays visible
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        Importer(store, batch_size=50).run(path, mind.name)
        gc.collect()
        rows = [x for x in gc.garbage if isinstance(x, dict) and ("uid" in x or "from_uid" in x)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    # The driver keeps each transaction's bookkeeping in cycles until the collector runs again;
    # the rows it was sent must be freed right after their batch.
    assert rows == []


@pytest.mark.parametrize("batch_size", [1, 2, 100])
def test_new_and_existing_edges_never_duplicate_across_batches(store, mind, tmp_path, batch_size):
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "old.jsonl",
            [node("Thread", "old", title="o"), node("Thread", "x", title="x"), edge("FOLLOWS", "old", "x", w=0)],
        )
    )
    path = write_jsonl(
        tmp_path / "new.jsonl",
        [
            node("Thread", "n1", title="1"),
            node("Thread", "n2", title="2"),
            node("DreamRun", "r1"),
            edge("FOLLOWS", "n1", "n2", w=1),
            edge("FOLLOWS", "n1", "old", w=1),
            edge("FOLLOWS", "old", "x", w=1),
            edge("PRODUCED", "r1", "n1", w=1),  # new, but through link_edges (a Run endpoint)
            edge("FOLLOWS", "n1", "n2", w=2),
            edge("FOLLOWS", "n1", "old", w=2),
            edge("PRODUCED", "r1", "n1", w=2),
        ],
    )
    Importer(store, batch_size=batch_size).run(path, mind.name)
    edges = [
        (x["from"], x["rel"], x["to"], x["properties"]["w"])
        for x in map(json.loads, mind.export_jsonl())
        if x["type"] == "edge"
    ]  # a list: two relationships for one pair would both show
    assert sorted(edges) == [
        ("n1", "FOLLOWS", "n2", 2),
        ("n1", "FOLLOWS", "old", 2),
        ("old", "FOLLOWS", "x", 1),
        ("r1", "PRODUCED", "n1", 2),
    ]


def test_a_write_failing_part_way_says_so_and_a_rerun_completes_the_import(
    store, mind, other_mind, tmp_path, monkeypatch
):
    from graphmind.errors import StoreError

    path = write_jsonl(
        tmp_path / "chain.jsonl",
        [node("Thread", f"t{i}", title=str(i)) for i in range(12)]
        + [edge("FOLLOWS", f"t{i}", f"t{i + 1}", w=i) for i in range(11)],
    )
    fail_third_write(monkeypatch, store, lambda name: name.startswith("import/link"))  # an edge batch
    with pytest.raises(StoreError, match="stopped part-way.*run it again"):
        Importer(store, batch_size=2, workers=1).run(path, mind.name)
    assert 0 < mind.stats().relationships["FOLLOWS"] < 11
    monkeypatch.undo()
    mind.import_jsonl(path)
    other_mind.import_jsonl(path)  # a clean import to compare with (created_at aside: the server's clock)
    assert mind.stats().relationships == other_mind.stats().relationships == {"FOLLOWS": 11}
    assert _edges(mind) == _edges(other_mind)


def _edges(mind) -> list:
    return sorted(line for line in graph_snapshot(mind) if json.loads(line)["type"] == "edge")
