"""Assemble log.jsonl for the dream_crossed_ops set.

Every sentence below was written by hand, one at a time. Nothing here fills
a sentence template: the script only attaches labels, shuffles the order with
a fixed seed, and writes one JSON object per line.

Run:  python make_log.py   (writes log.jsonl next to this file)
"""

import json
import random
from pathlib import Path

PREFIX = "ops"
SEED = 20240611

ENTITIES = [
    "billing",
    "reporting_job",
    "search",
    "checkout",
    "auth",
    "notifications",
    "inventory_api",
    "payments_gateway",
    "image_resizer",
    "user_profile",
    "analytics_pipeline",
    "mobile_backend",
]

FAMILY = {
    "disk_cleanup": "storage_recovery",
    "restore_backup": "storage_recovery",
    "renew_cert": "tls_trust",
    "update_trust_store": "tls_trust",
    "add_db_index": "database_tuning",
    "kill_query": "database_tuning",
    "replay_dead_letters": "queue_repair",
    "skip_poison_message": "queue_repair",
}

# technique -> 12 (entity, sentence) pairs
LINES = {
    "disk_cleanup": [
        (
            "billing",
            "billing box hit 100% on /var — deleted a week of debug logs and set up logrotate so it doesn't creep back.",
        ),
        (
            "reporting_job",
            "Freed about 38 GB on the reporting job's worker by purging old CSV exports nobody had downloaded since March.",
        ),
        (
            "search",
            "tried to clear space on search-02 by truncating the gc logs, but the disk filled back up within 20 min; something else is writing.",
        ),
        (
            "checkout",
            "No space left on device on checkout's node. Removed stale docker images + dangling volumes, usage down to 61%.",
        ),
        ("auth", "compressed and shipped off the old access logs for auth, root partition back to healthy"),
        (
            "notifications",
            "Notifications worker was crashing because its tmp dir was full of half-written attachments; wiped /tmp and it came right back.",
        ),
        ("inventory_api", "rotated inventory-api logs, df looks fine now"),
        (
            "payments_gateway",
            "Attempted cleanup on payments-gw — removed old core dumps, only gained 3GB, still at 97%. need a bigger volume or someone to look at the audit logs.",
        ),
        (
            "image_resizer",
            "Our image resizer keeps its scratch renders forever apparently. Cleaned out 200k leftover thumbnails and added a cron to prune anything older than a day.",
        ),
        (
            "user_profile",
            "Had to make room on the user profile db host: archived the old WAL segments off-box and capped journald at 2G.",
        ),
        (
            "analytics_pipeline",
            "Analytics pipeline disk at 94%. Started deleting the intermediate parquet files from last quarter, about half way through, it's slow.",
        ),
        (
            "mobile_backend",
            "mobile-bff ran out of disk at 03:10 because log level had been left on TRACE. Turned it down and purged the huge log files.",
        ),
    ],
    "restore_backup": [
        (
            "billing",
            "Restored billing's invoices table from the 02:00 snapshot but the backup itself turned out to be corrupted too. Escalating to the DBA.",
        ),
        (
            "reporting_job",
            "The reporting job's output bucket got wiped by a bad lifecycle rule; brought it back from yesterday's backup and the reports regenerated fine.",
        ),
        (
            "search",
            "point-in-time recovery on the search metadata db to 14:35, just before the botched migration. all good.",
        ),
        (
            "checkout",
            "Checkout cart store was returning garbage after the partial write. Restored the volume from the 6am EBS snapshot — lost ~20 min of carts, acceptable.",
        ),
        (
            "auth",
            "auth's user table got half-truncated by a script; pg_restore from last night's dump, users can log in again",
        ),
        (
            "notifications",
            "Recovering the notifications templates DB from backup. Restore is at 60%, ETA maybe 40 minutes.",
        ),
        (
            "inventory_api",
            "someone dropped the sku_aliases table in inventory by accident. pulled it out of the nightly backup and reloaded it.",
        ),
        (
            "payments_gateway",
            "Payments gateway config store was corrupted after the node crash, so I recovered it from the hourly snapshot. Transactions flowing again since 11:52.",
        ),
        (
            "image_resizer",
            "Tried recovering the image resizer's preset volume from snapshot; the snapshot predates the last two presets, so still broken.",
        ),
        ("user_profile", "restored user-profile avatar metadata from backup, 1.2M rows back"),
        (
            "analytics_pipeline",
            "Yesterday's corrupted partitions in the analytics warehouse were replaced with copies from the weekly backup and the job reran cleanly.",
        ),
        (
            "mobile_backend",
            "Mobile backend's session table was corrupt. Spun up a restore from the 04:00 backup, verified row counts, swapped it in.",
        ),
    ],
    "renew_cert": [
        (
            "billing",
            "billing's TLS cert expired at midnight and the partner webhooks started failing; reissued it through ACM and redeployed the listener.",
        ),
        (
            "reporting_job",
            "Renewal for the reporting job's cert failed — the ACME http challenge can't reach the box behind the VPN. still serving the expired one.",
        ),
        ("search", "certbot renew on search, new expiry is in 90 days"),
        (
            "checkout",
            "Checkout's cert expires Friday. Requested a new one from the CA, waiting on the domain validation email.",
        ),
        (
            "auth",
            "Login pages were throwing NET::ERR_CERT_DATE_INVALID. The auth service cert had lapsed, so I got a fresh one issued and reloaded nginx.",
        ),
        ("notifications", "Replaced the expired certificate on notifications' SMTP relay, mail going out again."),
        (
            "inventory_api",
            "inventory api was serving a cert that ran out yesterday — new cert deployed, checked with openssl s_client, valid till next june",
        ),
        (
            "payments_gateway",
            "Our processor refused handshakes because payments-gateway's certificate was out of date. Renewed it and pushed the new pem, handshakes OK.",
        ),
        (
            "image_resizer",
            "renewed the image-resizer certificate (expired 2 days ago, nobody noticed since it's internal).",
        ),
        (
            "user_profile",
            "For user profile: the TLS cert had expired, so a new one was issued off the internal CA and the ingress reloaded.",
        ),
        (
            "analytics_pipeline",
            "Cert on the analytics pipeline collector endpoint lapsed over the weekend; cert-manager was stuck, deleted the failed order and it reissued.",
        ),
        (
            "mobile_backend",
            "App users getting SSL errors. mobile-bff cert was expired; the renewal went through but the CDN keeps serving the old one. not fixed yet.",
        ),
    ],
    "update_trust_store": [
        (
            "billing",
            "Billing can't verify the new bank API chain. Working on getting their intermediate CA into our Java truststore, first node done.",
        ),
        (
            "reporting_job",
            "reporting job kept dying with 'unable to get local issuer certificate' talking to the data vendor. added their intermediate to the CA bundle in the image. fixed",
        ),
        (
            "search",
            "Updated ca-certificates on the search hosts so they trust the new root; cluster nodes can talk to each other again.",
        ),
        (
            "checkout",
            "checkout -> tax service calls failed verification after the tax vendor switched CAs. Imported the new root into checkout's keystore with keytool.",
        ),
        (
            "auth",
            "auth still rejects the IdP's certificate even after I appended their chain to the trust bundle — maybe the bundle path isn't what the lib reads.",
        ),
        (
            "notifications",
            "Added the push provider's root to notifications' trusted CAs, no change, still x509: certificate signed by unknown authority.",
        ),
        (
            "inventory_api",
            "Inventory-api didn't trust the corporate proxy's CA. Mounted the proxy CA into the container and set SSL_CERT_FILE, outbound calls work.",
        ),
        (
            "payments_gateway",
            "payments gateway: the acquirer moved to a new issuing CA. put the missing intermediate into our trust chain config. verified.",
        ),
        (
            "image_resizer",
            "Fetching remote images failed for a subset of hosts; image resizer's base image had an ancient CA bundle. Rebuilt with refreshed roots.",
        ),
        (
            "user_profile",
            "user profile couldn't reach the address-validation partner, chain verification error. we trust their intermediate explicitly now",
        ),
        (
            "analytics_pipeline",
            "Spark jobs in the analytics pipeline still can't verify the object store's self-signed CA, even with it in cacerts. Probably the executor JVM options.",
        ),
        (
            "mobile_backend",
            "Mobile backend only knew the old root, so pushes to the new APNs endpoint failed. Shipped an updated trust store, 100% success since.",
        ),
    ],
    "add_db_index": [
        (
            "billing",
            "Invoice lookup by customer was a full table scan on billing's DB. CREATE INDEX CONCURRENTLY on (customer_id, issued_at); p99 went from 4s to 40ms.",
        ),
        (
            "reporting_job",
            "the reporting job's main query sorted 30M rows with no index to help. added one on event_date, runtime 47 min -> 6 min",
        ),
        (
            "search",
            "Building an index on search's documents.updated_at concurrently so the sync poller stops seq-scanning; ~40% done.",
        ),
        (
            "checkout",
            "Added an index on checkout orders by session id but the planner still ignores it, stats probably stale. no improvement.",
        ),
        (
            "auth",
            "Login latency spike traced to lookups on lower(email) in auth. Created a functional index, problem gone.",
        ),
        (
            "notifications",
            "notifications was slow fetching unread items per user. new composite index (user_id, read, created_at) fixed it.",
        ),
        (
            "inventory_api",
            "EXPLAIN for the inventory-api stock query showed a seq scan, so I indexed warehouse_id; index built but the query still takes 3s because of the join.",
        ),
        (
            "payments_gateway",
            "Missing index on payments.external_ref meant every payments gateway webhook did a seq scan. Indexed it. CPU on the primary dropped by half.",
        ),
        ("image_resizer", "image resizer job table needed an index on status; queue polling was hammering the db"),
        (
            "user_profile",
            "created idx_profiles_username, the username check endpoint was scanning the entire user profile table on every keystroke",
        ),
        (
            "analytics_pipeline",
            "Dedup step in the analytics pipeline did lookups on an unindexed column. After adding a btree index it finishes in minutes, not hours.",
        ),
        (
            "mobile_backend",
            "Slow query log for the mobile backend was full of device_token lookups. One index later, they're all under 5ms.",
        ),
    ],
    "kill_query": [
        (
            "billing",
            "A month-end report someone ran against the billing primary was holding locks for 40 min. Terminated the backend, writes unblocked.",
        ),
        (
            "reporting_job",
            "killed the runaway query from the reporting job, it had been running 9 hours and eating all the IO",
        ),
        ("search", "search db CPU at 100%: one ad-hoc query with a cartesian join. pg_cancel_backend did it."),
        (
            "checkout",
            "Found a transaction in checkout that had sat idle-in-transaction since morning, blocking cart updates; pg_terminate_backend, cleared.",
        ),
        ("auth", "auth DB: killed pid 48213, a long-running migration select that was starving the connection slots"),
        (
            "notifications",
            "Terminated the long query on notifications' replica but it respawned within a minute — some cron keeps launching it. need to find the cron.",
        ),
        (
            "inventory_api",
            "Inventory api timeouts were caused by a single query scanning the whole movements table for 25 minutes. KILL QUERY on mysql and things recovered.",
        ),
        (
            "payments_gateway",
            "Cancelling the runaway reconciliation query on payments-gateway; it's still unwinding its changes, which takes a while. Locks should release soon.",
        ),
        ("image_resizer", "image resizer's metadata db had a hung query from a dashboard. cancelled it."),
        (
            "user_profile",
            "User-profile replica lag was caused by one giant analytical select. Killed it and lag went back to zero within 3 minutes.",
        ),
        (
            "analytics_pipeline",
            "Tried to cancel the analytics pipeline's stuck Redshift query; the cancel hangs too and the WLM queue is still blocked.",
        ),
        (
            "mobile_backend",
            "Mobile backend DB: identified 3 runaway queries from the old admin panel, terminated two so far, the third is mid-transaction and I want to check it first.",
        ),
    ],
    "replay_dead_letters": [
        (
            "billing",
            "Reprocessed 1,204 invoice events from billing's dead-letter queue after the schema fix went out. All acked.",
        ),
        (
            "reporting_job",
            "the reporting job missed yesterday's events when the consumer was down; re-drove them from the DLQ and the report is complete now.",
        ),
        (
            "search",
            "Replayed search's dead letters into the ingest topic, about a third failed again with the same mapping error.",
        ),
        (
            "checkout",
            "Moved checkout's parked messages from the DLQ back onto the main queue. order confirmations caught up by 14:20.",
        ),
        (
            "auth",
            "auth audit events DLQ redrive failed: the target queue policy denies SendMessage from the redrive role.",
        ),
        (
            "notifications",
            "ran the redrive on notifications-dlq. 8k emails that had bounced off the provider outage went out",
        ),
        (
            "inventory_api",
            "Re-enqueueing inventory updates from the dead letter queue in batches of 500 so we don't swamp the db. 12 of 30 batches done.",
        ),
        (
            "payments_gateway",
            "After the provider came back, payments gateway's failed callbacks were pushed back through from the dead-letter store. Reconciled.",
        ),
        (
            "image_resizer",
            "image resizer DLQ had 3,400 jobs from the S3 outage; replayed them, thumbnails all generated",
        ),
        (
            "user_profile",
            "Profile update events that landed in the DLQ during the deploy got resubmitted to user-profile. zero errors this time.",
        ),
        (
            "analytics_pipeline",
            "Analytics pipeline sent events to its dead-letter topic while the warehouse was read-only. Fed them back in once it was writable; counts match.",
        ),
        (
            "mobile_backend",
            "Sent mobile backend's dead-lettered push jobs back to the main queue, and every single one landed back in the DLQ. token format issue?",
        ),
    ],
    "skip_poison_message": [
        (
            "billing",
            "One malformed invoice event with a null currency was crash-looping the billing consumer. Dropped it (saved a copy) and the backlog drained.",
        ),
        (
            "reporting_job",
            "reporting job consumer stuck on a poison message at offset 88123; committed past it, now watching whether it chews through the lag.",
        ),
        (
            "search",
            "search indexer kept choking on a single 40MB document. Skipped that message and filed a ticket for the producer team.",
        ),
        (
            "checkout",
            "Deleted the bad message from checkout's queue, but the producer just republished an identical one; consumer crashed again.",
        ),
        (
            "auth",
            "A corrupt token-revocation event was wedged at the head of auth's queue. deleted it by hand, consumer healthy.",
        ),
        (
            "notifications",
            "notifications worker looped forever on one message with invalid JSON. pulled it off the queue and stashed it in S3 for later.",
        ),
        (
            "inventory_api",
            "Bumped the inventory-api consumer group offset by one to get past an undecodable avro record. Everything else processed normally.",
        ),
        (
            "payments_gateway",
            "Skipped the garbled refund message on payments-gw, but it turns out there were hundreds more like it behind it. still stuck.",
        ),
        (
            "image_resizer",
            "The resizer was hanging on a zero-byte 'image' in the job queue; I acked it without processing so the rest could move.",
        ),
        (
            "user_profile",
            "user-profile consumer blocked by a message with a field our parser hates. Removing it now, want to confirm nothing else depends on it.",
        ),
        (
            "analytics_pipeline",
            "single bad record (timestamp in year 20231) stalled the analytics pipeline's stream job; discarded it and the stream resumed",
        ),
        ("mobile_backend", "tossed the message with the truncated payload from mobile-bff's queue, lag recovering"),
    ],
}

# (technique, entity) -> outcome, for lines that are not plain successes.
# Chosen per line to match what the sentence says, spread over techniques.
OUTCOME = {
    ("disk_cleanup", "search"): "failure",
    ("disk_cleanup", "payments_gateway"): "failure",
    ("disk_cleanup", "analytics_pipeline"): "progress",
    ("restore_backup", "billing"): "failure",
    ("restore_backup", "image_resizer"): "failure",
    ("restore_backup", "notifications"): "progress",
    ("renew_cert", "reporting_job"): "failure",
    ("renew_cert", "mobile_backend"): "failure",
    ("renew_cert", "checkout"): "progress",
    ("update_trust_store", "auth"): "failure",
    ("update_trust_store", "notifications"): "failure",
    ("update_trust_store", "analytics_pipeline"): "failure",
    ("update_trust_store", "billing"): "progress",
    ("add_db_index", "checkout"): "failure",
    ("add_db_index", "inventory_api"): "failure",
    ("add_db_index", "search"): "progress",
    ("kill_query", "notifications"): "failure",
    ("kill_query", "analytics_pipeline"): "failure",
    ("kill_query", "payments_gateway"): "progress",
    ("kill_query", "mobile_backend"): "progress",
    ("replay_dead_letters", "search"): "failure",
    ("replay_dead_letters", "auth"): "failure",
    ("replay_dead_letters", "mobile_backend"): "failure",
    ("replay_dead_letters", "inventory_api"): "progress",
    ("skip_poison_message", "checkout"): "failure",
    ("skip_poison_message", "payments_gateway"): "failure",
    ("skip_poison_message", "reporting_job"): "progress",
    ("skip_poison_message", "user_profile"): "progress",
}

KINDS = ["move", "strategy", "error", "insight"]


def build():
    rows = []
    for technique, pairs in LINES.items():
        assert sorted(e for e, _ in pairs) == sorted(ENTITIES), technique
        for entity, sentence in pairs:
            rows.append((technique, entity, sentence))
    random.Random(SEED).shuffle(rows)
    # kind: cycles over each technique's lines in file order, starting at a
    # different point per technique, so every technique gets 3 of each kind
    # and kind says nothing about the technique.
    seen = {}
    start = {t: i % len(KINDS) for i, t in enumerate(LINES)}
    out = []
    for i, (technique, entity, sentence) in enumerate(rows):
        k = seen.get(technique, 0)
        seen[technique] = k + 1
        out.append(
            {
                "id": f"{PREFIX}{i:03d}",
                "description": sentence,
                "outcome": OUTCOME.get((technique, entity), "success"),
                "kind": KINDS[(start[technique] + k) % len(KINDS)],
                "technique": technique,
                "family": FAMILY[technique],
                "entity": entity,
            }
        )
    return out


def main():
    path = Path(__file__).with_name("log.jsonl")
    with path.open("w", encoding="utf-8") as fh:
        for row in build():
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
