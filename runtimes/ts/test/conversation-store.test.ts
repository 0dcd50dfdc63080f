import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createConversationExecutor,
  createExecutor,
  createMemoryConversationStore,
  mintConversationHandle,
  type ConversationStore,
  type Executor,
} from "../src/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import {
  executorContract,
  storeContract,
  toolErrorOf,
} from "./support/store-contract.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

const executor = (): Executor =>
  createExecutor(server.transport, {
    methods: aitestMethods,
    aliases: aitestAliases,
  });

describe("createMemoryConversationStore", () => {
  storeContract(() => createMemoryConversationStore());

  it("forgets a conversation idle for the TTL; load and register renew it", async () => {
    let t = 0;
    const store = createMemoryConversationStore({
      idleTtlMs: 100,
      now: () => t,
    });
    const h = await store.create();
    t = 99;
    const { epoch } = await store.load(h);
    t = 198;
    await store.register(h, epoch, []);
    t = 297;
    expect((await store.load(h)).epoch).toBe(epoch);
    t = 397;
    expect((await toolErrorOf(store.load(h))).reason).toBe(
      "conversation-expired",
    );
  });

  it("refuses an idle TTL that is not a positive whole number", () => {
    for (const idleTtlMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => createMemoryConversationStore({ idleTtlMs })).toThrow(
        `idleTtlMs must be a positive whole number of milliseconds, got ${idleTtlMs}`,
      );
    }
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

describe("createConversationExecutor", () => {
  executorContract(
    () => server,
    () => createMemoryConversationStore(),
  );

  /** A store over a memory store whose operations can be made to fail. */
  function faultyStore(): ConversationStore & {
    fail: Partial<Record<"load" | "register" | "create", Error>>;
    state: string | undefined;
  } {
    const inner = createMemoryConversationStore();
    const s = {
      fail: {} as Partial<Record<"load" | "register" | "create", Error>>,
      state: undefined as string | undefined,
      create: () =>
        s.fail.create === undefined
          ? inner.create()
          : Promise.reject(s.fail.create),
      load: async (h: string) => {
        if (s.fail.load !== undefined) throw s.fail.load;
        const loaded = await inner.load(h);
        return s.state === undefined ? loaded : { ...loaded, state: s.state };
      },
      register: (
        h: string,
        epoch: string,
        pairs: readonly (readonly [string, string])[],
      ) =>
        s.fail.register === undefined
          ? inner.register(h, epoch, pairs)
          : Promise.reject(s.fail.register),
      delete: (h: string) => inner.delete(h),
    };
    return s;
  }

  it("a store that fails: store-unavailable (Unavailable), one line, nothing shown", async () => {
    const store = faultyStore();
    const e = createConversationExecutor(executor(), store);
    const h = await e.start();
    store.fail.register = new Error("connect ECONNREFUSED\n127.0.0.1:1");
    let err = await toolErrorOf(
      e.execute(h, "accounts_create", `{"name":"x"}`),
    );
    expect(err.reason).toBe("store-unavailable");
    expect(err.code).toBe(Code.Unavailable);
    expect(err.message).toBe(
      "conversation store unavailable: connect ECONNREFUSED 127.0.0.1:1",
    );
    expect(err.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    delete store.fail.register;
    store.fail.load = new Error("socket closed");
    err = await toolErrorOf(e.execute(h, "accounts_create", `{"name":"x"}`));
    expect(err.message).toBe("conversation store unavailable: socket closed");
    store.fail.create = new Error("down");
    err = await toolErrorOf(e.start());
    expect(err.reason).toBe("store-unavailable");
    delete store.fail.load;
    // Recovered: the failed call stored and showed nothing, so acct-1 is free.
    const out = await e.execute(h, "accounts_create", `{"name":"y"}`);
    expect(JSON.parse(out)).toMatchObject({ account: { id: "acct-1" } });
  });

  it("a state the runtime refuses: conversation-corrupt (DataLoss), nothing sent", async () => {
    const store = faultyStore();
    const e = createConversationExecutor(executor(), store);
    const h = await e.start();
    for (const [state, why] of [
      [
        `{"aliases":{},"counters":{},"version":2}`,
        "restore alias state: unsupported version 2",
      ],
      ["{", "restore alias state: invalid JSON: not a JSON value"],
    ]) {
      store.state = state;
      const n = server.calls.length;
      const err = await toolErrorOf(
        e.execute(h, "accounts_create", `{"name":"x"}`),
      );
      expect(err.reason).toBe("conversation-corrupt");
      expect(err.code).toBe(Code.DataLoss);
      expect(err.message).toBe(`conversation "${h}" cannot be read: ${why}`);
      expect(server.calls.length).toBe(n);
    }
  });

  it("refuses an executor not made by createExecutor", () => {
    const e = executor();
    expect(() =>
      createConversationExecutor(
        {
          aliases: e.aliases,
          canExecute: (name) => e.canExecute(name),
          execute: (name, args) => e.execute(name, args),
        },
        createMemoryConversationStore(),
      ),
    ).toThrow(
      "createConversationExecutor: the executor was not made by createExecutor",
    );
  });
});
