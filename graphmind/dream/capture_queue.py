"""Write-behind capture: ``Mind.capture`` returns once the experience is validated and queued;
a background thread writes queued experiences in batches, at most ``flush_ms`` after the first
of a batch was queued (the spec: stored within 100 ms, capture overhead < 5% of an iteration).

Nothing is dropped: rows whose write failed stay queued, the failure is raised by the next
``put``, ``flush`` or ``close``, and ``flush`` writes whatever is left (or raises). A process
that dies loses at most the last ``flush_ms`` of experiences; ``Mind.capture(..., wait=True)``
writes synchronously when even that is too much.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from graphmind.errors import GraphmindError

Row = dict[str, Any]


class CaptureQueue:
    def __init__(self, write: Callable[[list[Row]], None], *, flush_ms: float = 20.0, max_batch: int = 500):
        self._write = write
        self._flush_s = flush_ms / 1000
        self._max_batch = max_batch
        self._rows: list[Row] = []
        self._writing = 0
        self._error: GraphmindError | None = None
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def put(self, row: Row) -> None:
        with self._cond:
            self._raise_error()
            self._rows.append(row)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="graphmind-capture", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self) -> None:
        """Return once every queued experience is written; raise the write error if one failed."""
        with self._cond:
            while (self._rows or self._writing) and self._error is None:
                self._cond.wait(0.05)
            failed = self._error is not None
        if failed:  # one synchronous attempt with what is left, in this thread
            with self._cond:
                rows, self._rows, self._error = self._rows, [], None
            try:
                if rows:
                    self._write(rows)
            except GraphmindError:
                with self._cond:
                    self._rows = rows + self._rows
                raise

    def close(self) -> None:
        try:
            self.flush()
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()

    def _raise_error(self) -> None:
        if self._error is not None:
            error = self._error
            raise type(error)(f"{len(self._rows)} captured experiences are not stored yet: {error}") from error

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._rows and not self._closed:
                    self._cond.wait()
                if self._closed and not self._rows:
                    return
                deadline = time.monotonic() + self._flush_s
                while (
                    len(self._rows) < self._max_batch and (left := deadline - time.monotonic()) > 0 and not self._closed
                ):
                    self._cond.wait(left)
                batch, self._rows = self._rows[: self._max_batch], self._rows[self._max_batch :]
                self._writing = len(batch)
            try:
                self._write(batch)
            except GraphmindError as exc:
                with self._cond:
                    self._rows = batch + self._rows
                    self._error = exc
                    self._writing = 0
                    self._cond.notify_all()
                    while self._error is not None and not self._closed:
                        self._cond.wait(0.05)  # until flush() takes the rows back
                continue
            with self._cond:
                self._writing = 0
                self._cond.notify_all()
