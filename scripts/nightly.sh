#!/usr/bin/env bash
# One long suite in full, as the nightly workflow (.github/workflows/
# nightly.yml) runs it; `.ci/run` (scripts/test.sh) runs each as a smoke of
# at most a minute. docs/testing.md lists what each suite covers.
#
#   bash scripts/nightly.sh fuzz    every package's fuzzer, 10 min a package
#   bash scripts/nightly.sh large   the big-API generator tests at full size
#   bash scripts/nightly.sh load    the Redis store's load and fault runs
#
# Installs what is missing first (scripts/install.sh), as scripts/test.sh does.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1
pnpm=(npx -y pnpm@12.4.2)

if [ "$#" -ne 1 ]; then
  printf 'nightly: give exactly one suite (fuzz, large or load), got %d arguments\n' "$#" >&2
  exit 2
fi
case "$1" in
  fuzz | large | load) suite="$1" ;;
  *)
    printf 'nightly: unknown suite "%s": give one of fuzz, large, load\n' "$1" >&2
    exit 2
    ;;
esac

bash scripts/install.sh
export AI_TOOLS_NIGHTLY=1
case "$suite" in
  fuzz)
    "${pnpm[@]}" run fuzz --duration "${FUZZ_DURATION:-10m}"
    ;;
  large)
    "${pnpm[@]}" exec turbo run test --filter=protoc-gen-ai-tools
    ;;
  load)
    "${pnpm[@]}" exec turbo run build --filter=@protoc-gen-ai-tools/e2e-ts...
    "${pnpm[@]}" --filter=@protoc-gen-ai-tools/e2e-ts run e2e \
      test/store-load.test.ts test/store-faults.test.ts
    ;;
esac
