import { defineConfig } from "vitest/config";

// `pnpm e2e`: one shared gRPC test server (test/global-setup.ts); each
// language's file starts its own MCP servers.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
