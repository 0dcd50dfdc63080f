import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Two files at a time (vitest takes one worker fewer than the cores, one
    // on a 2-core machine): most tests wait on the compilers and linters they
    // start (tsc, mypy, go, ruff), and this task is .ci/run's longest.
    maxWorkers: 2,
  },
});
