"""New memory nodes are written while the file is still being validated (graphmind/io/early.py),
yet a strict import of a bad file still leaves every mind as it was (issue 25, item 6)."""

import json

import pytest

from graphmind.errors import StoreError, ValidationError
from graphmind.io import Importer
from tests.integration.helpers import edge, fail_third_write, graph_snapshot, node, write_jsonl

NODES, BATCH = 60, 5


def _early_writes(store, monkeypatch) -> list[int]:
    """The node count each ``import/upsert_memories`` call wrote, in order (a spy on the store)."""
    real_write, written = store.write, []

    def spy(name, /, **params):
        rows = real_write(name, **params)
        if name == "import/upsert_memories":
            written.append(rows[0]["written"])
        return rows

    monkeypatch.setattr(store, "write", spy)
    return written


def _unclocked(mind) -> list[dict]:
    """The mind's export without ``created_at`` (the server's clock at the write)."""
    lines = [json.loads(line) for line in graph_snapshot(mind)]
    for line in lines:
        line["properties"].pop("created_at", None)
    return lines


def _file(tmp_path, bad_last: bool, title: str = "new"):
    items = [node("Thread", f"t{i}", title=f"{title} {i}") for i in range(NODES)]
    items += [edge("FOLLOWS", f"t{i}", f"t{i + 1}", w=i) for i in range(NODES - 1)]
    if bad_last:
        items.append(node("NoSuchLabel", "late"))
    return write_jsonl(tmp_path / "late-bad.jsonl", items)


def test_a_bad_line_late_in_the_file_undoes_the_nodes_written_early(store, mind, other_mind, tmp_path, monkeypatch):
    other_mind.import_jsonl(_file(tmp_path, bad_last=False))
    before = graph_snapshot(other_mind)
    written = _early_writes(store, monkeypatch)
    with pytest.raises(ValidationError, match=rf"line {2 * NODES}.*1 invalid line\(s\); nothing was written"):
        Importer(store, batch_size=BATCH).run(_file(tmp_path, bad_last=True), mind.name)
    assert sum(written) == NODES  # every node batch was written before the last line was read
    assert mind.stats().labels == {} and mind.stats().relationships == {}
    assert graph_snapshot(other_mind) == before


def test_a_bad_file_leaves_the_nodes_already_in_the_mind_as_they_were(store, mind, tmp_path, monkeypatch):
    mind.import_jsonl(_file(tmp_path, bad_last=False, title="old"))
    before = graph_snapshot(mind)
    written = _early_writes(store, monkeypatch)
    extra = [node("Thread", f"x{i}", title="extra") for i in range(2 * BATCH)] + [node("NoSuchLabel", "late")]
    path = write_jsonl(tmp_path / "mixed.jsonl", [node("Thread", "t0", title="changed"), *extra])
    with pytest.raises(ValidationError, match="nothing was written"):
        Importer(store, batch_size=BATCH).run(path, mind.name)
    assert sum(written) == 2 * BATCH - 1  # the new nodes of the first batches only: t0 waits for validation
    assert graph_snapshot(mind) == before


def test_a_good_file_gives_the_same_graph_with_or_without_the_early_writes(store, mind, other_mind, tmp_path):
    path = _file(tmp_path, bad_last=False)
    early = Importer(store, batch_size=BATCH).run(path, mind.name)
    late = Importer(store, batch_size=BATCH, overlap=False).run(path, other_mind.name)
    assert (early.nodes, early.edges) == (late.nodes, late.edges) == (NODES, NODES - 1)
    assert _unclocked(mind) == _unclocked(other_mind)
    again = Importer(store, batch_size=BATCH).run(path, mind.name)  # all exist now: nothing new to write early
    assert (again.nodes, again.edges) == (NODES, NODES - 1) and _unclocked(mind) == _unclocked(other_mind)


def test_a_write_failing_during_validation_says_part_way_and_a_rerun_completes(
    store, mind, other_mind, tmp_path, monkeypatch
):
    path = _file(tmp_path, bad_last=False)
    fail_third_write(monkeypatch, store, lambda name: name == "import/upsert_memories")  # a node batch
    with pytest.raises(StoreError, match="injected failure.*stopped part-way.*run it again"):
        Importer(store, batch_size=BATCH, workers=1).run(path, mind.name)
    assert 0 < sum(mind.stats().labels.values()) < NODES and mind.stats().relationships == {}
    monkeypatch.undo()
    Importer(store, batch_size=BATCH).run(path, mind.name)
    Importer(store, batch_size=BATCH).run(path, other_mind.name)
    assert _unclocked(mind) == _unclocked(other_mind)
