/**
 * A worker process of the conversation store tests: the generated executor
 * of the test API (linkhub.v1), its conversations kept on Redis
 * (docs/store.md), so that several workers serve one conversation. It
 * speaks the protocol of the Go worker (e2e/go/cmd/linkhub-worker) and the
 * Python one (e2e/py), so that the three mix in one run:
 *
 *     node dist/store-worker.js --grpc 127.0.0.1:PORT --redis 127.0.0.1:PORT [--key-prefix ai-tools:] [--ttl 30m] [--parallel 1]
 *         [--redis-ca ca.crt] [--redis-cluster] [--store-timeout 5000] [--max-aliases 1000]
 *
 * `--redis` is `host:port` or a `redis://` / `rediss://` URL, with
 * `user:password@` for an ACL user; `--redis-ca` the CA (PEM) to trust for
 * TLS; `--redis-cluster` makes it a seed node of a Redis Cluster
 * (node-redis `createCluster`, its credentials and TLS used for every
 * node); `--store-timeout` the store's timeout in ms; `--max-aliases` the
 * store's alias cap per conversation (the store's default when absent).
 *
 * It reads one JSON request per line on stdin and writes one JSON line per
 * request on stdout, each with the request's `id` (any JSON value):
 *
 *     {"id":1,"op":"start"}                          → {"id":1,"handle":"…"}
 *     {"id":2,"op":"call","handle":"…","tool":"links_get","args":{"id":"link-1"}}
 *                                                    → {"id":2,"result":{…}}
 *                                                    or {"id":2,"error":{"reason":"conversation-expired","code":"NOT_FOUND","message":"…"}}
 *     {"id":3,"op":"end","handle":"…"}               → {"id":3,"ok":true}
 *     {"id":4,"op":"loadTools","handle":"…","tools":["links_get"]}
 *                                                    → {"id":4,"loaded":["links_get"]}
 *     {"id":5,"op":"loadedTools","handle":"…"}       → {"id":5,"loaded":["links_get"]}
 *
 * `loadTools` appends the tools not yet loaded to the conversation's loaded
 * tools (the store's `loadTools`, with the epoch its `load` reads) and
 * answers the whole list; `loadedTools` answers it (docs/store.md, "Loaded
 * tools").
 *
 * `args` is the tool's arguments, an object (or a string holding them);
 * `result` is the tool's result (UUIDs shown as aliases), written once the
 * aliases it shows are stored. A request it cannot read gets
 * `{"id":…,"error":{"reason":"bad-request","message":…}}`. With
 * `--parallel N` it runs up to N requests at once and answers each as it
 * finishes; it exits when stdin ends and every answer is written.
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import {
  createConversationExecutor,
  toolLoadingOf,
  ToolError,
} from "@protoc-gen-ai-tools/runtime";
import { codeName } from "@protoc-gen-ai-tools/runtime/mcp";
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createClient, createCluster } from "redis";
import { createExecutor } from "./gen/ai_tools.gen.js";

const usage =
  "usage: node dist/store-worker.js --grpc HOST:PORT --redis HOST:PORT|URL [--redis-ca FILE] [--redis-cluster] [--store-timeout MS] [--max-aliases N] [--key-prefix PREFIX] [--ttl 30m] [--parallel N] < requests.jsonl";

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

/** A Go duration of one unit (`30m`, `90s`, `1500ms`, `1h`) in milliseconds. */
function durationMs(text: string): number {
  const m = /^([0-9]+)(ms|s|m|h)$/.exec(text);
  if (m === null) {
    fail(`--ttl: ${JSON.stringify(text)} is not a duration such as 30m`);
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as "ms"];
  return Number(m[1]) * unit;
}

/** A flag's whole number of at least 1, or undefined when absent. */
function count(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) {
    return undefined;
  }
  const n = Number(text);
  if (!(Number.isSafeInteger(n) && n >= 1)) {
    fail(`--${flag}: ${JSON.stringify(text)} is not a whole number >= 1`);
  }
  return n;
}

/**
 * The node-redis client of --redis (a cluster client with
 * --redis-cluster), with an "error" listener: a dropped connection is
 * reported by the store's next call, never a crash.
 */
function redisClient(
  url: string,
  caFile: string | undefined,
  cluster: boolean,
) {
  const socket = {
    reconnectStrategy: (retries: number) => Math.min(50 * retries, 500),
    ...(caFile === undefined
      ? {}
      : { tls: true as const, ca: readFileSync(caFile) }),
  };
  if (!cluster) {
    const client = createClient({ url, disableOfflineQueue: true, socket });
    client.on("error", () => {}); // each failed call says store-unavailable
    return client;
  }
  // The seed's credentials and TLS serve every node the cluster names.
  const seed = new URL(url);
  const client = createCluster({
    rootNodes: [{ url }],
    defaults: {
      disableOfflineQueue: true,
      socket: {
        ...socket,
        ...(seed.protocol === "rediss:" ? { tls: true as const } : {}),
      },
      ...(seed.username === ""
        ? {}
        : { username: decodeURIComponent(seed.username) }),
      ...(seed.password === ""
        ? {}
        : { password: decodeURIComponent(seed.password) }),
    },
  });
  client.on("error", () => {});
  return client;
}

interface Request {
  readonly id?: unknown;
  readonly op?: unknown;
  readonly handle?: unknown;
  readonly tool?: unknown;
  readonly args?: unknown;
  readonly tools?: unknown;
}

async function main(): Promise<void> {
  let values: {
    grpc?: string;
    redis?: string;
    "key-prefix"?: string;
    ttl?: string;
    parallel?: string;
    "redis-ca"?: string;
    "redis-cluster"?: boolean;
    "store-timeout"?: string;
    "max-aliases"?: string;
  };
  try {
    ({ values } = parseArgs({
      options: {
        grpc: { type: "string" },
        redis: { type: "string" },
        "key-prefix": { type: "string" },
        ttl: { type: "string" },
        parallel: { type: "string" },
        "redis-ca": { type: "string" },
        "redis-cluster": { type: "boolean" },
        "store-timeout": { type: "string" },
        "max-aliases": { type: "string" },
      },
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const grpc = values.grpc ?? fail("--grpc is required");
  const redis = values.redis ?? fail("--redis is required");
  const parallel = Number(values.parallel ?? "1");
  if (!(Number.isInteger(parallel) && parallel >= 1)) {
    fail(`--parallel: ${JSON.stringify(values.parallel)} is not a count`);
  }
  const timeoutMs = count("store-timeout", values["store-timeout"]) ?? 5000;
  const maxAliases = count("max-aliases", values["max-aliases"]);
  const client = redisClient(
    redis.includes("://") ? redis : `redis://${redis}`,
    values["redis-ca"],
    values["redis-cluster"] === true,
  );
  // Wait a moment for Redis, not forever: while it is unreachable, every
  // request is answered store-unavailable, and the client keeps trying.
  await Promise.race([
    client.connect().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 2000).unref()),
  ]);
  const store = toolLoadingOf(
    createRedisConversationStore({
      client,
      keyPrefix: values["key-prefix"],
      idleTtlMs: values.ttl === undefined ? undefined : durationMs(values.ttl),
      timeoutMs,
      maxAliases,
    }),
  );
  const conversations = createConversationExecutor(
    createExecutor(
      createGrpcTransport({
        baseUrl: grpc.includes("://") ? grpc : `http://${grpc}`,
      }),
    ),
    store,
  );

  /** One answer line; `result` is the tool's JSON text, written as it is. */
  const serve = async (line: string): Promise<string> => {
    let req: Request;
    try {
      req = JSON.parse(line) as Request;
    } catch (e) {
      return `{"id":null,"error":${JSON.stringify({ reason: "bad-request", message: `not a JSON request: ${(e as Error).message}` })}}`;
    }
    const id = JSON.stringify(req.id ?? null);
    const handle = typeof req.handle === "string" ? req.handle : "";
    try {
      switch (req.op) {
        case "start":
          return `{"id":${id},"handle":${JSON.stringify(await conversations.start())}}`;
        case "call": {
          const args =
            typeof req.args === "string"
              ? req.args
              : JSON.stringify(req.args ?? {});
          const result = await conversations.execute(
            handle,
            String(req.tool),
            args,
          );
          return `{"id":${id},"result":${result}}`;
        }
        case "end":
          await conversations.end(handle);
          return `{"id":${id},"ok":true}`;
        case "loadTools": {
          const tools = Array.isArray(req.tools) ? req.tools.map(String) : [];
          const { epoch } = await store.load(handle);
          const loaded = await store.loadTools(handle, epoch, tools);
          return `{"id":${id},"loaded":${JSON.stringify(loaded)}}`;
        }
        case "loadedTools":
          return `{"id":${id},"loaded":${JSON.stringify(await store.loadedTools(handle))}}`;
      }
      return `{"id":${id},"error":${JSON.stringify({ reason: "bad-request", message: `unknown op ${JSON.stringify(req.op)}: use start, call, end, loadTools or loadedTools` })}}`;
    } catch (e) {
      const error =
        e instanceof ToolError
          ? { reason: e.reason, code: codeName(e.code), message: e.message }
          : { reason: "internal", message: String(e) };
      return `{"id":${id},"error":${JSON.stringify(error)}}`;
    }
  };

  const pending = new Set<Promise<void>>();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === "") continue;
    while (pending.size >= parallel) {
      await Promise.race(pending);
    }
    const p = serve(line).then((answer) => {
      process.stdout.write(`${answer}\n`);
    });
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }
  await Promise.all(pending);
  client.destroy();
}

main().catch((e: unknown) => {
  process.stderr.write(`store-worker: ${String(e)}\n`);
  process.exit(1);
});
