# Sourced by the other scripts: creates .venv and installs graphmind (with test extras) into it.
# Re-installs only when pyproject.toml changed, so repeated runs start at once.
set -euo pipefail
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "graphmind: Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1))" >&2
  exit 2
fi
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=".venv/.graphmind-installed"
want="$(sha256sum < pyproject.toml | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  echo "$want" > "$stamp"
fi
