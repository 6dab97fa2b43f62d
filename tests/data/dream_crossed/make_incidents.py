"""Writes incidents.jsonl: an on-call log where each remediation technique is applied to many
services, so the service a line names says nothing about the technique it used.

    python tests/data/dream_crossed/make_incidents.py

10 techniques (in 5 families) x 12 services, one line per pair, phrased from 6 wordings per
technique written for this set; the wording is picked by (technique + service) so that no
wording goes with one service. Deterministic (no randomness): the file is committed and this
script only documents how it was made.
"""

from __future__ import annotations

import json
from pathlib import Path

SERVICES = [
    "payments-api",
    "checkout-service",
    "auth-gateway",
    "inventory-db",
    "search indexer",
    "notification-worker",
    "ledger service",
    "billing cron",
    "ProfileStore",
    "order-router",
    "shipping API",
    "Recommender",
]

# technique -> (family, wordings); {s} is the service.
TECHNIQUES: dict[str, tuple[str, list[str]]] = {
    "rollback": (
        "change reversal",
        [
            "Rolled back the {s} deploy after the new build started returning 500s",
            "{s}: reverted to the previous release once error rates tripled after the rollout",
            "Backed out this morning's release of {s}; errors dropped back to baseline within minutes",
            "Redeployed the last known good version of {s} because the fresh image kept crashing",
            "The latest {s} rollout broke requests, so we rolled it back to yesterday's build",
            "Undid the {s} deployment from an hour ago, which fixed the spike in failed calls",
        ],
    ),
    "feature_flag": (
        "change reversal",
        [
            "Turned off the new feature flag in {s} that was causing slow responses",
            "{s}: disabled the experimental toggle and latency returned to normal",
            "Switched the beta flag off for {s} instead of redeploying, and the errors stopped",
            "Flipped the dark-launch flag back to off on {s} after users reported broken pages",
            "Killed the feature switch that went live in {s} yesterday; complaints stopped",
            "Disabled the freshly enabled flag on {s} from the flag console to stop the regressions",
        ],
    ),
    "pool": (
        "capacity",
        [
            "Raised the database connection pool size on {s} from 20 to 50 after pool exhaustion",
            "{s} ran out of DB connections under load; increased the max pool size",
            "Bumped the connection pool limit for {s} because requests queued waiting for a connection",
            "Connections to the database were saturated on {s}, so we enlarged the pool",
            "Increased max connections in the {s} pool config; the acquire timeouts went away",
            "Gave {s} a bigger connection pool after seeing 'too many clients waiting' in the logs",
        ],
    ),
    "scale_out": (
        "capacity",
        [
            "Scaled {s} out from 4 to 10 replicas to absorb the traffic surge",
            "{s}: added more instances behind the load balancer when CPU stayed pegged",
            "Increased the replica count of {s} so the autoscaler could keep up with demand",
            "Spun up extra pods for {s} during the sale peak to spread the load",
            "Horizontally scaled {s} by raising its minimum instance count",
            "Added capacity to {s} by launching three more nodes, and queue depth fell",
        ],
    ),
    "rotate_credentials": (
        "credential hygiene",
        [
            "Rotated the {s} database password after it showed up in a public paste",
            "{s}: issued new API keys and retired the old ones following the leak alert",
            "Regenerated the service account secret for {s} since it had been committed to git",
            "Replaced the compromised access credentials used by {s} with fresh ones",
            "Cycled the signing keys of {s} after the security team flagged exposure",
            "Changed every stored secret of {s} and redeployed it with the new credentials",
        ],
    ),
    "revoke_sessions": (
        "credential hygiene",
        [
            "Revoked all active login sessions issued by {s} after suspicious sign-ins",
            "{s}: invalidated outstanding access tokens so every client had to sign in again",
            "Forced logout of every user session created through {s} following the breach report",
            "Expired the refresh tokens handed out by {s} to cut off the hijacked accounts",
            "Killed the live sessions of {s} and made clients reauthenticate",
            "Blacklisted the session tokens {s} had minted during the attack window",
        ],
    ),
    "restart": (
        "state reset",
        [
            "Restarted the {s} pods, which cleared the stuck worker threads",
            "{s} was hung, so we did a rolling restart of all its instances",
            "Bounced the {s} process after it stopped answering health checks",
            "Recycled every {s} container to get rid of the memory leak for now",
            "Power-cycled the {s} service; it came back healthy after the reboot",
            "Killed and relaunched the {s} workers that had deadlocked overnight",
        ],
    ),
    "flush_cache": (
        "state reset",
        [
            "Flushed the {s} cache because it kept serving stale prices",
            "{s}: cleared the cached entries after a bad write poisoned them",
            "Purged the CDN and in-memory cache in front of {s} to drop outdated responses",
            "Invalidated all cache keys of {s} so fresh data would be read from the source",
            "Emptied the Redis cache used by {s} after customers saw old account data",
            "Wiped the local cache on {s} nodes; the corrupted entries were gone afterwards",
        ],
    ),
    "rate_limit": (
        "traffic control",
        [
            "Put a rate limit on {s} to stop one client flooding it with requests",
            "{s}: throttled callers to 100 requests per second during the bot storm",
            "Added per-tenant request quotas to {s} after a noisy neighbour hogged it",
            "Capped the inbound request rate of {s} at the gateway to protect the backend",
            "Enabled throttling for {s} so a retry storm could not overwhelm it",
            "Limited how many calls per minute each API key may send to {s}",
        ],
    ),
    "failover": (
        "traffic control",
        [
            "Failed {s} over to the standby region when the primary zone went dark",
            "{s}: promoted the replica to primary after the main database host died",
            "Shifted all {s} traffic to the secondary datacenter during the outage",
            "Switched {s} to its hot standby because the primary cluster lost quorum",
            "Moved {s} onto the backup site while the primary region was being repaired",
            "Redirected {s} to the disaster-recovery deployment in the other region",
        ],
    ),
}

KINDS = ["move", "strategy", "error", "move", "insight"]
# A strategy field filled by a careless agent: placeholders, and one runbook name that covers
# three different techniques (a group the name makes but the meaning does not hold).
RUNBOOK = {"restart", "rate_limit", "rotate_credentials"}


def rows() -> list[dict]:
    out = []
    for t, (technique, (family, wordings)) in enumerate(TECHNIQUES.items()):
        for s, service in enumerate(SERVICES):
            k = t * len(SERVICES) + s
            text = wordings[(t + s) % len(wordings)].format(s=service)
            text = text[0].upper() + text[1:]
            strategy = (
                "on-call runbook" if technique in RUNBOOK and s % 3 == 0 else ["unknown", "n/a", "", "-", None][k % 5]
            )
            row = {
                "id": f"inc{k:03d}",
                "description": text,
                "outcome": "failure" if k % 7 == 3 else "success",
                "kind": KINDS[k % len(KINDS)],
                "technique": technique,
                "family": family,
                "service": service,
            }
            if strategy is not None:
                row["strategy_used"] = strategy
            out.append(row)
    return out


if __name__ == "__main__":
    path = Path(__file__).with_name("incidents.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows()))
    print(f"{path}: {len(rows())} lines")
