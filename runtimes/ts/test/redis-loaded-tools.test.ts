// Loaded tools on the Redis store (docs/store.md, "Loaded tools") against a
// real redis-server started on a free port: the scripts and their SHA-1,
// the shared vectors (e2e/vectors/store/loaded-tools.json: states, loaded
// lists and the final hash), their refusals, the idle TTL, NOSCRIPT, and
// both read paths on one conversation.
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { createHash } from "node:crypto";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolLoadingOf, type ConversationStore } from "../src/index.js";
import {
  createRedisConversationStore,
  type RedisConversationStoreOptions,
} from "../src/redis-conversation-store.js";
import {
  createScript,
  loadToolsScript,
  loadedToolsScript,
} from "../src/gen/redis-scripts.js";
import {
  loadedToolsContract,
  runLoadedToolsStep,
} from "./support/loaded-tools-contract.js";
import { toolErrorOf } from "./support/store-contract.js";
import {
  canonicalScript,
  loadedToolsVectors,
} from "./support/store-vectors.js";

let redis: RedisServer;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startRedis();
  client = createClient({ url: redis.url, disableOfflineQueue: true });
  client.on("error", () => {}); // the store reports each failed call
  await client.connect();
});

afterAll(async () => {
  client?.destroy();
  await redis?.stop();
});

const newStore = (
  options: Partial<RedisConversationStoreOptions> = {},
): ConversationStore => createRedisConversationStore({ client, ...options });

describe("loaded-tools scripts", () => {
  for (const [name, text] of [
    ["load-tools.lua", loadToolsScript],
    ["loaded-tools.lua", loadedToolsScript],
  ] as const) {
    it(`${name} is the committed script (runtimes/go/redisstore), with its SHA-1`, () => {
      expect(text).toBe(canonicalScript(name));
      expect(createHash("sha1").update(text).digest("hex")).toBe(
        loadedToolsVectors.scripts[name],
      );
    });
  }
});

describe("loaded tools on Redis", () => {
  loadedToolsContract(() => newStore());

  for (const c of loadedToolsVectors.cases) {
    it(`loaded-tools vector: ${c.name}: each step, then HGETALL equals the hash`, async () => {
      await client.del(c.key);
      expect(
        await client.eval(createScript, {
          keys: [c.key],
          arguments: ["60000", c.epoch],
        }),
      ).toBe(1);
      const store = toolLoadingOf(newStore({ keyPrefix: c.keyPrefix }));
      for (const step of c.steps) {
        await runLoadedToolsStep(store, c.handle, c.epoch, step);
      }
      expect(await client.hGetAll(c.key)).toEqual(c.hash);
    });
  }

  for (const r of loadedToolsVectors.refusals) {
    it(`refusal vector: ${r.name}: ${r.error}, the hash left as it was`, async () => {
      const handle = "AAAAAAAAAAAAAAAAAAAAAA";
      const key = `ai-tools:conv:{${handle}}`;
      await client.del(key);
      if (r.setup !== null) {
        await client.hSet(key, r.setup);
      }
      const store = toolLoadingOf(newStore());
      const err = await toolErrorOf(
        r.loadTools === undefined
          ? store.loadedTools(handle)
          : store.loadTools(handle, r.loadTools.epoch, r.loadTools.names),
      );
      expect(err.reason).toBe(r.error);
      if (r.setup === null) {
        expect(await client.exists(key)).toBe(0); // never made again
      } else {
        expect(await client.hGetAll(key)).toEqual(r.setup);
      }
    });
  }

  it("a key that is not a hash: conversation-corrupt", async () => {
    const store = toolLoadingOf(newStore());
    const h = await store.create();
    const { epoch } = await store.load(h);
    await client.set(`ai-tools:conv:{${h}}`, "x");
    for (const p of [
      store.loadedTools(h),
      store.loadTools(h, epoch, ["links_get"]),
    ]) {
      expect((await toolErrorOf(p)).reason).toBe("conversation-corrupt");
    }
  });

  it("loadTools and loadedTools renew the idle TTL", async () => {
    const store = toolLoadingOf(newStore({ idleTtlMs: 60_000 }));
    const h = await store.create();
    const key = `ai-tools:conv:{${h}}`;
    const { epoch } = await store.load(h);
    await client.pExpire(key, 1000);
    await store.loadTools(h, epoch, ["links_get"]);
    expect(await client.pTTL(key)).toBeGreaterThan(50_000);
    await client.pExpire(key, 1000);
    expect(await store.loadedTools(h)).toEqual(["links_get"]);
    expect(await client.pTTL(key)).toBeGreaterThan(50_000);
  });

  it("runs the scripts again by text after SCRIPT FLUSH (NOSCRIPT)", async () => {
    const store = toolLoadingOf(newStore());
    const h = await store.create();
    const { epoch } = await store.load(h);
    await client.scriptFlush();
    expect(await store.loadTools(h, epoch, ["links_get"])).toEqual([
      "links_get",
    ]);
    expect(await store.loadedTools(h)).toEqual(["links_get"]);
    expect(
      await client.scriptExists([
        loadedToolsVectors.scripts["load-tools.lua"]!,
        loadedToolsVectors.scripts["loaded-tools.lua"]!,
      ]),
    ).toEqual([1, 1]);
  });
});
