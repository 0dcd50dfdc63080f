#!/usr/bin/env bash
# Create (or bring up to date) the Python environment of the repo:
# <repo>/.venv, Python 3.11, with the exact versions of
# runtimes/python/requirements-dev.txt and the runtime installed editable.
# Idempotent: does nothing when the pins have not changed since the last run.
# Quiet; a failing step prints its output.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV=.venv
REQS=runtimes/python/requirements-dev.txt
STAMP="$VENV/.requirements-dev.sha256"

fail() { printf 'python-env: %s\n' "$*" >&2; exit 1; }
quiet() {
  local out
  if ! out="$("$@" 2>&1)"; then
    printf '%s\n' "$out" >&2
    fail "failed: $*"
  fi
}

# A Python 3.11: $PYTHON if set, else python3.11, else python3 when it is 3.11.
find_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3.11 python3; do
    [ -n "$candidate" ] || continue
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

# The editable install also copies the Redis scripts into the package
# (runtimes/python/setup.py): it runs again when they change or are missing.
want="$(sha256sum "$REQS" runtimes/python/pyproject.toml runtimes/python/setup.py \
  runtimes/go/redisstore/*.lua | sha256sum | cut -d' ' -f1)"
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] &&
  [ -f runtimes/python/src/ai_tools_runtime/redis/create.lua ]; then
  exit 0
fi

PY="$(find_python)" || fail "Python 3.11 is required (set PYTHON=/path/to/python3.11)"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null; then
  echo "python-env: creating $VENV"
  rm -rf "$VENV"
  quiet "$PY" -m venv "$VENV"
fi

echo "python-env: installing $REQS"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
quiet "$VENV/bin/python" -m pip install -q -r "$REQS"
quiet "$VENV/bin/python" -m pip install -q --no-build-isolation --no-deps -e runtimes/python
quiet "$VENV/bin/python" -m pip check
printf '%s\n' "$want" >"$STAMP"
