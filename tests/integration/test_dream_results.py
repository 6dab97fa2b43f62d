"""Dreams keep what they learned (issue 27, items 7-9), on the real Neo4j through the Python
API and the CLI: a failed approach survives pruning and answers "does X help?", and repeated
dreams over new experiences of one kind grow one pattern instead of piling up copies."""

from __future__ import annotations

import json
import random

from graphmind.dream import DreamParams
from graphmind.mind import Mind
from tests.integration.helpers import run_cli

QUESTION = "does wet brining pork chops help"

KITCHEN = {
    ("pat dry", "success"): [
        "patted the ribeye dry with paper towels before searing; it formed a deep brown crust",
        "dried the lamb chops on a rack in the fridge overnight, and the sear came out crisp",
        "blotting the duck breast dry first gave a crackling skin in the hot pan",
        "towel-dried scallops browned in ninety seconds instead of steaming",
        "a dry surface on the pork belly let the skin blister and brown evenly",
        "wiped the moisture off the salmon fillet, then the skin seared golden and crisp",
    ],
    ("dry brine", "success"): [
        "salted the whole chicken a day ahead, uncovered; the roasted skin shattered",
        "dry brining the turkey with kosher salt for two days made the meat well seasoned",
        "a salt rub left overnight on the chicken thighs gave juicy meat and crisp skin",
        "rubbed salt on the roast the night before and it stayed tender and seasoned",
        "dry-salting the chicken legs for 24 hours kept them moist after grilling",
        "seasoning the bird with salt a day early gave a much crisper skin",
    ],
    ("wet brine", "failure"): [
        "soaked the pork chops in a salt water brine for six hours; they still came out dry",
        "wet brining thin pork chops overnight made them spongy and too salty, not juicier",
        "the brined pork loin chops lost as much juice in the pan as unbrined ones",
        "a sugar and salt brine bath for the chops gave no juicier meat, only a ham-like texture",
    ],
}


def kitchen() -> list[dict]:
    out = []
    for (strategy, outcome), texts in KITCHEN.items():
        for i, text in enumerate(texts):
            out.append(
                {
                    "id": f"{strategy.replace(' ', '-')}-{i}",
                    "description": text,
                    "outcome": outcome,
                    "kind": "move",
                    "strategy_used": strategy,
                    "confidence": 0.8,
                    "timestamp": f"2026-02-01T18:{len(out):02d}:00+00:00",
                }
            )
    return out


def test_a_failed_approach_survives_pruning_and_answers_whether_it_helps(mind: Mind):
    mind.capture_many(kitchen(), session_id="kitchen")
    report = mind.dream(DreamParams(domain="home cooking"))
    assert report.patterns == 3 and report.pruned == 0 and report.active_patterns == 3
    matches = mind.query_knowledge(QUESTION)
    failed = [m for m in matches if m.records_failure]
    assert [m.name for m in failed] == ["wet brine"]
    assert failed[0].failure_count == 4 and failed[0].success_rate == 0
    assert {e["id"] for e in failed[0].failures} == {f"wet-brine-{i}" for i in range(4)}
    assert all(e["outcome"] == "failure" for e in failed[0].failures)
    # The success ranks first for "does brining help"; the failure about brining still shows.
    assert [(m.name, m.records_failure) for m in mind.query_knowledge("does brining help", k=1)] == [
        ("wet brine", True)
    ]
    # A failure about something else does not crowd out the answer.
    assert [m.name for m in mind.query_knowledge("does patting the steak dry help", k=1)] == ["pat dry"]


def test_cli_knowledge_shows_what_did_not_work(mind: Mind, cli_env, capsys):
    mind.capture_many(kitchen(), session_id="kitchen")
    code, out, _ = run_cli(capsys, "dream", "--mind", mind.name, "--json")
    assert code == 0 and json.loads(out)["pruned"] == 0
    code, out, _ = run_cli(capsys, "knowledge", QUESTION, "--mind", mind.name, "-k", "2")
    assert code == 0
    head = next(line for line in out.splitlines() if "wet brine" in line)
    assert "4 failed" in head and "[did not work]" in head
    assert "failed: " in out and "pork chops" in out
    code, out, _ = run_cli(capsys, "knowledge", QUESTION, "--mind", mind.name, "-k", "2", "--json")
    patterns = json.loads(out)["patterns"]
    assert any(p["records_failure"] and len(p["failures"]) == 4 for p in patterns)
    brine = next(p for p in patterns if p["records_failure"])
    assert head.split()[:3] == ["1.", "cos", f"{brine['similarity']:.2f}"]  # its rank, and its similarity named


NETWORK = {
    "dns flush": [
        "resolver {n} timed out on lookups for the {s} zone, flushed the cache and it answered again",
        "dns queries to {s} failed from rack {n}; clearing the resolver cache fixed the lookups",
        "lookups of {s} hung on resolver {n}, so we flushed its cache and names resolved",
        "stale dns answers for {s} on host {n}; a resolver cache flush brought back fresh records",
    ],
    "hold timer": [
        "bgp session with peer {n} flapped on {s}; raising the hold timer stopped the flapping",
        "peer {n} kept dropping its bgp session at {s}, a longer hold timer kept it up",
        "route flaps from peer {n} at {s}: we increased the bgp hold time and the session stabilised",
        "the {s} edge lost bgp peer {n} every few minutes until the hold timer was raised",
    ],
    "lower mtu": [
        "packets over 1400 bytes were dropped on tunnel {n} to {s}; lowering the mtu fixed transfers",
        "large transfers stalled through tunnel {n} at {s} until we reduced the interface mtu",
        "tunnel {n} to {s} black-holed big packets; setting a smaller mtu let downloads finish",
        "path mtu problems on link {n} toward {s}, downloads hung, a lower mtu resolved it",
    ],
}
SITES = ["paris", "berlin", "oslo", "lima", "tokyo", "cairo", "quito", "dublin"]


def network_batch(night: int, rng: random.Random) -> list[dict]:
    """Five new incidents of each kind, worded differently from night to night."""
    return [
        {
            "id": f"n{night}-{kind.replace(' ', '-')}-{i}",
            "outcome": "success",
            "kind": "move",
            "strategy_used": kind,
            "timestamp": f"2026-03-0{night + 1}T02:{i:02d}:{k:02d}+00:00",
            "description": rng.choice(texts).format(n=rng.randint(1, 99), s=rng.choice(SITES)),
        }
        for k, (kind, texts) in enumerate(NETWORK.items())
        for i in range(5)
    ]


def active_patterns(mind: Mind) -> list[dict]:
    return mind.store.read("dream/list_patterns", mind=mind.name)


def test_repeated_offline_dreams_keep_one_active_pattern_per_group(mind: Mind):
    rng, seen = random.Random(1), 0
    for night in range(4):
        mind.capture_many(network_batch(night, rng))
        report = mind.dream(DreamParams(domain="network operations"))
        assert report.status == "completed"
        names = sorted(p["name"] for p in active_patterns(mind))
        assert names == sorted(NETWORK), (night, names)
        seen += 15
    counts = [p["success_count"] for p in active_patterns(mind)]
    assert (
        sum(counts)
        + len(mind.store.read("dream/list_experiences", mind=mind.name, model_id="", session=None, limit=10**6))
        == seen
    )


def test_cli_dreams_grow_the_pattern_a_group_matches(mind: Mind, cli_env, capsys):
    rng = random.Random(2)
    for night in range(3):
        mind.capture_many(network_batch(night, rng))
        code, out, _ = run_cli(capsys, "dream", "--mind", mind.name, "--json")
        assert code == 0
        if night:
            assert json.loads(out)["patterns"] == 0 and json.loads(out)["grown"] == 3
    assert sorted(p["name"] for p in active_patterns(mind)) == sorted(NETWORK)


def test_cli_shows_every_pattern_by_name_and_an_idle_run_reports_the_mind_as_it_stands(mind: Mind, cli_env, capsys):
    rng = random.Random(3)
    mind.capture_many(network_batch(0, rng))
    mind.dream()
    mind.capture_many(network_batch(1, rng)[:2])  # a night that grows one pattern, creates none
    code, out, _ = run_cli(capsys, "dream", "--mind", mind.name)
    assert code == 0
    level_1 = [line.strip() for line in out.splitlines() if line.strip().startswith("L1 ")]
    assert level_1 and not any("pattern-" in line for line in level_1)  # names, not ids
    assert {line.removeprefix("L1 ") for line in level_1} >= set(NETWORK)
    code, out, _ = run_cli(capsys, "dream", "--mind", mind.name, "--json")
    idle = json.loads(out)
    assert code == 0 and idle["status"] == "nothing_to_consolidate"
    assert idle["active_patterns"] == len(NETWORK) and idle["ladder_levels"] >= 3
    assert sorted(idle["pattern_names"].values()) == sorted(NETWORK)
    assert idle["ladder"] and {e["level"] for e in idle["ladder"]} >= {2}  # the ladder as it stands


def test_a_pattern_remembers_the_strategy_names_of_its_experiences(mind: Mind):
    """Read back from the graph, so that a later run's pruning keeps techniques the agent
    named apart (graphmind.dream.integrate.named_apart)."""
    from graphmind.dream import graph

    mind.capture_many(network_batch(0, random.Random(4)))
    mind.dream()
    stored = graph.read_patterns(mind.store, mind.name, mind.embedder.dimensions)
    assert sorted((p.name, sorted(p.strategies)) for p in stored) == sorted((k, [k]) for k in NETWORK)


def pattern_hits(mind: Mind) -> dict[str, int]:
    mind.flush()
    lines = map(json.loads, mind.export_jsonl())
    return {x["id"]: x["properties"].get("hits", 0) for x in lines if x["type"] == "node" and x["label"] == "Pattern"}


def test_knowledge_answers_an_off_topic_question_with_nothing(mind: Mind, cli_env, capsys):
    """A question about another field gets no pattern, however near the nearest one is; the
    same question without the relevance floor gets the nearest patterns (the floor cuts)."""
    mind.capture_many(kitchen(), session_id="kitchen")
    mind.dream(DreamParams(domain="home cooking"))
    off_topic = "how do I renew an expired passport before travelling abroad"
    before = pattern_hits(mind)
    assert mind.query_knowledge(off_topic) == []
    assert pattern_hits(mind) == before  # the patterns read and left out count no hit
    assert mind.query_knowledge(off_topic, params=DreamParams(relevance_quantile=None))
    before = pattern_hits(mind)
    on_topic = mind.query_knowledge("how do I get a crisp crust when searing steak", k=1)
    assert [m.name for m in on_topic] == ["pat dry"]
    after = pattern_hits(mind)
    assert {i for i in after if after[i] != before[i]} == {on_topic[0].id}
    code, out, _ = run_cli(capsys, "knowledge", off_topic, "--mind", mind.name)
    assert code == 0 and f"no pattern in mind {mind.name!r} is about this" in out


def test_cli_knowledge_shows_what_worked_beside_what_failed(mind: Mind, cli_env, capsys):
    """A pattern that failed as often as it worked is not shown as one that never worked: the
    text output gives its failures and its successes."""
    worked = [
        "a short wet brine of one hour kept the thick pork chops juicy this time",
        "brining the thick chops in salt water for an hour made them noticeably juicier",
    ]
    mixed = kitchen() + [
        {
            "id": f"wet-brine-ok-{i}",
            "description": text,
            "outcome": "success",
            "kind": "move",
            "strategy_used": "wet brine",
            "confidence": 0.8,
            "timestamp": f"2026-02-01T19:{i:02d}:00+00:00",
        }
        for i, text in enumerate(worked)
    ]
    mind.capture_many(mixed, session_id="kitchen")
    code, _, _ = run_cli(capsys, "dream", "--mind", mind.name, "--json")
    assert code == 0
    code, out, _ = run_cli(capsys, "knowledge", QUESTION, "--mind", mind.name, "-k", "2")
    head = next(line for line in out.splitlines() if "wet brine" in line)
    assert "[failed 4 of 6]" in head and "[did not work]" not in head
    assert "failed: " in out and "worked: " in out


def test_knowledge_shows_the_examples_about_the_question_first_and_ranks_its_lines(mind, cli_env, capsys):
    """A pattern's first members were its examples whatever was asked (a trial's "gears ghost
    shifting" got a wheel, a chain and a BB job); the CLI's lines were not in the order of the
    cosine they open with, and now say their rank."""
    from tests.integration.test_dream import DEGAS

    mind.capture_many([{"id": f"d{i}", "description": t, "outcome": "success"} for i, t in enumerate(DEGAS)])
    assert mind.dream().patterns == 1
    (match,) = mind.query_knowledge("helium sparging of the solvent", k=1)
    assert "helium" in match.examples[0]["description"].lower(), match.examples
    assert not DEGAS[0].lower().count("helium")  # the first member, shown first before
    code, out, err = run_cli(capsys, "knowledge", "helium sparging of the solvent", "--mind", mind.name)
    assert code == 0 and out.startswith("1. cos ") and "e.g. " in out, (out, err)
    assert "helium" in out.split("e.g. ", 1)[1].split("\n", 1)[0].lower()


def test_a_first_dream_of_five_different_jobs_makes_no_pattern_they_wait(mind):
    """Five notes of five jobs of one trade are alike as a whole (cohesion over 0.6), and no
    split of five can show two patterns: they wait for company instead of becoming one pattern
    that every later note would join (a new user's notebook dreamed every 5 entries)."""
    notes = [
        "Proofed the sourdough boules overnight in the walk-in, they doubled by morning",
        "Scored the baguettes at a shallow angle with a fresh lame, the ears opened well",
        "Laminated the croissant dough with three letter folds, butter stayed cold",
        "Fed the rye starter twice today at 1:1:1, it peaked in five hours",
        "Steamed the deck oven for the first ten minutes, the crust came out glossy",
    ]
    mind.capture_many([{"id": f"b{i}", "description": t, "outcome": "success"} for i, t in enumerate(notes)])
    report = mind.dream()
    assert report.patterns == 0, report.message
    assert len(mind.waiting().experiences) == 5
