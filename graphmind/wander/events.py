"""Wander's events: the spec's NATS subjects on an in-process bus that callers subscribe to,
written to a JSONL event log, and published to NATS when ``nats-py`` is installed and
``NATS_URL`` is set (a publisher the caller injects, so the bus itself needs no network).

Subscriptions take a subject or a pattern in NATS's syntax: ``*`` matches one token,
``>`` the rest (``wander.crystal.*``, ``wander.>``). A subscriber that raises does not stop
the others or the wander; its error is kept in ``errors``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmind.errors import ValidationError

logger = logging.getLogger(__name__)

SUBJECTS = frozenset(
    """
wander.session.created wander.session.paused wander.session.resumed wander.session.completed
wander.step.started wander.step.completed wander.adjacencies.found wander.locus.visited
wander.resonance.detected wander.resonance.strengthened wander.resonance.confirmed
wander.crystal.formed wander.crystal.validated wander.fence.approached wander.circuit.tripped
wander.budget.low
""".split()
)

Handler = Callable[["Event"], None]


@dataclass(frozen=True)
class Event:
    subject: str
    payload: dict[str, Any]
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat())

    def as_json(self) -> str:
        return json.dumps(
            {"subject": self.subject, "at": self.at, "payload": self.payload}, ensure_ascii=False, default=str
        )


def matches(pattern: str, subject: str) -> bool:
    """NATS subject matching: ``*`` is one token, ``>`` is one or more trailing tokens."""
    want, have = pattern.split("."), subject.split(".")
    for i, token in enumerate(want):
        if token == ">":
            return len(have) > i
        if i >= len(have) or (token != "*" and token != have[i]):
            return False
    return len(want) == len(have)


class EventBus:
    """Wander's events: handlers subscribed by subject pattern, a JSONL log, and NATS when set."""

    def __init__(self, log_path: Path | None = None, publisher: Callable[[str, bytes], None] | None = None):
        self._subscribers: list[tuple[str, Handler]] = []
        self._log_path = log_path
        self._publisher = publisher
        self._lock = threading.Lock()
        self.errors: list[str] = []

    def subscribe(self, pattern: str, handler: Handler) -> Callable[[], None]:
        """Call ``handler`` for every event whose subject matches; returns an unsubscribe."""
        entry = (pattern, handler)
        with self._lock:
            self._subscribers.append(entry)
        return lambda: self._subscribers.remove(entry) if entry in self._subscribers else None

    def publish(self, subject: str, payload: dict[str, Any] | None = None) -> Event:
        if subject not in SUBJECTS:
            raise ValidationError(f"{subject!r} is not a wander event subject", field="subject")
        event = Event(subject, dict(payload or {}))
        if self._log_path is not None:
            with self._lock, self._log_path.open("a", encoding="utf-8") as log:
                log.write(event.as_json() + "\n")
        for pattern, handler in list(self._subscribers):
            if matches(pattern, subject):
                try:
                    handler(event)
                except Exception as exc:
                    logger.warning("wander event subscriber %r failed on %s", pattern, subject, exc_info=True)
                    self.errors.append(f"{pattern}: {type(exc).__name__}: {exc}")
        if self._publisher is not None:
            self._publisher(subject, event.as_json().encode())
        return event

    def close(self) -> None:
        """Close the publisher (a NATS connection), if it can be closed."""
        close = getattr(self._publisher, "close", None)
        if close is not None:
            close()


class NatsPublisher:
    """Publishes events to a NATS server through ``nats-py`` (asyncio) on a background thread,
    so a synchronous wander can call it like any other publisher."""

    def __init__(self, client: Any, loop: Any, thread: threading.Thread):
        self._client, self._loop, self._thread = client, loop, thread
        self._closed = False

    @classmethod
    def connect(cls, url: str, timeout_s: float = 5.0) -> NatsPublisher:
        import asyncio

        try:
            import nats
        except ImportError:
            from graphmind.errors import ConfigError

            raise ConfigError("NATS_URL is set but nats-py is not installed (pip install 'graphmind[nats]')") from None
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="graphmind-nats", daemon=True)
        thread.start()
        try:
            client = asyncio.run_coroutine_threadsafe(
                nats.connect(url, connect_timeout=timeout_s, max_reconnect_attempts=1), loop
            ).result(timeout_s * 2)
        except Exception as exc:
            loop.call_soon_threadsafe(loop.stop)
            from graphmind.errors import ProviderUnavailableError

            raise ProviderUnavailableError(f"could not reach NATS at {url}: {exc}") from None
        return cls(client, loop, thread)

    def __call__(self, subject: str, data: bytes) -> None:
        import asyncio

        asyncio.run_coroutine_threadsafe(self._client.publish(subject, data), self._loop).result(5)

    def close(self) -> None:
        """Drain and close the connection; closing twice, or a server already gone, is fine."""
        import asyncio

        if self._closed:
            return
        self._closed = True
        try:
            asyncio.run_coroutine_threadsafe(self._client.drain(), self._loop).result(5)
        except Exception:
            logger.warning("could not drain the NATS connection at close", exc_info=True)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
