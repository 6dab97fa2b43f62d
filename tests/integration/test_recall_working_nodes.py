"""Recall and ask return memories, not the engines' working nodes (issue 27, item 5).

A rumination leaves Findings, a walk leaves Loci, Residues, Resonances and Crystals; none of
them may crowd a user's recall, and a Locus never comes back beside the memory it stands for.
"""

from __future__ import annotations

import json

import pytest

from graphmind.models import NODE_TYPES, RECALLED_LABELS

from .helpers import DEMO, run_cli

pytestmark = pytest.mark.integration

QUERIES = [
    "race condition",
    "settlement worker crash",
    "customer emails",
    "how does Felix feel",
    "retry strategy for flaky tests",
    "compliance audit",
]
WORKING = {label for label, model in NODE_TYPES.items() if model.WORKING}


def _top10(mind) -> dict[str, list[str]]:
    return {q: [f"{h.label}:{h.id}" for h in mind.recall(q, k=10).hits] for q in QUERIES}


def test_recall_is_unchanged_by_a_rumination_and_a_50_step_wander(mind):
    mind.import_jsonl(DEMO)
    before = _top10(mind)
    mind.ruminate("Felix here: the settlement worker has a race condition again, any idea?", "Felix")
    handle = mind.wander("race conditions in async code", steps=50, rng_seed=5, human_checkpoint_frequency=0)
    assert handle.last_run.steps_completed > 0
    made = {row["label"] for row in mind.store.read("stats/count_labels", mind=mind.name)}
    assert {"Finding", "Locus", "Residue"} <= made  # the working nodes exist, and are searchable
    assert mind.recall("race condition", k=10, labels=["Locus"]).hits
    after = _top10(mind)
    # the same memories; their order may shift a little: reads write hit counts onto memories,
    # and Lucene's BM25 statistics count a rewritten document until its segment merges
    assert {q: sorted(hits) for q, hits in after.items()} == {q: sorted(hits) for q, hits in before.items()}
    for hits in before.values():
        assert not [h for h in hits if h.split(":")[0] in WORKING]


def test_cli_recall_and_ask_leave_working_nodes_out(mind, cli_env, capsys):
    mind.import_jsonl(DEMO)
    mind.wander("race conditions in async code", steps=30, rng_seed=2, human_checkpoint_frequency=0)
    code, out, _ = run_cli(capsys, "recall", "race condition", "--mind", mind.name, "-k", "8", "--json")
    assert code == 0
    labels = [hit["label"] for hit in json.loads(out)["hits"]]
    assert len(labels) == 8 and not set(labels) & WORKING
    code, out, _ = run_cli(capsys, "ask", "what causes the race condition?", "--mind", mind.name, "--json")
    assert code == 0
    cited = json.loads(out)
    assert cited["cited_ids"]
    for node_id in cited["cited_ids"]:
        assert mind.get(node_id).LABEL not in WORKING


def test_a_locus_never_comes_back_beside_its_memory(mind):
    mind.import_jsonl(DEMO)
    mind.wander("race conditions in async code", steps=5, rng_seed=1, human_checkpoint_frequency=0)
    result = mind.recall("race condition", k=10, labels=["Locus", "Technical_Context", "Failed_Attempt"])
    ids = {hit.id for hit in result.hits}
    loci = [hit for hit in result.hits if hit.label == "Locus"]
    assert any(h.label != "Locus" for h in result.hits)
    for locus in loci:
        targets = mind.store.read("wander/get_locus", mind=mind.name, id=locus.id)[0]["refers_to"]
        if locus.node.source_type == "MEMORY":
            assert not set(targets) & ids
    alone = mind.recall("race condition", k=5, labels=["Locus"])  # asked alone, loci come back
    assert alone.hits and {h.label for h in alone.hits} == {"Locus"}


def test_the_default_labels_are_the_memories():
    assert set(RECALLED_LABELS) & WORKING == set()
    assert {"Experience", "Pattern", "Conversation_Memory", "TopicEntry"} <= set(RECALLED_LABELS)
    assert {"Finding", "Locus", "Residue", "Resonance", "Crystal"} <= WORKING
