"""What was done told apart from the state it was done in (graphmind.dream.deeds), and the
offline pattern's conditions and actions taken from each."""

import json
from pathlib import Path

import pytest

from graphmind.dream.deeds import opens_with_deed, state_then_deed
from graphmind.dream.offline import extract_pattern
from graphmind.prompts.dream import ExperienceItem, PatternExtractionInput


@pytest.mark.parametrize(
    "sentence",
    [
        "Cleaned the flame sensor, ran three cycles",
        "Cut it back to two buds",
        "Set the gap to 2 mm",
        "I swapped the valve core",
        "We then moved the trays to the cold room",
        "Re-seated the hammer flange",
        "Trued to 0.5 mm",
        "Rebuilt",
        "Fixed.",  # a one-word deed, its full stop kept as sentences() keeps it
        "Drained; refilled",
        "I also then replaced the valve",
        "Added Janet to the finance group",  # a name as the object
        "Lotte rewired the doorbell transformer",  # a name as the subject, an object after the verb
        "Dr Ferreira splinted it overnight",
        "Sam checked and reset both breakers",
        "The meter read 4 bar so we bled the radiators",  # a later clause
        "Swapped hose, clamped, refilled",  # verbs in a row, the first before a bare noun
        "Had to lift the whole floor panel",
        "Lanced and flushed it",
        "Seth set the timer to 6",  # the verb found as a word, not inside the name
        "Élodie rewired the lamp",
    ],
)
def test_a_sentence_opening_with_a_past_verb_and_its_object_tells_a_deed(sentence):
    assert opens_with_deed(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Boiler at the Hendersons' locking out on ignition",
        "Cracked glaze on the tall jugs again",  # a participle before its noun: a state
        "Bent hanger after the fall",
        "Seized seatpost on the tourer",
        "Tired dough, no oven spring",
        "The rear lever feels soft",
        "Need more flour for Saturday",
        "Speed dropped on the mixer",
        "Compressor stopped twice overnight",  # a thing that acts alone: no object after the verb
        "Courier turned up without the parts",
        "Scorched and blistered paint on the lid",  # participles joined by "and" before their noun
        "Frost got into the pipes",
        "It lost its prime overnight",  # a pronoun of a thing names no one
        "Cracked tile, chipped grout",  # participles before their nouns, not verbs in a row
        "Light flickered, went out at 9",  # a later clause without its own subject goes on with the thing
        "Fan spun and stopped",
    ],
)
def test_a_state_or_a_participle_before_its_noun_tells_no_deed(sentence):
    assert not opens_with_deed(sentence)


def test_the_state_and_the_deed_of_an_entry_are_its_opening_and_its_first_later_deed():
    text = "Boiler locking out on ignition. Customer away till noon. Cleaned the flame sensor, fine."
    assert state_then_deed(text) == ("Boiler locking out on ignition.", "Cleaned the flame sensor, fine.")
    assert state_then_deed("Cleaned the flame sensor. Boiler fine since.") is None  # it opens with the deed
    assert state_then_deed("Boiler locking out. Customer away till noon.") is None  # nothing was done
    assert state_then_deed("Boiler locking out on ignition") is None
    nothing = "Router dropping calls. Rebooted it; nothing. Replaced the PSU."
    assert state_then_deed(nothing) == ("Router dropping calls.", "Replaced the PSU.")  # a one-word failure
    tried = "Boiler locking out on ignition. Then tried a reset. Cleaned the sensor."
    assert state_then_deed(tried) == ("Boiler locking out on ignition.", "Cleaned the sensor.")  # after an adverb too


@pytest.mark.parametrize(
    "text, deed",
    [
        ("Lamp flickering. Reseated the lamp, still flickering. Swapped the unit.", "Swapped the unit."),
        ("Engine would not fire. Bled the fuel system twice, no luck. Freed the solenoid.", "Freed the solenoid."),
        ("Reset the RCD, still tripping. Replaced the element.", "Replaced the element."),  # the opening tried
        (
            "Tyre losing air. Topped up the sealant, still holding a day later.",
            "Topped up the sealant, still holding a day later.",
        ),
    ],
)
def test_a_deed_that_says_it_did_not_work_gives_way_to_the_one_that_did(text, deed):
    assert state_then_deed(text)[1] == deed


def test_offline_conditions_are_the_states_and_actions_the_deeds():
    texts = [
        "Boiler locking out on ignition. Cleaned the flame sensor and ran three cycles.",
        "Combi boiler locking out after a minute. Cleaned the flame sensor, relit fine.",
        "Boiler lockout on the old Baxi again. Replaced the flame sensor lead.",
    ]
    items = [ExperienceItem(id=f"e{k}", description=t, outcome="success") for k, t in enumerate(texts)]
    pattern = extract_pattern(PatternExtractionInput(experiences=items), [])
    assert all("locking out" not in a and "lockout" not in a for a in pattern.actions), pattern.actions
    assert any(a.startswith("Cleaned the flame sensor") for a in pattern.actions)
    assert any("locking out" in c for c in pattern.conditions), pattern.conditions
    assert "Cleaned the flame sensor" in pattern.name or "flame sensor" in pattern.name, pattern.name


def _acted_on(rows):
    picked = []
    for r in rows:
        told = state_then_deed(r["text"])
        picked.append(r["sentences"].index(told[1]) if told and told[1] in r["sentences"] else 0)
    return picked


def test_on_labelled_work_logs_the_deed_is_found_and_corrupted_labels_fail():
    path = Path(__file__).resolve().parents[1] / "data" / "deeds" / "notes_blind4.jsonl"  # scored once, not adjusted on
    rows = [r for r in map(json.loads, path.read_text().splitlines()) if r["action"] is not None]
    picked = _acted_on(rows)
    right = sum(p == r["action"] for p, r in zip(picked, rows)) / len(rows)
    opening = sum(r["action"] == 0 for r in rows) / len(rows)
    assert right >= opening + 0.2, (right, opening)
    swapped = [  # the situation labelled as the deed: the same score must fall
        {**r, "action": r["state"]} for r in rows if r["state"] is not None and r["state"] != r["action"]
    ]
    wrong = sum(p == r["action"] for p, r in zip(_acted_on(swapped), swapped)) / len(swapped)
    assert wrong < 0.5 * right, (wrong, right)


def test_a_symptom_with_a_thing_as_subject_opens_the_entry_and_the_later_deed_is_found():
    assert state_then_deed("Pump lost its prime. Bled the pump and restarted it.") == (
        "Pump lost its prime.",
        "Bled the pump and restarted it.",
    )
    told = "Router dead. Customer says it stopped, then restarted the next morning. Replaced the PSU."
    assert state_then_deed(told) == ("Router dead.", "Replaced the PSU.")


def test_long_or_odd_input_is_read_at_once():
    assert opens_with_deed("Lanced" + " and cut" * 5000)
    assert not opens_with_deed("Boiler noisy" + " " * 50_000 + "x")
    assert state_then_deed("Boiler noisy. " + "- " * 20_000 + "same") is None
    assert not opens_with_deed("") and not opens_with_deed(",;:") and state_then_deed("...") is None
