/**
 * A worker process of the conversation store tests: the generated executor
 * of the test API (linkhub.v1), its conversations kept on Redis
 * (docs/store.md), so that several workers serve one conversation. It
 * speaks the protocol of the Go worker (e2e/go/cmd/linkhub-worker) and the
 * Python one (e2e/py), so that the three mix in one run:
 *
 *     node dist/store-worker.js --grpc 127.0.0.1:PORT --redis 127.0.0.1:PORT [--key-prefix ai-tools:] [--ttl 30m] [--parallel 1]
 *
 * It reads one JSON request per line on stdin and writes one JSON line per
 * request on stdout, each with the request's `id` (any JSON value):
 *
 *     {"id":1,"op":"start"}                          → {"id":1,"handle":"…"}
 *     {"id":2,"op":"call","handle":"…","tool":"links_get","args":{"id":"link-1"}}
 *                                                    → {"id":2,"result":{…}}
 *                                                    or {"id":2,"error":{"reason":"conversation-expired","code":"NOT_FOUND","message":"…"}}
 *     {"id":3,"op":"end","handle":"…"}               → {"id":3,"ok":true}
 *
 * `args` is the tool's arguments, an object (or a string holding them);
 * `result` is the tool's result (UUIDs shown as aliases), written once the
 * aliases it shows are stored. A request it cannot read gets
 * `{"id":…,"error":{"reason":"bad-request","message":…}}`. With
 * `--parallel N` it runs up to N requests at once and answers each as it
 * finishes; it exits when stdin ends and every answer is written.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import {
  createConversationExecutor,
  ToolError,
} from "@protoc-gen-ai-tools/runtime";
import { codeName } from "@protoc-gen-ai-tools/runtime/mcp";
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createClient } from "redis";
import { createExecutor } from "./gen/ai_tools.gen.js";

const usage =
  "usage: node dist/store-worker.js --grpc HOST:PORT --redis HOST:PORT [--key-prefix PREFIX] [--ttl 30m] [--parallel N] < requests.jsonl";

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

interface Request {
  readonly id?: unknown;
  readonly op?: unknown;
  readonly handle?: unknown;
  readonly tool?: unknown;
  readonly args?: unknown;
}

async function main(): Promise<void> {
  let values: {
    grpc?: string;
    redis?: string;
    "key-prefix"?: string;
    ttl?: string;
    parallel?: string;
  };
  try {
    ({ values } = parseArgs({
      options: {
        grpc: { type: "string" },
        redis: { type: "string" },
        "key-prefix": { type: "string" },
        ttl: { type: "string" },
        parallel: { type: "string" },
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
  const client = createClient({
    url: redis.includes("://") ? redis : `redis://${redis}`,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(50 * retries, 500) },
  });
  client.on("error", () => {}); // each failed call says store-unavailable
  // Wait a moment for Redis, not forever: while it is unreachable, every
  // request is answered store-unavailable, and the client keeps trying.
  await Promise.race([
    client.connect().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 2000).unref()),
  ]);
  const conversations = createConversationExecutor(
    createExecutor(
      createGrpcTransport({
        baseUrl: grpc.includes("://") ? grpc : `http://${grpc}`,
      }),
    ),
    createRedisConversationStore({
      client,
      keyPrefix: values["key-prefix"],
      idleTtlMs: values.ttl === undefined ? undefined : durationMs(values.ttl),
    }),
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
      }
      return `{"id":${id},"error":${JSON.stringify({ reason: "bad-request", message: `unknown op ${JSON.stringify(req.op)}: use start, call or end` })}}`;
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
