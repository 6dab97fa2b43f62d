"""Managing wander sessions (issue 22, item 4): list with paging, show, update, delete, a
session's loci and the crystals of one or every session, through the Python API and the CLI on
the real Neo4j. Deleting a session removes what it owns and never a memory."""

from __future__ import annotations

import json

import pytest

from graphmind.errors import NotFoundError, ValidationError
from graphmind.mind import Mind
from tests.integration.helpers import node, run_cli, write_jsonl

pytestmark = pytest.mark.integration

ORCHARD = [  # an orchardist's notes: memories far from software
    (
        "Experience",
        "pruning-late",
        {"description": "Pruned the old pear trees late in March and lost the blossom", "outcome": "failure"},
    ),
    (
        "Experience",
        "grafting-cleft",
        {"description": "Cleft grafts on the young apple stock took within three weeks", "outcome": "success"},
    ),
    (
        "Strategy_Pattern",
        "prune-dormant",
        {"approach": "prune fruit trees while they are dormant in winter", "success_rate": 0.9},
    ),
    (
        "Failed_Attempt",
        "frost-cloth",
        {
            "approach": "covered the blossom with frost cloth overnight",
            "failure_reason": "the cloth froze onto the buds",
        },
    ),
    ("TopicEntry", "bees", {"topic": "pollination", "text": "Mason bees work the apple blossom in cold weather"}),
    ("TopicEntry", "scab", {"topic": "disease", "text": "Apple scab spreads in wet springs from fallen leaves"}),
]


def _orchard(mind: Mind, tmp_path) -> None:
    mind.import_jsonl(write_jsonl(tmp_path / "orchard.jsonl", [node(label, i, **p) for label, i, p in ORCHARD]))


def _snapshot(mind: Mind) -> dict[str, dict]:
    """Every memory of the mind (not wander's working nodes) with its properties."""
    memory = ("Experience", "Strategy_Pattern", "Failed_Attempt", "TopicEntry")
    return {
        i: {k: v for k, v in mind.get(i).model_dump().items() if k not in ("hits", "last_hit_at")}
        for label, i, _ in ORCHARD
        if label in memory
    }


def test_list_pages_show_update_and_loci(mind, tmp_path):
    _orchard(mind, tmp_path)
    ids = [
        mind.wander(seed, rng_seed=n, human_checkpoint_frequency=0).id
        for n, seed in enumerate(["winter pruning", "grafting apple stock", "frost on the blossom"])
    ]
    sessions = mind.wander_sessions
    first = sessions.page(limit=2)
    assert [s.id for s in first.sessions] == ids[::-1][:2] and first.total == 3 and first.next_offset == 2
    last = sessions.page(limit=2, offset=first.next_offset)
    assert [s.id for s in last.sessions] == ids[:1] and last.next_offset is None
    assert sessions.page(limit=2, offset=9).sessions == [] and sessions.page(limit=2, offset=9).total == 3
    assert [s.id for s in sessions.list(limit=1, offset=1)] == [ids[1]]
    with pytest.raises(ValidationError, match="limit"):
        sessions.page(limit=0)
    with pytest.raises(ValidationError, match="offset"):
        sessions.page(offset=-1)

    mind.wander(session_id=ids[0]).run(3)
    shown = sessions.show(ids[0])
    assert shown["id"] == ids[0] and shown["seed_concept"] == "winter pruning" and shown["steps_completed"] == 3
    assert shown["holds"]["residues"] == 3 and shown["holds"]["loci"] >= 1 and shown["holds"]["visited"] >= 1
    assert sessions.update(ids[0], name="pruning walk", temperature=0.4).temperature == 0.4
    assert sessions.show(ids[0])["name"] == "pruning walk"

    loci = sessions.loci(ids[0])
    assert loci.total == len(loci.loci) >= 2 and loci.next_offset is None
    assert any(lo["own"] and lo["source_type"] == "SEED" for lo in loci.loci)
    assert [lo["visits"] for lo in loci.loci] == sorted((lo["visits"] for lo in loci.loci), reverse=True)
    one = sessions.loci(ids[0], limit=1)
    assert one.loci == loci.loci[:1] and one.next_offset == 1
    assert sessions.loci(ids[1]).total == 1  # a session not yet walked: its seed only
    for call in (sessions.show, sessions.loci, sessions.crystals, sessions.delete):
        with pytest.raises(NotFoundError, match="no wander session 'nope'"):
            call("nope")


def test_crystals_of_one_session_or_all(mind, tmp_path):
    _orchard(mind, tmp_path)
    a = mind.wander("winter pruning", rng_seed=1, human_checkpoint_frequency=0).id
    b = mind.wander("frost on the blossom", rng_seed=2, human_checkpoint_frequency=0).id
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "crystals.jsonl",
            [
                node("Crystal", "ca", insight="prune when dormant", session_id=a, status="active"),
                node("Crystal", "cb", insight="frost cloth needs a frame", session_id=b, status="active"),
            ],
        )
    )
    sessions = mind.wander_sessions
    assert [c["id"] for c in sessions.crystals(a)] == ["ca"]
    assert {c["id"] for c in sessions.crystals()} == {"ca", "cb"}
    assert {c["session_id"] for c in sessions.crystals()} == {a, b}


def test_crystals_come_a_page_at_a_time_with_their_filters(mind, tmp_path):
    _orchard(mind, tmp_path)
    a = mind.wander("winter pruning", rng_seed=1, human_checkpoint_frequency=0).id
    b = mind.wander("frost on the blossom", rng_seed=2, human_checkpoint_frequency=0).id
    rows = [
        node(
            "Crystal",
            f"c{n}",
            insight=f"orchard insight number {n}",
            session_id=a if n % 2 else b,
            status="active" if n < 5 else "acted_upon",
            confidence=n / 10,
            created_at=f"2026-03-0{n + 1}T00:00:00Z",
        )
        for n in range(7)
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "crystals.jsonl", rows))
    sessions = mind.wander_sessions
    newest_first = [f"c{n}" for n in range(6, -1, -1)]
    pages, offset = [], 0
    while offset is not None:
        page = sessions.crystal_page(limit=3, offset=offset)
        assert page.total == 7 and len(page.crystals) <= 3
        pages.append([c["id"] for c in page.crystals])
        offset = page.next_offset
    assert pages == [newest_first[:3], newest_first[3:6], newest_first[6:]]
    assert [c["id"] for c in sessions.crystal_page(a).crystals] == ["c5", "c3", "c1"]
    picked = sessions.crystal_page(status="active", min_confidence=0.2, limit=2)
    assert [c["id"] for c in picked.crystals] == ["c4", "c3"] and picked.total == 3 and picked.next_offset == 2
    past = sessions.crystal_page(limit=2, offset=50)
    assert past.crystals == [] and past.total == 7 and past.next_offset is None
    for bad in ({"limit": 0}, {"offset": -1}, {"min_confidence": 2.0}):
        with pytest.raises(ValidationError):
            sessions.crystal_page(**bad)
    with pytest.raises(NotFoundError):
        sessions.crystal_page("no-such-session")


def test_delete_removes_what_the_session_owns_and_never_a_memory(mind, tmp_path):
    _orchard(mind, tmp_path)
    keep = mind.wander("grafting apple stock", rng_seed=4, human_checkpoint_frequency=0)
    keep.run(3)
    gone = mind.wander("winter pruning", rng_seed=3, human_checkpoint_frequency=0)
    gone.run(4)
    gone.inject("espaliered pears on a south wall")
    memories, kept = _snapshot(mind), mind.wander_sessions.show(keep.id)["holds"]
    memory_loci = mind.stats().labels["Locus"] - sum(
        mind.wander_sessions.show(s)["holds"]["loci"] for s in (keep.id, gone.id)
    )
    owned = mind.wander_sessions.show(gone.id)["holds"]
    assert owned["residues"] == 4 and owned["loci"] >= 2 and owned["resonances"] >= 1

    done = mind.wander_sessions.delete(gone.id)
    assert done["traces"] == 4
    assert done["removed"] == owned["loci"] + owned["residues"] + owned["resonances"] + owned["warm_memory"]
    assert _snapshot(mind) == memories  # no memory touched
    labels = mind.stats().labels
    assert labels["Locus"] == memory_loci + kept["loci"]  # the shared memory loci stay
    assert labels["Residue"] == kept["residues"] and labels.get("Resonance", 0) == kept["resonances"]
    assert mind.wander_sessions.show(keep.id)["holds"] == kept
    assert [s.id for s in mind.wander_sessions.list()] == [keep.id]
    keep.run(1)  # the other session walks on
    with pytest.raises(NotFoundError):
        mind.wander_sessions.get(gone.id)


def test_cli_list_show_update_loci_crystals_delete(cli_env, cli_mind, capsys, store, settings, tmp_path):
    with Mind(cli_mind, store, settings) as m:
        _orchard(m, tmp_path)
    ids = []
    for n, seed in enumerate(["winter pruning", "grafting apple stock", "frost on the blossom"]):
        code, out, err = run_cli(
            capsys,
            "wander",
            "run",
            "--mind",
            cli_mind,
            "--seed",
            seed,
            "--steps",
            "2",
            "--rng-seed",
            str(n),
            "--checkpoint-every",
            "0",
            "--json",
        )
        assert code == 0, err
        ids.append(json.loads(out)["session_id"])

    code, out, err = run_cli(capsys, "wander", "list", "--mind", cli_mind, "--limit", "2", "--json")
    assert code == 0, err
    page = json.loads(out)
    assert [s["id"] for s in page["sessions"]] == ids[::-1][:2] and page["total"] == 3 and page["next_offset"] == 2
    code, out, _ = run_cli(capsys, "wander", "list", "--mind", cli_mind, "--limit", "2", "--offset", "2")
    assert code == 0 and ids[0] in out and ids[1] not in out and "sessions 3-3 of 3" in out

    code, out, err = run_cli(capsys, "wander", "show", ids[0], "--mind", cli_mind, "--json")
    assert code == 0, err
    assert json.loads(out)["session"]["steps_completed"] == 2 and json.loads(out)["session"]["holds"]["residues"] == 2
    code, out, err = run_cli(
        capsys, "wander", "update", ids[0], "--mind", cli_mind, "--temperature", "0.3", "--name", "pruning", "--json"
    )
    assert code == 0 and json.loads(out)["session"]["temperature"] == 0.3, err
    code, _, err = run_cli(capsys, "wander", "update", ids[0], "--mind", cli_mind)
    assert code == 2 and "at least one setting" in err

    code, out, err = run_cli(capsys, "wander", "loci", ids[0], "--mind", cli_mind, "--limit", "1", "--json")
    assert code == 0, err
    loci = json.loads(out)
    assert len(loci["loci"]) == 1 and loci["total"] >= 2 and loci["next_offset"] == 1

    code, out, err = run_cli(capsys, "wander", "crystals", "--all-sessions", "--mind", cli_mind, "--json")
    assert code == 0 and isinstance(json.loads(out)["crystals"], list), err
    with Mind(cli_mind, store, settings) as m:
        rows = [node("Crystal", f"k{n}", insight=f"graft note {n}", session_id=ids[1]) for n in range(3)]
        m.import_jsonl(write_jsonl(tmp_path / "crystals.jsonl", rows))
    code, out, err = run_cli(capsys, "wander", "crystals", ids[1], "--mind", cli_mind, "--limit", "2", "--json")
    assert code == 0, err
    page = json.loads(out)
    assert len(page["crystals"]) == 2 and page["total"] == 3 and page["next_offset"] == 2
    code, out, err = run_cli(capsys, "wander", "crystals", ids[1], "--mind", cli_mind, "--limit", "2", "--offset", "2")
    assert code == 0 and "crystals 3-3 of 3" in out and out.count("evidence:") == 1, err
    code, _, err = run_cli(capsys, "wander", "crystals", "--mind", cli_mind)
    assert code == 2 and "--all-sessions" in err

    code, out, err = run_cli(capsys, "wander", "delete", ids[0], "--mind", cli_mind, "--json")
    assert code == 0 and json.loads(out)["traces"] == 2, err
    for verb in ("show", "delete", "loci", "crystals"):
        code, out, err = run_cli(capsys, "wander", verb, ids[0], "--mind", cli_mind)
        assert code == 2 and err.strip().count("\n") == 0 and f"no wander session '{ids[0]}'" in err, verb
        assert "Traceback" not in err
    code, _, err = run_cli(capsys, "wander", "update", ids[0], "--mind", cli_mind, "--temperature", "0.5")
    assert code == 2 and "no wander session" in err
    code, _, err = run_cli(capsys, "wander", "list", "--mind", cli_mind, "--limit", "0")
    assert code == 2 and "--limit" in err
    with Mind(cli_mind, store, settings) as m:
        assert _snapshot(m).keys() == {i for label, i, _ in ORCHARD if label != "Crystal"}
