"""The wander REPL: runs a dweller's model-written (untrusted) Python in a sandbox.

A :class:`WanderRepl` belongs to one wander session (``rlm.RlmDweller`` keeps one per session
for the life of a wander handle). Each :meth:`WanderRepl.execute` starts a fresh child, ``python -I
graphmind/wander/_jail.py graphmind/wander/_sandbox.py`` (by path, so it imports neither
graphmind nor its drivers), which runs the code once; the parent keeps every Neo4j and LLM
capability and answers calls to :data:`REPL_FUNCTIONS` with ``handler``.

**State between executes** (the spec's ``theme_buffer`` pattern): the code's top-level variables
bound to JSON data come back with the answer and go into the next execute as globals
(:attr:`WanderRepl.state`, at most 256 KB); functions and classes the code defines are not kept
(``ReplResult.dropped`` names them). Carrying data, not a living process, was chosen because
each execute then gets fresh OS limits (RLIMIT_CPU counts a process's whole life), a crashed
or killed execute loses only its own changes, nothing of one execute's code (a patched object,
a running generator) lives into the next, and the state is plain data the parent can check.
A refused or out-of-memory execute keeps the previous state.

The layers (:func:`sandbox_layers` says which are active here; each result lists those that held):

1. **language** (the main barrier): RestrictedPython refuses, at compile time, names and
   attributes starting with ``_`` and frame/generator/traceback attributes; at run time
   ``getattr`` is guarded (no ``str.format``, no module/frame/code/traceback results), builtins
   are curated (no ``open``, ``eval``, ``type``, ``globals``...), and ``import`` yields only
   ``re``, ``json`` and ``math`` as read-only views of their public functions and constants
   (``json.decoder``, ``re.enum``... are refused). Refusals are reported even if caught.
2. **process**: ``env={}`` and ``-I``, so the parent's secrets are not in the child's
   environment; the working directory is a fresh temporary directory, removed afterwards; the
   child leads its own process group, SIGKILLed after ``wall_seconds`` (not counting the time
   the handler takes: the child waits then, and the handler bounds its own calls).
3. **limits**, set by the parent (``prlimit``) as soon as the child exists and again by the
   child before the code runs: RLIMIT_CPU ``cpu_seconds`` (+1 s for start-up in the parent's
   copy), RLIMIT_AS ``memory_mb`` (the interpreter with RestrictedPython takes ~15 MB of
   address space; 512 MB is ample), RLIMIT_FSIZE 0, RLIMIT_NOFILE 8, RLIMIT_CORE 0, RLIMIT_NPROC 0.
4. **user**: started as root, the child drops to ``nobody`` (``_jail``) before the script runs,
   so file permissions hold and RLIMIT_NPROC 0 forbids forking; not root, it already runs
   unprivileged. Inactive only when root cannot drop (no ``CAP_SETUID``).
5. **network**: the child starts in an empty network namespace (``unshare --net``, no
   interface but a loopback that is down) where ``unshare --net true`` works (root, or user
   namespaces); elsewhere only the language layer stops network access.
6. **channel**: the child speaks only through its stdin/stdout pipes, moved to private
   descriptors before the code runs, one JSON object per line; the parent does not trust it
   either and refuses lines over 1 MB, malformed messages, names outside
   :data:`REPL_FUNCTIONS`, bad state and calls past ``max_calls``.

Not guaranteed: a CPython bug reachable from ``re``/``json``/``math`` or a RestrictedPython
escape defeats layer 1, leaving a process as ``nobody`` without network, writable files,
children or environment, which can read world-readable files. The code sees handler errors.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import re
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from subprocess import PIPE
from typing import Any

from graphmind.errors import ValidationError
from graphmind.wander._child import NOFILE as NOFILE
from graphmind.wander._child import _fd as _fd
from graphmind.wander._child import _kill as _kill
from graphmind.wander._child import _limit as _limit
from graphmind.wander._child import _write as _write
from graphmind.wander.repl_results import ReplCall as ReplCall
from graphmind.wander.repl_results import ReplLimits as ReplLimits
from graphmind.wander.repl_results import ReplResult as ReplResult

REPL_FUNCTIONS = ("embed", "query_similar", "query_by_domain", "get_locus", "get_neighbors", "llm_query")
MAX_LINE = 1 << 20  # the longest line the parent reads from the child
TRUNCATED = "…[truncated]"
_SANDBOX = Path(__file__).with_name("_sandbox.py")
_JAIL = Path(__file__).with_name("_jail.py")
MAX_STATE = 256 << 10  # bytes of JSON the kept variables may take (the child keeps to it too)
LAYERS = ("language", "process", "limits", "user", "network", "channel")
log = logging.getLogger(__name__)
_RESERVED = frozenset(REPL_FUNCTIONS) | {"FINAL", "re", "json", "math", "printed"}
_FENCE = re.compile(r"```repl[ \t]*\r?\n(.*?)```", re.DOTALL)


def extract_code(text: str) -> list[str]:
    """The ```repl fenced blocks of a model answer, in order."""
    return [block.strip("\n") for block in _FENCE.findall(text)]


def _child_command() -> list[str]:
    """The child's command line: the jail running ``_SANDBOX`` (tests substitute a hostile
    script), in a new network namespace where that works."""
    net = ["unshare", "--net", "--"] if _network_namespace() else []
    return [*net, sys.executable, "-I", str(_JAIL), str(_SANDBOX)]


@functools.cache
def _network_namespace() -> bool:
    """Whether ``unshare --net`` works here (tried once per process)."""
    if shutil.which("unshare") is None:
        return False
    try:
        return (
            subprocess.run(["unshare", "--net", "true"], capture_output=True, timeout=10, check=False).returncode == 0
        )
    except (OSError, subprocess.SubprocessError) as exc:
        log.info("unshare --net could not be tried: %s", exc)
        return False


@functools.cache
def _announce() -> None:
    """Log, once per process, how each sandbox layer holds here."""
    log.info("wander REPL sandbox layers: %s", "; ".join(f"{k}: {v}" for k, v in sandbox_layers().items()))


def sandbox_layers() -> dict[str, str]:
    """Each layer of :data:`LAYERS` with how it holds here, or ``unavailable: ...``."""
    root = os.geteuid() == 0
    limits = hasattr(resource, "prlimit") or hasattr(resource, "setrlimit")
    return {
        "language": "RestrictedPython, curated builtins, read-only re/json/math",
        "process": "empty environment, private temporary directory, own process group, wall clock",
        "limits": "RLIMIT_CPU, RLIMIT_AS, RLIMIT_FSIZE 0, RLIMIT_NOFILE 8, RLIMIT_NPROC 0"
        if limits
        else "unavailable: no resource limits on this platform",
        "user": "drops to nobody" if root else f"runs as uid {os.geteuid()} (not root)",
        "network": "empty network namespace (unshare --net)"
        if _network_namespace()
        else "unavailable: unshare --net does not work here",
        "channel": "one JSON line per message, checked by the parent",
    }


class WanderRepl:
    """Runs model-written code against the session's memory, one sandboxed process per run."""

    def __init__(
        self, handler: Callable[[str, list, dict], Any], variables: dict[str, Any], limits: ReplLimits = ReplLimits()
    ):
        bad = [k for k in variables if not _allowed_name(k)]
        if bad:
            raise ValidationError(f"REPL variable names not allowed: {', '.join(map(str, bad))}")
        self.handler, self.variables, self.limits = handler, variables, limits
        self.state: dict[str, Any] = {}
        """The code's own variables, carried from one execute to the next."""
        self._request_line(None)
        _announce()

    def refresh(self, variables: dict[str, Any]) -> None:
        """New memory variables (the next dwelling's); the code's state stays."""
        fresh = WanderRepl(self.handler, variables, self.limits)
        self.variables = fresh.variables
        self.state = {k: v for k, v in self.state.items() if k not in variables}

    def execute(self, code: str) -> ReplResult:
        """Run ``code`` in a fresh sandbox; problems of the code come back in the result."""
        if not isinstance(code, str):
            raise ValidationError(f"REPL code must be a str, not {type(code).__name__}")
        with tempfile.TemporaryDirectory(prefix="graphmind-repl-", ignore_cleanup_errors=True) as workdir:
            session = _Session(self.handler, self.limits)
            result = session.run(self._request_line(code), workdir)
        if session.state is not None:
            self.state = {k: v for k, v in session.state.items() if k not in self.variables}
        return result

    def _request_line(self, code: str | None) -> bytes:
        try:
            line = json.dumps(
                {
                    "code": code,
                    "variables": self.variables,
                    "state": self.state,
                    "limits": asdict(self.limits),
                    "functions": list(REPL_FUNCTIONS),
                }
            )
        except (TypeError, ValueError) as exc:
            raise ValidationError(f"REPL variables must be JSON-serialisable ({exc})") from None
        return line.encode() + b"\n"


def _allowed_name(name: Any) -> bool:
    return isinstance(name, str) and name.isidentifier() and name[0] != "_" and name not in _RESERVED


@dataclass
class _Session:
    """The parent's side of one execution: serve calls, watch the clock, read the answer."""

    handler: Callable[[str, list, dict], Any]
    limits: ReplLimits
    calls: list[ReplCall] = field(default_factory=list)
    refusal: str | None = None
    stderr: bytes = b""
    deadline: float = 0.0  # moved on by the time the handler takes: the clock is the child's
    state: dict[str, Any] | None = None  # the code's variables after the run; None: keep the old
    uid: int | None = None  # the child's, as it reported it

    def run(self, request: bytes, workdir: str) -> ReplResult:
        try:
            proc = subprocess.Popen(
                _child_command(),
                stdin=PIPE,
                stdout=PIPE,
                stderr=PIPE,
                cwd=workdir,
                env={},
                close_fds=True,
                start_new_session=True,
            )
        except OSError as exc:
            return self._result(False, error=f"the sandbox could not be started ({exc.strerror})")
        with proc:  # on leaving: close the pipes, reap the child
            try:
                _limit(proc.pid, self.limits)
                self.deadline = time.monotonic() + self.limits.wall_seconds
                return self._talk(proc, request)
            finally:
                if proc.poll() is None:
                    _kill(proc)

    def _talk(self, proc: subprocess.Popen, request: bytes) -> ReplResult:
        os.set_blocking(_fd(proc.stdin), False)
        os.set_blocking(_fd(proc.stderr), False)
        if not _write(_fd(proc.stdin), request, self.deadline):
            return self._ended(proc)
        with selectors.DefaultSelector() as selector:
            selector.register(_fd(proc.stdout), selectors.EVENT_READ)
            selector.register(_fd(proc.stderr), selectors.EVENT_READ)
            buffer = b""
            while (remaining := self.deadline - time.monotonic()) > 0:
                for key, _ in selector.select(remaining):
                    chunk = os.read(key.fd, 1 << 16)
                    if key.fd == _fd(proc.stderr):
                        self.stderr = (self.stderr + chunk)[-(1 << 16) :]
                        if not chunk:
                            selector.unregister(_fd(proc.stderr))
                        continue
                    if not chunk:
                        return self._ended(proc)
                    *lines, buffer = (buffer + chunk).split(b"\n")
                    if max(map(len, lines + [buffer])) > MAX_LINE:
                        return self._stop(proc, "the sandbox sent a message longer than 1 MB")
                    for line in lines:
                        if (result := self._handle(proc, line)) is not None:
                            return result
        return self._stop(proc)

    def _handle(self, proc: subprocess.Popen, line: bytes) -> ReplResult | None:
        """Answer a call (``None``: go on) or turn the ``done`` message into the result."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        if isinstance(message, dict) and message.get("done") is True:
            return self._finish(message)
        if not isinstance(message, dict) or "call" not in message:
            return self._stop(proc, "the sandbox sent a malformed message")
        reply = json.dumps(self.serve(message)).encode() + b"\n"
        return None if _write(_fd(proc.stdin), reply, self.deadline) else self._ended(proc)

    def serve(self, message: dict) -> dict:
        """The reply to one call message: the handler's value, or why it was refused or failed."""
        name, args, kwargs = message.get("call"), message.get("args", []), message.get("kwargs", {})
        if name not in REPL_FUNCTIONS:
            return self._refuse(f"call of unknown function {str(name)[:80]!r} refused")
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            return self._refuse(f"malformed call of {name}() refused")
        if len(self.calls) >= self.limits.max_calls:
            return self._refuse(f"call limit ({self.limits.max_calls} calls) exceeded")
        self.calls.append(ReplCall(name, args, kwargs))
        started = time.monotonic()
        try:
            value = self.handler(name, args, kwargs)
        except Exception as exc:
            return {"error": (str(exc) or type(exc).__name__)[:500]}
        finally:
            self.deadline += time.monotonic() - started
        try:
            json.dumps(value)
            return {"result": value}
        except (TypeError, ValueError):
            return {"error": f"{name}() returned a value that is not JSON-serialisable"}

    def _refuse(self, what: str) -> dict:
        self.refusal = self.refusal or f"blocked: {what}"
        return {"error": f"blocked: {what}", "blocked": True}

    def _finish(self, message: dict) -> ReplResult:
        stdout, error = message.get("stdout"), message.get("error")
        if not isinstance(stdout, str) or not isinstance(error, (str, type(None))):
            return self._result(True, error="blocked: the sandbox sent a malformed message")
        final = message.get("final") if message.get("has_final") is True else None
        state, dropped, uid = message.get("state"), message.get("dropped", []), message.get("uid")
        if (
            state is not None
            and not valid_state(state)
            or not isinstance(dropped, list)
            or not isinstance(uid, (int, type(None)))
        ):
            return self._result(True, error="blocked: the sandbox sent a malformed state")
        self.uid, blocked = uid, message.get("blocked") is True
        if not blocked and not self.refusal:
            self.state = state
        return self._result(
            blocked, error=error, stdout=stdout, final=final, dropped=tuple(str(d)[:80] for d in dropped[:50])
        )

    def _ended(self, proc: subprocess.Popen) -> ReplResult:
        """The child closed its pipes without an answer: say which limit or crash ended it."""
        try:
            code = proc.wait(max(0.1, min(2.0, self.deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            return self._stop(proc)
        with contextlib.suppress(OSError):
            self.stderr += os.read(_fd(proc.stderr), 1 << 16)
        if code == -signal.SIGXCPU:
            return self._result(True, error=f"CPU time limit ({self.limits.cpu_seconds} s) exceeded")
        if b"MemoryError" in self.stderr:
            return self._result(True, error="memory limit exceeded")
        how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
        return self._result(False, error=f"the sandbox process ended unexpectedly ({how})")

    def _stop(self, proc: subprocess.Popen, what: str | None = None) -> ReplResult:
        """Kill the child for a protocol violation ``what``, or (``None``) for the wall clock."""
        _kill(proc)
        wall = f"wall-clock limit ({self.limits.wall_seconds:g} s) exceeded"
        return self._result(True, error=f"blocked: {what}" if what else wall)

    def _result(
        self, blocked: bool, *, error: str | None, stdout: str = "", final: Any = None, dropped: tuple[str, ...] = ()
    ) -> ReplResult:
        if self.refusal:  # the parent's own refusal wins over whatever the child said
            blocked, error = True, self.refusal
        if len(stdout) > self.limits.output_chars + len(TRUNCATED):
            stdout = stdout[: self.limits.output_chars] + TRUNCATED
        return ReplResult(
            success=error is None,
            stdout=stdout,
            error=error,
            final=final,
            calls=tuple(self.calls),
            blocked=blocked,
            dropped=dropped,
            layers=self._layers(),
        )

    def _layers(self) -> tuple[str, ...]:
        held = sandbox_layers()
        if self.uid is not None:  # what the child said of itself wins over what was expected
            held["user"] = "unavailable" if self.uid == 0 else held["user"]
        return tuple(name for name in LAYERS if not held[name].startswith("unavailable"))


def valid_state(state: Any) -> bool:
    """A dict of allowed names to JSON data within :data:`MAX_STATE` (the child could lie)."""
    return (
        isinstance(state, dict) and all(map(_allowed_name, state)) and len(json.dumps(state)) <= 2 * MAX_STATE
    )  # keys and separators on top of the values
