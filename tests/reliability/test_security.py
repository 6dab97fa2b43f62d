"""Security facts, tested (issue 25, item 5): Neo4j listens on loopback only, its password file
is 0600, API and Anthropic keys never reach logs, ``--json`` output or error messages, and no
mind name can make the project write a file outside GRAPHMIND_HOME.

Each check is a small function that is also run on a corrupted input, so it can fail."""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import socket
import stat
from importlib import resources
from pathlib import Path

import pytest

from graphmind.cli.main import main
from graphmind.config import Settings
from graphmind.launcher.local import LocalNeo4j, _write_private
from tests.fixtures.messages_stub import error_reply, messages_stub  # noqa: F401 - fixture

SAMPLE = Path(str(resources.files("graphmind") / "demo" / "b01-felix.jsonl"))
ANTHROPIC_SECRET = "sk-ant-api03-SECRETSECRETSECRET-do-not-print"
HOSTILE_NAMES = [
    "..",
    "../escape",
    "a/../../escape",
    "/tmp/escape",
    "x/y",
    "it's",
    'say "hi"',
    "naïve",
    "名前",
    "a\x00b",
    "a\nb",
    "-rf",
    "x" * 10_000,
    "",
]


# -- pure checks ------------------------------------------------------------------------------
def non_loopback_listeners(conf_text: str) -> list[str]:
    """The ``*listen_address`` settings of a neo4j.conf that do not bind a loopback address."""
    bad = []
    for line in conf_text.splitlines():
        key, _, value = line.partition("=")
        if key.strip().endswith("listen_address"):
            host = value.strip().rsplit(":", 1)[0] if value.count(":") == 1 else value.strip()
            if not _is_loopback(host):
                bad.append(line)
    return bad


def _is_loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host == "localhost"
    mapped = getattr(address, "ipv4_mapped", None)  # a dual-stack socket shows 127.0.0.1 as ::ffff:127.0.0.1
    return bool((mapped or address).is_loopback)


def listening_addresses(port: int) -> list[str]:
    """The local addresses that LISTEN on ``port`` (from /proc/net/tcp and tcp6)."""
    found = []
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            fields = row.split()
            address, port_hex = fields[1].split(":")
            if fields[3] == "0A" and int(port_hex, 16) == port and len(address) == width:
                raw = bytes.fromhex(address)
                # /proc prints each 32-bit word in host (little-endian) order
                packed = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
                found.append(socket.inet_ntop(socket.AF_INET if width == 8 else socket.AF_INET6, packed))
    return found


def leaks(secret: str, *texts: str) -> list[str]:
    """The texts that hold ``secret`` (or a 12-character piece of it)."""
    pieces = {secret[i : i + 12] for i in range(0, max(1, len(secret) - 11))}
    return [t[:200] for t in texts if any(p in t for p in pieces)]


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*")} if root.exists() else set()


def test_the_checks_can_fail() -> None:
    assert non_loopback_listeners("server.bolt.listen_address=0.0.0.0:7687\n") != []
    assert non_loopback_listeners("server.default_listen_address=::\n") != []
    assert non_loopback_listeners("server.bolt.listen_address=127.0.0.1:7687\n") == []
    assert leaks(ANTHROPIC_SECRET, f"error: key {ANTHROPIC_SECRET[5:30]}") != []
    assert leaks(ANTHROPIC_SECRET, "error: check ANTHROPIC_API_KEY") == []
    assert not _is_loopback("10.0.0.1") and not _is_loopback("::ffff:10.0.0.1") and not _is_loopback("::")
    assert _is_loopback("::1") and _is_loopback("::ffff:127.0.0.1")


# -- Neo4j: loopback only, private files ------------------------------------------------------
def test_the_launcher_writes_a_loopback_only_config(tmp_path: Path) -> None:
    local = LocalNeo4j(Settings.from_env({"GRAPHMIND_HOME": str(tmp_path / "home")}))
    (local.root / "conf").mkdir(parents=True)
    local._write_config()
    conf = local.root / "conf" / "neo4j.conf"
    text = conf.read_text()
    assert "listen_address" in text and non_loopback_listeners(text) == []
    assert stat.S_IMODE(conf.stat().st_mode) == 0o600


def test_private_files_are_0600_even_when_they_existed_open(tmp_path: Path) -> None:
    path = tmp_path / "password"
    path.write_text("old\n")
    path.chmod(0o644)
    _write_private(path, "new\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def _local_test_neo4j() -> LocalNeo4j | None:
    if os.environ.get("GRAPHMIND_TEST_NEO4J_URI") or os.environ.get("NEO4J_URI"):
        return None
    home = Path(os.environ.get("GRAPHMIND_TEST_HOME", Path(__file__).resolve().parents[2] / ".graphmind-test"))
    env = {
        "GRAPHMIND_HOME": str(home),
        "GRAPHMIND_BOLT_PORT": os.environ.get("GRAPHMIND_TEST_BOLT_PORT", "17687"),
        "GRAPHMIND_HTTP_PORT": os.environ.get("GRAPHMIND_TEST_HTTP_PORT", "17474"),
    }
    return LocalNeo4j(Settings.from_env(env))


@pytest.mark.integration
def test_the_running_neo4j_listens_on_loopback_only_and_its_password_is_0600(neo4j_env: dict[str, str]) -> None:
    local = _local_test_neo4j()
    if local is None or not local.status().running:
        pytest.skip("the test database is not the local launcher's")
    settings = local._settings
    for port in (settings.bolt_port, settings.http_port):
        addresses = listening_addresses(port)
        assert addresses, f"nothing listens on {port}"
        assert [a for a in addresses if not _is_loopback(a)] == [], (port, addresses)
    assert non_loopback_listeners((local.root / "conf" / "neo4j.conf").read_text()) == []
    assert stat.S_IMODE(local.password_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(local.root.stat().st_mode) == 0o700


# -- keys never printed ----------------------------------------------------------------------
def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _anthropic_env(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_SECRET)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    monkeypatch.setenv("GRAPHMIND_LLM", "anthropic")
    monkeypatch.setenv("GRAPHMIND_LLM_MAX_RETRIES", "0")


@pytest.mark.parametrize("status", [401, 403, 500])
def test_the_anthropic_key_is_not_in_stderr_json_or_debug_logs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, messages_stub, status: int
) -> None:
    _anthropic_env(monkeypatch, messages_stub.url)
    messages_stub.script(*[error_reply(status, "invalid x-api-key")] * 3)
    code, out, err = _cli(capsys, "--log-level", "debug", "llm", "check", "--json")
    assert code != 0 and "Traceback" not in err
    assert messages_stub.requests, "the stub was never called: nothing was tested"
    assert any(ANTHROPIC_SECRET in v for v in messages_stub.requests[0].headers.values()), messages_stub.requests[
        0
    ].headers.keys()
    assert leaks(ANTHROPIC_SECRET, out, err) == []


def test_the_anthropic_key_is_not_in_an_exception(monkeypatch: pytest.MonkeyPatch, messages_stub) -> None:
    from graphmind.errors import GraphmindError
    from graphmind.llm.factory import make_llm
    from graphmind.prompts.llm import CHECK, CheckInput

    _anthropic_env(monkeypatch, messages_stub.url)
    messages_stub.script(error_reply(401, "invalid x-api-key"))
    llm = make_llm(Settings.from_env())
    with pytest.raises(GraphmindError) as caught:
        llm.generate(CHECK, CheckInput())
    chain: list[str] = []
    exc: BaseException | None = caught.value
    while exc is not None:
        chain.append(f"{exc!s} {exc!r} {vars(exc) if hasattr(exc, '__dict__') else ''}")
        exc = exc.__cause__ or exc.__context__
    assert leaks(ANTHROPIC_SECRET, *chain) == []


@pytest.mark.integration
def test_the_anthropic_key_is_not_in_a_failed_rumination(
    cli_env: dict[str, str], cli_mind: str, capsys: pytest.CaptureFixture[str], monkeypatch, messages_stub
) -> None:
    code, _, err = _cli(capsys, "import", str(SAMPLE), "--mind", cli_mind)
    assert code == 0, err
    _anthropic_env(monkeypatch, messages_stub.url)
    messages_stub.script(*[error_reply(401, "invalid x-api-key")] * 5)
    code, out, err = _cli(capsys, "--log-level", "debug", "ruminate", "hello there", "--mind", cli_mind, "--json")
    assert code != 0 and "Traceback" not in err and messages_stub.requests
    assert leaks(ANTHROPIC_SECRET, out, err) == []


@pytest.mark.integration
def test_an_api_key_is_shown_once_and_never_logged(
    cli_env: dict[str, str], cli_mind: str, store, settings, capsys: pytest.CaptureFixture[str], caplog
) -> None:
    from fastapi.testclient import TestClient

    from graphmind.server.app import create_app

    code, out, err = _cli(capsys, "--log-level", "debug", "keys", "create", "--mind", cli_mind, "--json")
    assert code == 0, err
    key = next(v for v in json.loads(out).values() if isinstance(v, str) and v.startswith("gm_"))
    assert leaks(key, err) == []
    code, out, err = _cli(capsys, "--log-level", "debug", "keys", "list", "--mind", cli_mind, "--json")
    assert code == 0 and leaks(key, out, err) == []
    assert _cli(capsys, "capture", "first memory", "--mind", cli_mind, "--outcome", "success")[0] == 0
    wrong = key[:-4] + "zzzz"
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(settings, store)) as api:
        ok = api.get(f"/api/v1/minds/{cli_mind}/stats", headers={"Authorization": f"Bearer {key}"})
        bad = api.get(f"/api/v1/minds/{cli_mind}/stats", headers={"Authorization": f"Bearer {wrong}"})
        other = api.get("/api/v1/minds/test-someone-else/stats", headers={"Authorization": f"Bearer {key}"})
    assert ok.status_code == 200 and bad.status_code == 401 and other.status_code in (403, 404)
    assert leaks(key, bad.text, other.text, *[r.getMessage() for r in caplog.records]) == []
    assert leaks(wrong, bad.text) == []


# -- mind names never leave GRAPHMIND_HOME ----------------------------------------------------
VERBS = [
    ("ruminate", "hello", "--mind"),
    ("dream", "--mind"),
    ("recall", "hello", "--mind"),
    ("export", "--mind"),
    ("import", str(SAMPLE), "--mind"),
    ("stats", "--mind"),
    ("digest", "--mind"),
    ("demo", "--mind"),
    ("wander", "run", "--seed", "x", "--mind"),
    ("keys", "create", "--mind"),
    ("mcp", "--mind"),
    ("minds", "delete"),
]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=lambda n: repr(n)[:20])
@pytest.mark.parametrize("verb", VERBS, ids=lambda v: " ".join(v[:2]))
def test_a_hostile_mind_name_is_refused_before_anything_is_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    verb: tuple[str, ...],
    name: str,
) -> None:
    home = tmp_path / "home"
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("GRAPHMIND_HOME", str(home))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")  # nothing answers: a name must fail before
    before = files_under(tmp_path)
    code, out, err = _cli(capsys, *verb, name)
    assert code == 2, (code, err)
    assert "Traceback" not in err and err.count("\n") <= 1
    assert "mind" in err.lower() or "name" in err.lower(), err
    assert files_under(tmp_path) - before - files_under(home) == set()
