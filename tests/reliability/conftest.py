"""Fixtures the reliability suites share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmind.config import Settings
from graphmind.mind import Mind
from graphmind.store import GraphStore
from tests.conftest import new_mind_name
from tests.integration.helpers import DEMO


@pytest.fixture(scope="module")
def bystander(store: GraphStore, settings: Settings) -> Iterator[Mind]:
    """Another mind with the demo in it: nothing a fuzzed input does may touch it."""
    mind = Mind(new_mind_name(), store, settings)
    mind.import_jsonl(DEMO)
    yield mind
    mind.delete()
    mind.close()
