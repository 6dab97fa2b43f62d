"""Embedding pass and hybrid recall on the real Neo4j, with the default (MiniLM) embedder."""

from __future__ import annotations

import json

import pytest

from graphmind.embed import HashingEmbedder
from graphmind.errors import UnknownLabelError, ValidationError
from graphmind.mind import Mind
from graphmind.recall import ReembeddedWarning

from .helpers import DEMO, graph_snapshot, node, run_cli, write_jsonl

pytestmark = pytest.mark.integration


def _props(mind: Mind, node_id: str) -> dict:
    """The node's properties as stored, once the hits of the recalls made so far are written."""
    mind.flush()
    rows = mind.store.read("memory/get_node", mind=mind.name, id=node_id)
    return rows[0]["props"]


def _pending(mind: Mind) -> int:
    return len(mind.store.read("embed/list_pending", mind=mind.name, limit=10_000))


def test_import_leaves_embedding_to_the_pass_which_embeds_each_text_once(mind):
    report = mind.import_jsonl(DEMO)
    assert _pending(mind) == report.nodes  # every demo node is a memory
    assert "embedding" not in _props(mind, "tc-settlement-worker")

    first = mind.embed()
    assert first.embedded == report.nodes and first.model_id == mind.embedder.model_id
    stored = _props(mind, "tc-settlement-worker")
    assert len(stored["embedding"]) == 384 and stored["embedding_model"] == first.model_id
    assert _pending(mind) == 0

    again = mind.embed()
    assert (again.checked, again.embedded) == (0, 0)
    mind.import_jsonl(DEMO)  # same file: nothing changed, nothing flagged
    assert _pending(mind) == 0


def test_changed_text_is_re_embedded_and_unchanged_text_is_not(mind, tmp_path):
    mind.import_jsonl(DEMO)
    mind.embed()
    before = _props(mind, "cons-audit")["embedding"]
    changed = write_jsonl(
        tmp_path / "c.jsonl",
        [
            node(
                "Constraint",
                "cons-audit",
                constraint_type="compliance",
                severity="high",
                description="Every payout must be traceable to exactly one settlement record.",
                impact="duplicate payouts are audit findings",
            ),  # severity is not text
            node(
                "Constraint",
                "cons-new",
                constraint_type="latency",
                severity="low",
                description="Payout confirmation within two seconds.",
                impact="user trust",
            ),
        ],
    )
    mind.import_jsonl(changed)
    report = mind.embed()
    assert (report.checked, report.embedded, report.current) == (2, 1, 1)
    assert _props(mind, "cons-audit")["embedding"] == before


def test_a_model_change_is_detected_and_re_embedded_on_the_next_recall(store, settings, mind):
    hashing = Mind(mind.name, store, settings, embedder=HashingEmbedder())
    hashing.import_jsonl(DEMO)
    assert hashing.embed().embedded == 28
    assert _props(mind, "tc-settlement-worker")["embedding_model"] == HashingEmbedder().model_id

    # the fallback's vectors are not silently skipped: the default model embeds them again, and says so
    with pytest.warns(ReembeddedWarning, match="embedded again"):
        fresh = mind.recall("race condition", k=5)
    assert (fresh.reembedded, fresh.stale) == (28, 0)
    assert any("vector" in hit.why() for hit in fresh.hits)
    assert _props(mind, "tc-settlement-worker")["embedding_model"] == mind.embedder.model_id
    assert mind.embed().embedded == 0
    assert mind.recall("race condition", k=5).reembedded == 0


def test_cli_recall_after_the_hashing_fallback_re_embeds_and_tells(cli_mind, cli_env, capsys, monkeypatch):
    monkeypatch.setenv("GRAPHMIND_EMBEDDER", "hashing")
    assert run_cli(capsys, "import", str(DEMO), "--mind", cli_mind)[0] == 0
    assert run_cli(capsys, "embed", "--mind", cli_mind)[0] == 0
    monkeypatch.delenv("GRAPHMIND_EMBEDDER")
    code, out, err = run_cli(capsys, "recall", "race condition", "--mind", cli_mind)
    assert code == 0 and not err
    assert "28 memories had been embedded by another model and were embedded again" in out
    code, out, _ = run_cli(capsys, "recall", "race condition", "--mind", cli_mind, "--json")
    assert json.loads(out)["reembedded"] == 0 and json.loads(out)["stale"] == 0


def test_recall_finds_the_race_condition_and_says_why(mind):
    mind.import_jsonl(DEMO)
    result = mind.recall("the race condition is back after the queue change", k=5)
    assert result.embedded == 28  # the pass ran first
    ids = [hit.id for hit in result.hits]
    assert len(ids) == 5 and "conv-race-2" in ids[:2]
    top = result.hits[0]
    assert set(top.why()) == {"vector", "text"}
    assert {"race", "condition"} <= set(top.why()["text"]["terms"])
    assert result.hits == sorted(result.hits, key=lambda h: -h.score)


def _hit_counts(mind: Mind) -> dict[str, int]:
    return {
        line["id"]: line["properties"].get("hits", 0)
        for line in map(json.loads, mind.export_jsonl())
        if line["type"] == "node"
    }


def test_recall_counts_hits_on_returned_nodes_only(mind):
    mind.import_jsonl(DEMO)
    before = _hit_counts(mind)  # the demo's TopicEntry nodes come with hit counts of their own
    result = mind.recall("duplicate payouts", k=3)
    returned = {hit.id for hit in result.hits}
    mind.recall("duplicate payouts", k=3)
    after = _hit_counts(mind)
    assert {i for i in after if after[i] != before[i]} == returned
    for node_id in returned:
        assert after[node_id] == before[node_id] + 2
        assert _props(mind, node_id)["last_hit_at"] is not None


SAMPLES = [
    "Sample S-4102 needed 1:100 dilution to fall within the calibration range",
    "Sample S-4107 ran clean on the first injection, no dilution needed",
    "Sample S-4120 showed a split peak; re-prepared and injected again",
    "Diluted sample S-4110 tenfold; the peak still saturated the detector",
    "Sample S-4102 retest after dilution matched the first result within 2%",
]


def test_recall_puts_the_memories_naming_an_identifier_first_and_counts_only_those_returned(mind, monkeypatch):
    """An embedding reads S-4110 and S-4102 as near twins, so fused scores alone rank a memory
    about S-4102 first for "S-4110 dilution"; a memory naming the identifier comes first."""
    mind.capture_many(
        [{"id": f"s{i}", "description": t, "outcome": "success", "kind": "move"} for i, t in enumerate(SAMPLES)]
    )
    before = _hit_counts(mind)
    first = mind.recall("S-4110 dilution", k=2).hits
    assert first[0].id == "s3" and first[0].why()["identifiers"] == ["S-4110"]  # why it ranks first
    assert "identifiers" not in first[1].why()
    second = mind.recall("what happened with s-4102?", k=3).hits
    assert {h.id for h in second[:2]} == {"s0", "s4"}
    after = _hit_counts(mind)  # the candidates read to find them are not counted
    assert {i for i in after if after[i] != before[i]} == {h.id for h in first + second}
    monkeypatch.setattr("graphmind.recall.recaller.identifiers", lambda text: [])
    assert mind.recall("S-4110 dilution", k=2).hits[0].id != "s3"  # fused order alone: the check can fail


def test_an_identifier_no_memory_names_is_said_in_recall_and_in_ask(mind, cli_env, capsys):
    """S-4119 is in no memory: its near twins come back, and recall, the CLI, the recall tool and
    the offline answer say that they only resemble it."""
    mind.capture_many(
        [{"id": f"s{i}", "description": t, "outcome": "success", "kind": "move"} for i, t in enumerate(SAMPLES)]
    )
    result = mind.recall("what was the dilution for S-4119?", k=3)
    assert result.hits and result.unnamed == ["S-4119"]
    assert mind.recall("what was the dilution for S-4110?", k=3).unnamed == []
    assert mind.recall("what was the dilution for S-4110 and S-4119?", k=3).unnamed == ["S-4119"]
    code, out, err = run_cli(capsys, "recall", "dilution for S-4119", "--mind", mind.name)
    assert code == 0 and out.startswith("note: no memory names S-4119: the memories recalled only resemble it")
    code, out, err = run_cli(capsys, "recall", "dilution for S-4119", "--mind", mind.name, "--json")
    assert json.loads(out)["unnamed_identifiers"] == ["S-4119"]

    run = mind.ask("What dilution did sample S-4119 need?")
    assert run.calls[0].output["note"].startswith("no memory names S-4119")
    assert not run.output.found and run.output.answer.startswith("No memory names S-4119.")
    named = mind.ask("What dilution did sample S-4110 need?")
    assert named.output.found and "s3" in named.output.cited_ids and "note" not in named.calls[0].output
    both = mind.ask("Did S-4110 and S-4119 both need dilution?")
    assert both.output.found and both.output.answer.startswith("No memory names S-4119.")
    alone = mind.ask("S-4110")  # the id alone shares no other word with its memory
    assert alone.output.found and alone.output.cited_ids == ["s3"]
    twins = mind.ask("What went wrong with sample S-4102?")  # its near twins S-4107, S-4110 stay out
    assert twins.output.found and set(twins.output.cited_ids) <= {"s0", "s4"}


def test_recall_filters_by_label_and_rejects_unknown_labels(mind):
    mind.import_jsonl(DEMO)
    result = mind.recall("race condition", k=10, labels=["Technical_Context"])
    assert result.hits and {hit.label for hit in result.hits} == {"Technical_Context"}
    with pytest.raises(UnknownLabelError):
        mind.recall("race condition", labels=["Technical_Context:Admin"])
    with pytest.raises(UnknownLabelError, match=r"\(Abstraction, .*Experience, .*Turn"):  # it names the known ones
        mind.recall("race condition", labels=["RuminationRun"])  # a run, not a memory


@pytest.mark.parametrize("bad", ["", "  ", "caf\udce9"])
def test_recall_rejects_empty_and_non_utf8_text_before_touching_the_graph(mind, bad):
    mind.import_jsonl(DEMO)
    with pytest.raises(ValidationError):
        mind.recall(bad)
    assert _pending(mind) == 28  # nothing was embedded, no hit counted


def test_recall_with_a_100k_character_text_works(mind):
    mind.import_jsonl(DEMO)
    long_text = ("settlement worker race condition duplicate payouts " * 2000)[:100_000]
    result = mind.recall(long_text, k=3)
    assert len(result.hits) == 3 and result.hits[0].why()


@pytest.mark.parametrize("unscoped_share", [0.5, 0.0])
def test_recall_never_returns_or_touches_another_minds_nodes(mind, other_mind, tmp_path, monkeypatch, unscoped_share):
    """Also when the full-text query leaves the mind out (caches.TextScopes: a mind holding most
    of the database; share 0 makes every mind one): the noise of the other mind, which matches
    the words better, is skipped and the mind's own text matches still come."""
    monkeypatch.setattr("graphmind.recall.caches.UNSCOPED_SHARE", unscoped_share)
    mind.import_jsonl(DEMO)
    other_mind.import_jsonl(DEMO)
    noise = write_jsonl(
        tmp_path / "noise.jsonl",
        [
            node(
                "Technical_Context",
                f"noise-{i}",
                component="settlement-worker",
                issue_type="race condition",
                description=f"race condition number {i} in the settlement worker queue",
                status="open",
            )
            for i in range(300)
        ],
    )
    other_mind.import_jsonl(noise)
    other_mind.embed()
    mind.recall("race condition in the settlement worker", k=10)  # the first one learns the mind's size
    assert mind.recaller._scopes.scoped(mind.name) == (unscoped_share > 0)
    result = mind.recall("race condition in the settlement worker", k=10)
    assert len(result.hits) == 10 and sum(hit.text_rank is not None for hit in result.hits) >= 5
    assert not any(hit.id.startswith("noise-") for hit in result.hits)
    assert all("hits" not in _props(other_mind, hit.id) for hit in result.hits)


def test_export_import_round_trip_keeps_embeddings_without_re_embedding(mind, other_mind, tmp_path):
    mind.import_jsonl(DEMO)
    mind.embed()
    exported = write_jsonl(tmp_path / "out.jsonl", list(mind.export_jsonl()))
    other_mind.import_jsonl(exported)
    report = other_mind.embed()
    assert (report.embedded, report.current) == (0, 28)
    assert graph_snapshot(other_mind) == graph_snapshot(mind)


def test_cli_recall_and_embed_json(mind, cli_env, capsys):
    mind.import_jsonl(DEMO)
    code, out, err = run_cli(capsys, "embed", "--mind", mind.name, "--json")
    assert code == 0 and json.loads(out)["embedded"] == 28
    code, out, err = run_cli(capsys, "recall", "race condition", "--mind", mind.name, "-k", "3", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["mind"] == mind.name and len(payload["hits"]) == 3
    assert {"id", "label", "score", "text", "why", "properties"} <= payload["hits"][0].keys()
    assert "embedding" not in payload["hits"][0]["properties"]
    code, out, err = run_cli(capsys, "recall", "", "--mind", mind.name)
    assert code == 2 and err.count("\n") == 1 and "empty" in err and "Traceback" not in err
    code, out, err = run_cli(capsys, "recall", "caf\udce9", "--mind", mind.name)  # argv byte 0xe9
    assert code == 2 and err.count("\n") == 1 and "UTF-8" in err


def test_ask_lets_the_offline_llm_recall_through_graph_tools_and_cite_ids(mind, capsys, cli_env):
    mind.import_jsonl(DEMO)
    run = mind.ask("What did the queue migration do to the race condition?")
    assert [call.tool for call in run.calls] == ["recall_memories"]
    recalled = {hit["id"] for hit in run.calls[0].output["hits"]}
    assert run.output.found and run.output.cited_ids
    assert set(run.output.cited_ids) <= recalled  # it cites only what the graph tool returned
    assert "conv-race-2" in run.output.cited_ids
    assert mind.llm.usage.calls == 1 and mind.llm.usage.records[0].prompt == "recall.answer@1"

    code, out, err = run_cli(capsys, "ask", "What did the queue migration do?", "--mind", mind.name, "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["found"] and payload["llm"]["provider"] == "offline"
    assert payload["tool_calls"][0]["tool"] == "recall_memories"


def test_get_memory_tool_reads_only_this_mind(mind, other_mind):
    from graphmind.recall.tools import GetMemoryInput, memory_tools

    mind.import_jsonl(DEMO)
    tools = {t.name: t for t in memory_tools(other_mind.recall, other_mind.get)}
    assert "error" in tools["get_memory"].call(GetMemoryInput(id="tc-settlement-worker"))
    tools = {t.name: t for t in memory_tools(mind.recall, mind.get)}
    found = tools["get_memory"].call(GetMemoryInput(id="tc-settlement-worker"))
    assert found["label"] == "Technical_Context" and "embedding" not in found["properties"]


def test_ask_through_claude_on_the_messages_stub_runs_graph_tools_on_neo4j(store, settings, mind):
    """The whole path through the real SDK: Claude (the stub) calls recall_memories, graphmind
    runs it on Neo4j, the results go back as a tool_result, and the final JSON answer validates."""
    import anthropic

    from graphmind.llm.anthropic import AnthropicLLM
    from tests.fixtures.messages_stub import MessagesStub, json_reply, tool_reply

    stub = MessagesStub().start()
    client = anthropic.Anthropic(base_url=stub.url, api_key="test", max_retries=0, timeout=10)
    try:
        llm = AnthropicLLM(client, model="claude-stub-1", prices={"claude-stub-1": (200.0, 1000.0)})
        claude = Mind(mind.name, store, settings, llm=llm)
        claude.import_jsonl(DEMO)
        stub.script(
            tool_reply(
                "recall_memories",
                {"query": "race condition queue migration", "k": 3},
                thinking="The graph should know about the migration.",
            ),
            json_reply(
                {
                    "answer": "Redelivery after the queue migration [conv-race-2].",
                    "cited_ids": ["conv-race-2"],
                    "found": True,
                }
            ),
        )
        run = claude.ask("What did the queue migration do to the race condition?")
    finally:
        client.close()
        stub.stop()
    assert run.output.cited_ids == ["conv-race-2"]
    recalled = [hit["id"] for hit in run.calls[0].output["hits"]]
    assert "conv-race-2" in recalled and len(recalled) == 3
    second = stub.requests[1].body
    tool_result = second["messages"][-1]["content"][0]
    assert tool_result["type"] == "tool_result" and "conv-race-2" in json.dumps(tool_result["content"])
    assert second["messages"][-2]["content"][0]["type"] == "thinking"  # sent back unchanged
    assert "format" in second["output_config"]
    assert llm.usage.calls == 2 and llm.usage.cost_cents > 0
    assert _props(mind, "conv-race-2")["hits"] >= 1  # the tool's recall counted its hits


def test_ask_says_it_found_nothing_when_no_memory_is_about_the_question(mind):
    """The recall tool hands the LLM only memories about the query; the nearest memories of
    another matter (a payroll question shares "budget" with retry budgets) are not an answer."""
    mind.import_jsonl(DEMO)
    on = mind.ask("Why did the race condition come back?")
    assert on.output.found and on.output.cited_ids
    off = mind.ask("How long should sourdough bread proof before baking?")
    assert not off.output.found and off.output.cited_ids == []
    assert off.calls[0].output["hits"] == [] and off.calls[0].output["note"].startswith("no memory of this mind")
    nearest = mind.ask("How long should sourdough bread proof before baking?", only_about=False)
    assert nearest.calls[0].output["hits"]  # the check can fail: without it the nearest come back


FLEET = [  # one tail number in many memories: where the question is, not what it asks
    ("N482KT", "Brake wear pins flush on the left main gear, replaced the brake assembly"),
    ("N482KT", "Propeller hub bolts found loose at the walkaround, re-torqued them and safety wired"),
    ("N482KT", "Fuel nozzles coked on the right engine, cleaned them and the spray pattern came back even"),
    ("N482KT", "Landing light inoperative, deferred it under the minimum equipment list for daytime flights"),
    ("N482KT", "Pitot heat breaker tripped on the ground run, found a chafed wire and repaired it"),
    ("N482KT", "Hydraulic fitting weeping at the nose gear actuator, replaced the seal and leak checked it"),
    ("N517KT", "Starter-generator would not come online after engine start, replaced the generator control unit"),
    ("N630KT", "Starter-generator brushes worn to the limit, replaced the starter-generator"),
    ("N744KT", "Generator offline light after start: starter-generator terminal loose, tightened it, online since"),
    ("N517KT", "Aileron cable tension low in the cold, re-rigged the cable to the rigging chart"),
    ("N630KT", "Borescope of the hot section found a cracked combustor liner, engine removed"),
    ("N744KT", "Cabin fan breaker popped twice, the fan motor drew too much current, replaced the fan"),
    ("N517KT", "Brake assembly worn past the pins on the right main gear, replaced it"),
    ("N630KT", "Deferred the inoperative cabin reading light under the minimum equipment list"),
    ("N744KT", "Fuel nozzle flow check on the left engine, two nozzles cleaned"),
    ("N517KT", "Hydraulic pressure line fitting leaking at the flap actuator, re-torqued the B-nut"),
]


def test_a_tail_number_most_memories_name_does_not_outrank_the_topic(mind):
    mind.capture_many(
        [
            {"id": f"f{i}", "description": f"{tail}: {text}", "outcome": "success", "kind": "move"}
            for i, (tail, text) in enumerate(FLEET)
        ]
    )
    question = "N482KT starter-generator will not come online after engine start, what should I check?"
    hits = mind.recall(question, k=5).hits
    about = {f"f{i}" for i, (_, text) in enumerate(FLEET) if "generator" in text.lower()}
    assert hits[0].id in about and len(about & {h.id for h in hits[:3]}) >= 2, [h.id for h in hits]
    assert mind.recall("What happened to N517KT's generator?", k=5).hits[0].id == "f6"  # still names it first
    answer = mind.ask(question).output
    assert answer.found and set(answer.cited_ids) & about, answer  # the offline ask answers the topic too


PRINT_SHOP = [  # each client in several memories about different matters
    ("p1", "Marlowe Foods wants the new menus on 350gsm silk card with a soft-touch laminate"),
    ("p2", "Marlowe Foods pays on 60-day terms; their invoices go to the accounts inbox"),
    ("p3", "The Marlowe Foods menu proof came back with the allergen icons misaligned; we nudged them 2 mm"),
    ("p4", "Quayside Gallery's exhibition posters print in A1 on the wide-format inkjet, matte paper"),
    ("p5", "Quayside Gallery asked for Pantone 186 red; the digital press drifts, so we proof it every run"),
    ("p6", "Ordered 40 reams of 120gsm uncoated from Hensby Paper; delivery Thursday"),
    ("p7", "The guillotine blade was blunt and cut the flyers ragged; sharpened it and recut the batch"),
]


def test_ask_does_not_answer_from_a_memory_that_only_names_what_the_question_names(mind):
    """A name makes a question and a memory alike whatever each says of it: a memory about a
    client's menus is no answer to a question about the client's delivery van. Judged on both
    texts without the names (``knowledge._about_beyond_names``), while a question about what
    the memories hold still finds it."""
    mind.capture_many([{"id": i, "description": t, "outcome": "success", "kind": "move"} for i, t in PRINT_SHOP])
    on = mind.ask("What card stock does Marlowe Foods want for its menus?")
    assert on.output.found and on.output.cited_ids[0] == "p1"
    red = mind.ask("Which red does Quayside Gallery use?")
    assert red.output.found and red.output.cited_ids[0] == "p5"
    for question in (
        "Who is the head chef at Marlowe Foods?",
        "When does Quayside Gallery open on Sundays?",
    ):  # how often it holds: bench/ask_quality.py's *-names rows
        off = mind.ask(question)
        assert not off.output.found and off.output.cited_ids == [], (question, off.output)
    assert mind.ask("Who is the head chef at Marlowe Foods?", only_about=False).output.found  # the check can fail


def test_ask_does_not_answer_about_a_name_no_memory_holds(mind):
    """A question naming what the mind has never heard of is about no memory naming another
    thing, however near its other words come: the print shop knows Quayside Gallery's posters,
    not Harbour Gallery's, and Hensby Paper, not Hensby Mills. A plural asked where the
    memories hold the singular is heard ("Hensby Papers")."""
    mind.capture_many([{"id": i, "description": t, "outcome": "success", "kind": "move"} for i, t in PRINT_SHOP])
    unknown = mind.ask("What paper do Harbour Gallery's exhibition posters print on?")
    assert not unknown.output.found and unknown.output.cited_ids == [], unknown.output
    assert unknown.calls[0].output["note"] == "no memory of this mind names harbour gallery"
    known = mind.ask("What paper do Quayside Gallery's exhibition posters print on?")
    assert known.output.found and known.output.cited_ids[0] == "p4", known.output
    kin = mind.ask("How many reams did we order from Hensby Mills?")  # Hensby Paper is another firm
    assert not kin.output.found, kin.output
    plural = mind.ask("How many reams did we order from Hensby Papers?")
    assert plural.output.found and plural.output.cited_ids[0] == "p6", plural.output
    anyway = mind.ask("What paper do Harbour Gallery's exhibition posters print on?", only_about=False)
    assert anyway.output.found  # the check can fail: without it the Quayside posters answer


def test_a_name_finds_its_possessive_by_text_and_is_heard(mind):
    """A notebook writes "Tomasz's Level" (and "Kenji’s Revolt", a typographic apostrophe); the
    index keeps each one token, and a search for the name alone must still find them by text."""
    from graphmind.recall.unheard import unheard_words

    mind.capture_many(
        [
            {
                "id": "b1",
                "description": "Tomasz's SRAM Level rear: full bleed with DOT 5.1, lever firm again",
                "outcome": "success",
            },
            {
                "id": "b2",
                "description": "Kenji’s Revolt front tyre loses 10 psi a day; topped up the sealant",
                "outcome": "success",
            },
            {
                "id": "b3",
                "description": "Sam's rear brake cable frayed at the pinch bolt, new cable fitted",
                "outcome": "success",
            },
        ]
    )
    mind.flush()  # the full-text index is eventually consistent
    for name, wanted in (("Tomasz rear brake", "b1"), ("Kenji", "b2")):
        hits = {h.id: h for h in mind.recall(name, k=3).hits}
        assert wanted in hits and "text" in hits[wanted].why(), (name, {i: h.why() for i, h in hits.items()})
    assert unheard_words(mind.store, mind.name, ["tomasz", "kenji", "zorblax"]) == {"zorblax"}


def test_a_message_of_sixty_four_words_is_recalled_within_lucenes_clause_limit(mind):
    """64 distinct words asked in the index's 40 fields were 2,560 clauses: Lucene refused them
    (over 1,024) and recall failed with a StoreError."""
    mind.capture({"id": "w1", "description": "alpha bravo charlie: the relay tripped", "outcome": "success"})
    mind.flush()  # the full-text index is eventually consistent
    words = [f"word{a}{b}" for a in "abcdefgh" for b in "abcdefgh"]
    hits = mind.recall(" ".join(["alpha", *words]), k=3).hits
    assert [h.id for h in hits] == ["w1"] and "text" in hits[0].why()


def test_an_outdated_hit_read_past_k_brings_in_no_replacement_over_a_valid_hit(mind):
    """When recall reads past k for valid hits to stand in for outdated ones, an outdated hit it
    finds there is left out: its replacement (brought in where it ranks, before the valid hit
    below it) would push a valid hit out of k that the first k would have kept."""
    query = "seized spoke nipples on the commuter wheel"
    mind.capture({"id": "old-1", "description": query, "outcome": "success", "invalid_at": "2026-01-01T00:00:00Z"})
    mind.capture({"id": "v-1", "description": query + ", freed with penetrating oil", "outcome": "success"})
    mind.capture({"id": "old-2", "description": "seized nipples again on the commuter", "outcome": "success"})
    mind.capture({"id": "v-2", "description": "spoke nipples would not turn, so replaced", "outcome": "success"})
    mind.capture(
        {"id": "new-2", "description": "ordered a bench truing stand", "outcome": "success"}, supersedes=["old-2"]
    )
    mind.flush()
    deep = [h.id for h in mind.recall(query, k=6).hits]
    assert deep.index("new-2") < deep.index("v-2") and "old-2" in deep, deep  # the replacement ranks above v-2
    hits = mind.recall(query, k=2).hits  # the first 2: old-1 (outdated, nothing replaces it), v-1
    assert [h.id for h in hits] == ["v-1", "v-2"], [(h.id, h.outdated, h.why()) for h in hits]  # not new-2, old-2


def test_valid_hits_found_past_k_take_the_place_of_outdated_ones(mind, tmp_path):
    """Outdated memories nothing replaces (here past their invalid_at; retired ladder nodes in a
    new user's trial) ranked in the first k pushed out valid ones that matched a little less:
    with k = 3 the valid hits come first and fill k, the outdated only where none is left."""
    old = "2026-01-01T00:00:00+00:00"
    rows = [
        node(
            "Experience",
            "old-1",
            description="seized spoke nipples on the commuter wheel",
            outcome="success",
            invalid_at=old,
        ),
        node(
            "Experience",
            "old-2",
            description="seized spoke nipples, the commuter wheel again",
            outcome="success",
            invalid_at=old,
        ),
        node("Experience", "v-1", description="freed seized nipples with penetrating oil overnight", outcome="success"),
        node("Experience", "v-2", description="spoke nipples would not turn, replaced them", outcome="success"),
        node("Experience", "v-3", description="commuter wheel trued after new nipples", outcome="success"),
    ]
    mind.import_jsonl(write_jsonl(tmp_path / "n.jsonl", rows))
    mind.flush()
    hits = mind.recall("seized spoke nipples on the commuter wheel", k=3).hits
    assert [h.outdated is None for h in hits] == [True, True, True], [(h.id, h.outdated) for h in hits]
    five = mind.recall("seized spoke nipples on the commuter wheel", k=5).hits
    assert [h.id for h in five][3:] and all(h.outdated for h in five[3:])  # after every valid one
