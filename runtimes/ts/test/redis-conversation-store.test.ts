// The Redis conversation store against a real redis-server (Debian's 7.0,
// started on a free port by the test, without persistence): the shared
// layout vectors and scripts, the store and executor contracts, refusals,
// concurrency across OS processes, and faults (Redis killed and restarted,
// a worker killed with SIGKILL).
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { Code } from "@connectrpc/connect";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationStore } from "../src/index.js";
import {
  createRedisConversationStore,
  type RedisConversationStoreOptions,
} from "../src/redis-conversation-store.js";
import {
  createScript,
  loadScript,
  registerScript,
} from "../src/gen/redis-scripts.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import {
  aitestConversationExecutor,
  capContract,
  executorContract,
  storeContract,
  toolErrorOf,
} from "./support/store-contract.js";
import { canonicalScript, layout } from "./support/store-vectors.js";

let redis: RedisServer;
let client: Client;
let server: AitestServer;

/** A client that fails at once while Redis is down, and reconnects. */
function newClient(url: string) {
  const c = createClient({
    url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: () => 50 },
  });
  c.on("error", () => {}); // the store reports each failed call
  return c;
}

type Client = ReturnType<typeof newClient>;

beforeAll(async () => {
  redis = await startRedis();
  client = newClient(redis.url);
  await client.connect();
  server = await startAitestServer();
});

afterAll(async () => {
  client?.destroy();
  await redis?.stop();
  await server?.close();
});

const newStore = (
  options: Partial<RedisConversationStoreOptions> = {},
): ConversationStore => createRedisConversationStore({ client, ...options });

const conversationExecutor = (store: ConversationStore) =>
  aitestConversationExecutor(server, store);

/** HGETALL of key as an object. */
async function hash(key: string): Promise<Record<string, string>> {
  return client.hGetAll(key);
}

describe("redis scripts", () => {
  for (const [name, text] of [
    ["create.lua", createScript],
    ["load.lua", loadScript],
    ["register.lua", registerScript],
  ] as const) {
    it(`${name} is the committed script (runtimes/go/redisstore), with its SHA-1`, () => {
      expect(text).toBe(canonicalScript(name));
      expect(createHash("sha1").update(text).digest("hex")).toBe(
        layout.scripts[name],
      );
    });
  }
});

describe("createRedisConversationStore", () => {
  storeContract(() => newStore());

  for (const c of layout.cases) {
    it(`layout vector: ${c.name}: states, then HGETALL equals the hash`, async () => {
      await client.del(c.key);
      expect(
        await client.eval(createScript, {
          keys: [c.key],
          arguments: ["60000", c.epoch],
        }),
      ).toBe(1);
      const store = newStore({ keyPrefix: c.keyPrefix });
      for (const step of c.steps) {
        expect(await store.register(c.handle, c.epoch, step.register)).toBe(
          step.state,
        );
      }
      expect(await store.load(c.handle)).toEqual({
        epoch: c.epoch,
        state: c.steps.at(-1)!.state,
      });
      expect(await hash(c.key)).toEqual(c.hash);
    });
  }

  for (const r of layout.refusals) {
    it(`refusal vector: ${r.name}: ${r.error}`, async () => {
      const handle = "AAAAAAAAAAAAAAAAAAAAAA";
      const key = `ai-tools:conv:{${handle}}`;
      await client.del(key);
      if (r.setup !== null) {
        await client.hSet(key, r.setup);
      }
      const store = newStore();
      if (r.load === true) {
        const n = server.calls.length;
        const err = await toolErrorOf(
          conversationExecutor(store).execute(
            handle,
            "accounts_create",
            `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
          ),
        );
        expect(err.reason).toBe(r.error);
        expect(server.calls.length).toBe(n); // nothing sent
      } else {
        const err = await toolErrorOf(
          store.register(handle, r.registerEpoch!, [
            ["acct", "0b6f0001-0000-4000-8000-000000000001"],
          ]),
        );
        expect(err.reason).toBe(r.error);
      }
      if (r.setup !== null) {
        expect(await hash(key)).toEqual(r.setup); // left as it was
      }
    });
  }

  it("a key that is not a hash: conversation-corrupt", async () => {
    const store = newStore();
    const h = await store.create();
    await client.set(`ai-tools:conv:{${h}}`, "x");
    const err = await toolErrorOf(store.load(h));
    expect(err.reason).toBe("conversation-corrupt");
    expect(err.code).toBe(Code.DataLoss);
  });

  it("runs the scripts by SHA-1, and again by text after SCRIPT FLUSH (NOSCRIPT)", async () => {
    const store = newStore();
    const h = await store.create();
    await client.scriptFlush();
    const { epoch } = await store.load(h);
    expect(
      await store.register(h, epoch, [
        ["acct", "0b6f0001-0000-4000-8000-000000000001"],
      ]),
    ).toContain(`"acct-1"`);
    expect(
      await client.scriptExists([
        layout.scripts["load.lua"]!,
        layout.scripts["register.lua"]!,
      ]),
    ).toEqual([1, 1]);
  });

  it("sets the idle TTL on create, renews it on load and register, and expires", async () => {
    // Each wait is 60% of the TTL, so that the second one outlives a TTL
    // the first renewal did not reset; margins for a busy machine.
    const store = newStore({ idleTtlMs: 2000, keyPrefix: "ttl:" });
    const h = await store.create();
    const key = `ttl:conv:{${h}}`;
    const ttl = await client.pTTL(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2000);
    await new Promise((r) => setTimeout(r, 1200));
    const { epoch } = await store.load(h);
    expect(await client.pTTL(key)).toBeGreaterThan(1200);
    await new Promise((r) => setTimeout(r, 1200));
    await store.register(h, epoch, []);
    expect(await client.pTTL(key)).toBeGreaterThan(1200);
    await new Promise((r) => setTimeout(r, 2300));
    expect((await toolErrorOf(store.load(h))).reason).toBe(
      "conversation-expired",
    );
  });

  it("refuses a timeout that is not positive, not finite or over a timer's limit", () => {
    for (const timeoutMs of [0, -1, Number.NaN, Infinity, 2 ** 31]) {
      expect(() => newStore({ timeoutMs })).toThrow(
        `timeoutMs must be positive and at most 2147483647 (about 24.8 days), got ${timeoutMs}`,
      );
    }
    expect(() => newStore({ timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it("create: all its tries share one timeout", async () => {
    // Every handle tried is taken (the key made first), each try 60 ms:
    // 8 tries would take 480 ms; the budget is 150 ms for them all.
    const taken = {
      async sendCommand(args: string[]) {
        await client.hSet(args[3]!, "taken", "1");
        await new Promise((r) => setTimeout(r, 60));
        return client.sendCommand(args);
      },
    };
    const store = createRedisConversationStore({
      client: taken,
      timeoutMs: 150,
    });
    const error = await toolErrorOf(store.create());
    expect(error.reason).toBe("store-unavailable");
    expect(error.message).toContain("redis did not answer within 150 ms");
  });
});

describe("createConversationExecutor on Redis", () => {
  executorContract(
    () => server,
    () => newStore(),
  );
  capContract(
    () => server,
    (maxAliases) => newStore({ maxAliases }),
  );
});

describe("across processes", () => {
  const worker = fileURLToPath(
    new URL("./support/redis-worker.mjs", import.meta.url),
  );

  /** Run the worker; its JSON lines as they come, and its exit. */
  function runWorker(handle: string, id: number, batches: number) {
    const child = spawn(
      process.execPath,
      [worker, redis.url, handle, String(id), String(batches)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const lines: {
      batch: number;
      own: [string, string];
      shared: [string, string];
    }[] = [];
    let buf = "";
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        lines.push(JSON.parse(buf.slice(0, i)) as (typeof lines)[number]);
        buf = buf.slice(i + 1);
      }
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    return { child, lines, exited };
  }

  it("3 processes registering in one conversation: no gaps, no duplicates, aliases never change", async () => {
    const store = newStore();
    const h = await store.create();
    const batches = 100;
    const workers = [1, 2, 3].map((id) => runWorker(h, id, batches));
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0, 0]);
    const state = JSON.parse((await store.load(h)).state) as {
      aliases: Record<string, string>;
      counters: Record<string, number>;
    };
    // 3 × 100 own UUIDs and 100 shared ones, numbered 1 … 400.
    expect(state.counters).toEqual({ acct: 400 });
    expect(Object.keys(state.aliases).sort()).toEqual(
      Array.from({ length: 400 }, (_, i) => `acct-${i + 1}`).sort(),
    );
    expect(new Set(Object.values(state.aliases)).size).toBe(400);
    for (const w of workers) {
      expect(w.lines).toHaveLength(batches);
      for (const line of w.lines) {
        for (const [uuid, alias] of [line.own, line.shared]) {
          expect(state.aliases[alias], `${alias} of ${uuid}`).toBe(uuid);
        }
      }
    }
  });

  it("a worker killed with SIGKILL loses no alias it returned", async () => {
    const store = newStore();
    const h = await store.create();
    const w = runWorker(h, 9, 100_000);
    while (w.lines.length < 50) {
      await new Promise((r) => setTimeout(r, 5));
    }
    w.child.kill("SIGKILL");
    await w.exited;
    const state = JSON.parse((await store.load(h)).state) as {
      aliases: Record<string, string>;
    };
    expect(w.lines.length).toBeGreaterThanOrEqual(50);
    for (const line of w.lines) {
      for (const [uuid, alias] of [line.own, line.shared]) {
        expect(state.aliases[alias]).toBe(uuid);
      }
    }
  });
});

describe("faults", () => {
  it("Redis killed: store-unavailable; restarted empty: old handles expired, new conversations work", async () => {
    const store = newStore({ timeoutMs: 1000 });
    const e = conversationExecutor(store);
    const h = await e.start();
    expect(
      JSON.parse(
        await e.execute(
          h,
          "accounts_create",
          `{"name":"a","owner_id":"","note_count":0,"contact_count":0}`,
        ),
      ),
    ).toMatchObject({ account: { id: "acct-1" } });

    await redis.kill();
    const t0 = Date.now();
    const down = await toolErrorOf(
      e.execute(
        h,
        "accounts_create",
        `{"name":"b","owner_id":"","note_count":0,"contact_count":0}`,
      ),
    );
    expect(down.reason).toBe("store-unavailable");
    expect(down.code).toBe(Code.Unavailable);
    expect(down.message).toMatch(/^conversation store unavailable: \S/);
    expect(down.message).not.toContain("\n");
    expect(Date.now() - t0).toBeLessThan(4000); // no hang: at once, or the 1 s timeout
    expect((await toolErrorOf(e.start())).reason).toBe("store-unavailable");

    await redis.restart();
    // The client reconnects by itself; until then the store is unavailable.
    const deadline = Date.now() + 10_000;
    while (!client.isReady && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const lost = await toolErrorOf(
      e.execute(
        h,
        "accounts_merge",
        `{"source_id":"acct-1","target_id":"acct-1","note":""}`,
      ),
    );
    expect(lost.reason).toBe("conversation-expired");
    expect(lost.message).toBe(
      `conversation "${h}" expired or unknown: start a new conversation`,
    );
    const h2 = await e.start();
    expect(
      JSON.parse(
        await e.execute(
          h2,
          "accounts_create",
          `{"name":"c","owner_id":"","note_count":0,"contact_count":0}`,
        ),
      ),
    ).toMatchObject({ account: { id: "acct-1" } });
  });
});
