"""The digests on the real Neo4j: exact outputs on a fixture mind, hit counting, the merge and
absorb actions, the CLI, and bad input."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, time, timedelta

from graphmind.digest import DigestParams
from graphmind.mind import Mind
from tests.integration.helpers import node, run_cli, write_jsonl

TODAY = datetime.now(UTC).date()
NOON = datetime.combine(TODAY, time(12), UTC)  # ages count from here, so a run across midnight still agrees


def ago(days: int) -> str:
    return (TODAY - timedelta(days=days)).isoformat()


def fixture(tmp_path):
    return write_jsonl(
        tmp_path / "digest.jsonl",
        [
            node("TopicEntry", "a1", topic="agents", text="Agents plan before they act", date=ago(31)),
            node("TopicEntry", "a2", topic="agents", text="Tool calls need budgets", date=ago(12)),
            node("TopicEntry", "a3", topic="agents", text="Reflection beats retries", date=ago(2)),
            node(
                "TopicEntry",
                "p1",
                topic="philosophy",
                text="Watsuji: relations come before entities",
                date=f"{ago(62)}T09:30:00+00:00",
                hits=1,
                last_hit_at=f"{ago(61)}T10:00:00+00:00",
            ),
            node("TopicEntry", "p2", topic="philosophy", text="Framing constrains emergence", date=ago(22)),
            node("TopicEntry", "z1", topic="zen", text="時間不是直線", date=(TODAY + timedelta(days=30)).isoformat()),
            node(
                "Thread",
                "t1",
                title="Constraint and emergence",
                touches=4,
                progress_notes=["Framing via Watsuji and Deacon", "Kauffman too"],
            ),
            node(
                "Thread",
                "t2",
                title="Interface shapes cognition",
                touches=3,
                progress_notes=["Watsuji on Framing; Deacon agrees"],
            ),
            node("Thread", "t3", title="關係先於實體", progress_notes=["和辻哲郎的倫理學"]),
            node("Thread", "t4", title="Old", status="archived", progress_notes=["Watsuji Framing Deacon"]),
            node("Thread", "t5", title="Empty"),
        ],
    )


def test_the_three_digests_on_a_fixture_mind(mind, tmp_path):
    mind.import_jsonl(fixture(tmp_path))
    report = mind.digest(rng_seed=3, now=NOON)
    assert report.digest_block.splitlines() == [  # seed 3 draws a1, a3 | p2, p1 | z1 (zen has only one)
        "<rumination-digest>",
        "### agents",
        f"- [{ago(31)}] Agents plan before they act",
        f"- [{ago(2)}] Reflection beats retries",
        "",
        "### philosophy",
        f"- [{ago(22)}] Framing constrains emergence",
        f"- [{ago(62)}] Watsuji: relations come before entities",
        "",
        "### zen",
        f"- [{(TODAY + timedelta(days=30)).isoformat()}] 時間不是直線",
        "</rumination-digest>",
    ]
    assert [c.sentence() for c in report.convergence] == [
        'Threads "Constraint and emergence" and "Interface shapes cognition" share concepts: '
        "Framing, Watsuji, Deacon (consider merging)"
    ]
    assert report.forgotten_block.splitlines() == [
        "<forgotten-knowledge>",
        f"- [agents, 31d ago] [{ago(31)}] Agents plan before they act",
        f"- [philosophy, 22d ago] [{ago(22)}] Framing constrains emergence",
        f"- [agents, 12d ago] [{ago(12)}] Tool calls need budgets",
        "</forgotten-knowledge>",
    ]  # p1 is the oldest but was read: never forgotten
    ids = lambda r: {t: [e.id for e in v] for t, v in r.samples.items()}  # noqa: E731
    assert ids(mind.digest(rng_seed=3, now=NOON)) == ids(report)  # reproducible with a seed
    material = mind.reflect(rng_seed=3, now=NOON)
    assert material.startswith("## Cross-Pollination Digest\nHere are random entries from your knowledge.")
    assert "<rumination-digest>\n### agents\n" in material
    assert "## Forgotten Knowledge\n(nothing forgotten)" in material  # the first digest showed (read) them all


def test_every_entry_shown_counts_a_hit(mind, tmp_path):
    mind.import_jsonl(fixture(tmp_path))
    report = mind.digest(DigestParams(n=1), rng_seed=1)
    shown = {e.id for v in report.samples.values() for e in v} | {f.entry.id for f in report.forgotten}
    after = {e: mind.get(e) for e in ["a1", "a2", "a3", "p1", "p2", "z1"]}
    for entry_id, entry in after.items():
        before = 1 if entry_id == "p1" else 0
        assert entry.hits == before + (entry_id in shown), entry_id
        assert (entry.last_hit_at is not None) == (entry_id in shown or entry_id == "p1")
    recalled = mind.recall("relations come before entities", k=1).hits[0]
    assert recalled.id == "p1" and mind.get("p1").hits == after["p1"].hits + 1


def test_a_second_digest_never_shows_an_entry_that_was_read(mind, tmp_path):
    mind.import_jsonl(
        write_jsonl(
            tmp_path / "old.jsonl",
            [
                node("TopicEntry", f"o{i}", topic="tides", text=f"Neap tide note {i}", date=ago(40 - i))
                for i in range(8)
            ],
        )
    )
    first = mind.digest(DigestParams(n=1), rng_seed=1, now=NOON)
    assert [f.entry.id for f in first.forgotten] == ["o0", "o1", "o2", "o3", "o4"]  # oldest first, at most 5
    shown = {f.entry.id for f in first.forgotten} | {e.id for v in first.samples.values() for e in v}
    second = mind.digest(DigestParams(n=1), rng_seed=2, now=NOON)
    assert {f.entry.id for f in second.forgotten} == {"o5", "o6", "o7"} - shown
    third = mind.digest(DigestParams(n=1), rng_seed=3, now=NOON)
    assert third.forgotten == [] and third.forgotten_block == ""  # all read: nothing, no fallback
    assert "(nothing forgotten)" in third.material()


def test_cli_a_second_digest_never_shows_an_entry_that_was_read(cli_env, cli_mind, capsys, store, settings, tmp_path):
    Mind(cli_mind, store, settings).import_jsonl(fixture(tmp_path))
    seen: set[str] = set()
    for seed in range(3):
        code, out, err = run_cli(capsys, "digest", "--mind", cli_mind, "-n", "1", "--rng-seed", str(seed), "--json")
        assert code == 0, err
        payload = json.loads(out)
        forgotten = {e["id"] for e in payload["forgotten"]["entries"]}
        assert not forgotten & seen and "p1" not in forgotten  # p1 was read before any digest
        seen |= forgotten | {e["id"] for v in payload["cross_pollination"]["topics"].values() for e in v}
    assert payload["forgotten"]["entries"] == []


def test_sampling_through_the_graph_is_uniform(mind, tmp_path):
    mind.import_jsonl(
        write_jsonl(tmp_path / "u.jsonl", [node("TopicEntry", f"e{i}", topic="t", text=f"entry {i}") for i in range(4)])
    )
    counts = Counter(e.id for seed in range(400) for e in mind.digest(DigestParams(n=1), rng_seed=seed).samples["t"])
    assert len(counts) == 4 and all(60 <= c <= 140 for c in counts.values())  # 100 expected each


def test_merge_keeps_both_threads_and_absorb_hides_an_entry(mind, tmp_path):
    mind.import_jsonl(fixture(tmp_path))
    merged = mind.merge_threads("t1", "t2", "Framing across relations")
    assert merged["touches"] == 7 and merged["notes"] == 3
    assert mind.get("t1").status == "merged" and mind.get("t2").status == "merged"
    assert mind.stats().relationships["MERGED_INTO"] == 2
    assert mind.digest(rng_seed=0).convergence == []  # merged threads take no part any more
    mind.absorb("a1")
    assert "a1" not in {f.entry.id for f in mind.digest(rng_seed=0).forgotten}


def test_bad_input_gives_clear_output(mind, tmp_path, store, settings):
    mind.import_jsonl(write_jsonl(tmp_path / "none.jsonl", [node("Identity", "me", name="Me")]))
    report = mind.digest(rng_seed=0)
    assert report.samples == {} and report.convergence == [] and report.forgotten == []
    assert report.notes == ["the mind has no topic entries", "the mind has no threads"]
    assert "(no topic entries yet)" in report.material()


def test_cli_digest_absorb_and_merge(cli_env, cli_mind, capsys, store, settings, tmp_path):
    Mind(cli_mind, store, settings).import_jsonl(fixture(tmp_path))
    code, out, err = run_cli(capsys, "digest", "--mind", cli_mind, "--rng-seed", "3", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert {"cross_pollination", "convergence", "forgotten"} <= payload.keys()
    assert payload["forgotten"]["entries"][0]["id"] == "a1"
    code, out, _ = run_cli(capsys, "digest", "absorb", "a1", "--mind", cli_mind)
    assert code == 0 and "absorbed a1" in out
    code, _, err = run_cli(capsys, "digest", "absorb", "nope", "--mind", cli_mind)
    assert code == 2 and "no topic entry" in err
    code, out, _ = run_cli(capsys, "threads", "merge", "t1", "t2", "--title", "Framing", "--mind", cli_mind, "--json")
    assert code == 0 and json.loads(out)["touches"] == 7
    code, _, err = run_cli(capsys, "threads", "merge", "t1", "t5", "--title", "X", "--mind", cli_mind)
    assert code == 2 and "no two distinct active threads" in err
    code, _, err = run_cli(capsys, "digest")
    assert code == 2 and "--mind" in err


def test_cli_digest_text_names_the_ids_that_absorb_takes(cli_env, cli_mind, capsys, store, settings, tmp_path):
    Mind(cli_mind, store, settings).import_jsonl(fixture(tmp_path))
    code, out, err = run_cli(capsys, "digest", "--mind", cli_mind, "--rng-seed", "3")
    assert code == 0, err
    assert f"graphmind digest absorb ID --mind {cli_mind}" in out
    listed = out.split("entries shown", 1)[1]
    assert any(line.split()[:2] == ["a1", "forgotten"] for line in listed.splitlines())
    code, out, _ = run_cli(capsys, "digest", "absorb", "a1", "--mind", cli_mind)
    assert code == 0
