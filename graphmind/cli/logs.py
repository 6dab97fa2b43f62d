"""Logging for the CLI: an error reaches the user as the CLI's one sentence, so the neo4j
driver's own log lines (connection errors, "Transaction failed and will be retried") stay
off stderr unless GRAPHMIND_LOG_LEVEL asks for them."""

from __future__ import annotations

import logging
import sys

QUIET = logging.CRITICAL + 1  # above every level the driver logs at


class _Stderr(logging.StreamHandler):
    """A handler on whatever ``sys.stderr`` is when a record comes (as ``logging.lastResort``)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


def configure(level: str | None) -> None:
    """Warnings and errors of graphmind on stderr, and nothing of the driver; with ``level``
    (GRAPHMIND_LOG_LEVEL), every logger from that level up, the driver's too."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _Stderr)]:
        root.removeHandler(handler)
    handler = _Stderr()
    handler.setFormatter(logging.Formatter("%(name)s: %(levelname)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level.upper() if level else logging.WARNING)
    logging.getLogger("neo4j").setLevel(logging.NOTSET if level else QUIET)
