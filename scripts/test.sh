#!/usr/bin/env bash
# Every test: installs what is missing (idempotent), builds, then runs each
# package's tests through turbo (golden check, vitest, Go tests under -race),
# the fuzz run (30 s per package, scripts/fuzz.mjs), then the end-to-end
# suites against the real test server.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1

bash scripts/install.sh
npx -y pnpm@12.4.2 run build --output-logs=errors-only
npx -y pnpm@12.4.2 run format:check
npx -y pnpm@12.4.2 run lint --output-logs=errors-only
bash scripts/release-check.sh
npx -y pnpm@12.4.2 run test
npx -y pnpm@12.4.2 run fuzz
npx -y pnpm@12.4.2 run e2e
