#!/usr/bin/env bash
# Cron-ready night cycle: dream runs per mind, one JSON line per run appended to a log.
#   scripts/nightly_consolidation.sh MIND [MIND ...] [-- DREAM OPTIONS]
# e.g. crontab: 0 3 * * * /path/to/graphmind/scripts/nightly_consolidation.sh felix >> /var/log/graphmind-dream.log 2>&1
# A mind another dream is consolidating is waited for up to 10 minutes (--wait 600), then
# skipped with an error line; the script exits 1 if any mind failed, after trying them all.
# A run reads at most --max-experiences (100,000) experiences; while a completed run that
# degraded nothing reports some left (`remaining`, a bulk import's backlog), the mind is
# dreamt again, up to GRAPHMIND_NIGHTLY_MAX_RUNS (10) runs a night. Options after -- go to each `graphmind dream`
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
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "GRAPHMIND_NIGHTLY_MAX_RUNS must be a whole number of at least 1, not '$runs'" >&2; exit 2; }
python="$venv/python"
[ -x "$python" ] || python="$(command -v python3)"
# Dream again only after a completed run that left some and degraded nothing: a run whose
# compression failed consumed nothing, and would read the same experiences again.
again='import json, sys; r = json.load(sys.stdin); print(r.get("remaining", 0) if r.get("status") == "completed" and not r.get("degraded") else 0)'
status=0
for mind in "${minds[@]}"; do
  for _ in $(seq 1 "$runs"); do
    report="$("$venv/graphmind" dream --mind "$mind" --wait 600 --batch --json "$@")"
    code=$?
    printf '%s\n' "$report"
    [ "$code" -eq 0 ] || { status=1; break; }
    left="$(printf '%s' "$report" | "$python" -c "$again")" || { status=1; break; }
    [ "${left:-0}" -gt 0 ] || break
  done
done
exit "$status"
