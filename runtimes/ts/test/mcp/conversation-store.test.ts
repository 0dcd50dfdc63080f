import { describe, expect, it } from "vitest";
import {
  createMemoryConversationStore,
  mintConversationHandle,
} from "../../src/mcp/index.js";
import { aitestAliases } from "../support/aitest-tools.js";

describe("createMemoryConversationStore", () => {
  it("creates, loads, saves and deletes conversations", async () => {
    const store = createMemoryConversationStore({ aliases: aitestAliases });
    const h = await store.create();
    expect(h).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const aliases = await store.load(h);
    expect(aliases).toBeDefined();
    aliases?.register("acct", "0b6f0f7e-8d5c-4c52-9d47-0a4a3f1d9e01");
    await store.save(h, aliases!);
    expect((await store.load(h))?.resolveAlias("acct-1")).toBe(
      "0b6f0f7e-8d5c-4c52-9d47-0a4a3f1d9e01",
    );
    await store.delete(h);
    expect(await store.load(h)).toBeUndefined();
    expect(await store.load("unknown")).toBeUndefined();
  });

  it("forgets a conversation idle for the TTL; a load renews it", async () => {
    let t = 0;
    const store = createMemoryConversationStore({
      aliases: aitestAliases,
      idleTtlMs: 100,
      now: () => t,
    });
    const h = await store.create();
    t = 99;
    expect(await store.load(h)).toBeDefined();
    t = 198;
    expect(await store.load(h)).toBeDefined();
    t = 298;
    expect(await store.load(h)).toBeUndefined();
  });

  it("mints distinct 128-bit handles", () => {
    const seen = new Set(
      Array.from({ length: 1000 }, () => mintConversationHandle()),
    );
    expect(seen.size).toBe(1000);
    for (const h of seen) {
      expect(Buffer.from(h, "base64url")).toHaveLength(16);
    }
  });
});
