import { defineConfig } from "vitest/config";

// `pnpm e2e`: one file, its own test server, redis-server and workers.
// The files run one after another: redis-cluster.test.ts's nodes time out
// after 2 s (cluster-node-timeout), and a file running beside it on two
// shared cores could starve a node into a spurious failover.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
