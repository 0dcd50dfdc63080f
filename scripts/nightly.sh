#!/usr/bin/env bash
# One long suite in full, as the nightly workflow (.github/workflows/
# nightly.yml) runs it; `.ci/run` (scripts/test.sh) runs each as a smoke of
# at most a minute. docs/testing.md lists what each suite covers.
#
#   bash scripts/nightly.sh fuzz    every package's fuzzer, 10 min a package
#                                   (FUZZ_DURATION=1h for longer)
#   bash scripts/nightly.sh large   the generator's tests at full size: the
#                                   Temporal-shaped API's 126 RPCs, all three
#                                   real Google APIs compiled, the golden Go
#                                   tests under -race; Compute Engine's
#                                   deferred requests in Go and Python
#   bash scripts/nightly.sh load    every e2e suite with the Redis store's
#                                   load runs at 50 conversations x 100 calls
#
# Installs what is missing first (scripts/install.sh), as scripts/test.sh does,
# and sets AI_TOOLS_NIGHTLY=1, which the tests read for their full sizes.
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
    # The Python runtime's tests collect Compute Engine's deferred requests
    # with AI_TOOLS_NIGHTLY=1; Go's run in e2e/go's --large mode.
    "${pnpm[@]}" exec turbo run test --filter=protoc-gen-ai-tools \
      --filter=@protoc-gen-ai-tools/runtime-python
    node e2e/go/scripts/run.mjs --large
    ;;
  load)
    "${pnpm[@]}" run e2e
    ;;
esac
