#!/usr/bin/env bash
# Set up a fresh Debian/Ubuntu machine (as root) to build and test the repo:
#   - protoc and the protobuf includes (apt), only if protoc is missing;
#   - redis-server (apt), only if it is missing;
#   - the node dependencies (pnpm 12.4.2 through npx, no corepack);
#   - the pinned Go tools (code generators, actionlint), into <repo>/.tools/bin.
# Idempotent: run it again at any time. Quiet; a failing step prints its output.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1
PNPM_VERSION=12.4.2

fail() { printf 'install: %s\n' "$*" >&2; exit 1; }

# Run a command, showing its output only if it fails.
quiet() {
  local out
  if ! out="$("$@" 2>&1)"; then
    printf '%s\n' "$out" >&2
    fail "failed: $*"
  fi
}

if ! command -v protoc >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail "protoc is missing and apt-get is not available; install protoc yourself"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "protoc is missing: run as root, or install protobuf-compiler and libprotobuf-dev"
    SUDO="sudo"
  fi
  echo "install: protoc (apt: protobuf-compiler, libprotobuf-dev)"
  quiet $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  quiet $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    protobuf-compiler libprotobuf-dev
fi

# The conversation store tests start their own redis-server (docs/store.md);
# the TypeScript test kit makes their TLS certificates with the openssl CLI.
missing=""
command -v redis-server >/dev/null 2>&1 || missing="redis-server"
command -v openssl >/dev/null 2>&1 || missing="${missing:+$missing }openssl"
if [ -n "$missing" ]; then
  command -v apt-get >/dev/null 2>&1 || fail "missing: $missing, and apt-get is not available; install Redis 7 and openssl yourself"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "missing: $missing: run as root, or install the Debian packages $missing"
    SUDO="sudo"
  fi
  echo "install: $missing (apt: $missing)"
  quiet $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  # shellcheck disable=SC2086 # one word per package
  quiet $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

command -v node >/dev/null 2>&1 || fail "node (>= 20.19) is required"
command -v npx >/dev/null 2>&1 || fail "npx is required (it comes with node)"

echo "install: node dependencies (pnpm ${PNPM_VERSION})"
if [ -f pnpm-lock.yaml ]; then
  quiet npx -y "pnpm@${PNPM_VERSION}" install --frozen-lockfile
else
  quiet npx -y "pnpm@${PNPM_VERSION}" install
fi

command -v python3 >/dev/null 2>&1 || fail "python3 3.11 is required (scripts/python-env.sh builds .venv with it)"
echo "install: Python environment (.venv, pinned in runtimes/python/requirements-dev.txt)"
quiet bash scripts/python-env.sh

if command -v go >/dev/null 2>&1; then
  echo "install: Go code generators and actionlint (.tools/bin)"
  quiet node generator/scripts/go-test.mjs --install-tools
else
  fail "go (1.24 or newer) is required: the Go target's tests compile and run the generated code"
fi

echo "install: done"
