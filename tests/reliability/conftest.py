"""Fixtures the reliability suites share."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class RestSession:
    api: Any  # fastapi.testclient.TestClient
    auth: dict[str, str]
    session: str
    """A wander session of the mind, for the session routes."""


@pytest.fixture
def rest_session(store: GraphStore, settings: Settings, mind: Mind) -> Iterator[RestSession]:
    """The REST API on ``mind`` (the demo imported), an admin key's headers and a wander session."""
    from fastapi.testclient import TestClient

    from graphmind.server.app import create_app
    from graphmind.server.keys import create_key

    mind.import_jsonl(DEMO)
    _, key = create_key(store, mind.name, "admin")
    auth = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(settings, store), raise_server_exceptions=False) as api:
        made = api.post(f"/api/v1/minds/{mind.name}/wander/sessions", headers=auth, json={"seed_concept": "race"})
        assert made.status_code == 201, made.text
        yield RestSession(api, auth, made.json()["session_id"])
