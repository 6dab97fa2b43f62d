"""Background jobs of the REST API: long verbs (a dream) answer 202 at once and run here.

A job's state lives in Neo4j (a ``GraphmindJob`` node), so ``GET /api/v1/jobs/{id}`` answers
from any server process, and a job a stopped server left queued or running reads
``interrupted`` after the next start. ``DELETE`` asks a job to stop: the dream checks between
its phases and stops before it publishes (its publication is one transaction, so a cancelled
dream leaves nothing half-written).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from graphmind.errors import GraphmindError, NotFoundError, RunError
from graphmind.store import GraphStore

log = logging.getLogger(__name__)
FINAL = frozenset({"completed", "failed", "cancelled", "interrupted"})


class JobCancelledError(RunError):
    """The job was asked to stop (``DELETE /api/v1/jobs/{id}``)."""


Work = Callable[[Callable[[str], None]], dict[str, Any]]
"""A job's work: called with ``progress(line)`` (which raises JobCancelledError once the job is
cancelled); returns the result to store."""


class Jobs:
    """Runs jobs on a small pool and keeps their state in the store."""

    def __init__(self, store: GraphStore, workers: int = 2):
        self._store = store
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="graphmind-job")
        self._cancelled: set[str] = set()
        self._lock = threading.Lock()

    def recover(self) -> int:
        """Mark what a stopped server left queued or running as interrupted; how many."""
        return int(self._store.write("keys/mark_jobs_interrupted")[0]["interrupted"])

    def submit(self, mind: str, kind: str, work: Work) -> str:
        job_id = f"job-{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(4)}"
        self._save(job_id, mind, kind, "queued")
        self._pool.submit(self._run, job_id, mind, kind, work)
        return job_id

    def get(self, job_id: str) -> dict[str, Any]:
        rows = self._store.read("keys/get_job", id=job_id)
        if not rows:
            raise NotFoundError(f"no job {job_id!r}")
        row = dict(rows[0])
        row["result"] = json.loads(row["result"]) if row["result"] else None
        return row

    def cancel(self, job_id: str) -> dict[str, Any]:
        job = self.get(job_id)
        if job["status"] not in FINAL:
            with self._lock:
                self._cancelled.add(job_id)
        return job

    def close(self) -> None:
        with self._lock:
            self._cancelled.update(["*"])
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _run(self, job_id: str, mind: str, kind: str, work: Work) -> None:
        def progress(line: str) -> None:
            with self._lock:
                stop = job_id in self._cancelled or "*" in self._cancelled
            if stop:
                raise JobCancelledError(f"job {job_id} was cancelled")
            self._save(job_id, mind, kind, "running", progress=line)

        try:
            progress("started")
            result = work(progress)
        except JobCancelledError as exc:
            with self._lock:
                stopping = "*" in self._cancelled
            if stopping:  # the server is stopping: the job did not finish, nobody cancelled it
                self._save(job_id, mind, kind, "interrupted", error="the server stopped before the job ended")
            else:
                self._save(job_id, mind, kind, "cancelled", error=str(exc))
        except GraphmindError as exc:
            self._save(job_id, mind, kind, "failed", error=" ".join(str(exc).split()))
        except Exception as exc:
            log.exception("job %s failed", job_id)
            self._save(job_id, mind, kind, "failed", error=f"internal error ({type(exc).__name__}: {exc})")
        else:
            self._save(job_id, mind, kind, "completed", progress="done", result=result)

    def _save(
        self,
        job_id: str,
        mind: str,
        kind: str,
        status: str,
        *,
        progress: str | None = None,
        result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> None:
        self._store.write(
            "keys/upsert_job",
            id=job_id,
            mind=mind,
            kind=kind,
            status=status,
            progress=progress,
            result=json.dumps(result, default=str) if result is not None else None,
            error=error,
        )
