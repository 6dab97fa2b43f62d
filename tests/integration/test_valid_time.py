"""Facts valid in time on the real Neo4j (issue 26, item 3): a capture that supersedes an older
memory marks it invalid_at (never deletes it), recall prefers the valid fact, recall as of a
date sees the mind as it was then, and export round-trips the window."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest

from graphmind.errors import NotFoundError, ValidationError

from .helpers import graph_snapshot, node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

OLD = "The release train leaves on Tuesday mornings from the staging branch."
NEW = "Releases moved: the train now leaves on Thursday."
QUERY = "release train leaves on Tuesday mornings from the staging branch"
"""Worded like the old fact, so plain relevance ranks it first: only the preference for valid
facts puts the new one above it."""


def _props(mind, node_id: str) -> dict:
    return mind.store.read("memory/get_node", mind=mind.name, id=node_id)[0]["props"]


def _ids(result) -> list[str]:
    return [hit.id for hit in result.hits]


def _capture_a_then_b(mind) -> datetime:
    """Capture the old fact, then the new one superseding it; the moment in between."""
    mind.capture({"id": "fact-old", "description": OLD, "outcome": "success"}, wait=True)
    time.sleep(0.05)
    between = datetime.now(UTC)
    time.sleep(0.05)
    mind.capture({"id": "fact-new", "description": NEW, "outcome": "success"}, supersedes=["fact-old"])
    return between


def test_a_superseded_fact_is_kept_ranked_below_and_seen_as_of_before(mind):
    before_all = datetime.now(UTC)
    time.sleep(0.05)
    between = _capture_a_then_b(mind)
    old, new = _props(mind, "fact-old"), _props(mind, "fact-new")
    assert old["description"] == OLD  # kept, never deleted
    assert between < old["invalid_at"] == new["timestamp"]  # invalid from when the new one holds
    assert "invalid_at" not in new

    default = _ids(mind.recall(QUERY, k=5))
    assert default.index("fact-new") < default.index("fact-old")  # the valid fact first
    hits = {hit.id: hit for hit in mind.recall(QUERY, k=5).hits}
    assert hits["fact-old"].why()["outdated"].startswith("not valid since ")  # why it ranks below
    assert "outdated" not in hits["fact-new"].why()
    said = mind.ask("When does the release train leave?").output
    assert said.cited_ids == ["fact-new", "fact-old"]  # the valid fact first; the outdated one says so
    assert "[fact-old] (outdated: not valid since " in said.answer and "[fact-new] (outdated" not in said.answer
    then = _ids(mind.recall(QUERY, k=5, as_of=between))
    assert "fact-old" in then and "fact-new" not in then  # fails when as_of is ignored
    assert _ids(mind.recall(QUERY, k=5, as_of=before_all)) == []
    now = _ids(mind.recall(QUERY, k=5, as_of=datetime.now(UTC)))
    assert "fact-new" in now and "fact-old" not in now


KESTREL = [
    "Kestrel sent their glossary of brake terms, a word list of 300 entries",
    "Kestrel's project manager prefers email to calls",
    "Kestrel asked for the manuals per chapter, not per word count",
    "Kestrel's invoices go to their Munich office",
    "Kestrel wants British spelling in every manual",
    "Kestrel rejected the word 'clutch plate' in favour of 'friction disc'",
    "Kestrel pays within 30 days of the invoice",
]


def test_what_replaced_an_outdated_hit_is_recalled_beside_it_however_it_is_worded(mind, tmp_path):
    """The replacement shares little with the query and ranks far down on its own: recall
    brings it in, or moves it up, to where the outdated hit would rank (through a chain of
    replacements), the outdated hit beside it; never of a label not asked for."""
    old = {"id": "rate-1", "description": "Kestrel's rate per word is 0.14 EUR", "outcome": "success"}
    mind.capture(old, wait=True)
    mind.capture_many([{"id": f"k-{n}", "description": t, "outcome": "success"} for n, t in enumerate(KESTREL)])
    new = "From now on the Kestrel Automotive deal stands at thirteen point eight cents"
    mind.capture({"id": "rate-2", "description": new, "outcome": "success"}, supersedes=["rate-1"])
    alone = _ids(mind.recall(new, k=20))
    assert alone.index("rate-2") == 0  # found by its own words, it is there to be brought in
    ids = _ids(mind.recall("Kestrel rate per word", k=5))
    assert len(ids) == 5 and "rate-2" in ids and ids.index("rate-2") < ids.index("rate-1"), ids
    hit = next(h for h in mind.recall("Kestrel rate per word", k=5).hits if h.id == "rate-2")
    assert hit.why()["graph"] == ["replaces rate-1"] and hit.outdated is None
    said = mind.ask("Kestrel rate per word?").output
    assert said.cited_ids[0] == "rate-2", said  # what holds now answers, before the outdated rate
    assert "rate-2" not in _ids(mind.recall("Kestrel rate per word", k=5, as_of=_props(mind, "rate-1")["timestamp"]))

    newer = "Kestrel now pays fifteen cents, signed in the spring contract"
    mind.capture({"id": "rate-3", "description": newer, "outcome": "success"}, supersedes=["rate-2"])
    hits = mind.recall("Kestrel rate per word", k=5).hits
    valid = [h.id for h in hits if h.outdated is None]
    assert "rate-3" in valid and "rate-2" not in valid, [(h.id, h.outdated) for h in hits]  # the chain's head

    mind.import_jsonl(
        write_jsonl(
            tmp_path / "tc.jsonl",
            [node("Technical_Context", "tc-ledger", component="ledger", description="The ledger runs on Postgres 13")],
        )
    )
    mind.capture(
        {"id": "x-ledger", "description": "Moved the books service to a new engine", "outcome": "success"},
        supersedes=["tc-ledger"],
    )
    labelled = mind.recall("ledger Postgres database", k=5, labels=["Technical_Context"]).hits
    assert [h.label for h in labelled] == ["Technical_Context"], labelled  # the replacement is an Experience


def test_export_round_trips_the_window_and_the_supersedes_edge(mind, other_mind, tmp_path):
    _capture_a_then_b(mind)
    lines = [json.loads(line) for line in mind.export_jsonl()]
    old = next(x for x in lines if x.get("id") == "fact-old")
    assert "invalid_at" in old["properties"]
    assert any(x.get("rel") == "SUPERSEDES" and (x["from"], x["to"]) == ("fact-new", "fact-old") for x in lines)
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    other_mind.import_jsonl(path)
    assert graph_snapshot(other_mind) == graph_snapshot(mind)
    assert _props(other_mind, "fact-old")["invalid_at"] == _props(mind, "fact-old")["invalid_at"]


def test_an_imported_supersedes_edge_alone_marks_the_older_memory_as_a_capture_would(mind, other_mind, tmp_path):
    """A file that states the replacement only as an edge (no ``invalid_at`` on the older node)
    gets what ``capture --supersedes`` gives: the older memory no longer valid from when the
    newer one became valid; an ``invalid_at`` the file gives stays; a re-import marks nothing."""
    from .helpers import edge

    rows = [
        node("Experience", "call-old", description=OLD, outcome="success", created_at="2025-09-01T09:00:00+00:00"),
        node("Experience", "call-new", description=NEW, outcome="success", valid_from="2025-09-10T09:00:00+00:00"),
        node(
            "Experience",
            "kept-old",
            description="The get-in starts at 8",
            outcome="success",
            invalid_at="2025-09-03T00:00:00+00:00",
        ),
        node("Experience", "kept-new", description="The get-in starts at 9", outcome="success"),
        node("Experience", "dated-old", description="Doors open at 7", outcome="success"),
        node(
            "Experience",
            "dated-new",
            description="Doors open at 7.30",
            outcome="success",
            timestamp="2025-09-12T18:00:00+00:00",
        ),
        edge("SUPERSEDES", "call-new", "call-old"),
        edge("CONTRADICTS", "kept-new", "kept-old"),
        edge("SUPERSEDES", "dated-new", "dated-old"),
    ]
    report = mind.import_jsonl(write_jsonl(tmp_path / "edges.jsonl", rows))
    assert report.invalidated == 2 and report.as_dict()["invalidated"] == 2
    assert str(_props(mind, "call-old")["invalid_at"]).startswith("2025-09-10 09:00")
    assert str(_props(mind, "dated-old")["invalid_at"]).startswith("2025-09-12 18:00")  # the entry's time, as capture
    assert str(_props(mind, "kept-old")["invalid_at"]).startswith("2025-09-03")
    hits = mind.recall(OLD, k=4).hits
    assert next(h for h in hits if h.id == "call-old").outdated is not None
    assert mind.import_jsonl(write_jsonl(tmp_path / "edges.jsonl", rows)).invalidated == 0
    other_mind.import_jsonl(write_jsonl(tmp_path / "nodes.jsonl", rows[:6]))  # no edge: nothing marked
    assert "invalid_at" not in _props(other_mind, "call-old")

    untouched = [  # what a capture would not have made: replaces nothing
        node("Pattern", "pat-a", description="Rehearse the scene change twice"),
        node("Pattern", "pat-b", description="Never rehearse the scene change"),
        edge("CONTRADICTS", "pat-a", "pat-b"),  # the dream's verifier: a contradiction, not a verdict
        node("Experience", "both-1", description="Call is at 18:00", outcome="success"),
        node("Experience", "both-2", description="Call is at 18:30", outcome="success"),
        edge("SUPERSEDES", "both-1", "both-2"),
        edge("SUPERSEDES", "both-2", "both-1"),  # which one holds is not stated
        node("Experience", "self", description="The dock is on a slope", outcome="success"),
        edge("SUPERSEDES", "self", "self"),
    ]
    assert other_mind.import_jsonl(write_jsonl(tmp_path / "untouched.jsonl", untouched)).invalidated == 0
    for node_id in ("pat-b", "both-1", "both-2", "self"):
        assert "invalid_at" not in _props(other_mind, node_id), node_id


def test_an_unknown_older_id_writes_nothing(mind):
    mind.capture({"id": "fact-old", "description": OLD, "outcome": "success"}, wait=True)
    before = graph_snapshot(mind)
    with pytest.raises(NotFoundError, match="no older memory 'nope'"):
        mind.capture({"id": "fact-new", "description": NEW, "outcome": "success"}, supersedes=["fact-old", "nope"])
    with pytest.raises(ValidationError, match="list of memory ids"):
        mind.capture({"id": "fact-new", "description": NEW, "outcome": "success"}, contradicts=[""])
    assert graph_snapshot(mind) == before


def test_contradicting_a_pattern_invalidates_it(mind, tmp_path):
    path = tmp_path / "p.jsonl"
    row = {"type": "node", "label": "Pattern", "id": "pat-1", "properties": {"description": OLD}}
    path.write_text(json.dumps(row) + "\n")
    mind.import_jsonl(path)
    mind.capture({"id": "fact-new", "description": NEW, "outcome": "failure"}, contradicts=["pat-1"])
    pattern = _props(mind, "pat-1")
    assert pattern["verification_status"] == "invalidated" and pattern["invalid_at"] is not None
    rels = [json.loads(x) for x in mind.export_jsonl() if '"edge"' in x]
    assert [(r["rel"], r["from"], r["to"]) for r in rels] == [("CONTRADICTS", "fact-new", "pat-1")]


def test_cli_recall_as_of_and_a_bad_date(mind, cli_env, capsys):
    between = _capture_a_then_b(mind)
    code, out, err = run_cli(capsys, "recall", QUERY, "--mind", mind.name, "--as-of", between.isoformat(), "--json")
    assert code == 0, err
    ids = [hit["id"] for hit in json.loads(out)["hits"]]
    assert "fact-old" in ids and "fact-new" not in ids
    code, out, err = run_cli(capsys, "recall", QUERY, "--mind", mind.name, "--json")
    ids = [hit["id"] for hit in json.loads(out)["hits"]]
    assert code == 0 and ids.index("fact-new") < ids.index("fact-old")
    code, out, err = run_cli(capsys, "recall", QUERY, "--mind", mind.name, "--as-of", "last tuesday")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "as_of must be an ISO-8601 date" in err and "Traceback" not in err


def test_a_fact_captured_later_with_its_valid_from_is_seen_as_of_that_date(mind, cli_env, capsys):
    """A new user back-filling a log gave each capture --valid-from; recall --as-of those dates
    found nothing, as the memories were recorded later. A memory counts from its valid_from."""
    args = ("capture", "C rings are out of stock", "--mind", mind.name, "--outcome", "progress")
    assert run_cli(capsys, *args, "--valid-from", "2025-09-12", "--json")[0] == 0
    plain = ("capture", "Ring stock was counted", "--mind", mind.name, "--outcome", "success", "--json")
    assert run_cli(capsys, *plain)[0] == 0  # no valid_from: counts from today, when it was recorded
    code, out, err = run_cli(capsys, "recall", "ring stock", "--mind", mind.name, "--as-of", "2025-09-13", "--json")
    assert code == 0, err
    assert [hit["text"] for hit in json.loads(out)["hits"]] == ["C rings are out of stock"]
    code, out, _ = run_cli(capsys, "recall", "ring stock", "--mind", mind.name, "--as-of", "2025-09-11")
    assert code == 0 and "nothing recalled" in out and "without --valid-from" in out
    logged = ("capture", "Rings were reordered", "--mind", mind.name, "--outcome", "success")
    assert run_cli(capsys, *logged, "--timestamp", "2025-09-14T16:00:00Z")[0] == 0  # a log written later
    code, out, _ = run_cli(capsys, "recall", "rings reordered", "--mind", mind.name, "--as-of", "2025-09-15", "--json")
    assert "Rings were reordered" in [hit["text"] for hit in json.loads(out)["hits"]]
    code, _, err = run_cli(capsys, *logged, "--timestamp", "yesterday")
    assert code == 2 and err.count("\n") == 1 and "timestamp" in err


def _payment_experiences(verb: str, prefix: str, day: str, strategy: str) -> list[dict]:
    return [
        {
            "id": f"{prefix}{i}",
            "description": f"when the payment request {i} times out, {verb} the payment request",
            "outcome": "success",
            "strategy_used": strategy,
            "timestamp": f"{day}T0{i}:00:00Z",
        }
        for i in range(4)
    ]


def test_the_dream_supersedes_the_older_side_of_a_contradiction(mind):
    """Issue 20, item 4: retrying was the practice in 2025, never retrying since 2026: the
    horizontal check finds the contradiction and the older pattern is invalidated, not deleted."""
    mind.capture_many(_payment_experiences("retry", "r", "2025-01-10", "Retry"))
    mind.capture_many(_payment_experiences("never retry", "n", "2026-01-10", "Fail Fast"))
    report = mind.dream()
    assert report.contradictions == 1
    by_action = {mind.get(p["id"]).description: mind.get(p["id"]) for p in report.new_patterns}
    old = next(p for text, p in by_action.items() if "never" not in text)
    new = next(p for text, p in by_action.items() if "never" in text)
    assert old.verification_status == "invalidated" and old.status == "pruned"
    assert old.pruned_reason == "contradicted" and old.invalid_at == datetime(2026, 1, 10, tzinfo=UTC)
    assert new.verification_status != "invalidated" and new.invalid_at is None
    edges = {(r["rel"], r["from"], r["to"]) for r in map(json.loads, mind.export_jsonl()) if r["type"] == "edge"}
    assert ("SUPERSEDED_BY", old.id, new.id) in edges
    assert {("CONTRADICTS", old.id, new.id), ("CONTRADICTS", new.id, old.id)} & edges
    hits = [h.id for h in mind.recall("payment request times out retry", k=10, labels=["Pattern"]).hits]
    assert hits.index(new.id) < hits.index(old.id)
    assert mind.dream().status == "nothing_to_consolidate"  # settled: nothing left to flag


def test_cli_capture_supersedes_and_refuses_an_unknown_id(mind, cli_env, capsys):
    code, out, err = run_cli(capsys, "capture", OLD, "--mind", mind.name, "--outcome", "success", "--json")
    assert code == 0, err
    old = json.loads(out)["id"]
    assert json.loads(out)["new_mind"] is True  # the first memory: a typo would show here
    args = ("capture", NEW, "--mind", mind.name, "--outcome", "success", "--supersedes", old, "--json")
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    new = json.loads(out)["id"]
    assert json.loads(out)["new_mind"] is False
    assert _props(mind, old)["invalid_at"] == _props(mind, new)["timestamp"]
    before = graph_snapshot(mind)
    code, out, err = run_cli(
        capsys, "capture", NEW, "--mind", mind.name, "--outcome", "success", "--contradicts", "nope"
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and "no older memory 'nope'" in err
    assert graph_snapshot(mind) == before
    code, out, err = run_cli(capsys, "capture", " ", "--mind", mind.name, "--outcome", "success")
    assert code == 2 and out == "" and err.count("\n") == 1 and "must say something" in err
    assert graph_snapshot(mind) == before
    huge = "é" * 500_001  # 1,000,002 bytes in UTF-8: over GRAPHMIND_MAX_PROPERTY_BYTES, as import refuses it
    code, out, err = run_cli(capsys, "capture", huge, "--mind", mind.name, "--outcome", "success")
    assert code == 2 and err.count("\n") == 1 and "1,000,002 bytes; the limit is 1,000,000" in err
    with pytest.raises(ValidationError, match="GRAPHMIND_MAX_PROPERTY_BYTES"):
        mind.capture_many([{"description": "fine", "outcome": "success"}, {"description": huge, "outcome": "success"}])
    assert graph_snapshot(mind) == before
    named = ("capture", "Retried safely", "--mind", mind.name, "--outcome", "success", "--id", "job-7", "--json")
    code, out, err = run_cli(capsys, *named)
    assert code == 0 and json.loads(out)["id"] == "job-7" and json.loads(out)["created"] is True, err
    code, out, err = run_cli(capsys, *named)  # a retry stores nothing
    assert code == 0 and json.loads(out)["created"] is False, err
    code, out, err = run_cli(
        capsys, "capture", "Other words", "--mind", mind.name, "--outcome", "success", "--id", "job-7"
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and "job-7" in err, err
    assert mind.get("job-7").description == "Retried safely"
    replacing = ("capture", "Newer rule", "--mind", mind.name, "--outcome", "success", "--id", "job-8")
    code, out, err = run_cli(capsys, *replacing, "--supersedes", "job-7", "--json")
    assert code == 0 and json.loads(out)["created"] is True, err
    marked, kept = _props(mind, "job-7")["invalid_at"], _props(mind, "job-8")
    code, out, err = run_cli(capsys, *replacing, "--supersedes", "job-7", "--valid-from", "2021-05-05", "--json")
    assert code == 0 and json.loads(out)["created"] is False, err  # a retry: it rewrites nothing
    assert _props(mind, "job-8") == kept and _props(mind, "job-7")["invalid_at"] == marked


def test_rest_capture_supersedes_and_recall_as_of(store, settings, mind):
    from fastapi.testclient import TestClient

    from graphmind.server.app import create_app
    from graphmind.server.keys import create_key

    _, key = create_key(store, mind.name, "write")
    auth = {"Authorization": f"Bearer {key}"}
    base = f"/api/v1/minds/{mind.name}"
    with TestClient(create_app(settings, store)) as api:
        old = {"experience": {"id": "fact-old", "description": OLD, "outcome": "success"}}
        assert api.post(f"{base}/capture", json=old, headers=auth).status_code == 200
        time.sleep(0.05)
        between = datetime.now(UTC).isoformat()
        time.sleep(0.05)
        new = {"experience": {"id": "fact-new", "description": NEW, "outcome": "success"}, "supersedes": ["fact-old"]}
        assert api.post(f"{base}/capture", json=new, headers=auth).status_code == 200
        then = api.post(f"{base}/recall", json={"query": QUERY, "k": 5, "as_of": between}, headers=auth)
        assert then.status_code == 200
        assert [h["id"] for h in then.json()["hits"]] == ["fact-old"]
        bad = api.post(f"{base}/recall", json={"query": QUERY, "as_of": "last tuesday"}, headers=auth)
        assert bad.status_code == 422


def test_mcp_capture_supersedes_and_recall_as_of(mind):
    import anyio
    from mcp.client.client import Client

    from graphmind.server.mcp_server import build_server

    async def go() -> tuple[list[str], list[str]]:
        async with Client(build_server(mind)) as client:
            await client.call_tool("capture", {"description": OLD, "outcome": "success"})
            old = next(h["id"] for h in (await client.call_tool("recall", {"query": QUERY})).structured_content["hits"])
            await anyio.sleep(0.05)
            between = datetime.now(UTC).isoformat()
            await anyio.sleep(0.05)
            await client.call_tool("capture", {"description": NEW, "outcome": "success", "supersedes": [old]})
            now = await client.call_tool("recall", {"query": QUERY, "k": 5})
            then = await client.call_tool("recall", {"query": QUERY, "k": 5, "as_of": between})
            return [h["id"] for h in now.structured_content["hits"]], [h["id"] for h in then.structured_content["hits"]]

    now, then = anyio.run(go)
    assert len(now) == 2 and len(then) == 1 and now[1] == then[0]  # the old fact: last now, alone then


def test_a_retired_abstraction_ranks_after_the_active_one_and_says_why(mind, tmp_path):
    """A later dream rebuilt the ladder without it: kept, found, ranked after the valid ones."""
    from .helpers import node, write_jsonl

    text = "Yeast handling: pitch rates, starters and harvesting between batches"
    rows = [
        node("Abstraction", "abs-old", name="Yeast", generalization=text, level=2, status="retired"),
        node("Abstraction", "abs-new", name="Yeast care", generalization=text + " in the cellar", level=2),
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "ladder.jsonl", rows))
    hits = {hit.id: hit for hit in mind.recall("yeast handling pitch rates starters harvesting", k=5).hits}
    ids = list(hits)
    assert ids.index("abs-new") < ids.index("abs-old")
    assert hits["abs-old"].why()["outdated"].startswith("retired: a later dream") and not hits["abs-new"].outdated


def test_a_pattern_example_superseded_since_is_marked_in_knowledge(mind, cli_env, capsys):
    doses = [
        "Meloxicam for the cat at 0.05 mg/kg once daily after the spay, comfortable by evening",
        "Gave meloxicam 0.05 mg/kg once daily to the neutered cat, eating well next morning",
        "Cat post-op on meloxicam 0.05 mg/kg once daily, pain score down to 1",
        "Meloxicam once daily at 0.05 mg/kg for the cat after dental extractions, settled",
    ]
    mind.capture_many(
        [
            {"id": f"dose-{i}", "description": d, "outcome": "success", "strategy_used": "meloxicam for cats"}
            for i, d in enumerate(doses)
        ]
    )
    mind.dream()
    (match,) = mind.query_knowledge("meloxicam dose for a cat after surgery", k=1)
    first = match.examples[0]["id"]
    assert not any(e["outdated"] for e in match.examples)
    mind.capture(
        {"description": "Meloxicam for cats is now 0.025 mg/kg every other day (new protocol)", "outcome": "success"},
        supersedes=[first],
    )
    (match,) = mind.query_knowledge("meloxicam dose for a cat after surgery", k=1)
    marked = {e["id"]: e["outdated"] for e in match.examples}
    assert marked[first] is True and list(marked)[-1] == first  # marked, and after the valid ones
    code, out, err = run_cli(
        capsys, "knowledge", "meloxicam dose for a cat after surgery", "--mind", mind.name, "--json"
    )
    shown = json.loads(out)["patterns"][0]["examples"]
    assert code == 0 and shown[-1]["id"] == first and shown[-1]["outdated"] is True, err  # last: what holds first
    assert match.outdated is None  # one example of four is outdated: the pattern still holds
    assert "invalid_at" not in _props(mind, match.id)
    newer = {"id": "dose-new", "description": "Meloxicam for cats is now 0.025 mg/kg every day", "outcome": "success"}
    mind.capture(newer, supersedes=[f"dose-{i}" for i in range(len(doses)) if f"dose-{i}" != first])
    (match,) = mind.query_knowledge("meloxicam dose for a cat after surgery", k=1)
    assert match.outdated is not None and match.outdated.startswith("every example superseded since 20")
    code, out, err = run_cli(capsys, "knowledge", "meloxicam dose for a cat after surgery", "--mind", mind.name)
    assert code == 0 and "(outdated: every example superseded since" in out, err
    pattern = _props(mind, match.id)
    assert pattern["verification_status"] == "invalidated" and pattern["invalid_at"] is not None
    mind.dream()  # the newer joins the pattern, which is told again from what holds: it holds again
    again = _props(mind, match.id)
    assert "0.025" in again["description"] and "0.05 " not in again["description"], again
    assert again["verification_status"] == "verified" and "invalid_at" not in again, again
    mind.forget(["dose-new"])  # its three experiences are valid again, and so is the pattern
    assert "invalid_at" not in _props(mind, match.id) and _props(mind, match.id)["verification_status"] != "invalidated"


def test_a_pattern_whose_examples_were_all_superseded_holds_again_when_new_ones_join(mind):
    """Every experience superseded → invalidated; the technique told again, validly, and
    dreamt → the pattern holds again (no invalid_at, verified by the run)."""
    tellings = [
        "Re-homed the dome azimuth encoder after it lost count, slewed and it tracked the shutter",
        "Dome azimuth encoder re-homed at the index mark, position agreed with the telescope again",
        "Lost dome position: re-homed the azimuth encoder and the slit lined up on the next slew",
        "Re-homing the dome azimuth encoder fixed the offset between dome slit and telescope",
    ]
    strategy = "re-home the dome encoder"
    mind.capture_many(
        [
            {"id": f"home-{i}", "description": t, "outcome": "success", "strategy_used": strategy}
            for i, t in enumerate(tellings)
        ]
    )
    mind.dream()
    (match,) = mind.query_knowledge("re-homing the dome azimuth encoder", k=1)
    pattern_id = match.id
    mind.capture(
        {
            "id": "home-rule",
            "description": "The dome encoder is now homed by the controller itself",
            "outcome": "success",
        },
        supersedes=[f"home-{i}" for i in range(len(tellings))],
    )
    assert _props(mind, pattern_id)["verification_status"] == "invalidated"
    mind.capture_many(
        [
            {
                "id": f"again-{i}",
                "description": t.replace("Re-homed", "Once more re-homed"),
                "outcome": "success",
                "strategy_used": strategy,
            }
            for i, t in enumerate(tellings[:2])
        ]
    )
    mind.dream()
    props = _props(mind, pattern_id)
    assert "invalid_at" not in props and props["verification_status"] != "invalidated", props


def test_a_pattern_retold_from_the_replacement_of_all_its_experiences_holds_again(mind):
    """Every experience superseded by one of the same technique that joins the pattern: the
    dream tells the pattern again from what holds, and it holds again (it stayed invalidated,
    its new text beside invalid_at, in a new user's brew log)."""
    tellings = [
        "Fined the bitter casks with isinglass at a pint per barrel; bright in two days.",
        "Isinglass in the stout casks, a pint per barrel, clear by the third day.",
        "Fined the pale casks with isinglass, a pint a barrel, bright in 36 hours.",
    ]
    strategy = "cask fining"
    mind.capture_many(
        [
            {"id": f"fine-{i}", "description": t, "outcome": "success", "strategy_used": strategy}
            for i, t in enumerate(tellings)
        ]
    )
    mind.dream()
    (match,) = mind.query_knowledge("fining the casks", k=1)
    newer = "Fined the casks with a vegan silica fining at 0.5 ml per litre; bright in two days."
    mind.capture(
        {"id": "fine-new", "description": newer, "outcome": "success", "strategy_used": strategy},
        supersedes=[f"fine-{i}" for i in range(len(tellings))],
    )
    assert _props(mind, match.id)["verification_status"] == "invalidated"
    mind.dream()
    props = _props(mind, match.id)
    assert "silica" in props["description"] and "isinglass" not in props["description"], props
    assert "invalid_at" not in props and props["verification_status"] == "verified", props


def test_forgetting_the_newer_memory_makes_the_older_valid_again(mind, cli_env, capsys):
    _capture_a_then_b(mind)
    assert "invalid_at" in _props(mind, "fact-old")
    newer = {"id": "fact-newer", "description": "The train leaves on Fridays now.", "outcome": "success"}
    mind.capture(newer, supersedes=["fact-old"])
    assert mind.forget(["fact-new"]).revalidated == []  # fact-newer still replaces it
    assert _props(mind, "fact-old")["invalid_at"] == _props(mind, "fact-newer")["timestamp"]
    code, out, err = run_cli(capsys, "forget", "fact-newer", "--mind", mind.name)
    assert code == 0 and "valid    fact-old" in out, err
    assert "invalid_at" not in _props(mind, "fact-old")
    assert _ids(mind.recall(QUERY, k=2))[0] == "fact-old"  # a valid fact again, ranked as one


def test_a_pattern_the_dream_pruned_brings_the_one_it_kept(mind, tmp_path):
    """A pattern pruned as another's twin (SUPERSEDED_BY the one kept) is outdated; recall of
    patterns brings the kept one beside it, however it is worded."""
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "pruned.jsonl",
            [
                node(
                    "Pattern",
                    "p-old",
                    description="Flush the DNS cache when the resolver serves stale records",
                    status="pruned",
                ),
                node("Pattern", "p-kept", description="Restart the name service after a zone change", status="active"),
                node("Pattern", "p-other", description="Rotate the TLS certificates before they expire"),
                {"type": "edge", "rel": "SUPERSEDED_BY", "from": "p-old", "to": "p-kept", "properties": {}},
            ],
        )
    )
    hits = mind.recall("DNS cache stale records", k=2, labels=["Pattern"]).hits
    assert [(h.id, h.outdated is None) for h in hits] == [("p-kept", True), ("p-old", False)], hits
    assert hits[0].why()["graph"] == ["replaces p-old"]


def test_a_back_filled_experience_is_seen_as_of_its_own_timestamp(mind, cli_env, capsys):
    """A notebook imported with each entry's timestamp was invisible as of its own dates (they
    counted from the import): an experience without valid_from counts from when it happened."""
    mind.capture(
        {
            "id": "chain-1",
            "description": "Replaced the stretched chain on the tourer",
            "outcome": "success",
            "timestamp": "2025-09-07T16:00:00+00:00",
        }
    )
    mind.flush()
    assert [h.id for h in mind.recall("chain replaced", k=3, as_of="2025-10-01").hits] == ["chain-1"]
    assert mind.recall("chain replaced", k=3, as_of="2025-09-01").hits == []
    code, out, err = run_cli(capsys, "recall", "chain replaced", "--mind", mind.name, "--as-of", "2025-09-01")
    assert code == 0 and "counts from its timestamp" in out, (out, err)


def test_a_correction_joining_a_pattern_leaves_the_name_its_other_experiences_still_say(mind):
    """One experience of six corrected by a newer one that joins the pattern: the dream tells
    the pattern again from what holds, and keeps its name, which the five that hold still say
    (a new user's notebook saw a good pattern renamed after one correction)."""
    tellings = [
        "Rear brake lever soft on the commuter. Bled the caliper with mineral oil, new pads.",
        "Front lever spongy again. Bled the brake from the caliper up, firm now.",
        "Lever coming back to the bar on the cargo bike. Bled with mineral oil, bedded the pads.",
        "Soft rear lever on the tourer. Bled the hose and caliper, lever firm.",
        "Brake lever pulling to the bar on the folder. Bled the caliper with mineral oil.",
        "Spongy front brake on the hybrid. Bled it from the caliper, fresh oil, firm lever.",
    ]
    mind.capture_many([{"id": f"bleed-{i}", "description": t, "outcome": "success"} for i, t in enumerate(tellings)])
    mind.dream()
    pattern = _pattern_of(mind, "bleed-0")
    assert pattern and _pattern_of(mind, "bleed-2") == pattern
    before = _props(mind, pattern)["name"]
    correction = "Lever coming back to the bar on the cargo bike: a weeping banjo. Tightened it, bled the caliper with mineral oil."
    mind.capture({"id": "bleed-fix", "description": correction, "outcome": "success"}, supersedes=["bleed-2"])
    mind.dream()
    assert _pattern_of(mind, "bleed-fix") == pattern
    assert _props(mind, pattern)["name"] == before, (before, _props(mind, pattern)["name"])


def _pattern_of(mind, experience):
    rows = mind.store.read("dream/list_memberships", mind=mind.name)
    return next((r["pattern"] for r in rows if r["id"] == experience), None)
