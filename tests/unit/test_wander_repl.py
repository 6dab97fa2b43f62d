"""The wander REPL's sandbox: normal use, and every attack blocked and reported in one sentence.

No database: the handler is a recorder with canned answers. Each test runs with its own working
directory and temporary root, both checked empty afterwards (the child's directory removed,
nothing written where the test runs)."""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import sysconfig
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from graphmind.errors import ValidationError
from graphmind.wander import repl as repl_module
from graphmind.wander.repl import REPL_FUNCTIONS, TRUNCATED, ReplCall, ReplLimits, WanderRepl, extract_code

LIMITS = ReplLimits(cpu_seconds=2, memory_mb=256, wall_seconds=5)
SECRET = "sk-secret"
VARIABLES = {
    "hot_memory": [{"concept": "tides", "embedding": [0.6, 0.8], "domains": ["sea"]}],
    "warm_memory": [{"theme": "water", "members": 3}],
    "resonances": {"r1": {"themes": ["sea"], "strength": 0.7}},
    "trace": [{"step": 1, "locus": "l0"}],
    "current_locus": {"id": "l1", "concept": "tides", "embedding": [0.6, 0.8], "domains": ["sea"]},
}
SIMILAR = [{"id": "l2", "concept": "moon"}, {"id": "l3", "concept": "gravity"}]


class Recorder:
    """The parent's handler: records calls, answers with canned JSON, fails for ``get_locus``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list, dict]] = []

    def __call__(self, name: str, args: list, kwargs: dict):
        self.calls.append((name, args, kwargs))
        if name == "get_locus":
            raise LookupError(f"no locus {args[0]}")
        return {"query_similar": SIMILAR, "llm_query": "the moon pulls the tides", "embed": [0.0, 1.0]}.get(name, [])


@pytest.fixture
def run(tmp_path, monkeypatch):
    """``run(code, limits)`` executes in a fresh WanderRepl; afterwards cwd and temp are empty."""
    cwd, temp = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir()
    temp.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    handler = Recorder()

    def execute(code: str, limits: ReplLimits = LIMITS):
        return WanderRepl(handler, VARIABLES, limits).execute(textwrap.dedent(code))

    execute.handler = handler
    yield execute
    assert list(cwd.iterdir()) == [], "something was written in the test's working directory"
    assert list(temp.iterdir()) == [], "the sandbox's temporary directory was not removed"


def assert_refused(result, fragment: str) -> None:
    """Blocked, failed, and said so in one short sentence containing ``fragment``."""
    assert result.success is False and result.blocked is True, result
    assert result.error and fragment in result.error, result.error
    assert "\n" not in result.error and len(result.error) < 300
    assert "Traceback" not in result.error + result.stdout


def test_normal_use_reads_variables_calls_the_parent_and_returns_final(run):
    result = run("""
        concept = current_locus['concept']
        similar = query_similar(current_locus['embedding'], k=2)
        analysis = llm_query("q", context="c")
        print(concept, json.dumps(similar), re.findall(r"\\w+", analysis)[:2], math.sqrt(16))
        themes = [r for r in resonances.values() if any(t in current_locus['domains'] for t in r['themes'])]
        total = 0
        for i, (key, value) in enumerate(sorted(current_locus.items())):
            total += i
        print(len(hot_memory), len(warm_memory), len(trace), len(themes), total)
        FINAL({"connection": f"{concept} - {similar[0]['concept']}: {analysis}"})
    """)
    assert result.success and result.error is None and not result.blocked
    assert result.final == {"connection": "tides - moon: the moon pulls the tides"}
    assert result.calls == (
        ReplCall("query_similar", [[0.6, 0.8]], {"k": 2}),
        ReplCall("llm_query", ["q"], {"context": "c"}),
    )
    assert run.handler.calls == [(c.name, c.args, c.kwargs) for c in result.calls]
    assert result.stdout == f"tides {json.dumps(SIMILAR)} ['the', 'moon'] 4.0\n1 1 1 1 6\n"


def test_without_final_the_final_is_none_and_the_repl_runs_again(run):
    repl = WanderRepl(run.handler, VARIABLES)  # the default limits
    first = repl.execute("x = 1\nprint(x, 'a', sep='-', end='!', flush=True)")
    second = repl.execute("FINAL([x for x in range(3)])")
    assert first.success and first.final is None and first.stdout == "1-a!"
    assert second.success and second.final == [0, 1, 2] and second.stdout == ""


def test_extract_code_returns_the_repl_blocks_in_order():
    answer = (
        "Let me look.\n```repl\nsimilar = query_similar(current_locus['embedding'])\n```\n"
        "Some prose, then a python block that is not run:\n```python\nprint('no')\n```\n"
        "```repl\nFINAL({'connection': 'x'})\n```\nDone."
    )
    assert extract_code(answer) == ["similar = query_similar(current_locus['embedding'])", "FINAL({'connection': 'x'})"]
    assert extract_code("no code here") == []


def test_a_sandbox_that_cannot_start_is_reported(run, monkeypatch):
    monkeypatch.setattr(repl_module, "_child_command", lambda: ["/nonexistent/python"])
    result = run("FINAL(1)")
    assert result.success is False and result.final is None
    assert result.error.startswith("the sandbox could not be started")


def test_invalid_input_raises_validation_error():
    with pytest.raises(ValidationError):
        WanderRepl(Recorder(), VARIABLES).execute(b"print(1)")
    with pytest.raises(ValidationError):
        WanderRepl(Recorder(), {"__builtins__": {}})
    with pytest.raises(ValidationError):
        WanderRepl(Recorder(), {"trace": {1, 2}})


@pytest.mark.parametrize(
    "code, error",
    [
        ("1 / 0", "ZeroDivisionError: division by zero"),
        ("undefined_name", "NameError: name 'undefined_name' is not defined"),
        ("def (", "SyntaxError: invalid syntax (line 1)"),
        ("FINAL({1, 2})", "TypeError: the value given to FINAL() is not JSON-serialisable"),
    ],
)
def test_errors_of_the_code_are_one_sentence_and_not_blocked(run, code, error):
    result = run(code)
    assert (result.success, result.blocked, result.error, result.final) == (False, False, error, None)


ATTACKS = {
    "write a file": ("open('x', 'w').write('data')", "open() is not allowed"),
    "import socket": ("import socket\nsocket.socket().connect(('example.com', 80))", "import of 'socket'"),
    "from socket import": ("from socket import create_connection", "import of 'socket'"),
    "socket via builtins": ("__builtins__['__import__']('socket')", '"__builtins__"'),
    "socket via getattr": (
        "getattr(getattr(len, '__self__'), '__import__')('socket')",
        "access to attribute '__self__' is not allowed",
    ),
    "import os": ("import os\nos.system('id')", "import of 'os' is not allowed"),
    "import subprocess": ("import subprocess", "import of 'subprocess' is not allowed"),
    "import ctypes": ("import ctypes", "import of 'ctypes' is not allowed"),
    "__import__": ("__import__('os')", '"__import__"'),
    "importlib": ("import importlib\nimportlib.import_module('os')", "import of 'importlib'"),
    "fork bomb": ("import os\nwhile True:\n    os.fork()", "import of 'os' is not allowed"),
    "fork via posix": ("import posix\nposix.fork()", "import of 'posix'"),
    "fork via multiprocessing": ("import multiprocessing", "import of 'multiprocessing'"),
    "exec": ("exec('import os')", "Exec calls are not allowed"),
    "eval": ("eval('1')", "Eval calls are not allowed"),
    "compile": ("compile('import os', 'x', 'exec')", "compile() is not allowed"),
    "globals": ("globals()['x'] = 1", "globals() is not allowed"),
    "type": ("type(())", "type() is not allowed"),
    "subclasses": ("().__class__.__bases__[0].__subclasses__()", 'because it starts with "_"'),
    "getattr __class__": ("getattr(().__class__, '__bases__')", '"__class__"'),
    "getattr built name": ("getattr(getattr((), '__cl' + 'ass__'), '__bases__')", "'__class__'"),
    "mro comprehension": ("[c for c in ().__class__.__mro__]", 'because it starts with "_"'),
    "str.format": ("'{0.__class__.__mro__}'.format(())", "format"),
    "str.format on the type": ("str.format('{0.__globals__}', FINAL)", "format"),
    "generator frame": ("g = (i for i in [1])\ng.gi_frame.f_back.f_globals", "is a restricted name"),
    "generator frame via getattr": ("g = (i for i in [1])\ngetattr(g, 'gi_' + 'frame')", "'gi_frame'"),
    "json.decoder": ("json.decoder.scanner", "'json.decoder' is not available"),
    "json.codecs": ("json.codecs.sys.modules['os'].system('id')", "'json.codecs' is not available"),
    "re.enum": ("re.enum.sys.modules['os'].system('id')", "'re.enum' is not available"),
    "re.functools": ("re.functools", "'re.functools' is not available"),
    "getattr module": ("getattr(json, 'decoder')", "'json.decoder' is not available"),
    "hasattr module": ("hasattr(re, 'copyreg')", "'re.copyreg' is not available"),
    "from json import": ("from json import decoder", "'json.decoder' is not available"),
    "import json.decoder": ("import json.decoder", "import of 'json.decoder'"),
    "vars of a module": ("vars(json)", "vars() is not allowed"),
    "caught refusal": (
        "try:\n    import os\nexcept BaseException:\n    pass\nFINAL('escaped')",
        "import of 'os' is not allowed",
    ),
}


@pytest.mark.parametrize("code, fragment", ATTACKS.values(), ids=ATTACKS.keys())
def test_attacks_are_blocked_and_reported_cleanly(run, code, fragment):
    result = run(code)
    assert_refused(result, fragment)
    assert result.calls == () and run.handler.calls == []


@pytest.mark.parametrize(
    "code",
    [
        "import os\nFINAL(os.environ['ANTHROPIC_API_KEY'])",
        "from os import environ\nFINAL(dict(environ))",
        "FINAL(open('/proc/self/environ').read())",
        "FINAL(json.codecs.sys.modules['os'].environ.copy())",
        "FINAL(str(re.enum.sys.modules['os'].environ))",
    ],
)
def test_the_parents_environment_is_out_of_reach(run, monkeypatch, code):
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    monkeypatch.setenv("NEO4J_PASSWORD", SECRET)
    result = run(code)
    assert result.success is False and result.blocked is True
    assert SECRET not in repr(result)


@pytest.mark.parametrize("code", ["x = 'a' * (10**10)", "l = []\nwhile True:\n    l.append('x' * 10**6)"])
def test_memory_bombs_hit_the_memory_limit(run, code):
    assert_refused(run(code), "memory limit exceeded")


@pytest.mark.parametrize(
    "code",
    [
        "while True:\n    pass",
        "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass",
        "x = 10 ** 10 ** 9",
    ],
)
def test_endless_computation_hits_the_cpu_or_wall_clock_limit(run, code):
    result = run(code)
    assert result.success is False and result.blocked is True
    assert result.error in ("CPU time limit (2 s) exceeded", "wall-clock limit (5 s) exceeded")


def test_output_is_truncated(run):
    result = run("print('x' * 100000)\nFINAL(len(printed))")
    assert result.success and result.stdout == "x" * 10_000 + TRUNCATED
    assert result.final == 10_000 + len(TRUNCATED)


def test_calls_past_max_calls_are_refused_even_when_caught(run):
    code = """
        for i in range(5):
            try:
                embed('x')
            except BaseException:
                pass
        FINAL('done')
    """
    result = run(code, ReplLimits(cpu_seconds=2, wall_seconds=5, max_calls=3))
    assert_refused(result, "blocked: call limit (3 calls) exceeded")
    assert [c.name for c in result.calls] == ["embed"] * 3 and len(run.handler.calls) == 3


def test_a_failing_handler_raises_in_the_code(run):
    uncaught = run("get_locus('nope')")
    assert (uncaught.success, uncaught.blocked) == (False, False)
    assert uncaught.error == "RuntimeError: no locus nope"
    caught = run("try:\n    get_locus('nope')\nexcept RuntimeError as e:\n    FINAL(str(e))")
    assert caught.success and caught.final == "no locus nope"
    assert [c.name for c in caught.calls] == ["get_locus"]


def test_the_parent_refuses_names_outside_repl_functions():
    handler = Recorder()
    session = repl_module._Session(handler, ReplLimits())
    assert session.serve({"call": "system", "args": ["id"], "kwargs": {}}) == {
        "error": "blocked: call of unknown function 'system' refused",
        "blocked": True,
    }
    assert session.serve({"call": "embed", "args": "not a list", "kwargs": {}})["blocked"] is True
    assert handler.calls == [] and session.calls == []
    assert set(REPL_FUNCTIONS) == {
        "embed",
        "query_similar",
        "query_by_domain",
        "get_locus",
        "get_neighbors",
        "llm_query",
    }


# A hostile child: what the code could do had it escaped the language layer. The parent's
# channel checks, environment and OS limits must hold on their own.

PROBE = r"""
import json, os, resource, sys
request = json.loads(sys.stdin.readline())
print(json.dumps({"call": "system", "args": ["id"], "kwargs": {}}), flush=True)
reply = json.loads(sys.stdin.readline())
probe = {"reply": reply, "environ": dict(os.environ), "cwd": os.getcwd(),
         "nproc": resource.getrlimit(resource.RLIMIT_NPROC), "as": resource.getrlimit(resource.RLIMIT_AS)}
try:
    with open("written", "w") as f:
        f.write("x" * 100)
except OSError as exc:
    probe["write"] = exc.errno
files = []
try:
    for _ in range(50):
        files.append(open(os.devnull))
except OSError as exc:
    probe["open"] = exc.errno
print(json.dumps({"done": True, "stdout": json.dumps(probe), "final": None, "has_final": False,
                  "error": None, "blocked": False}), flush=True)
"""

SLEEPER = r"""
import json, os, sys, time
sys.stdin.readline()
try:
    pid = os.fork()
except OSError:
    pid = -1
if pid == 0:
    time.sleep(60)
    os._exit(0)
print(json.dumps({"call": "embed", "args": [pid], "kwargs": {}}), flush=True)
time.sleep(60)
"""


@pytest.fixture
def hostile(run, tmp_path, monkeypatch):
    """``hostile(source, limits)`` runs ``source`` as the child instead of the sandbox."""

    def execute(source: str, limits: ReplLimits = LIMITS):
        script = tmp_path / "hostile.py"
        script.write_text(source)
        monkeypatch.setattr(repl_module, "_child_command", lambda: [sys.executable, "-I", str(script)])
        return run("", limits)

    execute.handler = run.handler
    return execute


def test_a_hostile_child_gets_no_secrets_no_files_and_no_unknown_calls(hostile, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    monkeypatch.setenv("NEO4J_PASSWORD", SECRET)
    result = hostile(PROBE)
    assert_refused(result, "blocked: call of unknown function 'system' refused")
    assert SECRET not in repr(result) and hostile.handler.calls == [] and result.calls == ()
    probe = json.loads(result.stdout)
    assert probe["reply"]["blocked"] is True
    assert "ANTHROPIC_API_KEY" not in probe["environ"] and "NEO4J_PASSWORD" not in probe["environ"]
    assert probe["cwd"] != os.getcwd() and not Path(probe["cwd"]).exists()
    assert probe["write"] == errno.EFBIG and probe["open"] == errno.EMFILE
    assert probe["nproc"] == [0, 0] and probe["as"] == [256 << 20] * 2


@pytest.mark.parametrize(
    "source, fragment",
    [
        (
            "import sys\nsys.stdin.readline()\nsys.stdout.write('x' * (2 << 20))\nsys.stdout.flush()\n"
            "import time\ntime.sleep(30)",
            "the sandbox sent a message longer than 1 MB",
        ),
        (
            "import sys\nsys.stdin.readline()\nprint('not json', flush=True)\nimport time\ntime.sleep(30)",
            "the sandbox sent a malformed message",
        ),
    ],
)
def test_a_hostile_child_breaking_the_protocol_is_killed(hostile, source, fragment):
    assert_refused(hostile(source), fragment)


def test_the_wall_clock_kills_the_whole_process_group(hostile):
    result = hostile(SLEEPER, ReplLimits(wall_seconds=1))
    assert_refused(result, "wall-clock limit (1 s) exceeded")
    pid = result.calls[0].args[0]
    if pid > 0:  # the grandchild (possible as root, where RLIMIT_NPROC is not enforced) died too
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)
        assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


# State between executes: the spec's theme_buffer pattern.


def test_variables_survive_between_executes_and_functions_are_named_as_dropped(run):
    repl = WanderRepl(run.handler, VARIABLES, LIMITS)
    first = repl.execute(
        "theme_buffer = []\nfor locus in hot_memory:\n    theme_buffer.append(locus['concept'])\n"
        "def helper():\n    return 1\nhot_memory.append('changed')"
    )
    assert first.success and first.dropped == ("helper",)
    assert repl.state == {"theme_buffer": ["tides"], "locus": VARIABLES["hot_memory"][0]}  # not hot_memory
    second = repl.execute(
        "theme_buffer.append(llm_query('themes?'))\ncount = len(theme_buffer)\n"
        "FINAL({'buffer': theme_buffer, 'memory': len(hot_memory)})"
    )
    assert second.final == {"buffer": ["tides", "the moon pulls the tides"], "memory": 1}
    assert repl.state["theme_buffer"] == ["tides", "the moon pulls the tides"] and repl.state["count"] == 2
    repl.refresh(dict(VARIABLES, trace=[]))  # the next dwelling: new memory, the same state
    assert repl.execute("FINAL([count, trace])").final == [2, []]


def test_an_error_keeps_what_was_bound_before_it_and_a_refusal_keeps_nothing(run):
    repl = WanderRepl(run.handler, VARIABLES, LIMITS)
    failed = repl.execute("a = 1\nb = 1 / 0")
    assert failed.error == "ZeroDivisionError: division by zero" and repl.state == {"a": 1}
    refused = repl.execute("a = 2\nimport os")
    assert_refused(refused, "import of 'os'")
    assert repl.state == {"a": 1}
    bomb = repl.execute("a = 3\nx = 'a' * (10**10)")
    assert_refused(bomb, "memory limit exceeded")
    assert repl.state == {"a": 1}


def test_state_past_its_size_limit_is_dropped_by_name(run):
    repl = WanderRepl(run.handler, VARIABLES, LIMITS)
    result = repl.execute("small = 'x'\nbig = 'y' * (300 * 1024)")
    assert result.success and result.dropped == ("big",) and repl.state == {"small": "x"}


def test_the_parent_refuses_a_malformed_state(hostile):
    lying = (
        "import json, sys\nsys.stdin.readline()\nprint(json.dumps({'done': True, 'stdout': '', "
        "'final': None, 'has_final': False, 'error': None, 'blocked': False, "
        "'state': {'__builtins__': 1, 'FINAL': 2}, 'dropped': [], 'uid': 0}), flush=True)"
    )
    assert_refused(hostile(lying), "the sandbox sent a malformed state")


# The OS layers on their own: a hostile child run the way the sandbox is (jail, namespace).

MORE_ATTACKS = {
    "read a file outside": ("FINAL(open('/etc/passwd').read())", "open() is not allowed"),
    "read via io": ("import io\nio.open('/etc/passwd')", "import of 'io'"),
    "read via pathlib": ("import pathlib", "import of 'pathlib'"),
    "network via urllib": ("import urllib.request", "import of 'urllib.request'"),
    "network via http.client": ("from http.client import HTTPConnection", "import of 'http.client'"),
    "subprocess via os.popen": ("import os\nos.popen('id')", "import of 'os'"),
    "subprocess via pty": ("import pty\npty.spawn('sh')", "import of 'pty'"),
    "fork bomb via threads": ("import threading", "import of 'threading'"),
    "fork bomb via recursion": ("def f():\n    f()\n    f()\nf()", "RecursionError"),
    "import via builtins module": ("import builtins\nbuiltins.open('/etc/passwd')", '"builtins" is a reserved name'),
    "import via sys.modules": ("import sys\nsys.modules['os']", "import of 'sys'"),
    "relative import": ("from . import json as j\nj.loads('1')", "import of ''"),
    "import via module spec": ("json.__spec__.loader", 'starts with "_"'),
    "import via loader name": ("getattr(re, '__loader__')", "'__loader__' is not allowed"),
    "import via re.sre_compile": ("json.scanner.py_make_scanner", "'json.scanner' is not available"),
    "memory via a state bomb": ("x = [0] * (10**9)", "memory limit exceeded"),
}


@pytest.mark.parametrize("code, fragment", MORE_ATTACKS.values(), ids=MORE_ATTACKS.keys())
def test_more_attacks_are_blocked_and_reported_cleanly(run, code, fragment):
    result = run(code)
    assert result.success is False and result.error and fragment in result.error, result.error
    assert "Traceback" not in result.error + result.stdout and result.calls == ()


ESCAPED = r"""
import errno, json, os, resource, sys
request = json.loads(sys.stdin.readline())
probe = {"uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups()}
def attempt(name, action):
    try:
        probe[name] = action()
    except OSError as exc:
        probe[name] = errno.errorcode.get(exc.errno, str(exc.errno))
    except Exception as exc:
        probe[name] = type(exc).__name__
attempt("read", lambda: open(request["variables"]["secret_file"]).read())
attempt("fork", lambda: os.fork() or 0)
attempt("import", lambda: __import__("socket") and "imported")
print(json.dumps({"done": True, "stdout": json.dumps(probe), "final": None, "has_final": False,
                  "error": None, "blocked": False, "state": {}, "dropped": [], "uid": os.getuid()}), flush=True)
"""

NETWORK = r"""
import json, socket, sys
request = json.loads(sys.stdin.readline())
try:
    socket.create_connection(("127.0.0.1", request["variables"]["port"]), timeout=2).close()
    outcome = "connected"
except OSError as exc:
    outcome = type(exc).__name__
print(json.dumps({"done": True, "stdout": outcome, "final": None, "has_final": False,
                  "error": None, "blocked": False, "state": {}, "dropped": [], "uid": 0}), flush=True)
"""

PASSTHROUGH_JAIL = (
    "import sys\npath = sys.argv[1]\nexec(compile(open(path).read(), path, 'exec'), {'__name__': '__main__'})\n"
)


@pytest.fixture
def escaped(tmp_path, monkeypatch):
    """``escaped(source, variables, jail=True)``: ``source`` run as the sandbox script is."""

    def execute(source: str, variables: dict, jail: bool = True):
        script = tmp_path / "escaped.py"
        script.write_text(source)
        monkeypatch.setattr(repl_module, "_SANDBOX", script)
        if not jail:
            passthrough = tmp_path / "passthrough.py"
            passthrough.write_text(PASSTHROUGH_JAIL)
            monkeypatch.setattr(repl_module, "_JAIL", passthrough)
        return WanderRepl(Recorder(), variables, LIMITS).execute("")

    return execute


def test_the_user_layer_holds_without_the_language_layer(escaped, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("not root: the child already runs as this unprivileged user")
    secret = tmp_path / "secret"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    result = escaped(ESCAPED, {"secret_file": str(secret)})
    probe = json.loads(result.stdout)
    assert probe["uid"] != 0 and probe["gid"] != 0 and probe["groups"] == []
    assert probe["read"] == "EACCES" and probe["fork"] == "EAGAIN"
    if not _others_can_read(sysconfig.get_paths()["stdlib"]):  # a private interpreter (pyenv under /root)
        assert probe["import"] != "imported"  # its own library is out of reach too
    assert SECRET not in repr(result) and "user" in result.layers


def _others_can_read(path: str) -> bool:
    """Whether a user outside the owner and group can reach and list ``path`` (a system Python's
    library, /usr/lib/python3.x, is readable by everyone: the user layer cannot hide it)."""
    target = Path(path).resolve()
    reachable = all(p.stat().st_mode & stat.S_IXOTH for p in reversed(target.parents))
    return reachable and bool(target.stat().st_mode & stat.S_IROTH)


def test_the_network_layer_holds_without_the_language_layer(escaped):
    if repl_module.sandbox_layers()["network"].startswith("unavailable"):
        pytest.skip("unshare --net does not work here")
    import socket

    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        unjailed = escaped(NETWORK, {"port": port}, jail=False)
        assert unjailed.stdout != "connected" and unjailed.stdout.endswith("Error")
        assert "network" in unjailed.layers
        repl_module._network_namespace.cache_clear()
        try:  # the check can fail: without the namespace the same child connects
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(repl_module, "_network_namespace", lambda: False)
                assert escaped(NETWORK, {"port": port}, jail=False).stdout == "connected"
        finally:
            repl_module._network_namespace.cache_clear()


def test_the_active_layers_are_said(run):
    layers = repl_module.sandbox_layers()
    assert set(layers) == set(repl_module.LAYERS) and all(layers.values())
    result = run("print(1)")
    assert result.layers == tuple(n for n in repl_module.LAYERS if not layers[n].startswith("unavailable"))
    assert {"language", "process", "limits", "channel"} <= set(result.layers)


def test_a_child_still_root_is_reported_without_the_user_layer(escaped, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("not root: there is no drop to miss")
    secret = tmp_path / "secret"
    secret.write_text(SECRET)
    result = escaped(ESCAPED, {"secret_file": str(secret)}, jail=False)  # a jail that does not drop
    assert json.loads(result.stdout)["uid"] == 0
    assert "user" not in result.layers and "language" in result.layers
