#!/usr/bin/env bash
# Cron-ready night cycle: dream runs per mind, one JSON line per run appended to a log.
#   scripts/nightly_consolidation.sh MIND [MIND ...] [-- DREAM OPTIONS]
# e.g. crontab: 0 3 * * * /path/to/graphmind/scripts/nightly_consolidation.sh felix >> /var/log/graphmind-dream.log 2>&1
# A mind another dream is consolidating is waited for up to 10 minutes (--wait 600), then
# skipped with an error line; the script exits 1 if any mind failed, after trying them all.
# A run reads at most --max-experiences (100,000) experiences; while a run reports some left
# (`remaining`, a bulk import's backlog), the mind is dreamt again, up to
# GRAPHMIND_NIGHTLY_MAX_RUNS (10) runs a night. Options after -- go to each `graphmind dream`
# (e.g. -- --max-experiences 50000). GRAPHMIND_BIN: the folder of graphmind and its python
# (default: the checkout's .venv/bin).
# With Claude the pattern extractions go as one Message Batch (--batch: half the price; the
# run waits for it, renewing its lease); the offline provider ignores the flag. What the
# experiences are about (the LLM is told) comes from each mind's own Identity (focus area, else role).
set -uo pipefail
minds=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do minds+=("$1"); shift; done
[ "$#" -gt 0 ] && shift  # the --
[ "${#minds[@]}" -gt 0 ] || { echo "usage: nightly_consolidation.sh MIND [MIND ...] [-- DREAM OPTIONS]" >&2; exit 2; }
venv="${GRAPHMIND_BIN:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin}"
runs="${GRAPHMIND_NIGHTLY_MAX_RUNS:-10}"
status=0
for mind in "${minds[@]}"; do
  for _ in $(seq 1 "$runs"); do
    report="$("$venv/graphmind" dream --mind "$mind" --wait 600 --batch --json "$@")" || { status=1; break; }
    printf '%s\n' "$report"
    left="$(printf '%s' "$report" | "$venv/python" -c 'import json, sys; print(json.load(sys.stdin)["remaining"])')"
    [ "${left:-0}" -gt 0 ] || break
  done
done
exit "$status"
