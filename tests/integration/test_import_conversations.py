"""Conversations as first-class input: import rows and Mind.add_conversation on a real Neo4j
(issue 26, item 1)."""

import json

import pytest

from graphmind.errors import ValidationError
from tests.integration.helpers import edge, graph_snapshot, node, run_cli, write_jsonl

KILN = "the glaze kiln cracked along its rear wall during the cone six firing"


def conversation(session="s1", day="2024-05-02", first="s1-1", text=KILN):
    return {
        "type": "conversation",
        "session_id": session,
        "started_at": f"{day}T10:00:00Z",
        "participants": ["Ana", "Ben"],
        "turns": [
            {"id": first, "speaker": "Ana", "text": text, "timestamp": f"{day}T10:00:00Z"},
            {"id": f"{session}-2", "speaker": "Ben", "text": "was that the shelf by the vent?"},
            {"id": f"{session}-3", "speaker": "Ana", "text": "yes, the top shelf; I will move the pots down"},
        ],
    }


def _file(tmp_path, *extra):
    items = [
        node("Partnership", "ben", partner_name="Ben", trust_level=0.8),
        conversation(),
        conversation("s2", "2024-06-10", "s2-1", "the new kiln shelves arrived from the supplier"),
        *extra,
    ]
    return write_jsonl(tmp_path / "talk.jsonl", items)


def _edges(mind, rel):
    return sorted((x["from"], x["to"]) for x in map(json.loads, mind.export_jsonl()) if x.get("rel") == rel)


def test_the_cli_imports_conversations_beside_nodes_and_recall_returns_turns(mind, tmp_path, cli_env, capsys):
    code, out, err = run_cli(capsys, "import", str(_file(tmp_path)), "--mind", mind.name, "--json")
    assert code == 0, err
    assert json.loads(out)["nodes"] == 1 + 2 * (1 + 3) + 1  # partnership, 2 x (session + 3 turns), Ana's Person
    stats = mind.stats()
    assert (stats.labels["Turn"], stats.labels["Session"], stats.labels["Person"]) == (6, 2, 1)
    assert _edges(mind, "NEXT") == [("s1-1", "s1-2"), ("s1-2", "s1-3"), ("s2-1", "s2-2"), ("s2-2", "s2-3")]
    assert ("s1-3", "s1") in _edges(mind, "IN_SESSION") and len(_edges(mind, "IN_SESSION")) == 6
    spoken = dict(_edges(mind, "SPOKEN_BY"))
    assert spoken["s1-2"] == "ben" and spoken["s1-1"] == spoken["s2-3"] == "person-ana"
    assert str(mind.get("s1").started_at.date()) == "2024-05-02"

    hits = mind.recall("kiln cracked rear wall firing", k=5).hits
    assert hits[0].id == "s1-1" and hits[0].label == "Turn"
    code, out, err = run_cli(capsys, "recall", "kiln shelves supplier", "--mind", mind.name, "--json")
    assert code == 0, err
    assert json.loads(out)["hits"][0]["id"] == "s2-1"

    code, out, err = run_cli(capsys, "import", str(_file(tmp_path)), "--mind", mind.name, "--json")
    assert code == 0, err  # the same file again changes nothing
    assert mind.stats() == stats


def test_export_then_import_into_a_fresh_mind_gives_the_same_graph(mind, other_mind, tmp_path):
    mind.import_jsonl(_file(tmp_path))
    exported = write_jsonl(tmp_path / "out.jsonl", list(mind.export_jsonl()))
    assert not any(json.loads(line)["type"] == "conversation" for line in exported.read_text().splitlines())
    other_mind.import_jsonl(exported)
    assert graph_snapshot(other_mind) == graph_snapshot(mind)
    assert other_mind.stats().relationships == mind.stats().relationships
    assert other_mind.recall("kiln cracked rear wall firing", k=3).hits[0].id == "s1-1"


@pytest.mark.parametrize(
    "bad, field",
    [
        ({"turns": [{"id": "x-1", "speaker": "Zoe", "text": "hello"}]}, "turns.0.speaker"),
        ({"started_at": "yesterday"}, "started_at"),
        ({"turns": [{"id": "s1-1", "speaker": "Ana", "text": "a turn id already used"}]}, "id"),
    ],
)
def test_a_bad_row_gets_one_sentence_and_nothing_is_written(mind, tmp_path, cli_env, capsys, bad, field):
    row = {**conversation("s9", first="s9-1"), **bad}
    code, out, err = run_cli(capsys, "import", str(_file(tmp_path, row)), "--mind", mind.name)
    assert code == 2
    assert err.startswith(f"Error: line 4, field '{field}'") or f"line 4, field '{field}'" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert mind.stats().labels == {}


def test_add_conversation_from_python_does_what_the_row_does(mind, other_mind, tmp_path):
    mind.import_jsonl(_file(tmp_path))
    row = conversation("s3", "2024-07-01", "s3-1", "we fired the kiln again without a crack")
    report = other_mind.add_conversation(
        "s3", row["turns"], started_at=row["started_at"], participants=row["participants"]
    )
    assert report.nodes == 1 + 3 + 2 and report.invalid == []  # no Partnership in this mind: two Persons
    assert sorted(set(dict(_edges(other_mind, "SPOKEN_BY")).values())) == ["person-ana", "person-ben"]
    mind.add_conversation("s3", row["turns"], started_at=row["started_at"])  # participants: the speakers
    assert dict(_edges(mind, "SPOKEN_BY"))["s3-2"] == "ben"
    assert mind.get("s3").participants == ["Ana", "Ben"]

    with pytest.raises(ValidationError, match=r"^conversation 's4', field 'turns.1.text': "):
        mind.add_conversation(
            "s4",
            [{"id": "s4-1", "speaker": "Ana", "text": "ok"}, {"id": "s4-2", "speaker": "Ana", "text": ""}],
            started_at="2024-08-01T09:00:00Z",
        )
    with pytest.raises(ValidationError, match="needs started_at"):
        mind.add_conversation("s4", [{"id": "s4-1", "speaker": "Ana", "text": "ok"}])
    with pytest.raises(ValidationError, match=r"^conversation 's4': line 1, field 'id': duplicate id 's4'"):
        mind.add_conversation("s4", [{"id": "s4", "speaker": "Ana", "text": "ok"}], started_at="2024-08-01")
    assert "s4" not in {x["id"] for x in map(json.loads, mind.export_jsonl()) if x["type"] == "node"}


def test_minds_do_not_share_turns_speakers_or_recall(mind, other_mind, tmp_path):
    mind.import_jsonl(_file(tmp_path))
    other_mind.add_conversation(
        "s1", [{"id": "s1-1", "speaker": "Ben", "text": "orchard pruning is done"}], started_at="2024-01-01"
    )
    assert dict(_edges(other_mind, "SPOKEN_BY")) == {"s1-1": "person-ben"}  # mind's Partnership 'ben' is not seen
    assert other_mind.stats().labels == {"Turn": 1, "Session": 1, "Person": 1}
    assert [h.id for h in other_mind.recall("kiln cracked rear wall", k=5).hits if "kiln" in (h.text or "")] == []
    assert mind.get("s1-1").text == KILN


def test_the_mind_speaking_in_a_conversation_is_its_identity_not_a_person(other_mind, tmp_path):
    other_mind.import_jsonl(write_jsonl(tmp_path / "me.jsonl", [node("Identity", "me", name="Ana")]))
    other_mind.add_conversation(
        "s1",
        [
            {"id": "s1-1", "speaker": "ana", "text": "I trued the wheel"},
            {"id": "s1-2", "speaker": "Ben", "text": "thanks"},
        ],
        started_at="2024-01-01",
    )
    assert dict(_edges(other_mind, "SPOKEN_BY")) == {"s1-1": "me", "s1-2": "person-ben"}
    assert other_mind.stats().labels["Person"] == 1


def test_a_conversation_imported_again_after_its_speaker_became_the_identity_keeps_one_speaker(
    mind, other_mind, tmp_path, cli_env, capsys
):
    talk = _file(tmp_path)
    for m in (mind, other_mind):
        assert run_cli(capsys, "import", str(talk), "--mind", m.name)[0] == 0
    assert dict(_edges(mind, "SPOKEN_BY"))["s1-1"] == "person-ana"
    me = write_jsonl(tmp_path / "me.jsonl", [node("Identity", "me", name="Ana")])
    assert run_cli(capsys, "import", str(me), "--mind", mind.name)[0] == 0
    by_hand = write_jsonl(tmp_path / "co.jsonl", [edge("SPOKEN_BY", "s1-3", "ben")])  # a co-speaker, by hand
    assert run_cli(capsys, "import", str(by_hand), "--mind", mind.name)[0] == 0
    assert ("s1-3", "person-ana") in _edges(mind, "SPOKEN_BY")  # an edge line deletes nothing

    code, out, err = run_cli(capsys, "import", str(talk), "--mind", mind.name, "--json")
    assert code == 0, err
    assert json.loads(out)["respoken"] == 4  # Ana's four turns
    spoken = _edges(mind, "SPOKEN_BY")
    assert [to for turn, to in spoken if turn in ("s1-1", "s2-3")] == ["me", "me"]  # one speaker each
    assert sorted(to for turn, to in spoken if turn == "s1-3") == ["ben", "me"]  # the hand-made edge stays
    assert len(spoken) == 7 and mind.get("person-ana") is not None  # the stand-in stays; only its edges went
    assert dict(_edges(other_mind, "SPOKEN_BY"))["s1-1"] == "person-ana"  # another mind is untouched
    code, out, _ = run_cli(capsys, "import", str(talk), "--mind", mind.name, "--json")
    assert json.loads(out)["respoken"] == 0 and _edges(mind, "SPOKEN_BY") == spoken  # again: nothing changes
