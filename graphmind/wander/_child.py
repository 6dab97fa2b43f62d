"""The REPL child's plumbing: writing to its pipes with a deadline, its resource limits, killing it."""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import signal
import subprocess
import time
from typing import IO

from graphmind.wander.repl_results import ReplCall as ReplCall
from graphmind.wander.repl_results import ReplLimits as ReplLimits
from graphmind.wander.repl_results import ReplResult as ReplResult

NOFILE = 8


def _write(fd: int, data: bytes, deadline: float) -> bool:
    """Write all of ``data`` to a non-blocking pipe before ``deadline``; False if it could not."""
    view = memoryview(data)
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_WRITE)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                return False
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                pass
            except OSError:  # the child is gone
                return False
    return True


def _limit(pid: int, limits: ReplLimits) -> None:
    """The child's OS limits, from outside (Linux ``prlimit``; elsewhere the child sets them)."""
    cpu = limits.cpu_seconds + 1  # + start-up; the child tightens it before the code runs
    for kind, value in (
        (resource.RLIMIT_CPU, (cpu, cpu + 1)),
        (resource.RLIMIT_AS, (limits.memory_mb << 20,) * 2),
        (resource.RLIMIT_FSIZE, (0, 0)),
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_NOFILE, (NOFILE, NOFILE)),
        (resource.RLIMIT_NPROC, (0, 0)),
    ):
        # not Linux, the child gone, or above our own hard limit (the child lowers what it can)
        with contextlib.suppress(AttributeError, ValueError, OSError):
            resource.prlimit(pid, kind, value)


def _fd(stream: IO[bytes] | None) -> int:
    """The descriptor of one of the child's pipes (all three are opened with PIPE)."""
    if stream is None:
        raise RuntimeError("the sandbox child has no pipe")
    return stream.fileno()


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
