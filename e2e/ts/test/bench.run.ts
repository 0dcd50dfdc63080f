// `pnpm bench`: what the executor adds to one call against the real server.
// Median wall time of links_get through the generated executor (alias
// resolved, argument fix-up, protobuf-es decode, gRPC call, response
// encoded, ids registered and aliased), next to the same GetLink made
// directly with a Connect client, on one shared HTTP/2 connection. Then the
// executor with its conversation in memory next to the store-backed one on
// a real redis-server (docs/store.md: a load, and a register when the
// response shows a new UUID). Last, the share of the argument checks of
// issue 30 (structure check, proto-name results, the result limit): the
// generated executor next to the runtime's with the same tools as before
// (no argument table, JSON names, no limit) and a direct call, alternating.
import {
  createConversationExecutor,
  createExecutor as createRuntimeExecutor,
} from "@protoc-gen-ai-tools/runtime";
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { startRedis } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";
import { expect, it } from "vitest";
import { aliasConfig, linksGet, linksList } from "../src/gen/ai_tools.gen.js";
import { LinkService } from "../src/gen/linkhub/v1/links_pb.js";
import { Model, linkIds, newUUID, resetServer, useServer } from "./support.js";

// The server in its own process, as the Go benchmark runs it.
const env = useServer({ process: true });
const warmup = 300;
const runs = 3000;

/**
 * Median ns of one call of each function. The calls alternate, after a
 * shared warm-up, so that all see the same server and machine state.
 */
async function mediansOf(
  fns: readonly (() => Promise<unknown>)[],
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) {
    for (const fn of fns) await fn();
  }
  const times = fns.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of fns.entries()) {
      const t0 = process.hrtime.bigint();
      await fn();
      times[k]!.push(Number(process.hrtime.bigint() - t0));
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  return times.map(median);
}

/** {@link mediansOf} of two functions. */
async function medians(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  const [x, y] = await mediansOf([a, b]);
  return [x!, y!];
}

/** The arguments of links_create for the benchmark's link in ws. */
const linkArgs = (ws: string) => ({
  workspace_id: ws,
  target_url: "https://example.com/b",
  slug: null,
  page_theme_id: "",
  labels: [],
  title: "b",
  expire_after: null,
});

it("links_get: executor vs direct call, median of one call", async () => {
  await resetServer(env);
  const ws = newUUID();
  const m = new Model(env, ws);
  await m.call("links_create", linkArgs(ws));
  const [id] = await linkIds(env, ws);
  const [executor, direct] = await medians(
    () => m.executor.execute("links_get", `{"id":"link-1"}`),
    () => env.links.getLink({ id: id! }),
  );
  const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
  console.log(
    `\nbench (${runs} calls after ${warmup} warm-up, test server process on 127.0.0.1, gRPC over HTTP/2):\n` +
      `  links_get via the generated executor: median ${us(executor)}\n` +
      `  GetLink via a Connect client:         median ${us(direct)}\n` +
      `  executor overhead:                    ${us(executor - direct)}\n`,
  );
  expect(executor).toBeGreaterThan(0);
});

it("links_get: executor in memory vs on Redis, median of one call", async () => {
  await resetServer(env);
  const redis = await startRedis();
  const client = createClient({ url: redis.url, disableOfflineQueue: true });
  client.on("error", () => {}); // the store reports each failed call
  await client.connect();
  try {
    const ws = newUUID();
    const m = new Model(env, ws);
    const conversations = createConversationExecutor(
      m.executor,
      createRedisConversationStore({ client }),
    );
    const handle = await conversations.start();
    const args = JSON.stringify(linkArgs(ws));
    await m.executor.execute("links_create", args);
    await conversations.execute(handle, "links_create", args);
    const [memory, stored] = await medians(
      () => m.executor.execute("links_get", `{"id":"link-1"}`),
      () => conversations.execute(handle, "links_get", `{"id":"link-1"}`),
    );
    const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
    console.log(
      `\nbench (${runs} calls after ${warmup} warm-up, redis-server ${redis.url}):\n` +
        `  links_get, conversation in memory:   median ${us(memory)}\n` +
        `  links_get, conversation on Redis:    median ${us(stored)}\n` +
        `  the store's share (a load; no new UUID to register): ${us(stored - memory)}\n`,
    );
    expect(stored).toBeGreaterThan(0);
  } finally {
    client.destroy();
    await redis.stop();
  }
});

it("the argument checks' share: the executor with and without them, next to a direct call", async () => {
  await resetServer(env);
  const ws = newUUID();
  const m = new Model(env, ws);
  for (let i = 0; i < 5; i++) {
    await m.call("links_create", linkArgs(ws));
  }
  const [id] = await linkIds(env, ws);
  // The same tools, as before issue 30: no argument table (no structure
  // check), results in JSON names (one encoding), no result limit.
  const before = createRuntimeExecutor(env.transport, {
    methods: [
      { tool: linksGet, method: LinkService.method.getLink },
      { tool: linksList, method: LinkService.method.listLinks },
    ],
    aliases: aliasConfig,
    aliasManager: m.executor.aliases,
    jsonNames: true,
    maxResultBytes: 0,
  });
  const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
  const pct = (ns: number, of: number) => `${((ns / of) * 100).toFixed(1)}%`;
  const lines: string[] = [];
  for (const [tool, args, direct] of [
    ["links_get", `{"id":"link-1"}`, () => env.links.getLink({ id: id! })],
    [
      "links_list",
      JSON.stringify({ workspace_id: ws, page_theme_id: null }),
      () => env.links.listLinks({ workspaceId: ws }),
    ],
  ] as const) {
    const [local, off, on] = await mediansOf([
      direct,
      () => before.execute(tool, args),
      () => m.executor.execute(tool, args),
    ]);
    lines.push(
      `  ${tool}: direct ${us(local!)}, executor without the checks ${us(off!)}, with them ${us(on!)}; the checks ${us(on! - off!)} = ${pct(on! - off!, local!)} of a local call`,
    );
  }
  console.log(
    `\nbench (${runs} calls of each, alternating, after ${warmup} warm-up; test server process on 127.0.0.1):\n${lines.join("\n")}\n`,
  );
  expect(lines).toHaveLength(2);
});
