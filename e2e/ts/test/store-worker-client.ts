// Drives a store worker process (src/store-worker.ts, built to
// dist/store-worker.js): one JSON command per line in, one answer per line
// out, matched by id. And the redis-server of a test file.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startRedis, type RedisServer } from "@ai-tools/testkit";
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

/** One answer of the worker (the protocol of e2e/go/cmd/linkhub-worker). */
export interface WorkerAnswer {
  readonly handle?: string;
  /** The tool's result, parsed. */
  readonly result?: unknown;
  readonly ok?: boolean;
  readonly error?: {
    readonly reason: string;
    readonly code?: string;
    readonly message: string;
  };
}

/** A running worker process. */
export interface StoreWorker {
  readonly child: ChildProcess;
  /** Start a conversation; its handle. */
  start(): Promise<string>;
  /** Call a tool in a conversation. */
  call(handle: string, tool: string, args: unknown): Promise<WorkerAnswer>;
  /** End a conversation. */
  end(handle: string): Promise<WorkerAnswer>;
  /** Close its stdin and wait for its exit code. */
  close(): Promise<number | null>;
}

const workerJs = fileURLToPath(
  new URL("../dist/store-worker.js", import.meta.url),
);

/** Spawn a worker on the test server and Redis, running up to parallel requests at once. */
export function spawnStoreWorker(
  grpc: string,
  redisUrl: string,
  parallel: number,
): StoreWorker {
  const child = spawn(
    process.execPath,
    [
      workerJs,
      "--grpc",
      grpc,
      "--redis",
      redisUrl,
      "--parallel",
      String(parallel),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  child.stdin.on("error", () => {}); // a worker killed on purpose: EPIPE
  const waiting = new Map<number, (a: WorkerAnswer) => void>();
  let next = 0;
  let buf = "";
  child.stdout.on("data", (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      const a = JSON.parse(buf.slice(0, i)) as WorkerAnswer & { id: number };
      buf = buf.slice(i + 1);
      waiting.get(a.id)?.(a);
      waiting.delete(a.id);
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const send = (command: object) =>
    new Promise<WorkerAnswer>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  return {
    child,
    async start() {
      const a = await send({ op: "start" });
      if (a.handle === undefined) {
        throw new Error(`start failed: ${JSON.stringify(a)}`);
      }
      return a.handle;
    },
    call: (handle, tool, args) => send({ op: "call", handle, tool, args }),
    end: (handle) => send({ op: "end", handle }),
    close() {
      child.stdin.end();
      return exited;
    },
  };
}
