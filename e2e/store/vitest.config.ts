import { defineConfig } from "vitest/config";

// `pnpm e2e`: one file, its own test server, redis-server and workers.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
