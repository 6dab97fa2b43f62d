#!/usr/bin/env python3
"""Build log.jsonl for the dream_crossed_incidents evaluation set.

Every sentence below was written by hand, one at a time. Nothing is
generated from a template: the script only checks the set and writes it
out in a shuffled order with a fixed seed.

LOG maps technique -> list of (service, sentence, outcome, kind).
"""

import json
import os
import random
from collections import Counter

SEED = 20240611

FAMILY = {
    # release: act on what code / config is running
    "rollback_deploy": "release",
    "pin_dependency": "release",
    "disable_feature_flag": "release",
    # capacity: act on the running compute / its limits
    "scale_out": "capacity",
    "restart_pods": "capacity",
    "raise_limit": "capacity",
    # data: act on stored state, databases and queues
    "flush_cache": "data",
    "db_failover": "data",
    "replay_dead_letters": "data",
}

SERVICES = [
    "checkout-api",
    "auth-gateway",
    "ledger-svc",
    "search-indexer",
    "notif-dispatcher",
    "inventory-sync",
    "pricing-engine",
    "media-transcoder",
    "user-profile-svc",
    "billing-worker",
    "geo-router",
    "report-exporter",
]

S, F, P = "success", "failure", "progress"

LOG = {
    "rollback_deploy": [
        (
            "checkout-api",
            "14:02 checkout 5xx jumped to 4% right after the 3.18.0 push. reverted to 3.17.2, errors back under 0.1% by 14:09.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "rolled authgw back one release, login latency unchanged though. INC-4471 stays open, it was never the build.",
            F,
            "error",
        ),
        (
            "ledger-svc",
            "new ledger build was double-posting fee lines. priya redeployed yesterday's image and the reconciliation diff went to zero.",
            S,
            "move",
        ),
        (
            "search-indexer",
            "discovery's latest release broke the mapping parser. argo rollback to previous revision underway, 3 of 8 indexer shards back on the old version so far",
            P,
            "move",
        ),
        (
            "notif-dispatcher",
            "engagement paged: duplicate emails since the 09:40 deploy. backed the release out and dupes stopped. lesson, the canary stage got skipped on this one.",
            S,
            "insight",
        ),
        (
            "inventory-sync",
            "tried reverting inv-sync to v2.3.1 but the v2.4 migration already ran and the old code can't read the new column. aborted the rollback.",
            F,
            "error",
        ),
        (
            "pricing-engine",
            "quote path returning 0.00 for bundles. went back to last known-good tag pricing-engine@a91f3c, quotes correct again. REV-882",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "if the new chunking code keeps dropping audio tracks overnight we undo the transcoder release rather than hotfix forward. marco agreed, he's on standby.",
            P,
            "strategy",
        ),
        (
            "user-profile-svc",
            "profiles deploy #611 broke avatar uploads. hit 'rollback to previous' in spinnaker, fixed in about 4 min.",
            S,
            "move",
        ),
        (
            "billing-worker",
            "invoice runner crashing on startup post-release. put build 1207 (the prior one) back out, workers healthy, run resumed 03:15.",
            S,
            "move",
        ),
        (
            "geo-router",
            "georouter rollback went through fine technically but the bad routes persisted. turns out it's the map data, not the code.",
            F,
            "error",
        ),
        (
            "report-exporter",
            "analytics says csv exports truncated since tuesday's release. rolled the exporter back to the monday build, full files again.",
            S,
            "move",
        ),
    ],
    "pin_dependency": [
        (
            "checkout-api",
            "checkout build pulled stripe-sdk 12.0 overnight and the card auth response changed shape. pinned 11.4.2 in the lockfile, green.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "identity team: a minor bump of the jwt lib changed the clock skew default. locked pyjwt==2.6.0 for the gateway, token rejections gone.",
            S,
            "move",
        ),
        (
            "ledger-svc",
            "ledger rounding off by a cent after a transitive bump of the money library. froze it at 3.1.x, waiting on CI before it ships.",
            P,
            "move",
        ),
        (
            "search-indexer",
            "held the elasticsearch client at 7.17 for search ingest, the 8.x client sends a different compat header. indexer happy since.",
            S,
            "move",
        ),
        (
            "notif-dispatcher",
            "pinned firebase-admin to the previous minor on notif-dispatcher, push still failing. upstream FCM outage, not our deps at all.",
            F,
            "error",
        ),
        (
            "inventory-sync",
            "stock sync: kafka client upgrade changed partition assignment. constrained it to <3.0 in requirements, rebalances stopped. unbounded ranges bite again, adding a renovate rule.",
            S,
            "insight",
        ),
        (
            "pricing-engine",
            "ravi nailed numpy to 1.26 in the pricing image since 2.0 broke the vectorized discount calc. tests pass, shipped 16:20.",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "transcoder base image floated onto a newer libx264 and encodes got 30% slower. locked the apt package version in the Dockerfile, speed is back.",
            S,
            "move",
        ),
        (
            "user-profile-svc",
            "accounts tried freezing the orm at 4.2.7 for profiles, no change. the bug is in our own query, version pin was a red herring.",
            F,
            "error",
        ),
        (
            "billing-worker",
            "billing: pdf renderer moved under us via a transitive dep, invoices misaligned. exact version added to constraints.txt, rebuild in progress, ~20 min.",
            P,
            "move",
        ),
        (
            "geo-router",
            "protobuf runtime 5.x incompatible with the generated stubs in geo-router. pinned 4.25.3, route requests decoding again.",
            S,
            "move",
        ),
        (
            "report-exporter",
            "exporter's csv quoting changed when pandas went up a major. holding pandas at 1.5.3 until the writer is fixed, output matches yesterday's byte for byte.",
            S,
            "move",
        ),
    ],
    "disable_feature_flag": [
        (
            "checkout-api",
            "flipped new_checkout_flow off in launchdarkly at 21:14, conversion recovered within minutes. PAY-339 to fix before anyone re-enables it.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "spike of 401s on the login path, killed the passkey rollout flag for 100% of users. aisha watching dashboards, back to normal.",
            S,
            "move",
        ),
        (
            "ledger-svc",
            "disabled the async_posting toggle on ledger, errors kept coming at the same rate. the flag wasn't the culprit.",
            F,
            "error",
        ),
        (
            "search-indexer",
            "indexer: semantic_reindex experiment switched off. queue lag finally dropping, still 40k behind.",
            P,
            "move",
        ),
        (
            "notif-dispatcher",
            "digest_v2 set to false for the notifs service, dupes gone. note to self: new envs should default that flag to off.",
            S,
            "insight",
        ),
        (
            "inventory-sync",
            "gated off realtime_deltas for inv-sync, it falls back to batch mode. warehouse counts consistent again by 11:30.",
            S,
            "move",
        ),
        (
            "pricing-engine",
            "revenue's surge pricing toggle off, quotes stable. they want it back by friday so we need a real fix first.",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "hit the kill switch on av1 output for media, didn't stick. config service cached the old value for 10 min, took effect too late for the batch.",
            F,
            "error",
        ),
        (
            "user-profile-svc",
            "dark-launched bio_rich_text on profile-svc turned off via its flag, xss report closed. security review before it goes back on.",
            S,
            "move",
        ),
        (
            "billing-worker",
            "tonight: keep proration_v3 at 0% on the billing workers, only ramp to 5% once the invoice run completes. nothing ramps before that.",
            P,
            "strategy",
        ),
        (
            "geo-router",
            "logistics asked us to toggle traffic_aware_eta off on the router. ETA error back to baseline. lena reckons the traffic feed is stale.",
            S,
            "move",
        ),
        (
            "report-exporter",
            "parquet_export flag off for report-exporter, users get csv again and the complaints stopped.",
            S,
            "move",
        ),
    ],
    "scale_out": [
        (
            "checkout-api",
            "promo warmup: bumped checkout replicas 12 -> 30 ahead of the 10am launch, p99 held at 180ms through the peak.",
            S,
            "strategy",
        ),
        (
            "auth-gateway",
            "authgw cpu pegged, added four more pods via an hpa min override. latency coming down but still above SLO.",
            P,
            "move",
        ),
        (
            "ledger-svc",
            "more ledger instances did nothing. bottleneck is the single-writer lock, so going wider isn't the answer here.",
            F,
            "insight",
        ),
        (
            "search-indexer",
            "search ingest backlog at 2M docs. widened the indexer worker fleet to 24, backlog drained by 04:00.",
            S,
            "move",
        ),
        (
            "notif-dispatcher",
            "doubled the consumer count on the push topic for notifications, send lag under 5s again. INC-4502",
            S,
            "move",
        ),
        (
            "inventory-sync",
            "fanned inventory-sync out to 8 workers but the topic only has 4 partitions, half of them sit idle. no improvement.",
            F,
            "error",
        ),
        (
            "pricing-engine",
            "partner api sending 3x normal quote traffic. grew the pricing asg from 6 to 14 nodes, errors cleared.",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "spun up extra gpu nodes in the transcode pool, queue wait went from 45min to 6min.",
            S,
            "move",
        ),
        (
            "user-profile-svc",
            "kenji added profile-svc replicas to absorb the migration traffic, fine after about 3 min of warmup.",
            S,
            "move",
        ),
        (
            "billing-worker",
            "month-end: pre-scaled billing-worker to 20 copies at 23:00 so the invoice run fits the window. it did, done at 02:10.",
            S,
            "strategy",
        ),
        (
            "geo-router",
            "routing svc overloaded by the new fleet app. more capacity live in eu-west, other regions still waiting on quota.",
            P,
            "move",
        ),
        (
            "report-exporter",
            "quarter-end rush on exports, analytics' exporter given extra replicas. queue cleared in half an hour.",
            S,
            "move",
        ),
    ],
    "restart_pods": [
        (
            "checkout-api",
            "checkout pods leaking memory again, did a rollout restart at 02:30. rss back to 400mb, buys us about a day.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "bounced the gateway instances one at a time to drop connections stuck on the idp. logins recovered.",
            S,
            "move",
        ),
        ("ledger-svc", "ledger-svc-7f9c wedged on a deadlock. deleted the pod, replacement came up clean.", S, "move"),
        (
            "search-indexer",
            "killed the stuck indexer pods, they came back and hung again on the same corrupt shard. restarting isn't fixing this.",
            F,
            "error",
        ),
        (
            "notif-dispatcher",
            "node ip-10-2-4-17 has a bad disk, evicted the notif pods off it. rescheduled elsewhere, sending resumed.",
            S,
            "move",
        ),
        (
            "inventory-sync",
            "supply's sync job in CrashLoopBackOff. restarted it, crashes again after 30s. looks like a config error, escalated to the owning team.",
            F,
            "error",
        ),
        (
            "pricing-engine",
            "pricing jvm in a GC death spiral. cycled the pods two at a time, heap steady since. marco to profile the allocations tomorrow.",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "gave the transcoder workers a fresh start after the driver hiccup. 3 of 5 healthy, 2 still failing nvidia-smi.",
            P,
            "move",
        ),
        (
            "user-profile-svc",
            "profiles pods recycled so they'd pick up the new tls cert from the mounted secret. handshake errors stopped.",
            S,
            "move",
        ),
        (
            "billing-worker",
            "until the fd leak fix ships: cronjob does a rolling restart of the billing workers every 6h. ugly, but invoices keep flowing.",
            S,
            "strategy",
        ),
        (
            "geo-router",
            "deleted every georouter pod at once by mistake instead of rolling them. 40s outage, then recovered. rollout restart next time, not kubectl delete.",
            S,
            "insight",
        ),
        (
            "report-exporter",
            "exporter hung on a zombie chrome process, killed the pod and let it reschedule. queue moving again, 12 jobs left.",
            P,
            "move",
        ),
    ],
    "raise_limit": [
        (
            "checkout-api",
            "payment provider slow upstream. raised the checkout http client timeout from 5s to 12s, fewer aborted orders. keeping an eye on thread count.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "auth-gateway was hitting its rate limit against the idp. bumped the per-client quota with identity's ok, 429s gone.",
            S,
            "move",
        ),
        (
            "ledger-svc",
            "ledger's connection pool maxed at 20, increased it to 50. postgres max_connections is the next wall, noted in the runbook.",
            S,
            "insight",
        ),
        (
            "search-indexer",
            "indexer OOMKilled repeatedly. memory limit raised 2Gi -> 4Gi, no kills in the last 3h.",
            S,
            "move",
        ),
        (
            "notif-dispatcher",
            "upped the smtp send timeout for email notifs, didn't help. provider was rejecting us, not being slow.",
            F,
            "error",
        ),
        (
            "inventory-sync",
            "inv-sync batch jobs timing out at 300s on the big warehouses. extended the job deadline to 900s, tonight's run will tell.",
            P,
            "move",
        ),
        (
            "pricing-engine",
            "loosened the max request body to 5mb on the bulk quote api so partner uploads go through. confirmed with their integration team.",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "ephemeral storage too small for 4k sources on the video pipeline, gave it 50Gi. 4k jobs finishing now.",
            S,
            "move",
        ),
        (
            "user-profile-svc",
            "widened the profile-svc threadpool from 64 to 128 and latency got WORSE, lock contention. set it back to 64.",
            F,
            "error",
        ),
        (
            "billing-worker",
            "visibility timeout on the invoice queue was shorter than generation time, so messages got redelivered. lengthened it to 15 min, dupes stopped.",
            S,
            "insight",
        ),
        (
            "geo-router",
            "'too many open files' on geo-router. ulimit nofile raised to 65k, ravi added it to the base chart so it sticks.",
            S,
            "move",
        ),
        (
            "report-exporter",
            "lifted the query timeout for the annual report exports. 2 of 3 big ones done, last still running at 40min.",
            P,
            "move",
        ),
    ],
    "flush_cache": [
        (
            "checkout-api",
            "stale tax rates in the checkout path after the config change. flushed the redis keys under tax:*, totals correct now.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "authgw kept accepting revoked sessions. purged the session cache and forced re-login, INC-4519 resolved.",
            S,
            "move",
        ),
        (
            "ledger-svc",
            "wiped fin-platform's in-process balance cache, balances still wrong afterwards. the bad data is in the table itself.",
            F,
            "error",
        ),
        (
            "search-indexer",
            "invalidated the search query result cache after the reindex, new listings visible. dee confirmed on prod.",
            S,
            "move",
        ),
        (
            "notif-dispatcher",
            "template cache in the notification sender still had the old unsubscribe link. cleared it, new emails correct.",
            S,
            "move",
        ),
        (
            "inventory-sync",
            "PDP stock lagging. dropped the memcached entries for inventory-sync sku lookups, mostly fresh now, a couple of edge nodes still stale.",
            P,
            "move",
        ),
        (
            "pricing-engine",
            "FLUSHDB on the quote cache fixed the stale discount, then it came back an hour later. ttl on those keys is infinite, that's the real bug.",
            F,
            "insight",
        ),
        (
            "media-transcoder",
            "cdn purge on the re-encoded titles from the transcoder. thumbnails updated, took ~12 min to propagate.",
            S,
            "move",
        ),
        (
            "user-profile-svc",
            "avatars stale after upload. busted the accounts-side profile cache for the ~3k affected user ids, fixed.",
            S,
            "move",
        ),
        (
            "billing-worker",
            "billing used cached fx rates two days old. evicted them, reran the affected invoices, finance signed off.",
            S,
            "move",
        ),
        (
            "geo-router",
            "invalidating the route cache region by region, eu first, to avoid a thundering herd on the db. eu done, us next.",
            P,
            "strategy",
        ),
        (
            "report-exporter",
            "new columns missing from downloads because the exporter's metadata cache was stale. cleared it, columns show up.",
            S,
            "move",
        ),
    ],
    "db_failover": [
        (
            "checkout-api",
            "checkout's primary rds in us-east-1a degraded, promoted the replica in 1b. ~50s of write errors, stable since.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "user store behind the login gateway: primary disk filled, switched over to the standby. sessions intact.",
            S,
            "move",
        ),
        (
            "ledger-svc",
            "wanted to fail ledger over but replica lag is 9min, promoting would lose postings. kept the primary, fixing the disk instead.",
            F,
            "error",
        ),
        (
            "search-indexer",
            "patroni flipped the indexer's metadata postgres to the secondary on its own, indexer reconnected without help.",
            S,
            "move",
        ),
        (
            "notif-dispatcher",
            "az outage took out the notifs db primary. manual failover to the replica, sends resumed, 80k backlog draining.",
            P,
            "move",
        ),
        (
            "inventory-sync",
            "promoted the inventory replica after the crash but inv-sync had the old host hardcoded, writes kept failing for another 20 min.",
            F,
            "error",
        ),
        (
            "pricing-engine",
            "forced a failover of the pricing aurora cluster to the reader in the other az, quote writes healthy.",
            S,
            "move",
        ),
        (
            "media-transcoder",
            "media's job db primary unreachable, cut over to the standby node. job state consistent, nothing lost.",
            S,
            "move",
        ),
        (
            "user-profile-svc",
            "corrupted index on the profiles mysql primary. orchestrator switchover to the replica, took 2 min.",
            S,
            "move",
        ),
        (
            "billing-worker",
            "billing now running against the dr-region replica after the failover. cross-region latency makes invoice jobs 4x slower, failing back tonight.",
            P,
            "move",
        ),
        (
            "geo-router",
            "postgis primary behind routing OOMed. lena promoted the hot standby, routes served again in under a minute.",
            S,
            "move",
        ),
        (
            "report-exporter",
            "reporting db for exports moved to the replica. learned it lacks the materialized views, rebuilt them, exports working now.",
            S,
            "insight",
        ),
    ],
    "replay_dead_letters": [
        (
            "checkout-api",
            "~1,200 order-confirmed events stuck in the payments DLQ from the outage. replayed after the fix, all acked.",
            S,
            "move",
        ),
        (
            "auth-gateway",
            "redrove authgw's audit-event dead letters back onto the main topic. 340 msgs, zero failures.",
            S,
            "move",
        ),
        (
            "ledger-svc",
            "re-enqueued the ledger posting messages from the DLQ. two thirds processed, the rest still erroring on schema.",
            P,
            "move",
        ),
        (
            "search-indexer",
            "after the mapping fix, reprocessed all 18k dead-lettered docs for the indexer. every one indexed.",
            S,
            "move",
        ),
        (
            "notif-dispatcher",
            "replayed the notification dlq and customers got the same push twice, the handler isn't idempotent. stopped the redrive halfway.",
            F,
            "error",
        ),
        (
            "inventory-sync",
            "supply: pushed the sync's dead letters back through the consumer, stock levels caught up.",
            S,
            "move",
        ),
        (
            "pricing-engine",
            "dead-letter replay for pricing re-sent 600 quote requests, all failed again on the same validation bug. need the fix first.",
            F,
            "error",
        ),
        (
            "media-transcoder",
            "transcode jobs that landed in the dlq during the gpu outage resubmitted, 212 of 212 done.",
            S,
            "move",
        ),
        (
            "user-profile-svc",
            "draining the profiles dlq in chunks of 500 overnight so the db isn't hammered. first chunk ok.",
            P,
            "strategy",
        ),
        (
            "billing-worker",
            "47 failed invoice events in billing-worker's dlq, replayed once the tax svc came back. invoices sent, finance notified.",
            S,
            "move",
        ),
        (
            "geo-router",
            "console redrive of the georouter sqs dead letters back to source, all location updates consumed.",
            S,
            "move",
        ),
        (
            "report-exporter",
            "replayed the exporter's request dlq. most of it came from one bad client, flagging them to the analytics folks.",
            S,
            "insight",
        ),
    ],
}

OUTCOMES = {S, F, P}
KINDS = {"move", "strategy", "error", "insight"}


def check():
    assert set(LOG) == set(FAMILY), "technique mismatch"
    assert Counter(FAMILY.values()) == {"release": 3, "capacity": 3, "data": 3}
    assert len(SERVICES) == 12 and len(set(SERVICES)) == 12
    seen_pairs = set()
    sentences = set()
    for tech, rows in LOG.items():
        assert len(rows) == 12, (tech, len(rows))
        assert sorted(r[0] for r in rows) == sorted(SERVICES), tech
        for service, sent, outcome, kind in rows:
            assert (tech, service) not in seen_pairs
            seen_pairs.add((tech, service))
            assert sent not in sentences, sent
            sentences.add(sent)
            n = len(sent.split())
            assert 8 <= n <= 35, (n, sent)
            assert outcome in OUTCOMES, outcome
            assert kind in KINDS, kind
    assert len(seen_pairs) == 108 and len(sentences) == 108


def main():
    check()
    rows = [(t, s, d, o, k) for t, lst in LOG.items() for (s, d, o, k) in lst]
    random.Random(SEED).shuffle(rows)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log.jsonl")
    with open(out, "w", encoding="utf-8") as fh:
        for i, (tech, service, desc, outcome, kind) in enumerate(rows):
            rec = {
                "id": f"inc{i:03d}",
                "description": desc,
                "outcome": outcome,
                "kind": kind,
                "technique": tech,
                "family": FAMILY[tech],
                "entity": service,
            }
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    oc = Counter(r[3] for r in rows)
    kc = Counter(r[4] for r in rows)
    print(f"wrote {len(rows)} lines to {out}")
    print("outcomes:", dict(oc))
    print("kinds:", dict(kc))


if __name__ == "__main__":
    main()
