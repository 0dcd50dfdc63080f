import { defineConfig } from "vitest/config";

// `pnpm bench`: the timing run of test/bench.run.ts, alone.
export default defineConfig({
  test: {
    include: ["test/bench.run.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
