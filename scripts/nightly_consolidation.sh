#!/usr/bin/env bash
# Cron-ready night cycle: one dream run per mind, one JSON line per run appended to a log.
#   scripts/nightly_consolidation.sh MIND [MIND ...]
# e.g. crontab: 0 3 * * * /path/to/graphmind/scripts/nightly_consolidation.sh felix >> /var/log/graphmind-dream.log 2>&1
# A mind another dream is consolidating is waited for up to 10 minutes (--wait 600), then
# skipped with an error line; the script exits 1 if any mind failed, after trying them all.
# With Claude the pattern extractions go as one Message Batch (--batch: half the price; the
# run waits for it, renewing its lease); the offline provider ignores the flag. What the
# experiences are about (the LLM is told) comes from each mind's own Identity (focus area, else role).
set -uo pipefail
[ "$#" -gt 0 ] || { echo "usage: nightly_consolidation.sh MIND [MIND ...]" >&2; exit 2; }
bin="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/graphmind"
status=0
for mind in "$@"; do
  "$bin" dream --mind "$mind" --wait 600 --batch --json || status=1
done
exit "$status"
