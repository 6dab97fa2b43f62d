"""Mind's verbs for whole memories: experiences captured (``capture``, ``capture_many``, a newer
one superseding or contradicting older memories) and conversations in (``add_conversation``)."""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from graphmind.config import Settings
from graphmind.dream.capture import CONTENT_FIELDS, Captured, experience_row, experience_rows, named_ids, untaken
from graphmind.dream.capture_queue import CaptureQueue
from graphmind.errors import NotFoundError, ValidationError
from graphmind.forget import ForgetParams, ForgetReport, forget
from graphmind.io import ImportReport
from graphmind.io.conversation import parse_conversation
from graphmind.models import Experience
from graphmind.recall import EmbedReport
from graphmind.recall.hit_counter import flush_hits
from graphmind.store import GraphStore


class MemoryVerbs:
    """Mixed into Mind: what it needs is its name, its store and its import."""

    name: str
    _store: GraphStore
    _settings: Settings
    _capture: CaptureQueue | None
    _named_capture: threading.Lock
    """Held from the check of a caller-given id to its write (or queueing)."""

    def import_jsonl(self, path: str | Path, *, strict: bool = True) -> ImportReport:
        raise NotImplementedError

    def capture(
        self,
        experience: Experience | dict[str, Any],
        *,
        session_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        wait: bool = False,
        supersedes: Sequence[str] = (),
        contradicts: Sequence[str] = (),
    ) -> str:
        """Record one experience as it happens (no LLM call); its id. A bad experience raises
        ValidationError at once. ``capture_once`` takes the same arguments and also says
        whether this call stored it.

        The write happens behind the call, batched, within ``GRAPHMIND_CAPTURE_FLUSH_MS``
        (graphmind.dream.capture_queue); ``wait=True`` writes before returning. ``flush()``,
        ``dream()`` and ``close()`` wait for queued experiences. ``metadata`` (puzzle
        difficulty, duration, ...) is kept as ``session_<key>`` properties.

        An id the caller gives names one memory for good: capturing it again with the same
        content writes nothing, with other content raises ConflictError (nothing is overwritten).

        ``supersedes`` / ``contradicts`` name older memories of the mind this one replaces: each
        is kept, marked ``invalid_at`` this one's ``valid_from`` (else its timestamp), a pattern
        also ``invalidated``, and linked ``SUPERSEDES`` / ``CONTRADICTS`` from this one; a pattern
        left with no valid experience is invalidated too (from when its last one was). That
        capture is written at once with the marks, in one transaction: an unknown id writes nothing.
        """
        return self.capture_once(
            experience,
            session_id=session_id,
            metadata=metadata,
            wait=wait,
            supersedes=supersedes,
            contradicts=contradicts,
        ).id

    def capture_once(
        self,
        experience: Experience | dict[str, Any],
        *,
        session_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        wait: bool = False,
        supersedes: Sequence[str] = (),
        contradicts: Sequence[str] = (),
    ) -> Captured:
        """``capture``, saying whether this call stored the experience: ``created`` is False
        when the same experience was stored under its id already (a retry). Captures naming
        one id at the same time in this process are taken one after the other, so one is
        stored and the other is a retry or a ConflictError."""
        limit = self._settings.max_property_bytes
        row = experience_row(self.name, experience, session_id=session_id, metadata=metadata, max_property_bytes=limit)
        named = named_ids([experience])
        with self._named_capture if named else nullcontext():
            stored = not self._not_yet_stored([row], named)
            if supersedes or contradicts:  # a retry marks again (idempotent), from the stored one's dates
                self.flush()
                self._capture_replacing(row, {"SUPERSEDES": supersedes, "CONTRADICTS": contradicts}, stored=stored)
            elif stored:
                pass  # the same capture again (a retry): stored already
            elif wait:
                self._write_experiences([row])
            else:
                if self._capture is None:
                    self._capture = CaptureQueue(self._write_experiences, flush_ms=self._settings.capture_flush_ms)
                self._capture.put(row)
        return Captured(str(row["id"]), created=not stored)

    def flush(self) -> None:
        """Wait until every captured experience is stored and the hits of every recall so far
        are counted (raises if a write failed)."""
        if self._capture is not None:
            self._capture.flush()
        flush_hits(self._store)

    def _not_yet_stored(self, rows: list[dict[str, Any]], named: set[str]) -> list[dict[str, Any]]:
        """``rows`` without the ``named`` ids stored alike already; ConflictError if one holds
        another memory (ids graphmind made are new, and not looked up)."""
        asked = [{"uid": r["uid"], "id": r["id"], "props": r["props"]} for r in rows if r["id"] in named]
        if not asked:
            return rows
        if self._capture is not None:
            self._capture.flush()  # a queued capture under the same id counts too
        found = self._store.read("memory/find_taken_ids", mind=self.name, rows=asked, fields=list(CONTENT_FIELDS))
        return untaken(self.name, rows, {f["id"]: f["same"] for f in found})

    def _write_experiences(self, rows: list[dict[str, Any]]) -> None:
        self._store.write("import/upsert_memories", mind=self.name, rows=rows)

    def capture_many(
        self,
        experiences: list[Experience | dict[str, Any]],
        *,
        session_id: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> list[str]:
        """Record a batch of experiences now; their ids. All are validated first, so one bad
        experience writes none, nor does one whose id holds another memory (ConflictError); one
        stored alike already is not written again. They are written in batches of
        GRAPHMIND_IMPORT_BATCH."""
        experiences = list(experiences)  # read twice: rows, then the ids the caller named
        rows = experience_rows(
            self.name,
            experiences,
            session_id=session_id,
            metadata=metadata,
            max_property_bytes=self._settings.max_property_bytes,
        )
        ids = [r["id"] for r in rows]
        named = named_ids(experiences)
        with self._named_capture if named else nullcontext():
            rows = self._not_yet_stored(rows, named)
            for start in range(0, len(rows), self._settings.import_batch_size):
                self._write_experiences(rows[start : start + self._settings.import_batch_size])
        return ids

    def _capture_replacing(self, row: dict[str, Any], older: Mapping[str, Sequence[str]], *, stored: bool) -> None:
        """Write ``row`` (unless ``stored`` already: a retry rewrites nothing) and mark the older
        memories it replaces, in one transaction."""
        ids = {rel: _ids(rel, value) for rel, value in older.items()}
        dates = row["dates"]
        if stored:  # the marks date from the memory as stored, not from the retry's clock
            kept = self._store.read("memory/get_node", mind=self.name, id=row["id"])[0]["props"]
            dates = {k: kept[k] for k in ("valid_from", "timestamp") if kept.get(k) is not None}
        at = dates.get("valid_from") or dates.get("timestamp") or datetime.now(UTC).isoformat()
        at = at.isoformat() if isinstance(at, datetime) else str(at)
        rows = [{"old": f"{self.name}:{i}", "rel": rel, "at": at} for rel, named in ids.items() for i in named]
        wanted = {i for named in ids.values() for i in named}
        with self._store.transaction() as tx:
            if not stored:
                tx.run("import/upsert_memories", mind=self.name, rows=[row])
            done = tx.run("memory/mark_superseded", mind=self.name, new_uid=row["uid"], rows=rows)[0]
            missing = sorted(wanted - set(done["found"]) - {row["id"]})
            if missing or row["id"] in wanted:
                name = missing[0] if missing else row["id"]
                raise NotFoundError(f"mind {self.name!r} has no older memory {name!r} to supersede")
            if done["too_late"]:
                raise ValidationError(
                    f"memory {done['too_late'][0]!r} is valid only from {at} or later, so it cannot be superseded then",
                    field="supersedes",
                )
            tx.run("memory/mark_unsupported_patterns", mind=self.name, olds=[r["old"] for r in rows])

    def add_conversation(
        self,
        session_id: str,
        turns: Sequence[Mapping[str, Any] | BaseModel],
        *,
        started_at: datetime | str | None = None,
        participants: Sequence[str] | None = None,
    ) -> ImportReport:
        """Store one conversation session as the import does a ``conversation`` row: a Turn
        per turn (``{"id", "speaker", "text", "timestamp"?}``, ids kept) linked NEXT, IN_SESSION
        to the Session and SPOKEN_BY the speaker. ``started_at`` defaults to the first turn's
        timestamp; ``participants`` to the speakers in order of speech. A bad turn raises
        ValidationError and writes nothing."""
        rows = [dict(t.model_dump(exclude_none=True) if isinstance(t, BaseModel) else t) for t in turns]
        if started_at is None:
            started_at = rows[0].get("timestamp") if rows else None
            if started_at is None:
                raise ValidationError(f"conversation {session_id!r} needs started_at (its first turn has no timestamp)")
        if participants is None:
            participants = list(dict.fromkeys(str(row.get("speaker")) for row in rows))
        row = {
            "type": "conversation",
            "session_id": session_id,
            "started_at": started_at,
            "participants": list(participants),
            "turns": rows,
        }
        try:
            text = json.dumps(row, default=_iso, ensure_ascii=False)
            parse_conversation(1, json.loads(text), self._settings.max_property_bytes)
        except TypeError as exc:
            raise ValidationError(f"conversation {session_id!r} is not JSON data: {exc}") from None
        except ValidationError as exc:
            where = f", field '{exc.field}'" if exc.field else ""
            raise ValidationError(f"conversation {session_id!r}{where}: {exc.reason}", field=exc.field) from None
        with tempfile.TemporaryDirectory(prefix="graphmind-conversation-") as folder:
            path = Path(folder) / "conversation.jsonl"
            path.write_text(text + "\n", encoding="utf-8")
            try:
                return self.import_jsonl(path)
            except ValidationError as exc:  # what only the mind can tell: an id already taken
                raise ValidationError(f"conversation {session_id!r}: {exc}", field=exc.field) from None

    def forget(
        self, ids: Sequence[str], *, cascade: bool = False, dry_run: bool = False, params: ForgetParams | None = None
    ) -> ForgetReport:
        """Delete the memories ``ids`` (DETACH: their edges, embeddings and full-text entries go
        with them) and cut verbatim copies of their text out of what was derived from them.
        With ``cascade``, derived nodes left without enough support (a pattern with fewer than
        its minimum experiences, a crystal with one piece of evidence, an abstraction with no
        child, a finding that cites nothing) are removed too, and patterns and abstractions that
        lost some support are flagged unverified. ``dry_run`` reports all this and writes nothing.
        Scrubbed memories are embedded again at once. A ForgetRun records the ids and counts. An
        id the mind does not hold raises
        NotFoundError and nothing is deleted."""
        if isinstance(ids, str):
            ids = [ids]
        report = forget(self._store, self.name, list(ids), cascade=cascade, dry_run=dry_run, params=params)
        if report.scrubbed and not dry_run:
            self.embed(full=False)  # the scrubbed memories, embedded again from their new text
        return report

    def embed(self, *, full: bool = True) -> EmbedReport:
        raise NotImplementedError


def _ids(rel: str, value: object) -> list[str]:
    """The ids a capture names as older memories (a string is one id)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, Sequence) or not all(isinstance(i, str) and i.strip() for i in items):
        raise ValidationError(f"{rel.lower()} must be a list of memory ids", field=rel.lower())
    return list(dict.fromkeys(items))


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"a {type(value).__name__} is not a JSON value")
