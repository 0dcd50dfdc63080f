import { defineConfig } from "vitest/config";

// `pnpm bench`: the timing runs of test/bench.run.ts, test/mcp-bench.run.ts
// and test/gateway-bench.run.ts, one file after the other.
export default defineConfig({
  test: {
    include: [
      "test/bench.run.ts",
      "test/mcp-bench.run.ts",
      "test/gateway-bench.run.ts",
    ],
    fileParallelism: false,
    testTimeout: 300_000,
  },
});
