from datetime import UTC

import pydantic
import pytest

from graphmind.errors import UnknownLabelError
from graphmind.models import (
    NODE_TYPES,
    Abstraction,
    Conversation_Memory,
    Experience,
    Partnership,
    base_label,
    check_rel_type,
    edge_properties_model,
    node_model,
)


def test_every_design_label_is_registered():
    design = {
        "Identity",
        "Partnership",
        "Conversation_Memory",
        "Technical_Context",
        "Emotional_State",
        "Strategy_Pattern",
        "Code_Reference",
        "Failed_Attempt",
        "Constraint",
        "Experience",
        "Pattern",
        "Abstraction",
        "DreamRun",
        "WanderSession",
        "Locus",
        "Residue",
        "Resonance",
        "Crystal",
        "WarmMemory",
        "TopicEntry",
        "Thread",
        "RuminationRun",
        "Finding",
        "Turn",
        "Session",
        "Person",
        "ForgetRun",
    }
    assert set(NODE_TYPES) == design


def test_runs_and_memories_get_their_shared_label():
    assert base_label("DreamRun") == "Run"
    assert base_label("WanderSession") == "Run"
    assert base_label("Pattern") == "Memory"


@pytest.mark.parametrize("value", [-0.01, 1.01])
def test_unit_interval_is_enforced(value):
    with pytest.raises(pydantic.ValidationError, match="trust_level"):
        Partnership(id="p", partner_name="N", trust_level=value)


def test_enums_are_enforced():
    with pytest.raises(pydantic.ValidationError, match="outcome"):
        Experience(id="e", description="d", outcome="maybe")
    with pytest.raises(pydantic.ValidationError, match="level"):
        Abstraction(id="a", name="n", level=5)


def test_naive_datetimes_are_utc_and_bad_ones_fail():
    memory = Conversation_Memory(id="c", topic="t", timestamp="2026-10-02T14:10:00")
    assert memory.timestamp.tzinfo == UTC
    with pytest.raises(pydantic.ValidationError, match="timestamp"):
        Conversation_Memory(id="c", topic="t", timestamp="last tuesday")


def test_lists_must_be_lists_of_strings():
    with pytest.raises(pydantic.ValidationError, match="key_points"):
        Conversation_Memory(id="c", topic="t", key_points="one point")


def test_extra_properties_must_be_storable():
    assert Partnership(id="p", partner_name="N", team="core").properties()["team"] == "core"
    with pytest.raises(pydantic.ValidationError, match="nested"):
        Partnership(id="p", partner_name="N", nested={"a": 1})
    with pytest.raises(pydantic.ValidationError, match="mixed"):
        Partnership(id="p", partner_name="N", mixed=[1, "a"])
    with pytest.raises(pydantic.ValidationError, match="set by graphmind"):
        Partnership(id="p", partner_name="N", mind="other")


@pytest.mark.parametrize("name", ["", "a\x00b"])
def test_property_names_neo4j_refuses_are_refused_by_the_models(name):
    with pytest.raises(pydantic.ValidationError, match="property name"):
        Partnership.model_validate({"id": "p", "partner_name": "N", name: 1})
    with pytest.raises(pydantic.ValidationError, match="property name"):
        edge_properties_model("FOLLOWS").model_validate({name: 1})


def test_text_is_derived_from_the_text_fields_and_not_stored():
    partner = Partnership(
        id="p", partner_name="Nicolas", communication_style="terse", shared_history=["ledger rewrite"]
    )
    assert partner.derived_text() == "Nicolas — terse — ledger rewrite"
    assert "text" not in partner.properties() and "id" not in partner.properties()
    assert Partnership(id="p", partner_name="N", text="given").derived_text() == "given"


@pytest.mark.parametrize("label", ["Partnership:Admin", "partnership", "Memory", "", None, 3])
def test_unknown_labels_are_refused(label):
    with pytest.raises(UnknownLabelError):
        node_model(label)


@pytest.mark.parametrize("rel", ["KNOWS]->() DETACH DELETE n //", "knows", "A-B", "", None, "X" * 101, "KNOWS\n"])
def test_bad_relationship_types_are_refused(rel):
    with pytest.raises(UnknownLabelError):
        check_rel_type(rel)


def test_contract_relationship_properties_are_typed():
    connects = edge_properties_model("CONNECTS")
    assert connects.model_validate({"kind": "refinement", "strength": 0.4}).strength == 0.4
    with pytest.raises(pydantic.ValidationError):
        connects.model_validate({"kind": "sideways", "strength": 0.4})
    assert edge_properties_model("FOLLOWS").model_validate({"days": 3}).model_dump(exclude_none=True) == {"days": 3}
    step = edge_properties_model("STEP").model_validate(
        {"session": "s1", "step_number": 2, "created_at": "2026-11-22T10:00:00Z"}
    )
    assert step.KEY == ("session", "step_number") and step.created_at.tzinfo is not None
    with pytest.raises(pydantic.ValidationError):
        edge_properties_model("OF_STEP").model_validate({"role": "sideways"})


def test_a_nodes_repr_leaves_out_its_embedding():
    """A new user printed ``Mind.get(id)`` and got 384 numbers."""
    from graphmind.models import Experience

    node = Experience(id="e", description="Tom lost a Chiffchaff", outcome="failure", embedding=[0.125] * 384)
    assert "0.125" not in repr(node) and "Chiffchaff" in repr(node)
    assert node.embedding == [0.125] * 384 and node.model_dump()["embedding"] == [0.125] * 384
