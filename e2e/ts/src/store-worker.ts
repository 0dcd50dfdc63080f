/**
 * A worker process of the conversation store tests: the generated executor
 * of the test API (linkhub.v1), its conversations kept on Redis
 * (docs/store.md), so that several workers, of any language, serve one
 * conversation:
 *
 *     node dist/store-worker.js --grpc 127.0.0.1:PORT --redis redis://127.0.0.1:PORT [--key-prefix ai-tools:]
 *
 * It reads one JSON command per line on stdin and answers each with one
 * JSON line on stdout, carrying the command's `id` back; commands run
 * concurrently, answers come as they finish:
 *
 *     {"id":1,"op":"start"}                          → {"id":1,"ok":true,"handle":"…"}
 *     {"id":2,"op":"call","handle":"…","tool":"links_get","args":{"id":"link-1"}}
 *                                                    → {"id":2,"ok":true,"result":"<the tool result text>"}
 *                                                    or {"id":2,"ok":false,"reason":"conversation-expired","code":"NOT_FOUND","message":"…"}
 *     {"id":3,"op":"end","handle":"…"}               → {"id":3,"ok":true}
 *
 * `args` is the arguments object, or their JSON text. It exits when stdin
 * ends and every answer is written.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { createConversationExecutor, ToolError } from "@ai-tools/runtime";
import { createRedisConversationStore } from "@ai-tools/runtime/redis";
import { codeName } from "@ai-tools/runtime/mcp";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createClient } from "redis";
import { createExecutor } from "./gen/ai_tools.gen.js";

const usage =
  "usage: node dist/store-worker.js --grpc HOST:PORT --redis redis://HOST:PORT [--key-prefix PREFIX]";

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

interface Command {
  readonly id?: unknown;
  readonly op?: unknown;
  readonly handle?: unknown;
  readonly tool?: unknown;
  readonly args?: unknown;
}

async function main(): Promise<void> {
  let values: { grpc?: string; redis?: string; "key-prefix"?: string };
  try {
    ({ values } = parseArgs({
      options: {
        grpc: { type: "string" },
        redis: { type: "string" },
        "key-prefix": { type: "string" },
      },
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const grpc = values.grpc ?? fail("--grpc is required");
  const url = values.redis ?? fail("--redis is required");
  const client = createClient({ url, disableOfflineQueue: true });
  client.on("error", () => {}); // each failed call says store-unavailable
  await client.connect();
  const conversations = createConversationExecutor(
    createExecutor(
      createGrpcTransport({
        baseUrl: grpc.includes("://") ? grpc : `http://${grpc}`,
      }),
    ),
    createRedisConversationStore({ client, keyPrefix: values["key-prefix"] }),
  );
  const answer = (line: object): void => {
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };

  const run = async (c: Command): Promise<object> => {
    const handle = typeof c.handle === "string" ? c.handle : "";
    switch (c.op) {
      case "start":
        return { handle: await conversations.start() };
      case "call":
        return {
          result: await conversations.execute(
            handle,
            String(c.tool),
            typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
          ),
        };
      case "end":
        await conversations.end(handle);
        return {};
      default:
        throw new Error(
          `unknown op ${JSON.stringify(c.op)}: use "start", "call" or "end"`,
        );
    }
  };

  const pending = new Set<Promise<void>>();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === "") continue;
    let c: Command;
    try {
      c = JSON.parse(line) as Command;
    } catch {
      answer({ ok: false, message: `not a JSON command: ${line}` });
      continue;
    }
    const p = run(c).then(
      (out) => answer({ id: c.id, ok: true, ...out }),
      (e: unknown) =>
        answer(
          e instanceof ToolError
            ? {
                id: c.id,
                ok: false,
                reason: e.reason,
                code: codeName(e.code),
                message: e.message,
              }
            : { id: c.id, ok: false, message: String(e) },
        ),
    );
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
