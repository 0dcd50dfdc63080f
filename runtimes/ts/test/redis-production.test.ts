// The Redis store as production runs it, against real redis-servers the
// testkit starts: TLS with the least-privilege ACL user
// (docs/production.md), a hung server (SIGSTOP) cut off by the store's own
// timeout, a dropped connection (CLIENT KILL), and the refusal of a client
// that has no "error" listener. A Redis Cluster (six processes, several
// seconds to start) is e2e/store's: the workers run the store on one.
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { Code } from "@connectrpc/connect";
import { readFileSync } from "node:fs";
import { createClient, createCluster } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationStore } from "../src/index.js";
import {
  createRedisConversationStore,
  type RedisConversationStoreOptions,
} from "../src/redis-conversation-store.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import {
  aitestConversationExecutor,
  executorContract,
  storeContract,
  toolErrorOf,
} from "./support/store-contract.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server?.close();
});

/** A connected client that fails at once while Redis is down, and reconnects. */
async function connected(url: string, caPath?: string, heard: Error[] = []) {
  const c = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      reconnectStrategy: () => 50,
      ...(caPath === undefined ? {} : { tls: true, ca: readFileSync(caPath) }),
    },
  });
  c.on("error", (e: Error) => heard.push(e));
  await c.connect();
  return c;
}

const conversationExecutor = (store: ConversationStore) =>
  aitestConversationExecutor(server, store);

const create = (name: string) =>
  `{"name":"${name}","owner_id":"","note_count":0,"contact_count":0}`;

/** Resolve once ok() holds; fail after 10 s. */
async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within 10 s`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("over TLS as the least-privilege ACL user", () => {
  let redis: RedisServer;
  let client: Awaited<ReturnType<typeof connected>>;

  beforeAll(async () => {
    redis = await startRedis({ tls: true, aclUser: "ai-tools" });
    expect(redis.userUrl).toMatch(/^rediss:\/\/ai-tools:[^@]+@localhost:\d+$/);
    client = await connected(redis.userUrl, redis.caPath);
  });

  afterAll(async () => {
    client?.destroy();
    await redis?.stop();
  });

  const newStore = (options: Partial<RedisConversationStoreOptions> = {}) =>
    createRedisConversationStore({ client, ...options });

  storeContract(() => newStore());
  executorContract(
    () => server,
    () => newStore(),
  );

  it("runs the scripts by text after SCRIPT FLUSH (EVAL is granted, SCRIPT LOAD not needed)", async () => {
    const e = conversationExecutor(newStore());
    const h = await e.start();
    await redis.cli("SCRIPT", "FLUSH");
    expect(
      JSON.parse(await e.execute(h, "accounts_create", create("t"))),
    ).toMatchObject({ account: { id: "acct-1" } });
  });

  it("a key prefix outside the user's key pattern: store-unavailable (NOPERM)", async () => {
    const err = await toolErrorOf(newStore({ keyPrefix: "other:" }).create());
    expect(err.reason).toBe("store-unavailable");
    expect(err.message).toMatch(
      /^conversation store unavailable: NOPERM .*keys/,
    );
  });
});

describe("faults", () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    redis?.resume();
    await redis?.stop();
  });

  it("a hung Redis (SIGSTOP): every operation fails store-unavailable at the store's timeout, nothing sent; the client works again after SIGCONT", async () => {
    const client = await connected(redis.url);
    try {
      const store = createRedisConversationStore({ client, timeoutMs: 400 });
      const e = conversationExecutor(store);
      const [h, other] = [await e.start(), await e.start()];
      const n = server.calls.length;
      redis.pause();
      try {
        for (const op of [
          () => e.start(),
          () => e.execute(h, "accounts_create", create("hung")),
          () => e.end(other),
        ]) {
          const t0 = performance.now();
          const err = await toolErrorOf(op());
          const took = performance.now() - t0;
          expect(err.reason).toBe("store-unavailable");
          expect(err.code).toBe(Code.Unavailable);
          expect(err.message).toBe(
            "conversation store unavailable: redis did not answer within 400 ms",
          );
          // node-redis alone waits until the socket gives up (not at all
          // by default); margins for a busy machine.
          expect(took).toBeGreaterThanOrEqual(390);
          expect(took).toBeLessThan(3000);
        }
        expect(server.calls.length).toBe(n);
      } finally {
        redis.resume();
      }
      // The late replies are dropped; the connection carries on in order.
      expect(
        JSON.parse(await e.execute(h, "accounts_create", create("after"))),
      ).toMatchObject({ account: { id: "acct-1" } });
    } finally {
      client.destroy();
    }
  });

  it("a dropped connection (CLIENT KILL): the listener hears it, the process lives, calls work again once reconnected", async () => {
    const heard: Error[] = [];
    const client = await connected(redis.url, undefined, heard);
    try {
      const e = conversationExecutor(
        createRedisConversationStore({ client, timeoutMs: 1000 }),
      );
      const h = await e.start();
      await e.execute(h, "accounts_create", create("before"));
      expect(await redis.cli("CLIENT", "KILL", "TYPE", "normal")).toMatch(
        /^[1-9]/,
      );
      await until(() => heard.length > 0, "the error event");
      await until(() => client.isReady, "the reconnection");
      expect(
        JSON.parse(await e.execute(h, "accounts_create", create("after"))),
      ).toMatchObject({ account: { id: "acct-2" } });
    } finally {
      client.destroy();
    }
  });

  it('refuses a client or cluster client with no "error" listener', () => {
    const text =
      'the redis client has no "error" listener: a dropped connection would crash the process; add client.on("error", …) before creating the store';
    const client = createClient({ url: redis.url });
    expect(() => createRedisConversationStore({ client })).toThrow(text);
    client.on("error", () => {});
    expect(createRedisConversationStore({ client }).maxAliases).toBe(1000);
    const cluster = createCluster({ rootNodes: [{ url: redis.url }] });
    expect(() => createRedisConversationStore({ client: cluster })).toThrow(
      text,
    );
  });
});
