// What every ConversationStore must do (docs/store.md, "The interface"), and
// what the store-backed executor does with it, as test suites run against
// the memory store and the Redis store alike.
import { Code } from "@connectrpc/connect";
import { expect, it } from "vitest";
import {
  ToolError,
  createAliasManager,
  createConversationExecutor,
  createExecutor,
  defaultMaxAliases,
  type ConversationExecutor,
  type ConversationStore,
} from "../../src/index.js";
import type { AitestServer } from "./aitest-server.js";
import { aitestAliases, aitestMethods } from "./aitest-tools.js";
import { layout } from "./store-vectors.js";

/** The ToolError p fails with (fails the test when it succeeds). */
export async function toolErrorOf(p: Promise<unknown>): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return e as ToolError;
  }
  throw new Error("the call did not fail");
}

const empty = `{"aliases":{},"counters":{},"version":1}`;

/** s with the four operations of the interface only, none of its options. */
export function bareStore(s: ConversationStore): ConversationStore {
  return {
    create: (suffix) => s.create(suffix),
    load: (h) => s.load(h),
    register: (h, epoch, pairs) => s.register(h, epoch, pairs),
    delete: (h) => s.delete(h),
  };
}

/** A store-backed executor of the test API's tools on server. */
export function aitestConversationExecutor(
  server: AitestServer,
  store: ConversationStore,
): ConversationExecutor {
  return createConversationExecutor(
    createExecutor(server.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
    }),
    store,
  );
}

/** The interface's behaviour; store() is called in each test. */
export function storeContract(store: () => ConversationStore): void {
  it("creates a conversation: a 22-character handle, a 32-hex epoch, no aliases", async () => {
    const s = store();
    const h = await s.create();
    expect(h).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const { epoch, state } = await s.load(h);
    expect(epoch).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toBe(empty);
    expect(await s.create()).not.toBe(h);
  });

  it("creates under a key suffix: the handle and the suffix are the key, the bare handle none", async () => {
    const s = store();
    const suffix = ".K9gGyX8OAK8aH8Myj6djqS";
    const key = await s.create(suffix);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}\.K9gGyX8OAK8aH8Myj6djqS$/);
    expect((await s.load(key)).state).toBe(empty);
    const bare = await toolErrorOf(s.load(key.slice(0, 22)));
    expect(bare.reason).toBe("conversation-expired");
  });

  for (const c of layout.cases) {
    it(`layout vector: ${c.name}`, async () => {
      const s = store();
      const h = await s.create();
      const { epoch } = await s.load(h);
      for (const step of c.steps) {
        expect(await s.register(h, epoch, step.register)).toBe(step.state);
      }
      expect((await s.load(h)).state).toBe(c.steps.at(-1)!.state);
    });
  }

  it("holds an operation name (not a UUID) as an alias value, which a manager restores", async () => {
    const s = store();
    const h = await s.create();
    const { epoch } = await s.load(h);
    const name = "workspaces/w1/operations/7";
    const state = `{"aliases":{"operation-1":"${name}"},"counters":{"operation":1},"version":1}`;
    expect(await s.register(h, epoch, [["operation", name]])).toBe(state);
    expect((await s.load(h)).state).toBe(state);
    const m = createAliasManager({
      knownAliasPrefixes: ["operation"],
      responseAliases: { types: {}, tools: {} },
    });
    m.restoreState((await s.load(h)).state);
    expect(m.aliasifyJson(`{"name":"${name}"}`)).toBe('{"name":"operation-1"}');
  });

  it("refuses a register with another epoch, a missing conversation, a deleted one", async () => {
    const s = store();
    const h = await s.create();
    const { epoch } = await s.load(h);
    const other = epoch === "0".repeat(32) ? "1".repeat(32) : "0".repeat(32);
    const pair: [string, string] = [
      "acct",
      "0b6f0001-0000-4000-8000-000000000001",
    ];
    for (const p of [
      s.register(h, other, [pair]),
      s.register("AAAAAAAAAAAAAAAAAAAAAA", epoch, [pair]),
      s.load("AAAAAAAAAAAAAAAAAAAAAA"),
    ]) {
      const err = await toolErrorOf(p);
      expect(err.reason).toBe("conversation-expired");
      expect(err.code).toBe(Code.NotFound);
    }
    expect((await s.load(h)).state).toBe(empty);
    await s.delete(h);
    await s.delete(h); // an unknown handle is no error
    const err = await toolErrorOf(s.load(h));
    expect(err.message).toBe(
      `conversation "${h}" expired or unknown: start a new conversation`,
    );
    expect((await toolErrorOf(s.register(h, epoch, []))).reason).toBe(
      "conversation-expired",
    );
  });
}

/** The store-backed executor over the aitest server. */
export function executorContract(
  server: () => AitestServer,
  store: () => ConversationStore,
): void {
  const newExecutor = (s: ConversationStore) =>
    aitestConversationExecutor(server(), s);

  it("continues a conversation in another executor sharing the store", async () => {
    const s = store();
    const [a, b] = [newExecutor(s), newExecutor(s)];
    const h = await a.start();
    const first = JSON.parse(
      await a.execute(
        h,
        "accounts_create",
        `{"name":"one","owner_id":"","note_count":0,"contact_count":1}`,
      ),
    ) as { account: { id: string; contacts: { id: string }[] } };
    expect(first.account.id).toBe("acct-1");
    expect(first.account.contacts[0]!.id).toBe("contact-1");
    const second = JSON.parse(
      await b.execute(
        h,
        "accounts_create",
        `{"name":"two","owner_id":"","note_count":0,"contact_count":0}`,
      ),
    ) as { account: { id: string } };
    expect(second.account.id).toBe("acct-2");
    const n = server().calls.length;
    const merged = await a.execute(
      h,
      "accounts_merge",
      `{"source_id":"acct-2","target_id":"acct-1","note":""}`,
    );
    const req = server().calls[n]!.request as {
      sourceId: string;
      targetId: string;
    };
    const byName = (name: string) =>
      [...server().accounts.values()].find((x) => x.name === name)!.id;
    expect(req.sourceId).toBe(byName("two"));
    expect(req.targetId).toBe(byName("one"));
    expect(JSON.parse(merged)).toMatchObject({
      account: { id: "acct-1" },
      received_source_id: "acct-2",
    });
    const { state } = await s.load(h);
    expect(JSON.parse(state)).toMatchObject({
      aliases: { "acct-1": byName("one"), "acct-2": byName("two") },
    });
  });

  it("refuses an unknown alias as the in-memory executor does, sending nothing", async () => {
    const s = store();
    const e = newExecutor(s);
    const h = await e.start();
    await e.execute(
      h,
      "accounts_create",
      `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
    );
    const n = server().calls.length;
    const err = await toolErrorOf(
      e.execute(
        h,
        "accounts_merge",
        `{"source_id":"acct-2","target_id":"acct-1","note":""}`,
      ),
    );
    expect(err.reason).toBe("unknown-alias");
    expect(err.message).toBe(
      `invalid arguments, nothing was sent:\n- "source_id": unknown alias "acct-2"; valid acct aliases: acct-1`,
    );
    expect(server().calls.length).toBe(n);
  });

  it("registers every message of a stream, in order", async () => {
    const s = store();
    const e = newExecutor(s);
    const h = await e.start();
    const out = JSON.parse(
      await e.execute(h, "accounts_watch", `{"count":3}`),
    ) as { id: string }[];
    expect(out.map((x) => x.id)).toEqual(["acct-1", "acct-2", "acct-3"]);
    expect(JSON.parse((await s.load(h)).state)).toMatchObject({
      counters: { acct: 3, user: 3 },
    });
  });

  it("numbers without gaps or duplicates when calls of one conversation overlap", async () => {
    const s = store();
    const e = newExecutor(s);
    const h = await e.start();
    const outs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        e.execute(
          h,
          "accounts_create",
          `{"name":"p${i}","owner_id":"","note_count":0,"contact_count":0}`,
        ),
      ),
    );
    const ids = outs.map(
      (o) => (JSON.parse(o) as { account: { id: string } }).account.id,
    );
    expect(new Set(ids).size).toBe(40);
    expect([...ids].sort()).toEqual(
      Array.from({ length: 40 }, (_, i) => `acct-${i + 1}`).sort(),
    );
    const state = JSON.parse((await s.load(h)).state) as {
      aliases: Record<string, string>;
    };
    for (const [alias, uuid] of Object.entries(state.aliases)) {
      if (alias.startsWith("acct-")) {
        const name = server().accounts.get(uuid)!.name;
        expect(ids[Number(name.slice(1))]).toBe(alias);
      }
    }
  });

  it("an ended or unknown conversation: conversation-expired, nothing sent", async () => {
    const s = store();
    const e = newExecutor(s);
    const h = await e.start();
    await e.end(h);
    const n = server().calls.length;
    const err = await toolErrorOf(
      e.execute(
        h,
        "accounts_create",
        `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
      ),
    );
    expect(err.reason).toBe("conversation-expired");
    expect(err.code).toBe(Code.NotFound);
    expect(err.message).toBe(
      `conversation "${h}" expired or unknown: start a new conversation`,
    );
    expect(server().calls.length).toBe(n);
  });
}

/**
 * The alias cap (docs/store.md): a call in a conversation holding the
 * store's `maxAliases` aliases or more is refused, nothing sent; store(max)
 * makes a store with that cap (the default when undefined).
 */
export function capContract(
  server: () => AitestServer,
  store: (maxAliases?: number) => ConversationStore,
): void {
  const newExecutor = (s: ConversationStore) =>
    aitestConversationExecutor(server(), s);
  const create = (contacts: number) =>
    `{"name":"cap","owner_id":"","note_count":0,"contact_count":${contacts}}`;

  it("maxAliases: 1,000 by default; refuses one that is not a positive whole number", () => {
    expect(defaultMaxAliases).toBe(1000);
    expect(store().maxAliases).toBe(1000);
    expect(store(3).maxAliases).toBe(3);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => store(bad)).toThrow(
        `maxAliases must be a positive whole number, got ${bad}`,
      );
    }
  });

  it("a conversation at its cap: conversation-full (ResourceExhausted), nothing sent; a call let through registers all its ids", async () => {
    const s = store(2);
    const e = newExecutor(s);
    const h = await e.start();
    await e.execute(h, "accounts_create", create(0)); // acct-1
    // 1 alias < 2: let through; its result adds acct-2 and contact-1.
    expect(
      JSON.parse(await e.execute(h, "accounts_create", create(1))),
    ).toMatchObject({ account: { id: "acct-2" } });
    const before = (await s.load(h)).state;
    const n = server().calls.length;
    const err = await toolErrorOf(e.execute(h, "accounts_create", create(0)));
    expect(err.reason).toBe("conversation-full");
    expect(err.code).toBe(Code.ResourceExhausted);
    expect(err.message).toBe(
      `conversation "${h}" holds 3 aliases, its limit: start a new conversation (this call was not sent)`,
    );
    expect(server().calls.length).toBe(n);
    expect((await s.load(h)).state).toBe(before);
  });

  it("a store without maxAliases gets the default: 999 aliases let through, 1,000 refused", async () => {
    const s = store();
    const e = newExecutor(bareStore(s));
    const h = await e.start();
    const { epoch } = await s.load(h);
    const hex = (i: number) => i.toString(16).padStart(12, "0");
    await s.register(
      h,
      epoch,
      Array.from(
        { length: 999 },
        (_, i) => ["user", `0c0f0000-0000-4000-8000-${hex(i)}`] as const,
      ),
    );
    expect(
      JSON.parse(await e.execute(h, "accounts_create", create(0))),
    ).toMatchObject({ account: { id: "acct-1" } });
    const n = server().calls.length;
    const err = await toolErrorOf(e.execute(h, "accounts_create", create(0)));
    expect(err.message).toBe(
      `conversation "${h}" holds 1000 aliases, its limit: start a new conversation (this call was not sent)`,
    );
    expect(server().calls.length).toBe(n);
  });
}
