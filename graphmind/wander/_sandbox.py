"""The child process of the wander REPL (started as ``python -I <this file>``; see ``repl``).

It runs one piece of model-written code under RestrictedPython with curated builtins, a guarded
``getattr`` and read-only views of ``re``/``json``/``math``; a refusal raises :class:`Blocked`
(not caught by ``except Exception``) and is remembered even if caught. Protocol, one JSON object
per line: in ``{"code", "variables", "state", "functions", "limits"}``; per call out ``{"call",
"args", "kwargs"}``, in ``{"result"}`` or ``{"error", "blocked"}``; last out ``{"done": true,
"stdout", "final", "has_final", "error", "blocked", "state", "dropped", "uid"}``.

``state`` is the REPL's own variables, carried between executes by the parent: those given come
in as globals, and every top-level name the code leaves bound to JSON data (not a variable, a
function or a module; at most ``MAX_STATE`` bytes in all) goes back; ``dropped`` names the
others (functions, classes, what did not fit). A refused or out-of-memory run sends no state.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import os
import re
import resource
import types

from RestrictedPython import compile_restricted_exec, safe_builtins
from RestrictedPython.Guards import (
    full_write_guard,
    guarded_iter_unpack_sequence,
    guarded_unpack_sequence,
    raise_,
    safer_getattr,
)
from RestrictedPython.PrintCollector import PrintCollector
from RestrictedPython.transformer import INSPECT_ATTRIBUTES

MAX_LINE = 1 << 20  # the parent refuses longer lines
MAX_REQUEST = 256 << 20
NOFILE = 8  # stdin, stdout, stderr, the two channel descriptors and a little room
BALLAST = 4 << 20  # freed on MemoryError so the answer can still be written
MARKER = "…[truncated]"
MODULE_NAMES = {
    re: tuple(
        "compile search match fullmatch findall finditer sub subn split escape purge error I "
        "IGNORECASE M MULTILINE S DOTALL X VERBOSE A ASCII U UNICODE NOFLAG".split()
    ),
    json: ("dumps", "loads", "JSONDecodeError"),
    math: tuple(n for n in dir(math) if not n.startswith("_")),
}
DENIED_BUILTINS = (
    "open",
    "eval",
    "exec",
    "compile",
    "globals",
    "locals",
    "vars",
    "dir",
    "input",
    "breakpoint",
    "help",
    "exit",
    "quit",
    "type",
    "object",
    "super",
    "memoryview",
)
EXTRA_BUILTINS = (
    list,
    dict,
    set,
    frozenset,
    tuple,
    sorted,
    reversed,
    zip,
    enumerate,
    sum,
    min,
    max,
    any,
    all,
    map,
    filter,
    iter,
    next,
    format,
    bytes,
    bytearray,
)
INTERNALS = (types.ModuleType, types.FrameType, types.CodeType, types.TracebackType)
INPLACE = {
    f"{symbol}=": getattr(operator, f"i{name}")
    for symbol, name in zip(
        "+ - * / // % ** << >> & | ^ @".split(),
        "add sub mul truediv floordiv mod pow lshift rshift and or xor matmul".split(),
    )
}
MEMORY = "memory limit exceeded"
MAX_STATE = 256 << 10  # bytes of JSON the kept variables may take, in all


class Blocked(BaseException):
    """The sandbox refused something."""


class Finished(BaseException):
    """``FINAL`` was called: stop running the code."""


class Run:
    """One execution: the pipes to the parent, the output, refusals and the FINAL value."""

    def __init__(self) -> None:
        self.inp, self.out = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
        null = os.open(os.devnull, os.O_RDWR)  # the pipes now live only on private descriptors
        for fd in (0, 1):
            os.dup2(null, fd)
        os.close(null)
        self.limit, self.size, self.truncated, self.broken = 0, 0, False, False
        self.parts: list[str] = []
        self.refusal: str | None = None
        self.final: object = None
        self.has_final = False
        self.ballast: bytearray | None = None

    def send(self, line: str) -> None:
        self.out.write(line.encode() + b"\n")
        self.out.flush()

    def receive(self) -> dict:
        return json.loads(self.inp.readline(MAX_REQUEST))  # EOF or a cut line fail to parse

    def block(self, what: str) -> None:
        self.refusal = self.refusal or f"blocked: {what}"
        raise Blocked(f"blocked: {what}")

    def write(self, text: str) -> None:
        room = self.limit - self.size
        if len(text) > room:
            text, self.truncated = text[: max(room, 0)], True
        self.parts.append(text)
        self.size += len(text)

    def stdout(self) -> str:
        return "".join(self.parts) + (MARKER if self.truncated else "")

    def getattr(self, obj, name, *default):
        """``getattr`` refusing private, introspection and format names, and module results."""
        if type(name) is not str:
            self.block("attribute names must be plain strings")
        if name.startswith("_") or name in INSPECT_ATTRIBUTES:
            self.block(f"access to attribute '{name}' is not allowed")
        try:
            value = safer_getattr(obj, name, default[0] if default else raise_)
        except NotImplementedError as exc:  # str.format and friends
            self.block(str(exc)[0].lower() + str(exc)[1:])
        if isinstance(value, INTERNALS):
            self.block(f"attribute '{name}' leads to interpreter internals")
        return value

    def function(self, name: str):
        """A stand-in for the parent's function ``name``: one request, one answer."""

        def call(*args, **kwargs):
            try:
                line = json.dumps({"call": name, "args": list(args), "kwargs": kwargs})
            except (TypeError, ValueError):
                raise TypeError(f"the arguments of {name}() must be JSON-serialisable") from None
            if len(line) >= MAX_LINE:
                raise ValueError(f"the arguments of {name}() are too large (over 1 MB of JSON)")
            if self.broken:
                self.block("the channel to the parent is broken")
            try:
                self.send(line)
                reply = self.receive()
            except BaseException:  # a half-done exchange must not be mistaken for the next one
                self.broken = True
                raise
            if "error" in reply:
                if reply.get("blocked"):
                    self.block(str(reply["error"]).removeprefix("blocked: "))
                raise RuntimeError(str(reply["error"]))
            return reply.get("result")

        return call


class SafeModule:
    """A read-only view of a module: its listed public names, never a module object."""

    __slots__ = ("_module", "_names", "_run")

    def __init__(self, module: types.ModuleType, names: tuple[str, ...], run: Run) -> None:
        self._module, self._names, self._run = module, frozenset(names), run  # writes: _write_ refuses

    def __getattr__(self, name: str):
        if name in self._names:
            return getattr(self._module, name)
        if hasattr(self._module, name):
            self._run.block(f"'{self._module.__name__}.{name}' is not available in the sandbox")
        raise AttributeError(f"module '{self._module.__name__}' has no attribute '{name}'")


def make_builtins(run: Run, modules: dict) -> dict:
    """``safe_builtins`` plus common harmless ones; dangerous names raise ``Blocked``."""

    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in modules:
            return modules[name]
        run.block(f"import of '{name}' is not allowed")

    names = dict(safe_builtins, **{f.__name__: f for f in EXTRA_BUILTINS})
    names.update(
        {name: lambda *args, _name=name, **kwargs: run.block(f"{_name}() is not allowed") for name in DENIED_BUILTINS}
    )
    names.update(
        __import__=importer,
        getattr=run.getattr,
        hasattr=lambda obj, name: run.getattr(obj, name, Blocked) is not Blocked,
    )
    return names


def make_globals(request: dict, run: Run) -> dict:
    """The code's globals: the REPL variables, functions, modules and RestrictedPython's hooks."""
    modules = {module.__name__: SafeModule(module, names, run) for module, names in MODULE_NAMES.items()}

    class Printer(PrintCollector):  # all print()s go to one bounded output; flush() does nothing
        write, __call__, flush = staticmethod(run.write), staticmethod(run.stdout), staticmethod(str)

    def final(value=None):
        try:  # a snapshot now, so that encoding it later cannot fail or run the code's methods
            encoded = json.dumps(value)
        except (TypeError, ValueError):
            raise TypeError("the value given to FINAL() is not JSON-serialisable") from None
        if len(encoded) > MAX_LINE // 2:
            raise ValueError("the value given to FINAL() is too large (over 512 KB of JSON)")
        run.final, run.has_final = json.loads(encoded), True
        raise Finished

    given = dict(request.get("state") or {}, **request["variables"])
    variables = {k: v for k, v in given.items() if k.isidentifier() and k[0] != "_"}
    return {
        "__builtins__": make_builtins(run, modules),
        "__name__": "repl",
        "__metaclass__": type,
        "_getattr_": run.getattr,
        "_getitem_": operator.getitem,
        "_getiter_": iter,
        "_write_": full_write_guard,
        "_print_": Printer,
        "_unpack_sequence_": guarded_unpack_sequence,
        "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
        "_inplacevar_": lambda op, x, y: INPLACE[op](x, y),
        "_apply_": lambda f, *args, **kwargs: f(*args, **kwargs),
        **variables,
        **modules,
        "FINAL": final,
        **{name: run.function(name) for name in request["functions"]},
    }


def apply_limits(limits: dict) -> None:
    """The OS limits again (the parent set them too); CPU time counts from now, not start-up."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime) + int(limits["cpu_seconds"])
    memory = int(limits["memory_mb"]) << 20  # address space, in bytes
    for kind, soft, hard in (
        (resource.RLIMIT_FSIZE, 0, 0),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_NOFILE, NOFILE, NOFILE),
        (resource.RLIMIT_NPROC, 0, 0),
        (resource.RLIMIT_AS, memory, memory),
        (resource.RLIMIT_CPU, cpu, cpu + 1),
    ):
        current = resource.getrlimit(kind)[1]
        hard = hard if current == resource.RLIM_INFINITY else min(hard, current)
        resource.setrlimit(kind, (min(soft, hard), hard))


def run_code(source: str, namespace: dict, run: Run) -> str | None:
    """Compile and run ``source``; the error sentence, or ``None`` when it ran to its end."""
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    compiled = compile_restricted_exec(source, filename="<repl>")
    if compiled.errors or compiled.code is None:
        first = compiled.errors[0] if compiled.errors else "the code did not compile"
        return f"blocked: {first[0].lower()}{first[1:]}"
    try:
        exec(compiled.code, namespace)
    except Finished:
        pass
    except MemoryError:
        run.ballast = None
        namespace.clear()
        return MEMORY
    except Blocked as exc:
        return str(exc)
    except BaseException as exc:  # the code's own error, reported in one sentence
        return f"{type(exc).__name__}: {str(exc)[:500]}".removesuffix(": ")
    return None


def collect_state(namespace: dict, fixed: frozenset) -> tuple[dict, list[str]]:
    """The code's top-level names bound to JSON data (kept), and the names of the rest (dropped)."""
    state, dropped, size = {}, [], 0
    for name, value in list(namespace.items()):
        if name.startswith("_") or name in fixed:
            continue
        try:  # encoding may run the code's own methods (a dict subclass): still sandboxed here
            encoded = json.dumps(value)
        except BaseException:
            dropped.append(name)
            continue
        if size + len(encoded) > MAX_STATE:
            dropped.append(name)
            continue
        state[name], size = json.loads(encoded), size + len(encoded)
    return state, dropped


def answer(run: Run, error: str | None, state: dict | None, dropped: list[str]) -> str:
    """The ``done`` line; a refusal the code caught still counts, and then no state goes back."""
    error = run.refusal or error
    blocked = error is not None and (error.startswith("blocked: ") or error == MEMORY)
    done = {
        "done": True,
        "stdout": run.stdout(),
        "final": run.final,
        "has_final": run.has_final,
        "error": error,
        "blocked": blocked,
        "state": None if blocked else state,
        "dropped": dropped,
        "uid": os.getuid(),
    }
    line = json.dumps(done)  # over 1 MB only with a huge output_chars: then the output is dropped
    return line if len(line) < MAX_LINE else json.dumps(dict(done, stdout=MARKER, state=None))


def main() -> None:
    run = Run()
    request = run.receive()
    run.limit = int(request["limits"]["output_chars"])
    namespace = make_globals(request, run)
    fixed = frozenset(namespace) - frozenset(request.get("state") or {}) | frozenset(request["variables"])
    apply_limits(request["limits"])
    run.ballast = bytearray(BALLAST)
    error = run_code(request.pop("code"), namespace, run)
    state, dropped = collect_state(namespace, fixed) if error != MEMORY else (None, [])
    run.ballast = None
    run.send(answer(run, error, state, dropped))


if __name__ == "__main__":
    main()
