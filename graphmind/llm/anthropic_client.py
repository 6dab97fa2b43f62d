"""``BoundedAnthropic``: the SDK client, its retries waiting at most ``max_wait_s`` per call.

The SDK retries 408, 409, 429 and 5xx answers and connection errors, and before each retry
it sleeps as long as the server's ``retry-after`` (or ``retry-after-ms``) header asks, with
no upper bound: a 429 with ``Retry-After: 3600`` sleeps an hour, ``max_retries`` times, and
``GRAPHMIND_LLM_TIMEOUT`` (the time limit of each attempt) does not cover the sleeps. This
client keeps the SDK's retries (the one retry layer) and its choice of each wait, but gives
up as soon as the waits of one call would add up to more than ``max_wait_s``
(``GRAPHMIND_LLM_MAX_WAIT``): the call then fails at once with one sentence, without
sleeping.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import anthropic

from graphmind.errors import ProviderUnavailableError

DEFAULT_MAX_WAIT_S = 60.0
log = logging.getLogger(__name__)


class BoundedAnthropic(anthropic.Anthropic):
    """``anthropic.Anthropic`` whose retries of one call wait at most ``max_wait_s`` in all.

    ``sleep`` does the waiting (default ``time.sleep``; tests pass a recorder). The sum is kept per
    thread: one call's attempts run in one thread, one after another, and its first retry
    (``retries_taken == 0``) starts a new sum.
    """

    def __init__(
        self, *, max_wait_s: float = DEFAULT_MAX_WAIT_S, sleep: Callable[[float], None] | None = None, **kwargs: Any
    ):
        super().__init__(**kwargs)
        self.max_wait_s = max_wait_s
        self._sleep = sleep
        self._waited = threading.local()

    def copy(self, **kwargs: Any) -> BoundedAnthropic:
        client = super().copy(**kwargs)
        client.max_wait_s, client._sleep = self.max_wait_s, self._sleep
        return client

    with_options = copy

    def _sleep_for_retry(self, *, retries_taken: int, max_retries: int, options: Any, response: Any) -> None:
        """The SDK's wait before a retry, unless it would take the call past ``max_wait_s``."""
        wait = self._calculate_retry_timeout(
            max_retries - retries_taken, options, response.headers if response is not None else None
        )
        waited = 0.0 if retries_taken == 0 else getattr(self._waited, "seconds", 0.0)
        if waited + wait > self.max_wait_s:
            raise ProviderUnavailableError(_gave_up(response, wait, waited, self.max_wait_s), provider="anthropic")
        self._waited.seconds = waited + wait
        log.info("retrying request to %s in %.1f s", options.url, wait)
        (self._sleep or time.sleep)(wait)


def _gave_up(response: Any, wait: float, waited: float, max_wait: float) -> str:
    """The sentence for a call whose next retry would wait past ``max_wait``."""
    what = f"answered HTTP {response.status_code}" if response is not None else "could not be reached"
    so_far = f" after {waited:.0f} s of retries" if waited else ""
    return (
        f"Anthropic {what} and its next retry would wait {wait:.0f} s{so_far}, more than "
        f"GRAPHMIND_LLM_MAX_WAIT allows ({max_wait:g} s per call); try again later."
    )
