"""Memory tiers (wander-technical-spec): a session's hot memory holds at most ``HOT_LIMIT``
loci; beyond it, the oldest hot loci are compressed into ``WarmMemory``:
- one ``theme_cluster`` per domain of the compressed loci (their concepts, by domain),
- one ``failed_path`` for the loci that were not interesting (interestingness < 0.3),
- one ``summary`` of the whole batch,
each with strength 1.0 and an expiry ``WARM_DAYS`` (7) days on; the loci move to the warm tier
(kept, and no longer hot)."""

from __future__ import annotations

import secrets
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmind.store import GraphStore

HOT_LIMIT, WARM_DAYS, DULL = 100, 7, 0.3


def warm_rows(loci: list[dict[str, Any]], session_id: str, now: datetime) -> list[dict[str, Any]]:
    """The WarmMemory contents for ``loci`` (pure)."""
    by_domain: dict[str, list[str]] = defaultdict(list)
    for locus in loci:
        for domain in locus["domains"] or ["(no domain)"]:
            by_domain[domain].append(locus["concept"])
    rows = [
        ("theme_cluster", f"{domain}: " + "; ".join(dict.fromkeys(concepts)))
        for domain, concepts in sorted(by_domain.items())
    ]
    dull = [l["concept"] for l in loci if l["interestingness"] is not None and l["interestingness"] < DULL]
    if dull:
        rows.append(("failed_path", "not interesting: " + "; ".join(dull)))
    rows.append(
        (
            "summary",
            f"{len(loci)} loci from {loci[0]['visited']} to {loci[-1]['visited']}: "
            + "; ".join(l["concept"] for l in loci),
        )
    )
    expires = (now + timedelta(days=WARM_DAYS)).isoformat()
    return [
        {
            "id": f"warm-{secrets.token_hex(4)}",
            "props": {"cluster_type": kind, "content": content, "strength": 1.0, "session_id": session_id},
            "expires_at": expires,
        }
        for kind, content in rows
    ]


def compress_to_warm(
    store: GraphStore, mind: str, session_id: str, *, limit: int = HOT_LIMIT, now: datetime | None = None
) -> int:
    """Compress the oldest hot loci beyond ``limit``; how many loci moved to the warm tier."""
    hot = store.read("wander/list_hot_loci", mind=mind, session_id=session_id)
    overflow = hot[: max(0, len(hot) - limit)]
    if not overflow:
        return 0
    rows = [{"uid": f"{mind}:{r['id']}", **r} for r in warm_rows(overflow, session_id, now or datetime.now(UTC))]
    return store.write("wander/upsert_warm_memory", mind=mind, rows=rows, loci=[l["id"] for l in overflow])[0]["moved"]
