#!/usr/bin/env bash
# Fresh machine → everything installed, the plugin built, and the main job run
# on the bundled example (Go tools for proto/examples, shown).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1

bash scripts/install.sh
echo "setup: build (turbo: generate → build)"
npx -y pnpm@12.4.2 run build --output-logs=errors-only
echo
node scripts/example.mjs
echo
# The TypeScript target, shown: tools for the linkhub.v1 test API driving the
# bundled test server through the generated executor.
node scripts/demo.mjs
