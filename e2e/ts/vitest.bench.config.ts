import { defineConfig } from "vitest/config";

// `pnpm bench`: the timing run of test/bench.run.ts, alone.
export default defineConfig({
  test: {
    include: ["test/bench.run.ts"],
    testTimeout: 300_000,
  },
});
