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
import { createAliasManager } from "../src/alias-manager.js";
import { executeInConversation } from "../src/conversation-executor.js";
import { coreOf } from "../src/executor.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import {
  capContract,
  executorContract,
  storeContract,
  toolErrorOf,
} from "./support/store-contract.js";
import {
  loadedToolsContract,
  toolLoadingOfContract,
} from "./support/loaded-tools-contract.js";

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
  capContract(
    () => server,
    (maxAliases) => createMemoryConversationStore({ maxAliases }),
  );

  loadedToolsContract(() => createMemoryConversationStore());
  toolLoadingOfContract(() => createMemoryConversationStore());

  it("loadTools and loadedTools renew the idle TTL", async () => {
    let t = 0;
    const store = createMemoryConversationStore({
      idleTtlMs: 100,
      now: () => t,
    });
    const h = await store.create();
    const { epoch } = await store.load(h);
    t = 99;
    expect(await store.loadTools!(h, epoch, ["links_get"])).toEqual([
      "links_get",
    ]);
    t = 198;
    expect(await store.loadedTools!(h)).toEqual(["links_get"]);
    t = 297;
    expect(await store.loadedTools!(h)).toEqual(["links_get"]);
    t = 397;
    expect((await toolErrorOf(store.loadedTools!(h))).reason).toBe(
      "conversation-expired",
    );
  });

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
    fail: Partial<Record<"load" | "register" | "create" | "delete", Error>>;
    state: string | undefined;
    created: string[];
    deleted: string[];
  } {
    const inner = createMemoryConversationStore();
    const s = {
      fail: {} as Partial<
        Record<"load" | "register" | "create" | "delete", Error>
      >,
      state: undefined as string | undefined,
      created: [] as string[],
      deleted: [] as string[],
      create: async () => {
        if (s.fail.create !== undefined) throw s.fail.create;
        const h = await inner.create();
        s.created.push(h);
        return h;
      },
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
      delete: async (h: string) => {
        s.deleted.push(h);
        if (s.fail.delete !== undefined) throw s.fail.delete;
        await inner.delete(h);
      },
    };
    return s;
  }

  /** The first call of an MCP conversation: no handle yet. */
  const firstCall = (store: ConversationStore, argsJson: string) => {
    const core = coreOf(executor());
    if (core === undefined) throw new Error("no executor core");
    return executeInConversation(
      core,
      store,
      () => createAliasManager(aitestAliases),
      undefined,
      "accounts_create",
      argsJson,
      {},
    );
  };

  it("a first call with the store down: store-unavailable, nothing sent", async () => {
    const store = faultyStore();
    store.fail.create = new Error("connect\tECONNREFUSED  \n 127.0.0.1:1");
    const n = server.calls.length;
    const call = await firstCall(
      store,
      `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
    );
    expect(call.error?.reason).toBe("store-unavailable");
    expect(call.error?.message).toBe(
      "conversation store unavailable: connect ECONNREFUSED 127.0.0.1:1",
    );
    expect(call.handle).toBeUndefined();
    expect(server.calls.length).toBe(n);
  });

  it("a first call that fails deletes the conversation made for it", async () => {
    const store = faultyStore();
    // Refused before sending.
    let call = await firstCall(store, "{");
    expect(call.error).toBeDefined();
    expect(call.handle).toBeUndefined();
    expect(store.created).toHaveLength(1);
    expect(store.deleted).toEqual(store.created);
    // Sent, then the store fails; a failing delete keeps the call's error.
    store.fail.register = new Error("socket closed");
    store.fail.delete = new Error("socket closed too");
    const n = server.calls.length;
    call = await firstCall(
      store,
      `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
    );
    expect(server.calls.length).toBe(n + 1);
    expect(call.error?.reason).toBe("store-unavailable");
    expect(call.error?.message).toBe(
      "conversation store unavailable: socket closed",
    );
    expect(call.handle).toBeUndefined();
    expect(store.created).toHaveLength(2);
    expect(store.deleted).toEqual(store.created);
    // A first call that succeeds keeps its conversation.
    delete store.fail.register;
    delete store.fail.delete;
    call = await firstCall(
      store,
      `{"name":"y","owner_id":"","note_count":0,"contact_count":0}`,
    );
    expect(call.error).toBeUndefined();
    expect(call.handle).toBe(store.created[2]);
    expect(store.deleted).toHaveLength(2);
    expect((await store.load(store.created[2] ?? "")).epoch).toBeTruthy();
    expect((await toolErrorOf(store.load(store.created[0] ?? ""))).reason).toBe(
      "conversation-expired",
    );
  });

  it("a store that fails: store-unavailable (Unavailable), one line, nothing shown", async () => {
    const store = faultyStore();
    const e = createConversationExecutor(executor(), store);
    const h = await e.start();
    store.fail.register = new Error("connect ECONNREFUSED\n127.0.0.1:1");
    let err = await toolErrorOf(
      e.execute(
        h,
        "accounts_create",
        `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
      ),
    );
    expect(err.reason).toBe("store-unavailable");
    expect(err.code).toBe(Code.Unavailable);
    expect(err.message).toBe(
      "conversation store unavailable: connect ECONNREFUSED 127.0.0.1:1",
    );
    expect(err.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    delete store.fail.register;
    store.fail.load = new Error("socket closed");
    err = await toolErrorOf(
      e.execute(
        h,
        "accounts_create",
        `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
      ),
    );
    expect(err.message).toBe("conversation store unavailable: socket closed");
    store.fail.create = new Error("down");
    err = await toolErrorOf(e.start());
    expect(err.reason).toBe("store-unavailable");
    delete store.fail.load;
    // Recovered: the failed call stored and showed nothing, so acct-1 is free.
    const out = await e.execute(
      h,
      "accounts_create",
      `{"name":"y","owner_id":"","note_count":0,"contact_count":0}`,
    );
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
        e.execute(
          h,
          "accounts_create",
          `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
        ),
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
