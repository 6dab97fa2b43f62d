"""Mind is a thin facade (issue 23): the composition root (graphmind.app.MindEngines) wires each
engine once, the verbs run through those attributes, and close resets what it made."""

from __future__ import annotations

from graphmind import Digester, Dreamer, DreamParams, MindEngines, RuminationEngine
from graphmind.llm.offline import OfflineLLM
from graphmind.mind import Mind
from tests.conftest import new_mind_name
from tests.integration.helpers import DEMO


def test_each_engine_is_made_once_and_shares_the_minds_services(mind: Mind):
    assert isinstance(mind.engines, MindEngines)
    assert isinstance(mind.dreamer, Dreamer) and mind.dreamer is mind.dreamer
    assert isinstance(mind.ruminator, RuminationEngine) and mind.ruminator is mind.ruminator
    assert isinstance(mind.digester, Digester) and mind.digester is mind.digester
    assert mind.ruminator.recaller is mind.recaller
    assert mind.ruminator.llm is mind.llm and mind.dreamer.llm is mind.llm
    assert mind.dreamer.embedder is mind.embedder
    assert mind.dreamer.store is mind.store and mind.digester.store is mind.store


def test_dream_settings_are_per_call_and_leave_the_engine_as_it_was(mind: Mind):
    tuned = mind.dreamer.using(DreamParams(min_cluster_size=4))
    assert tuned.params.min_cluster_size == 4 and tuned.store is mind.store and tuned.llm is mind.llm
    assert mind.dreamer.params == DreamParams()


def test_the_verbs_run_through_the_engine_attributes(mind: Mind):
    calls: list[str] = []

    class CountingRuminator(RuminationEngine):
        def run(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append("ruminate")
            return super().run(*args, **kwargs)

    class CountingDigester(Digester):
        def digest(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append("digest")
            return super().digest(*args, **kwargs)

    mind.import_jsonl(DEMO)
    mind.engines.ruminator = CountingRuminator(mind.store, mind.recaller, mind.llm)  # type: ignore[misc]
    mind.engines.digester = CountingDigester(mind.store)  # type: ignore[misc]
    result = mind.ruminate("The async tests are flaky again", sender="Nicolas")
    assert result.context.sections and result.context.stimulus.startswith("The async tests")
    mind.reflect(rng_seed=1)
    assert calls == ["ruminate", "digest"]


def test_close_resets_what_it_made_and_keeps_what_was_given(store, settings):
    llm = OfflineLLM()
    m = Mind(new_mind_name(), store, settings, llm=llm)
    recaller, dreamer, ruminator = m.recaller, m.dreamer, m.ruminator
    m.close()
    m.close()  # a second close is a no-op
    assert m.llm is llm  # given to the constructor: the caller's, not closed or replaced
    assert m.recaller is not recaller and m.dreamer is not dreamer and m.ruminator is not ruminator
    assert m.ruminator.recaller is m.recaller  # rebuilt on the new recaller
    assert store.read("stats/count_labels", mind=m.name) == []  # a store given is not closed
    m.close()
