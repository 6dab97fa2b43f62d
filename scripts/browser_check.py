"""Run one of graphmind's Neo4j Browser queries in a real headless Chromium, through the Browser.

    python scripts/browser_check.py --query rumination_evidence --mind felix [--screenshot out.png]

It starts Debian's Chromium (``/usr/bin/chromium``) headless with a fresh profile, opens the
Neo4j Browser the Neo4j HTTP port serves (``/browser/``), logs in with the password, sets
``:param mind``, runs the query from ``cypher/browser/find_<query>.cypher`` with the Run
button, and reads the result frame's status line ("Started streaming N records ..."). It
drives Chromium over the DevTools protocol (the ``websockets`` package). Settings come from the
environment as for every graphmind command (the local Neo4j's ports and password, or NEO4J_URI
with NEO4J_HTTP_URL). ``tests/integration/test_browser_chromium.py`` runs it; the screenshots
in docs/ are made with ``--screenshot``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
]
COUNTED = re.compile(r"Started streaming (\d+) records?|Displaying (\d+) nodes?|\* \((\d+)\)")
"""A result frame's count: the records streamed (table), or the nodes shown (graph)."""


@dataclass
class BrowserRun:
    records: int | None  # None: the query gave no result frame in time
    status: str
    screenshot: bytes


def query_text(name: str) -> str:
    """The Cypher of ``cypher/browser/find_<name>.cypher`` without its header comments."""
    text = (ROOT / "cypher" / "browser" / f"find_{name}.cypher").read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("//")).strip()


class _Page:
    def __init__(self, socket: websockets.ClientConnection):
        self._socket, self._next = socket, 0

    async def call(self, method: str, **params: object) -> dict:
        self._next += 1
        await self._socket.send(json.dumps({"id": self._next, "method": method, "params": params}))
        while True:
            message = json.loads(await self._socket.recv())
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def js(self, expression: str) -> object:
        found = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return found.get("result", {}).get("value")

    async def until(self, expression: str, seconds: float) -> object:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = await self.js(expression)
            if value:
                return value
            await asyncio.sleep(0.25)
        return None


def _set_input(testid: str, value: str) -> str:
    return f"""(() => {{
      const el = document.querySelector('[data-testid="{testid}"]');
      if (!el) return false;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, {json.dumps(value)});
      el.dispatchEvent(new Event('input', {{bubbles: true}}));
      el.dispatchEvent(new Event('change', {{bubbles: true}}));
      return true;
    }})()"""


def _click(testid: str) -> str:
    return f"""(() => {{
      const el = document.querySelector('[data-testid="{testid}"]');
      if (!el) return false;
      el.click();
      return true;
    }})()"""


async def _drive(page: _Page, http: str, bolt: str, password: str, query: str, mind: str, seconds: float) -> BrowserRun:
    async def open_with(command: str, argument: str) -> None:
        url = (
            f"{http}/browser/?dbms={urllib.parse.quote(bolt, safe='')}&cmd={command}&arg={urllib.parse.quote(argument)}"
        )
        await page.call("Page.navigate", url=url)
        await page.until("document.readyState === 'complete'", seconds)

    await open_with("edit", f':param mind => "{mind}"')
    if await page.until(_set_input("password", password), seconds):  # a login form: log in
        await page.js(_set_input("username", "neo4j"))
        await page.js(_click("connect"))
    connected = "!document.querySelector('[data-testid=\"password\"]') && !!document.querySelector('[data-testid=\"editor-Run\"]')"
    if not await page.until(connected, seconds):
        raise RuntimeError("the Neo4j Browser did not connect (wrong password, or Bolt unreachable)")
    await page.until(_click("editor-Run"), seconds)  # :param mind => "..." (kept for the session)
    await page.until('document.body.innerText.includes(\'"mind": "\')', seconds)
    focus = "(() => { const e = document.querySelector('[data-testid=\"activeEditor\"] textarea'); if (!e) return false; e.focus(); return document.activeElement === e; })()"
    if not await page.until(focus, seconds):
        raise RuntimeError("the Neo4j Browser's editor did not take the focus")
    await page.call("Input.insertText", text=" ".join(query.split()))  # typed, as a user would
    await page.until(_click("editor-Run"), seconds)
    status = await page.until(
        "(() => { const t = document.body.innerText;"
        " const m = t.match(/Started streaming \\d+ records?[^\\n]*/) || t.match(/Displaying \\d+ nodes?[^\\n]*/)"
        " || t.match(/\\* \\(\\d+\\)/) || t.match(/\\(no changes, no records\\)/); return m ? m[0] : ''; })()",
        seconds,
    )
    shot = await page.call("Page.captureScreenshot", format="png")
    text = str(status or "")
    found = COUNTED.search(text)
    records = int(next(g for g in found.groups() if g)) if found else (0 if "no records" in text else None)
    return BrowserRun(records, text, base64.b64decode(shot["data"]))


def run_query(http: str, bolt: str, password: str, query: str, mind: str, *, seconds: float = 30.0) -> BrowserRun:
    """Run ``query`` with ``$mind`` = ``mind`` in the Neo4j Browser at ``http`` (headless Chromium).
    A session that hangs (a DevTools call the page never answers) is given up after
    ``SESSION_SPANS`` x ``seconds`` and tried once more in a fresh Chromium."""
    try:
        return _run_once(http, bolt, password, query, mind, seconds)
    except TimeoutError:
        return _run_once(http, bolt, password, query, mind, seconds)


SESSION_SPANS = 8


def _run_once(http: str, bolt: str, password: str, query: str, mind: str, seconds: float) -> BrowserRun:
    profile = Path(tempfile.mkdtemp(prefix="graphmind-chromium-"))
    proc = subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + seconds
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("Chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            target = next(t for t in json.load(answer) if t["type"] == "page")

        async def session() -> BrowserRun:
            async with websockets.connect(target["webSocketDebuggerUrl"], max_size=64 << 20) as socket:
                page = _Page(socket)
                await page.call("Page.enable")
                return await _drive(page, http, bolt, password, query, mind, seconds)

        return asyncio.run(asyncio.wait_for(session(), timeout=SESSION_SPANS * seconds))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--query", default="rumination_evidence", help="ladder, provenance, trace, rumination_evidence")
    parser.add_argument("--mind", required=True)
    parser.add_argument("--screenshot", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from graphmind.config import Settings
    from graphmind.launcher import LocalNeo4j

    settings = Settings.from_env()
    local = LocalNeo4j(settings)
    password = local.password() or ""
    http, bolt = f"http://127.0.0.1:{settings.http_port}", local.uri
    run = run_query(http, bolt, password, query_text(args.query), args.mind)
    if args.screenshot:
        args.screenshot.write_bytes(run.screenshot)
    print(f"{args.query}: {run.status or 'no result frame'}")
    sys.exit(0 if run.records else 1)


if __name__ == "__main__":
    main()
