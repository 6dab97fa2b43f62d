"""graphmind forget on the real Neo4j: what goes, what the cascade removes or flags, where a
verbatim copy is cut out, the ForgetRun, all-or-nothing on a bad id, and tenancy.

The graph is written by the import, with the provenance edges the engines write (EXEMPLIFIES,
SUBSUMES, EVIDENCED_BY, REFERS_TO, CITES, FOUND, MERGED_INTO), so each rule is tested apart."""

from __future__ import annotations

import json

import pytest

from graphmind.errors import NotFoundError
from tests.integration.helpers import edge, graph_snapshot, node, run_cli, write_jsonl

MARKER = "zorblax-quince"
SECRET = f"Felix saw the {MARKER} ledger race at midnight and never told the team about it"
NOTE = "Moved the ledger lock out of the settlement batch, race gone for now"
OTHER = "The retry budget was set per call after the outage of the settlement service"


def _graph() -> list[dict]:
    exp = [
        node("Experience", "e1", description=SECRET, outcome="failure"),
        *(node("Experience", f"e{i}", description=f"{OTHER} (case {i})", outcome="success") for i in (2, 3, 4)),
    ]
    return [
        *exp,
        node("Pattern", "p1", description="Retries need a budget per call", name="per-call budget"),
        node("Pattern", "p2", description="Locks hide races", name="lock races", verification_status="verified"),
        node("Abstraction", "a1", level=2, name="budgets"),
        node("Abstraction", "a2", level=2, name="races and budgets", verification_status="verified"),
        node("Abstraction", "a3", level=3, name="resource limits"),
        node("Crystal", "c1", insight="Two experiences agree on budgets"),
        node("Crystal", "c2", insight=f"As one memory said: '{SECRET}'. Budgets matter."),
        node("Finding", "f1", summary="The ledger race was seen once"),
        node("Finding", "f2", summary=f"Quoted: {SECRET}"),
        node(
            "RuminationRun",
            "r1",
            message="what went wrong with the ledger?",
            context_markdown=f"## Failures\n- {SECRET[:50]}…\n## Other\n- {OTHER}",
            trace=json.dumps([{"found": SECRET}]),
        ),
        node("Thread", "t1", title="ledger", progress_notes=[NOTE, "checked the ledger locks"]),
        node("Thread", "t2", title="budgets", progress_notes=["set budgets per call"]),
        node(
            "Thread",
            "t3",
            title="ledger and budgets",
            progress_notes=[NOTE, "checked the ledger locks", "set budgets per call"],
        ),
        node("Locus", "l1", concept=SECRET, source_type="MEMORY"),
        node("Technical_Context", "k1", component="ledger", description="The ledger service"),
        node("Residue", "rw", session_id="w1", connection="a walk past the ledger"),
        node("WarmMemory", "wm1", session_id="w1", cluster_type="summary", content="Felix, midnight, the ledger"),
        edge("DRAWS_ON", "rw", "e1"),
        *(edge("EXEMPLIFIES", e, "p1") for e in ("e1", "e2", "e3")),
        *(edge("EXEMPLIFIES", e, "p2") for e in ("e1", "e2", "e3", "e4")),
        edge("SUBSUMES", "a1", "p1"),
        edge("SUBSUMES", "a2", "p1"),
        edge("SUBSUMES", "a2", "p2"),
        edge("SUBSUMES", "a3", "a1"),
        *(edge("EVIDENCED_BY", "c1", e) for e in ("e1", "e2")),
        *(edge("EVIDENCED_BY", "c2", e) for e in ("e1", "e2", "e3")),
        edge("CITES", "f1", "e1"),
        edge("CITES", "f2", "e1"),
        edge("CITES", "f2", "e2"),
        edge("FOUND", "r1", "f1"),
        edge("FOUND", "r1", "f2"),
        edge("MERGED_INTO", "t1", "t3"),
        edge("MERGED_INTO", "t2", "t3"),
        edge("REFERS_TO", "l1", "e1"),
        edge("ABOUT", "k1", "e1"),
    ]


@pytest.fixture
def built(mind, tmp_path):
    mind.import_jsonl(write_jsonl(tmp_path / "g.jsonl", _graph()))
    return mind


def _ids(mind) -> set[str]:
    return {json.loads(line)["id"] for line in mind.export_jsonl() if json.loads(line)["type"] == "node"}


def _export(mind) -> str:
    return "\n".join(mind.export_jsonl())


def test_a_dry_run_lists_what_is_derived_and_writes_nothing(built):
    before = graph_snapshot(built)
    report = built.forget(["e1"], cascade=True, dry_run=True)
    assert graph_snapshot(built) == before
    assert report.run_id is None and [m.id for m in report.forgotten] == ["e1"]
    actions = {d.id: d.action for d in report.derived}
    assert actions == {
        "p1": "remove",
        "p2": "unverify",
        "a1": "remove",
        "a2": "unverify",
        "a3": "remove",
        "c1": "remove",
        "c2": "keep",
        "f1": "remove",
        "f2": "keep",
        "r1": "keep",
        "l1": "remove",
        "rw": "keep",
    }
    p1 = next(d for d in report.derived if d.id == "p1")
    assert (p1.via, p1.support_before, p1.support_after) == (["EXEMPLIFIES"], 3, 2)
    edges = {(e.source, e.type, e.target) for e in report.edges}
    assert ("e1", "EXEMPLIFIES", "p1") in edges and ("k1", "ABOUT", "e1") in edges
    assert {e.provenance for e in report.edges if e.type == "ABOUT"} == {False}
    assert {(s.id, s.property) for s in report.scrubbed} >= {("c2", "insight"), ("f2", "summary"), ("r1", "trace")}
    assert MARKER not in report.model_dump_json()


def test_cascade_removes_what_lost_its_support_and_scrubs_copies(built):
    report = built.forget(["e1"], cascade=True)
    left = _ids(built)
    assert not {"e1", "p1", "a1", "a3", "c1", "f1", "l1"} & left
    assert {"e2", "e3", "e4", "p2", "a2", "c2", "f2", "r1", "t1", "t2", "t3", "k1"} <= left
    text = _export(built)
    assert MARKER not in text and SECRET[:20] not in text
    lines = {json.loads(x)["id"]: json.loads(x) for x in built.export_jsonl() if json.loads(x)["type"] == "node"}
    assert lines["p2"]["properties"]["verification_status"] == "unverified"
    assert lines["a2"]["properties"]["verification_status"] == "unverified"
    assert lines["c2"]["properties"]["insight"] == "As one memory said: '[forgotten]'. Budgets matter."
    assert OTHER in lines["r1"]["properties"]["context_markdown"]  # the rest of the Context Object stays
    assert lines["wm1"]["properties"]["content"] == "[forgotten], [forgotten], the ledger"  # warm memory of the walk
    run = lines[report.run_id]
    assert run["label"] == "ForgetRun"
    assert run["properties"]["forgotten"] == ["e1"] and run["properties"]["cascade"] is True
    assert sorted(run["properties"]["removed"]) == ["a1", "a3", "c1", "f1", "l1", "p1"]
    assert sorted(run["properties"]["unverified"]) == ["a2", "p2"]


def test_a_merged_thread_loses_the_notes_of_a_forgotten_thread_and_goes_with_both(built):
    report = built.forget(["t1"], cascade=True)
    assert [(d.id, d.action, d.via) for d in report.derived] == [("t3", "keep", ["MERGED_INTO"])]
    t3 = next(json.loads(x) for x in built.export_jsonl() if json.loads(x).get("id") == "t3")
    assert t3["properties"]["progress_notes"] == ["set budgets per call"]  # both of t1's notes went
    assert NOTE not in _export(built)
    report = built.forget(["t2"], cascade=True)
    assert [(d.id, d.action) for d in report.derived] == [("t3", "remove")]
    assert "t3" not in _ids(built)


def test_without_cascade_derived_nodes_stay_and_lose_their_edges(built):
    report = built.forget(["e1"])
    assert {d.action for d in report.derived} == {"keep"}
    left = _ids(built)
    assert "e1" not in left and {"p1", "a1", "a3", "c1", "f1", "l1"} <= left
    text = _export(built)
    assert MARKER not in text  # copies are cut out with or without the cascade
    assert '"from": "e1"' not in text and '"to": "e1"' not in text


def test_the_cascade_assertions_fail_when_the_cascade_is_skipped(built):
    """The key check of the cascade test, run on a forget without the cascade: it must fail."""
    built.forget(["e1"], cascade=False)
    with pytest.raises(AssertionError):
        assert not {"p1", "a1", "a3", "c1", "f1", "l1"} & _ids(built)


def test_an_unknown_id_forgets_nothing(built, other_mind, tmp_path):
    before = graph_snapshot(built)
    with pytest.raises(NotFoundError, match="nothing was forgotten"):
        built.forget(["e1", "no-such-memory"], cascade=True)
    assert graph_snapshot(built) == before
    other_mind.import_jsonl(
        write_jsonl(tmp_path / "o.jsonl", [node("Experience", "x9", description="x", outcome="success")])
    )
    with pytest.raises(NotFoundError):  # another mind's id is unknown here
        built.forget(["x9"])
    with pytest.raises(NotFoundError):  # an id that could never be stored (not UTF-8)
        built.forget(["\ud800"])
    assert "x9" in _ids(other_mind) and graph_snapshot(built) == before


def test_the_cli_forgets_with_json_and_refuses_a_bad_id(built, cli_env, capsys):
    before = graph_snapshot(built)
    code, out, err = run_cli(capsys, "forget", "e1", "nope", "--mind", built.name, "--cascade")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "'nope'" in err
    assert graph_snapshot(built) == before
    code, out, err = run_cli(capsys, "forget", "e1", "--mind", built.name, "--dry-run")
    assert code == 0 and out.startswith("would forget 1 memory") and graph_snapshot(built) == before
    code, out, err = run_cli(capsys, "forget", "e1", "--mind", built.name, "--cascade", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["counts"]["removed"] == 6 and payload["run_id"].startswith("forget-")
    assert MARKER not in out and "e1" not in _ids(built)


def test_rest_forget_needs_the_write_scope_and_is_all_or_nothing(built, store, settings):
    from fastapi.testclient import TestClient

    from graphmind.server.app import create_app
    from graphmind.server.keys import create_key

    _, reader = create_key(store, built.name, "read")
    _, writer = create_key(store, built.name, "write")
    path = f"/api/v1/minds/{built.name}/forget"
    before = graph_snapshot(built)
    with TestClient(create_app(settings, store)) as api:
        assert api.post(path, headers={"Authorization": f"Bearer {reader}"}, json={"ids": ["e1"]}).status_code == 403
        answer = api.post(path, headers={"Authorization": f"Bearer {writer}"}, json={"ids": ["e1", "nope"]})
        assert answer.status_code == 404 and "'nope'" in answer.json()["detail"]
        answer = api.post(path, headers={"Authorization": f"Bearer {writer}"}, json={"ids": ["e1"], "dry_run": True})
        assert answer.status_code == 200 and answer.json()["run_id"] is None
        assert graph_snapshot(built) == before
        body = {"ids": ["e1"], "cascade": True}
        answer = api.post(path, headers={"Authorization": f"Bearer {writer}"}, json=body)
    assert answer.status_code == 200 and answer.json()["counts"]["removed"] == 6
    assert "e1" not in _ids(built) and MARKER not in _export(built)


def test_the_mcp_forget_tool_over_stdio_forgets_and_refuses_an_unknown_id(built, cli_env):
    import os
    import sys

    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "graphmind.cli", "mcp", "--mind", built.name], env={**os.environ, **cli_env}
    )
    before = graph_snapshot(built)

    async def calls() -> list:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            refused = await session.call_tool("forget", {"ids": ["e1", "nope"], "cascade": True})
            unchanged = graph_snapshot(built)
            done = await session.call_tool("forget", {"ids": ["e1"], "cascade": True})
            return [refused, unchanged, done]

    refused, unchanged, done = anyio.run(calls)
    assert refused.is_error and "nothing was forgotten" in refused.content[0].text and unchanged == before
    assert not done.is_error and json.loads(done.content[0].text)["counts"]["removed"] == 6
    assert "e1" not in _ids(built) and "p1" not in _ids(built) and MARKER not in _export(built)


def test_a_running_dream_holds_the_mind_and_forget_waits_for_it(built):
    from graphmind.dream.engine import DreamBusyError
    from graphmind.dream.graph import give_lease, take_lease

    before = graph_snapshot(built)
    assert take_lease(built.store, built.name, "dream-test", 60).acquired
    try:
        with pytest.raises(DreamBusyError, match="dream-test"):
            built.forget(["e1"], cascade=True)
        assert graph_snapshot(built) == before
        assert built.forget(["e1"], dry_run=True).dry_run  # a dry run writes nothing: it needs no lease
    finally:
        give_lease(built.store, built.name, "dream-test")
    built.forget(["e1"])
    assert take_lease(built.store, built.name, "dream-after", 60).acquired  # forget gave it back
    give_lease(built.store, built.name, "dream-after")


def test_forgetting_turns_closes_the_gap_in_the_conversation(mind):
    turns = [
        {"id": f"t{i}", "speaker": "Ann" if i % 2 else "Bo", "text": f"turn number {i} about kites"} for i in range(5)
    ]
    mind.add_conversation("s1", turns, started_at="2025-03-01T10:00:00Z")
    mind.forget(["t1", "t2"])
    lines = [json.loads(x) for x in mind.export_jsonl()]
    nexts = sorted((e["from"], e["to"]) for e in lines if e["type"] == "edge" and e["rel"] == "NEXT")
    assert nexts == [("t0", "t3"), ("t3", "t4")]
    session = next(x for x in lines if x.get("label") == "Session")
    assert session["properties"]["turn_count"] == 3


def test_a_mind_that_forgot_exports_and_imports_with_its_forget_run(built, other_mind, tmp_path):
    built.forget(["e1"], cascade=True)
    path = tmp_path / "out.jsonl"
    path.write_text("".join(line + "\n" for line in built.export_jsonl()))
    other_mind.import_jsonl(path)
    assert graph_snapshot(other_mind) == graph_snapshot(built)


def test_a_word_too_long_for_the_full_text_index_is_forgotten_and_cut_from_copies(mind, tmp_path):
    """A 300,000-character word is over a thousand Lucene clauses as one query (a 500 before):
    it is taken as distinctive without asking the index, and cut from what quoted it."""
    word = "q7" * 150_000
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "long.jsonl",
            [
                node("Experience", "eL", description=f"Felix pasted {word} into the channel", outcome="failure"),
                node("Experience", "eO", description=OTHER, outcome="success"),
                node("Finding", "fL", summary=f"Quoted {word} beside the retry budget"),
                edge("CITES", "fL", "eL"),
                edge("CITES", "fL", "eO"),
            ],
        )
    )
    report = mind.forget(["eL"], cascade=True)
    assert [m.id for m in report.forgotten] == ["eL"]
    text = _export(mind)
    assert word[:300] not in text
    finding = next(json.loads(x) for x in mind.export_jsonl() if json.loads(x)["id"] == "fL")
    assert finding["properties"]["summary"].endswith("beside the retry budget")


def test_forgetting_a_pattern_releases_its_experiences_for_the_next_dream(mind, cli_env, capsys):
    """A pattern a user finds wrong is forgotten; its experiences were consumed by the dream
    that made it, and would otherwise lie in no pattern for good (a new user's trial): they are
    released, listed, and the next dream consolidates them again."""
    from tests.integration.test_dream import DEGAS, GUARD

    rows = [{"id": f"x{i}", "description": t, "outcome": "success"} for i, t in enumerate(DEGAS + GUARD)]
    mind.capture_many(rows)
    assert mind.dream().patterns == 2
    members = {r["id"]: r["pattern"] for r in mind.store.read("dream/list_memberships", mind=mind.name)}
    doomed = members["x0"]
    held = sorted(i for i, p in members.items() if p == doomed)
    code, out, err = run_cli(capsys, "forget", doomed, "--mind", mind.name, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["released"] == held and report["counts"]["released"] == len(held)
    assert mind.store.read("dream/count_unconsumed", mind=mind.name, session=None)[0]["unconsumed"] == len(held)
    again = mind.dream()
    assert again.status != "nothing_to_consolidate"
    after = {r["id"]: r["pattern"] for r in mind.store.read("dream/list_memberships", mind=mind.name)}
    assert all(after.get(i) for i in held), after  # in a pattern again, not lost


def test_an_experience_of_a_pattern_that_stays_is_not_released(built):
    report = built.forget(["p1"])
    assert report.released == []  # e1-e3 exemplify p2 too
    assert built.forget(["p2"]).released == ["e1", "e2", "e3", "e4"]
