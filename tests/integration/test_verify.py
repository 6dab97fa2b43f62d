"""``Mind.verify()`` and ``graphmind verify`` on the real Neo4j: an imported hierarchy that is
true, one with a quarter of its edges moved, a cycle, a level-skipping edge, no ladder at all,
an unknown mind; and a dream's verification, which is the same code."""

from __future__ import annotations

import json
from pathlib import Path

from graphmind.dream import DreamParams
from graphmind.errors import RunError
from graphmind.mind import Mind
from tests.fixtures.hierarchies import Hierarchy, corrupt, households, recall_precision
from tests.integration.helpers import experiences, run_cli


def ladder_lines(h: Hierarchy) -> list[dict]:
    """The hierarchy as import lines: level 1 as grounded Patterns, the rest as Abstractions."""
    lines = []
    for node, name in sorted(h.names.items()):
        if h.level[node] == 1:
            lines.append(
                {
                    "type": "node",
                    "label": "Pattern",
                    "id": node,
                    "properties": {"name": name, "description": name, "success_count": 3},
                }
            )
        else:
            lines.append(
                {
                    "type": "node",
                    "label": "Abstraction",
                    "id": node,
                    "properties": {"name": name, "level": h.level[node]},
                }
            )
    lines += [
        {"type": "edge", "rel": "SUBSUMES", "from": p, "to": c, "properties": {}} for c, p in sorted(h.parent.items())
    ]
    return lines


def load(mind: Mind, lines: list[dict], tmp_path: Path) -> None:
    path = tmp_path / f"{mind.name}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    mind.import_jsonl(path)


def edges(result) -> set[tuple[str, str]]:
    return {(f.parent, f.child) for f in result.flagged if f.check == "vertical_consistency"}


def test_an_imported_true_hierarchy_passes_and_its_moved_edges_are_flagged(mind, other_mind, tmp_path):
    h = households()
    load(mind, ladder_lines(h), tmp_path)
    result = mind.verify()
    assert result.status in {"verified", "flagged"} and len(edges(result)) <= 0.05 * len(h.edges)
    bad, moved = corrupt(h, 0.25, seed=1)
    load(other_mind, ladder_lines(bad), tmp_path)
    result = other_mind.verify()
    recall, precision = recall_precision(edges(result), moved)
    assert result.status == "failed" and recall >= 0.8 and precision >= 0.8


def test_a_cycle_and_a_level_skipping_edge_are_reported(mind, tmp_path):
    lines = ladder_lines(households())
    lines += [
        {"type": "edge", "rel": "SUBSUMES", "from": "h0.0", "to": "h0", "properties": {}},
        {"type": "edge", "rel": "SUBSUMES", "from": "h1", "to": "h1.0.0", "properties": {}},
    ]
    load(mind, lines, tmp_path)
    result = mind.verify()
    reasons = {(f.parent, f.child): f.reason for f in result.flagged}
    assert result.status == "failed"
    assert "from level 2 to level 3" in reasons[("h0.0", "h0")]
    assert "from level 3 to level 1" in reasons[("h1", "h1.0.0")]
    assert any(r.startswith("cycle of SUBSUMES edges") for r in reasons.values())


def test_cli_verify_reports_json_and_exit_codes(cli_env, cli_mind, store, settings, capsys, tmp_path):
    code, _, err = run_cli(capsys, "verify", "--mind", cli_mind)
    assert code == 2 and "does not exist" in err
    m = Mind(cli_mind, store, settings)
    m.capture_many(experiences(1))
    m.flush()
    code, out, _ = run_cli(capsys, "verify", "--mind", cli_mind, "--json")
    assert code == 0 and json.loads(out)["status"] == "empty"
    bad, _ = corrupt(households(), 0.25, seed=0)
    load(m, ladder_lines(bad), tmp_path)
    code, out, _ = run_cli(capsys, "verify", "--mind", cli_mind, "--json")
    payload = json.loads(out)
    assert code == 1 and payload["status"] == "failed" and payload["mind"] == cli_mind
    assert set(payload["checks"]) == {
        "vertical_consistency",
        "horizontal_coherence",
        "groundedness",
        "non_contradiction",
        "utility_threshold",
    }
    assert payload["checks"]["vertical_consistency"]["status"] == "failed"
    first = payload["flagged"][0]
    assert {"check", "parent", "child", "reason", "parent_name", "child_name"} == set(first)
    code, out, _ = run_cli(capsys, "verify", "--mind", cli_mind)
    assert code == 1 and "flagged vertical_consistency" in out
    named = [x for x in (first["parent_name"], first["child_name"]) if x]
    assert named and all(f'("{x[:39]}' in out for x in named), out  # a flag names its nodes, not only their ids


def test_a_dreams_ladder_verifies_with_the_same_checks(mind):
    mind.capture_many(experiences())
    report = mind.dream()
    stored = mind.verify()
    assert report.verification["status"] == stored.status
    assert report.verification["flagged"] == stored.as_dict()["flagged"]


def test_strict_mode_aborts_a_run_whose_verification_fails(mind, monkeypatch):
    from graphmind.dream import verify as checks

    real = checks.verify

    def failing(*args, **kwargs):
        result = real(*args, **kwargs)
        return checks.Verification("failed", result.score, result.checks)

    monkeypatch.setattr(checks, "verify", failing)
    mind.capture_many(experiences())
    try:
        mind.dream(DreamParams(strict_mode=True))
    except RunError as exc:
        assert "verification failed under strict_mode" in str(exc)
    else:
        raise AssertionError("a failed verification under strict_mode must abort the run")
    assert mind.stats().labels.get("Pattern", 0) == 0
    report = mind.dream()  # warn-and-store: the same failure is stored, unverified
    assert report.verification["status"] == "failed" and report.patterns == 3
    assert {mind.get(p["id"]).verification_status for p in report.new_patterns} == {"unverified"}


def test_imported_patterns_are_grounded_by_the_experiences_that_exemplify_them(mind, tmp_path):
    """No outcome counts on an imported pattern: its EXEMPLIFIES edges ground it, and a pattern
    without any stays ungrounded."""
    lines = [
        {"type": "node", "label": "Abstraction", "id": "a-care", "properties": {"name": "Patient care", "level": 2}},
        *(
            {"type": "node", "label": "Pattern", "id": pid, "properties": {"name": name, "description": name}}
            for pid, name in (("p-fluids", "subcutaneous fluids"), ("p-splint", "splinting a fracture"))
        ),
        *(
            {"type": "edge", "rel": "SUBSUMES", "from": "a-care", "to": p, "properties": {}}
            for p in ("p-fluids", "p-splint")
        ),
    ]
    for k in range(3):
        lines.append(
            {
                "type": "node",
                "label": "Experience",
                "id": f"e-fluids-{k}",
                "properties": {"description": f"gave subcutaneous fluids to dehydrated cat {k}", "outcome": "success"},
            }
        )
        lines.append(
            {"type": "edge", "rel": "EXEMPLIFIES", "from": f"e-fluids-{k}", "to": "p-fluids", "properties": {}}
        )
    load(mind, lines, tmp_path)
    ungrounded = {f.child for f in mind.verify().flagged if f.check == "groundedness"}
    assert ungrounded == {"p-splint"}  # a-care still reaches experiences through p-fluids
    counted = {m.id: m.usage_count for m in mind.query_knowledge("subcutaneous fluids for a dehydrated cat", k=2)}
    assert counted.get("p-fluids") == 3  # no usage_count imported: its experiences are counted


def test_the_ladder_a_mind_holds_is_shown_by_the_cli_and_the_api(mind, cli_env, capsys):
    """``graphmind ladder`` / ``Mind.ladder``: the stored ladder, top down to the patterns; a
    mind with patterns but no dream's ladder yet says so."""
    mind.capture_many(experiences())
    code, out, _ = run_cli(capsys, "ladder", "--mind", mind.name)
    assert code == 0 and "no abstraction ladder yet" in out and not mind.ladder().ladder  # not dreamed yet
    mind.dream()
    held = mind.ladder()
    assert held.levels >= 3 and held.ladder and held.pattern_names
    code, out, _ = run_cli(capsys, "ladder", "--mind", mind.name)
    lines = out.splitlines()
    top = max(e.level for e in held.ladder)
    assert (
        code == 0
        and lines[0] == f"mind {mind.name!r}: {held.levels}-level ladder"
        and lines[1].startswith(f"  L{top} ")
    )
    assert all(f"L1 {name}" in out for name in held.pattern_names.values())
    code, out, _ = run_cli(capsys, "ladder", "--mind", mind.name, "--json")
    assert code == 0 and json.loads(out)["pattern_names"] == held.pattern_names
