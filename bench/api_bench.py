"""REST recall beside in-process recall: what the API adds.

    python bench/api_bench.py [--requests 200] [--clients 1 8 32]

Imports the Felix demo mind into a scratch mind, starts ``graphmind serve`` on a free loopback
port (a separate process, as a user runs it), and times ``POST /recall`` (k=10) with 1, 8 and 32
concurrent clients (httpx, one connection each), after 20 warm-up calls. Beside it, the same
queries through ``Mind.recall`` in this process. Prints p50 and p95 in ms, the errors, and the
p95 overhead of one client over in-process recall (target: < 10 ms, no errors under 32).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_store, scratch_mind

from graphmind.mind import Mind
from graphmind.samples import demo_file
from graphmind.server.keys import create_key

QUERIES = [
    "race condition",
    "duplicate settlements",
    "retry budget",
    "idempotency key",
    "ack timeout",
    "card network latency",
    "change freeze",
    "who is Nicolas",
    "load test",
    "audit trail",
]


def percentiles(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args()
    with bench_store() as (store, settings):
        name = scratch_mind("bench-api")
        mind = Mind(name, store, settings)
        mind.import_jsonl(demo_file())
        mind.embed()
        _, key = create_key(store, name, "read")
        try:
            inproc = []
            for i in range(20 + args.requests):
                started = time.perf_counter()
                mind.recall(QUERIES[i % len(QUERIES)], k=10)
                if i >= 20:
                    inproc.append((time.perf_counter() - started) * 1000)
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                port = sock.getsockname()[1]
            env = {**os.environ}
            if not env.get("NEO4J_URI") and settings.neo4j_uri:
                env["NEO4J_URI"] = settings.neo4j_uri
            server = subprocess.Popen([sys.executable, "-m", "graphmind.cli", "serve", "--port", str(port)], env=env)
            try:
                url = f"http://127.0.0.1:{port}/api/v1/minds/{name}/recall"
                headers = {"Authorization": f"Bearer {key}"}
                _wait(url, headers)
                p50, p95 = percentiles(inproc)
                print(f"{'path':<28} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
                print(f"{'in process (Mind.recall)':<28} {p50:>8.1f} {p95:>8.1f} {0:>7}")
                one_p95 = None
                for clients in args.clients:
                    ms, errors = _load(url, headers, clients, args.requests)
                    q50, q95 = percentiles(ms)
                    one_p95 = q95 if clients == 1 else one_p95
                    print(f"{f'REST, {clients} client(s)':<28} {q50:>8.1f} {q95:>8.1f} {errors:>7}")
                if one_p95 is not None:
                    print(f"p95 overhead of REST with 1 client: {one_p95 - p95:+.1f} ms (target < 10 ms)")
            finally:
                server.terminate()
                server.wait(timeout=30)
        finally:
            mind.delete()
            mind.close()


def _wait(url: str, headers: dict[str, str]) -> None:
    for _ in range(600):
        try:
            httpx.post(url, headers=headers, json={"query": "warm", "k": 1}, timeout=10)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    with httpx.Client(timeout=30) as client:
        for i in range(20):
            client.post(url, headers=headers, json={"query": QUERIES[i % len(QUERIES)], "k": 10})


def _load(url: str, headers: dict[str, str], clients: int, requests: int) -> tuple[list[float], int]:
    def worker(offset: int) -> tuple[list[float], int]:
        ms, errors = [], 0
        with httpx.Client(timeout=60) as client:
            for i in range(offset, requests, clients):
                started = time.perf_counter()
                answer = client.post(url, headers=headers, json={"query": QUERIES[i % len(QUERIES)], "k": 10})
                ms.append((time.perf_counter() - started) * 1000)
                if answer.status_code != 200:
                    errors += 1
                    print(f"  error {answer.status_code}: {answer.text[:300]}", file=sys.stderr)
        return ms, errors

    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(worker, range(clients)))
    return [m for ms, _ in results for m in ms], sum(e for _, e in results)


if __name__ == "__main__":
    main()
