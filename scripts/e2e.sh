#!/usr/bin/env bash
# One target's end-to-end suite, as `.ci/run` (scripts/test.sh) runs it:
# installs what is missing, then `turbo run e2e` for that target's suite
# and its example, with the builds they depend on (turbo.json).
#
#   bash scripts/e2e.sh go|ts|py
#
# The e2e matrix workflow (.github/workflows/e2e.yml) runs one target per
# leg with it; scripts/test.sh runs every suite at once (`pnpm run e2e`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1

case "${1:-}" in
  go | ts | py) target="$1" ;;
  *)
    printf 'e2e: unknown target "%s": give one of go, ts, py\n' "${1:-}" >&2
    exit 2
    ;;
esac
if [ "$#" -ne 1 ]; then
  printf 'e2e: give exactly one target (go, ts or py), got %d arguments\n' "$#" >&2
  exit 2
fi

bash scripts/install.sh
npx -y pnpm@12.4.2 exec turbo run e2e \
  --filter="@protoc-gen-ai-tools/e2e-${target}" \
  --filter="@protoc-gen-ai-tools/example-${target}"
