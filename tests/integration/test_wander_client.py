"""One Anthropic client per mind (issue 22, item 6): wander's cheap and strong models share the
mind's SDK client and usage record, through the real SDK against the Messages stub, and the
client is closed with the mind."""

from __future__ import annotations

import pytest

from graphmind.llm import anthropic_client
from graphmind.mind import Mind
from tests.conftest import new_mind_name
from tests.fixtures.messages_stub import json_reply
from tests.integration.helpers import CHEAP, DEMO, STRONG, claude_wander_settings

pytestmark = pytest.mark.integration


def _claude(request):
    """Claude as the stub plays it: answers in the output schema the request carries, in words of
    its own (a dwelling, a declined crystal, a verdict)."""
    fields = request.body["output_config"]["format"]["schema"].get("properties", {})
    if "connection" in fields:
        return json_reply(
            {
                "possibility": "a gap left open may matter more than the parts around it",
                "tension": "speed pulls one way, care the other",
                "surprise": "little",
                "bridge": "both are about waiting",
                "connection": "shared timing",
                "themes": ["timing", "waiting"],
                "interestingness": 0.3,
                "actionability": 0.2,
            },
            input_tokens=120,
            output_tokens=40,
        )
    if "formed" in fields:
        return json_reply({"formed": False}, input_tokens=80, output_tokens=5)
    return json_reply({"notes": "the evidence does not say this", "holds": False, "confidence": 0.2})


class _Counted(anthropic_client.BoundedAnthropic):
    made: list[_Counted] = []

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        _Counted.made.append(self)


@pytest.fixture
def claude_settings(settings, monkeypatch):
    _Counted.made = []
    monkeypatch.setattr(anthropic_client, "BoundedAnthropic", _Counted)
    with claude_wander_settings(settings, _claude) as configured:
        yield configured


def test_wander_uses_the_minds_one_client_and_counts_its_usage(store, claude_settings):
    settings, stub = claude_settings
    mind = Mind(new_mind_name(), store, settings)
    try:
        mind.import_jsonl(DEMO)
        first = mind.wander(
            "race conditions in async code", rng_seed=5, human_checkpoint_frequency=0, cloud_budget_cents=100
        )
        first.run(3)
        mind.wander(
            "keeping promises to a partner", rng_seed=6, human_checkpoint_frequency=0, cloud_budget_cents=100
        ).run(2)
        first_again = mind.wander(session_id=first.id)
        first_again.run(2)
        usage = mind.llm.usage
        assert len(_Counted.made) == 1  # however many wander runs
        assert stub.requests and usage.calls == len(stub.requests)
        assert usage.input_tokens == sum(r.input_tokens for r in usage.records) > 0
        spent = sum(s.cloud_spent_cents or 0.0 for s in mind.wander_sessions.list())
        assert usage.cost_cents > 0 and spent == pytest.approx(usage.cost_cents)
        assert {r.body["model"] for r in stub.requests} <= {STRONG, CHEAP}
        client = _Counted.made[0]
        assert not client.is_closed()
    finally:
        mind.delete()
        mind.close()
    assert client.is_closed() and len(_Counted.made) == 1


def test_a_mind_given_its_llm_leaves_that_client_open(store, claude_settings):
    settings, _ = claude_settings
    from graphmind.app import make_llm

    llm = make_llm(settings)
    with Mind(new_mind_name(), store, settings, llm=llm) as mind:
        assert mind.llm is llm
    assert not llm.client.is_closed()  # the caller's to close
    llm.close()
    assert llm.client.is_closed()
