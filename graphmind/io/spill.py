"""A temporary file of validated batches, so each import line is parsed and validated once."""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from typing import Any, BinaryIO


class Spill:
    """Append batches, then read them back in order; the file is gone when closed."""

    def __init__(self, batch_size: int):
        self._batch_size = batch_size
        self._file: BinaryIO = tempfile.TemporaryFile(prefix="graphmind-import-")
        self._pending: list[Any] = []
        self.count = 0

    def add(self, item: Any) -> None:
        self._pending.append(item)
        self.count += 1
        if len(self._pending) >= self._batch_size:
            self._flush()

    def batches(self) -> Iterator[list[Any]]:
        self._flush()
        self._file.seek(0)
        while True:
            try:
                yield pickle.load(self._file)
            except EOFError:
                return

    def close(self) -> None:
        self._file.close()

    def _flush(self) -> None:
        if self._pending:
            pickle.dump(self._pending, self._file, protocol=pickle.HIGHEST_PROTOCOL)
            self._pending = []
