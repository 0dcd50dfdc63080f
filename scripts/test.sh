#!/usr/bin/env bash
# Every test: installs what is missing (idempotent), builds, then runs each
# package's tests through turbo (golden check, vitest, Go tests), then the
# end-to-end suites against the real test server. The e2e packages' own
# `test` tasks are left out: their `e2e` tasks run all of it again. The long
# suites run here as smokes, in full in the nightly workflow (bash
# scripts/nightly.sh <suite>; docs/testing.md lists both).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1

bash scripts/install.sh
npx -y pnpm@12.4.2 run build --output-logs=errors-only
npx -y pnpm@12.4.2 run format:check
npx -y pnpm@12.4.2 run lint --output-logs=errors-only
bash scripts/release-check.sh
npx -y pnpm@12.4.2 run test --filter='!@protoc-gen-ai-tools/e2e-go' \
  --filter='!@protoc-gen-ai-tools/e2e-py' --filter='!@protoc-gen-ai-tools/e2e-ts' \
  --filter='!@protoc-gen-ai-tools/e2e-mcp' --filter='!@protoc-gen-ai-tools/e2e-store'
npx -y pnpm@12.4.2 run e2e
# The consumer test: packed packages, installed outside the workspace, README.md followed (e2e/consumer/run.mjs).
node e2e/consumer/run.mjs
