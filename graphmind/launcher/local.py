"""Start, stop and inspect a Neo4j 5.26 Community server on 127.0.0.1, without Docker.

Jars live in ``GRAPHMIND_CACHE/neo4j-<version>-browser-<version>/``, shared by every home.
Layout under ``GRAPHMIND_HOME/neo4j``: ``conf/neo4j.conf``,
``data/``, ``logs/`` (``console.log`` and Neo4j's own logs), ``run/neo4j.pid`` and
``password`` (generated at first start). Everything under it is private to the user: the
folders are 0700 and the files 0600, Neo4j's own included (it runs under umask 077).
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import socket
import stat
import string
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from graphmind.config import Settings
from graphmind.errors import LauncherError, PortInUseError
from graphmind.launcher.jars import resolve_jars

log = logging.getLogger(__name__)

# Neo4j 5 on Java 17 needs these modules opened to run outside its own start script.
OPEN_MODULES = tuple(
    f"--add-opens=java.base/{module}=ALL-UNNAMED"
    for module in ("java.nio", "java.io", "sun.nio.ch", "java.lang", "java.util")
)
SERVER_FLAGS = (  # as Neo4j's own start script sets them, but for the garbage collector
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+DisableExplicitGC",
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    *OPEN_MODULES,
    # The throughput collector instead of G1: the local server is a 1 GB heap on a developer's
    # machine, where bulk writes allocate transaction state that dies at commit, and G1's
    # concurrent work and write barriers take CPU the writes need. Its pauses on a 1 GB heap
    # are short. Six pairs of fresh servers: import medians 28,476-31,003 vs 24,948-28,373
    # nodes/s, ahead in every pair; edges level (bench/RESULTS.md).
    "-XX:+UseParallelGC",
)
# Linux only (the flag is unknown elsewhere, and the JVM would refuse to start): the heap on
# transparent huge pages where the kernel allows it (madvise), else a warning and no change.
# Three pairs of fresh servers with the throughput collector: 30,132-30,811 vs 29,589-30,422
# nodes/s and 42,401-44,779 vs 42,207-42,539 edges/s.
LINUX_FLAGS = ("-XX:+UseTransparentHugePages",)
PRIVATE_UMASK = 0o077  # the server's files: 0600 in 0700 folders
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"


@dataclass(frozen=True)
class Neo4jStatus:
    """What ``graphmind neo4j status`` reports."""

    running: bool
    uri: str
    user: str
    password_file: str
    browser_url: str
    pid: int | None
    home: str
    log_file: str


def server_flags() -> tuple[str, ...]:
    """The JVM flags of the server on this platform."""
    return SERVER_FLAGS + (LINUX_FLAGS if sys.platform.startswith("linux") else ())


class LocalNeo4j:
    """The local server described by ``settings`` (paths, ports, memory, version)."""

    def __init__(self, settings: Settings):
        self._settings = settings
        self.root = settings.home / "neo4j"

    # -- paths --------------------------------------------------------------------------
    @property
    def lib_dir(self) -> Path:
        s = self._settings
        return s.cache_dir / f"neo4j-{s.neo4j_version}-browser-{s.browser_version}"

    @property
    def password_file(self) -> Path:
        return self.root / "password"

    @property
    def pid_file(self) -> Path:
        return self.root / "run" / "neo4j.pid"

    @property
    def log_file(self) -> Path:
        return self.root / "logs" / "console.log"

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self._settings.bolt_port}"

    def password(self) -> str | None:
        """The generated password, once the server has been started at least once."""
        return self.password_file.read_text().strip() if self.password_file.exists() else None

    # -- verbs --------------------------------------------------------------------------
    def status(self) -> Neo4jStatus:
        pid = self._live_pid()
        return Neo4jStatus(
            running=pid is not None and _port_open(self._settings.bolt_port),
            uri=self.uri,
            user="neo4j",
            password_file=str(self.password_file),
            browser_url=f"http://127.0.0.1:{self._settings.http_port}/browser/",
            pid=pid,
            home=str(self.root),
            log_file=str(self.log_file),
        )

    def start(self) -> Neo4jStatus:
        """Start the server unless it runs; return once Bolt and HTTP answer."""
        if self._live_pid() is not None:
            return self.status()
        for port in (self._settings.bolt_port, self._settings.http_port):
            if _port_open(port):
                raise PortInUseError(
                    f"port {port} on 127.0.0.1 is already taken; free it or set "
                    "GRAPHMIND_BOLT_PORT / GRAPHMIND_HTTP_PORT"
                )
        resolve_jars(self.lib_dir, self._settings.neo4j_version, self._settings.browser_version)
        self._settings.home.mkdir(mode=0o700, parents=True, exist_ok=True)
        for sub in ("conf", "data", "logs", "run"):
            (self.root / sub).mkdir(mode=0o700, parents=True, exist_ok=True)
        _make_private(self.root)
        self._write_config()
        self._ensure_password()
        self._launch()
        log.info("started Neo4j under %s; waiting for Bolt on port %d", self.root, self._settings.bolt_port)
        self._wait_until_ready()
        return self.status()

    def stop(self, timeout_s: float = 60.0) -> Neo4jStatus:
        """SIGTERM, wait for a clean shutdown, SIGKILL only past ``timeout_s``."""
        pid = self._live_pid()
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout_s
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.2)
            if _alive(pid):
                log.warning("Neo4j (pid %d) did not stop within %g s: killed", pid, timeout_s)
                os.kill(pid, signal.SIGKILL)
            _reap(pid)
            log.info("stopped Neo4j (pid %d)", pid)
        self.pid_file.unlink(missing_ok=True)
        return self.status()

    # -- steps --------------------------------------------------------------------------
    def _java(self) -> list[str]:
        java_home = os.environ.get("JAVA_HOME")
        java = str(Path(java_home) / "bin" / "java") if java_home else shutil.which("java")
        if not java or not Path(java).exists():
            raise LauncherError("Java 17 or newer is needed to run the local Neo4j (set JAVA_HOME or put java on PATH)")
        return [java, "-cp", f"{self.lib_dir}/*"]

    def _env(self) -> dict[str, str]:
        return {**os.environ, "NEO4J_HOME": str(self.root), "NEO4J_CONF": str(self.root / "conf")}

    def _write_config(self) -> None:
        s = self._settings
        lines = {
            "server.default_listen_address": "127.0.0.1",
            "server.default_advertised_address": "127.0.0.1",
            "server.bolt.listen_address": f"127.0.0.1:{s.bolt_port}",
            "server.bolt.advertised_address": f"127.0.0.1:{s.bolt_port}",
            "server.http.listen_address": f"127.0.0.1:{s.http_port}",
            "server.http.advertised_address": f"127.0.0.1:{s.http_port}",
            "server.https.enabled": "false",
            "server.directories.data": str(self.root / "data"),
            "server.directories.logs": str(self.root / "logs"),
            "server.directories.run": str(self.root / "run"),
            "server.memory.heap.initial_size": s.heap_size,
            "server.memory.heap.max_size": s.heap_size,
            "server.memory.pagecache.size": s.pagecache_size,
            "dbms.security.auth_enabled": "true",
            "dbms.usage_report.enabled": "false",
            "db.tx_log.rotation.retention_policy": "1 files",
        }
        text = "".join(f"{k}={v}\n" for k, v in lines.items())
        _write_private(self.root / "conf" / "neo4j.conf", text)

    def _ensure_password(self) -> None:
        if self.password_file.exists():
            return
        if (self.root / "data" / "databases").exists():
            raise LauncherError(
                f"{self.root} holds a database but its password file is gone; remove the directory to start afresh"
            )
        # Letters and digits only: a leading '-' would be read as an option by the admin tool.
        password = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(24))
        command = [*self._java(), "-Xmx256m", *OPEN_MODULES, ADMIN_TOOL, "dbms", "set-initial-password", password]
        done = subprocess.run(
            command, env=self._env(), capture_output=True, text=True, check=False, umask=PRIVATE_UMASK
        )
        if done.returncode != 0:
            raise LauncherError(f"could not set the initial Neo4j password: {done.stderr.strip()[-300:]}")
        _write_private(self.password_file, password + "\n")

    def _launch(self) -> None:
        s = self._settings
        command = [
            *self._java(),
            f"-Xms{s.heap_size}",
            f"-Xmx{s.heap_size}",
            *server_flags(),
            ENTRY_POINT,
            f"--home-dir={self.root}",
            f"--config-dir={self.root / 'conf'}",
        ]
        fd = os.open(self.log_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as log:  # this run's output only
            process = subprocess.Popen(
                command,
                env=self._env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                cwd=self.root,
                umask=PRIVATE_UMASK,
            )
        _write_private(self.pid_file, str(process.pid))

    def _wait_until_ready(self) -> None:
        s = self._settings
        deadline = time.monotonic() + s.start_timeout_s
        while time.monotonic() < deadline:
            pid = self._live_pid()
            if pid is None:
                raise LauncherError(f"Neo4j exited during start-up: {self._log_tail()}")
            if _port_open(s.bolt_port) and _http_ok(s.http_port):
                return
            time.sleep(0.25)
        self.stop()
        raise LauncherError(f"Neo4j did not answer within {s.start_timeout_s:.0f} s: {self._log_tail()}")

    def _live_pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        return pid if _alive(pid) else None

    def _log_tail(self) -> str:
        """The most telling line of this run's console output (an exception, else the last)."""
        if not self.log_file.exists():
            return f"see {self.log_file}"
        lines = [ln.strip() for ln in self.log_file.read_text(errors="replace").splitlines() if ln.strip()]
        telling = [ln for ln in lines if "Exception" in ln or " ERROR " in ln]
        line = (telling or lines or [f"see {self.log_file}"])[0 if telling else -1]
        return f"{line[:300]} (log: {self.log_file})"


def _write_private(path: Path, text: str) -> None:
    """Write ``path`` readable by the user only (0600, also when it already existed)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)


def _make_private(root: Path) -> None:
    """Folders 0700 and files 0600 under ``root``: a home made before they were private
    (files 0644 in 0755 folders) is closed at its next start."""
    for folder, _dirs, files in os.walk(root):
        os.chmod(folder, 0o700)
        for name in files:
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISREG(mode) and mode & 0o077:
                os.chmod(path, stat.S_IMODE(mode) & 0o700)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child of ours counts as gone
        return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (FileNotFoundError, IndexError):
        return True


def _reap(pid: int, timeout_s: float = 10.0) -> None:
    """Collect the exit status when the server was started by this very process.

    A JVM's main thread can show as a zombie while its other threads still exit, so poll.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                return
        except ChildProcessError:
            return
        time.sleep(0.05)


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _http_ok(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False
