"""An imported SUPERSEDES / CONTRADICTS edge does to the patterns built on the older experience
what ``capture --supersedes`` does (``memory/mark_unsupported_patterns``): they are stale, or
invalidated when no experience of theirs holds, and the next dream extracts them again from the
experiences that hold. And an import never silently rewrites an experience a pattern holds."""

from __future__ import annotations

import json

import pytest

from .helpers import edge, graph_snapshot, node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

STRATEGY = "close the dome for humidity"
TELLINGS = [
    ("rule-85", "Closed the dome when the weather station humidity passed 85 percent, then parked the telescope"),
    ("dew-1", "Humidity passed 85 percent after midnight: closed the dome and parked the telescope"),
    ("dew-2", "Closed the dome for rising humidity and parked the telescope until it dropped"),
    ("dew-3", "Dew on the secondary mirror as the humidity rose: closed the dome and parked the telescope"),
]
NEW_RULE = {
    "description": "New rule: close the dome when the humidity passes 80 percent",
    "outcome": "success",
    "valid_from": "2026-01-05T00:00:00+00:00",
}
FININGS = [
    ("f1", "Fined the bitter casks with isinglass at a pint per barrel; bright in two days."),
    ("f2", "Isinglass finings in the pale ale casks cleared them overnight."),
    ("f3", "Fined the porter casks with isinglass at a pint per barrel; bright in three days."),
]
BIOFINE = {
    "description": "Switched the cask finings to Biofine silica at 0.5 ml/L; casks bright in two days and vegan.",
    "outcome": "success",
    "kind": "strategy",
    "strategy_used": "fining",
    "valid_from": "2026-01-05T00:00:00+00:00",
}


def _dreamed(mind, tellings, strategy: str = STRATEGY, **extra) -> None:
    mind.capture_many(
        [{"id": i, "description": t, "outcome": "success", "strategy_used": strategy, **extra} for i, t in tellings]
    )
    mind.dream()


def _pattern(mind) -> dict:
    (row,) = mind.store.read("dream/list_patterns", mind=mind.name)
    return mind.store.read("memory/get_node", mind=mind.name, id=row["id"])[0]["props"]


def _texts(mind) -> list[str]:
    rows = mind.store.read("dream/list_patterns", mind=mind.name)
    ladder = mind.store.read("dream/list_abstractions", mind=mind.name)
    return [" ".join(map(str, [r["name"], r["description"], *r["conditions"], *r["actions"]])) for r in rows] + [
        f"{r.get('name')} {r.get('generalization')}" for r in ladder
    ]


def _replacing(new_id: str, props: dict, olds: list[str]) -> list[dict]:
    return [node("Experience", new_id, **props), *(edge("SUPERSEDES", new_id, old) for old in olds)]


def test_cli_import_of_a_supersedes_edge_makes_the_pattern_stale_and_the_dream_rewords_it(
    mind, cli_env, capsys, tmp_path
):
    _dreamed(mind, TELLINGS)
    assert any("85" in t for t in _texts(mind)), _texts(mind)
    path = write_jsonl(tmp_path / "rule.jsonl", _replacing("rule-80", NEW_RULE, ["rule-85", "dew-1"]))
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 0, err
    assert "2 older memories marked no longer valid" in out, out
    pattern = _pattern(mind)
    assert pattern.get("stale_since") is not None and pattern["verification_status"] != "invalidated", pattern
    code, out, err = run_cli(capsys, "knowledge", "humidity limit to close the dome", "--mind", mind.name)
    assert code == 0 and "(stale: examples superseded since" in out, err
    code, out, err = run_cli(capsys, "dream", "--mind", mind.name)
    assert code == 0, err
    pattern = _pattern(mind)
    assert "stale_since" not in pattern and set(pattern["examples"]) <= {"dew-2", "dew-3", "rule-80"}, pattern
    assert not any("85" in t for t in _texts(mind)), _texts(mind)


def test_import_of_the_older_node_with_its_invalid_at_and_the_edge_makes_the_pattern_stale(mind, tmp_path):
    """The form the docs give (and export writes): the older node restated with its
    ``invalid_at``, and the edge. The node line gives the date, so the edge marks nothing itself;
    the patterns the older one exemplifies are stale all the same."""
    _dreamed(mind, TELLINGS)
    until = NEW_RULE["valid_from"]
    rows = [
        *(node("Experience", i, description=text, outcome="success", invalid_at=until) for i, text in TELLINGS[:2]),
        *_replacing("rule-80", NEW_RULE, ["rule-85", "dew-1"]),
    ]
    report = mind.import_jsonl(write_jsonl(tmp_path / "restated.jsonl", rows))
    assert (report.new, report.changed, report.unchanged, report.invalidated) == (1, 2, 0, 0), report
    assert _pattern(mind).get("stale_since") is not None
    mind.dream()
    assert {"rule-85", "dew-1"}.isdisjoint(_pattern(mind)["examples"])
    assert not any("85" in t for t in _texts(mind)), _texts(mind)
    (match,) = mind.query_knowledge("humidity limit to close the dome", k=1)
    assert match.stale is None and "85" not in match.description, match


def test_an_imported_contradicts_edge_makes_the_pattern_stale_as_well(mind, tmp_path):
    _dreamed(mind, TELLINGS)
    rows = [node("Experience", "rule-80", **NEW_RULE), edge("CONTRADICTS", "rule-80", "dew-1")]
    assert mind.import_jsonl(write_jsonl(tmp_path / "contradicts.jsonl", rows)).invalidated == 1
    pattern = _pattern(mind)
    assert pattern.get("stale_since") is not None and pattern["verification_status"] != "invalidated", pattern


@pytest.mark.parametrize("tellings", ["some", "all"])
def test_capture_and_import_of_a_replacement_leave_the_pattern_in_the_same_state(mind, other_mind, tmp_path, tellings):
    """The same replacement, captured in one mind and imported in the other: the same marks on
    the pattern, and after the next dream the same pattern (or, every telling replaced, the same
    invalidated one beside the pattern of the new finings)."""
    base, new, olds = (
        (TELLINGS, NEW_RULE, ["rule-85", "dew-1"]) if tellings == "some" else (FININGS, BIOFINE, ["f1", "f2", "f3"])
    )
    strategy = STRATEGY if tellings == "some" else "fining"
    for m in (mind, other_mind):
        _dreamed(m, base, strategy, timestamp="2026-01-01T00:00:00+00:00")
    mind.capture({"id": "new", **new, "timestamp": "2026-01-05T00:00:00+00:00"}, supersedes=olds)
    rows = _replacing("new", {**new, "timestamp": "2026-01-05T00:00:00+00:00"}, olds)
    assert other_mind.import_jsonl(write_jsonl(tmp_path / "new.jsonl", rows)).invalidated == len(olds)

    def state(m) -> list[tuple]:
        shown = ("verification_status", "invalid_at", "status", "examples", "name", "description")
        patterns = [m.store.read("memory/get_node", mind=m.name, id=r["id"])[0]["props"] for r in _patterns(m)]
        return sorted((*(str(p.get(k)) for k in shown), p.get("stale_since") is not None) for p in patterns)

    assert state(other_mind) == state(mind)
    assert (_pattern(mind)["verification_status"] == "invalidated") == (tellings == "all")
    mind.dream()
    other_mind.dream()
    assert state(other_mind) == state(mind)
    old_text = "85" if tellings == "some" else "isinglass"
    query = "humidity limit to close the dome" if tellings == "some" else "which finings do we use on casks"
    for m in (mind, other_mind):
        assert not any(old_text in match.description for match in m.query_knowledge(query)), m.query_knowledge(query)


def _patterns(mind) -> list[dict]:
    return mind.store.read("dream/list_patterns", mind=mind.name)


def test_a_changed_experience_a_pattern_holds_is_refused_and_nothing_is_written(mind, cli_env, capsys, tmp_path):
    _dreamed(mind, TELLINGS)
    before = graph_snapshot(mind)
    changed = [
        node("Experience", "fresh", description="Opened the dome at dusk", outcome="success"),
        node("Experience", "dew-2", description="Closed the dome at 70 percent humidity", outcome="success"),
        node("Experience", "dew-3", description="Left the dome open all night", outcome="failure"),
    ]
    path = write_jsonl(tmp_path / "changed.jsonl", changed)
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 2 and out == "", (out, err)
    assert err.count("\n") == 1 and "line 2" in err and "'dew-2'" in err and "pattern" in err, err
    assert graph_snapshot(mind) == before
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name, "--skip-invalid", "--json")
    report = json.loads(out)
    assert code == 0 and (report["new"], report["changed"], report["skipped"]) == (1, 0, 2), report
    assert [bad["line"] for bad in report["invalid"]] == [2, 3]
    props = mind.store.read("memory/get_node", mind=mind.name, id="dew-2")[0]["props"]
    assert props["description"] == TELLINGS[2][1]


def test_the_report_tells_new_changed_and_unchanged_nodes(mind, cli_env, capsys, tmp_path):
    rows = [
        node("Experience", "e1", description="The kiln cracked on the top shelf", outcome="failure"),
        node("Experience", "e2", description="Slower cooling saved the glaze", outcome="success"),
        node("Thread", "t1", title="kiln cracks"),
        edge("ABOUT", "e1", "t1"),
    ]
    path = write_jsonl(tmp_path / "kiln.jsonl", rows)
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 0 and "imported 3 nodes (3 new, 0 changed, 0 unchanged) and 1 edges" in out, (out, err)
    code, out, err = run_cli(capsys, "import", str(path), "--mind", mind.name)
    assert code == 0 and "imported 3 nodes (0 new, 0 changed, 3 unchanged) and 1 edges" in out, (out, err)
    rows[1] = node("Experience", "e2", description="Slower cooling saved the celadon glaze", outcome="success")
    rows.append(node("Thread", "t2", title="glazes"))
    code, out, err = run_cli(capsys, "import", str(write_jsonl(path, rows)), "--mind", mind.name, "--json")
    report = json.loads(out)
    assert code == 0 and (report["nodes"], report["new"], report["changed"], report["unchanged"]) == (4, 1, 1, 2)
    exported = tmp_path / "export.jsonl"
    assert run_cli(capsys, "export", "--mind", mind.name, "-o", str(exported))[0] == 0
    report = mind.import_jsonl(exported)  # export | import into the same mind changes nothing
    assert (report.new, report.changed, report.unchanged) == (0, 0, 4), report


def test_a_restated_older_node_that_leaves_out_a_defaulted_field_is_taken_and_keeps_it(mind, tmp_path):
    """The docs' restated older node gives its description, outcome and invalid_at, not its
    kind: the model's default ("move") is no other kind than the stored "strategy" (it was
    refused), and the stored kind stays (it was reset)."""
    _dreamed(mind, TELLINGS, kind="strategy")
    first_id, first_text = TELLINGS[0]
    rows = [
        node("Experience", first_id, description=first_text, outcome="success", invalid_at=NEW_RULE["valid_from"]),
        *_replacing("rule-80", NEW_RULE, [first_id]),
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "restated.jsonl", rows))
    stored = mind.store.read("memory/get_node", mind=mind.name, id=first_id)[0]["props"]
    assert stored["kind"] == "strategy" and "invalid_at" in stored, stored
    assert _pattern(mind).get("stale_since") is not None


def test_an_experience_only_a_pruned_pattern_holds_may_be_updated(mind, tmp_path):
    """A pruned pattern states nothing the mind holds: its experiences are no longer guarded."""
    _dreamed(mind, TELLINGS)
    pattern_id = mind.store.read("dream/list_patterns", mind=mind.name)[0]["id"]
    first_id, first_text = TELLINGS[0]
    rows = [node("Pattern", pattern_id, name="closing the dome", description="d", status="pruned")]
    mind.import_jsonl(write_jsonl(tmp_path / "pruned.jsonl", rows))
    changed = [node("Experience", first_id, description=first_text + " (checked twice)", outcome="success")]
    report = mind.import_jsonl(write_jsonl(tmp_path / "changed.jsonl", changed))
    assert report.changed == 1, report


def test_a_restated_older_node_neo4j_refuses_leaves_its_pattern_as_it_was(mind, tmp_path, monkeypatch):
    """The line that restates the older node with its ``invalid_at`` is refused by the server
    (here an empty property name, let through validation): nothing of it is written, so the
    pattern built on that node is not marked stale either."""
    monkeypatch.setattr("graphmind.io.jsonl.check_property_name", lambda name: None)
    monkeypatch.setattr("graphmind.models.base.check_property_name", lambda name: None)
    _dreamed(mind, TELLINGS)
    ident, text = TELLINGS[0]
    restated = node("Experience", ident, description=text, outcome="success", invalid_at=NEW_RULE["valid_from"])
    restated["properties"][""] = "no name"
    report = mind.import_jsonl(write_jsonl(tmp_path / "refused.jsonl", [restated]), strict=False)
    assert report.skipped == 1 and "Neo4j refused it" in report.invalid[0].message, report
    assert _pattern(mind).get("stale_since") is None and mind.get(ident).invalid_at is None
