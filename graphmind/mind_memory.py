"""Mind's verbs for whole memories: conversations in (``add_conversation``)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from graphmind.config import Settings
from graphmind.errors import ValidationError
from graphmind.forget import ForgetParams, ForgetReport, forget
from graphmind.io import ImportReport
from graphmind.io.conversation import parse_conversation
from graphmind.store import GraphStore


class MemoryVerbs:
    """Mixed into Mind: what it needs is its name, its store and its import."""

    name: str
    _store: GraphStore
    _settings: Settings

    def import_jsonl(self, path: str | Path, *, strict: bool = True) -> ImportReport:
        raise NotImplementedError

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
        A ForgetRun records the ids and counts. An id the mind does not hold raises
        NotFoundError and nothing is deleted."""
        if isinstance(ids, str):
            ids = [ids]
        return forget(self._store, self.name, list(ids), cascade=cascade, dry_run=dry_run, params=params)


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"a {type(value).__name__} is not a JSON value")
