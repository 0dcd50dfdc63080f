// Starts the TypeScript store worker (src/store-worker.ts, built to
// dist/store-worker.js; its protocol in @protoc-gen-ai-tools/testkit), and the
// redis-server of a test file.
import { fileURLToPath } from "node:url";
import {
  spawnStoreWorker as spawnTestkitWorker,
  startRedis,
  type RedisServer,
  type StoreWorker,
} from "@protoc-gen-ai-tools/testkit";
import { afterAll, beforeAll } from "vitest";

/** Start a redis-server for this file; ready in the tests, stopped after. */
export function useRedis(): { readonly server: RedisServer } {
  const env = {} as { server: RedisServer };
  beforeAll(async () => {
    env.server = await startRedis();
  });
  afterAll(async () => {
    await env.server?.stop();
  });
  return env;
}

/** The arguments of links_create for a link titled title in ws. */
export function linkArgs(ws: string, title: string): Record<string, unknown> {
  return {
    workspace_id: ws,
    target_url: `https://example.com/${title}`,
    slug: null,
    page_theme_id: "",
    labels: [],
    title,
    expire_after: null,
  };
}

export type { StoreWorker, WorkerAnswer } from "@protoc-gen-ai-tools/testkit";

const workerJs = fileURLToPath(
  new URL("../dist/store-worker.js", import.meta.url),
);

/** Spawn a worker on the test server and Redis, running up to parallel requests at once. */
export function spawnStoreWorker(
  grpc: string,
  redisUrl: string,
  parallel: number,
): StoreWorker {
  return spawnTestkitWorker({
    command: process.execPath,
    args: [workerJs],
    grpc,
    redisUrl,
    parallel,
    label: "ts worker",
  });
}
