import { Code, ConnectError } from "@connectrpc/connect";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ToolError,
  createAliasManager,
  createExecutor,
  type Executor,
} from "../src/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

function newExecutor(): Executor {
  return createExecutor(server.transport, {
    methods: aitestMethods,
    aliases: aitestAliases,
  });
}

/** Run the call and return the ToolError it must fail with. */
async function toolError(p: Promise<unknown>): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return e as ToolError;
  }
  throw new Error("the call did not fail");
}

/** accounts_create's arguments: a strict tool takes every field. */
function createArgs(args: Record<string, unknown>): string {
  return JSON.stringify({
    name: "n",
    owner_id: "",
    note_count: 0,
    contact_count: 0,
    ...args,
  });
}

const uuidPattern =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe("executor", () => {
  it("canExecute knows the tools", () => {
    const e = newExecutor();
    expect(e.canExecute("accounts_create")).toBe(true);
    expect(e.canExecute("accounts_watch")).toBe(true);
    expect(e.canExecute("nope")).toBe(false);
    expect(e.canExecute("__proto__")).toBe(false);
  });

  it("calls a unary RPC, registers the response's ids and aliasifies it", async () => {
    const e = newExecutor();
    const owner = randomUUID();
    const ownerAlias = e.aliases.register("user", owner);
    const out = await e.execute(
      "accounts_create",
      createArgs({ name: "n", owner_id: ownerAlias, note_count: 2 }),
    );
    const received = server.calls.at(-1);
    expect(received?.method).toBe("CreateAccount");
    expect((received?.request as { ownerId: string }).ownerId).toBe(owner);
    const json = JSON.parse(out) as {
      account: {
        id: string;
        owner_id: string;
        workspace_id: string;
        notes: { id: string }[];
        tags: object;
      };
    };
    // By message type: Account.id is an acct, Note.id a note.
    expect(json.account.id).toBe("acct-1");
    expect(json.account.notes.map((n) => n.id)).toEqual(["note-1", "note-2"]);
    expect(json.account.owner_id).toBe("user-1");
    // Not a listed field: stays a raw UUID.
    expect(json.account.workspace_id).toMatch(uuidPattern);
    expect(json.account.tags).toEqual({ env: "test" });
    // Proto names, as the schema; unpopulated fields left out.
    expect(out).not.toContain("ownerId");
    expect(out).not.toContain("contacts");
  });

  it("resolves aliases in the arguments; the response shows them again", async () => {
    const e = newExecutor();
    const a = JSON.parse(
      await e.execute("accounts_create", createArgs({ name: "a" })),
    ) as { account: { id: string } };
    const b = JSON.parse(
      await e.execute("accounts_create", createArgs({ name: "b" })),
    ) as { account: { id: string } };
    expect([a.account.id, b.account.id]).toEqual(["acct-1", "acct-2"]);
    const out = await e.execute(
      "accounts_merge",
      JSON.stringify({ source_id: "acct-1", target_id: "acct-2", note: "" }),
    );
    const req = server.calls.at(-1)?.request as {
      sourceId: string;
      targetId: string;
    };
    expect(req.sourceId).toBe(e.aliases.resolveAlias("acct-1"));
    expect(req.sourceId).toMatch(uuidPattern);
    expect(JSON.parse(out)).toMatchObject({
      account: { id: "acct-2" },
      received_source_id: "acct-1",
    });
  });

  it("refuses an unknown alias before sending anything", async () => {
    const e = newExecutor();
    const before = server.calls.length;
    const err = await toolError(
      e.execute(
        "accounts_merge",
        `{"source_id":"acct-7","target_id":"acct-1","note":""}`,
      ),
    );
    expect(err.message).toBe(
      `invalid arguments, nothing was sent:\n- "source_id": unknown alias "acct-7"; no acct aliases exist yet: call a tool that returns accts first`,
    );
    expect(err.violations).toEqual([
      {
        field: "source_id",
        reason: "unknown-alias",
        message: `unknown alias "acct-7"; no acct aliases exist yet: call a tool that returns accts first`,
      },
    ]);
    expect(err.reason).toBe("unknown-alias");
    expect(err.code).toBe(Code.InvalidArgument);
    expect(server.calls.length).toBe(before);
  });

  it("returns a server error with its code, the message aliasified", async () => {
    const e = newExecutor();
    const ghost = randomUUID();
    const alias = e.aliases.register("acct", ghost);
    const err = await toolError(
      e.execute(
        "accounts_merge",
        JSON.stringify({ source_id: alias, target_id: alias, note: "" }),
      ),
    );
    expect(err.reason).toBe("server-error");
    expect(err.code).toBe(Code.NotFound);
    expect(err.message).toBe(
      `rpc error: code = NotFound desc = account ${alias} not found`,
    );
    expect(err.message).not.toContain(ghost);
  });

  it("collects a server stream into a JSON array and registers each item", async () => {
    const e = newExecutor();
    const out = await e.execute("accounts_watch", `{"count":3}`);
    const items = JSON.parse(out) as { id: string; name: string }[];
    expect(items.map((i) => i.id)).toEqual(["acct-1", "acct-2", "acct-3"]);
    expect(items.map((i) => i.name)).toEqual(["w0", "w1", "w2"]);
    expect(await e.execute("accounts_watch", `{"count":0}`)).toBe("[]");
  });

  it("refuses a stream of more than 1000 messages", async () => {
    const e = createExecutor(server.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
      maxResultBytes: 0,
    });
    const items = JSON.parse(
      await e.execute("accounts_watch", `{"count":1000}`),
    ) as unknown[];
    expect(items.length).toBe(1000);
    const err = await toolError(e.execute("accounts_watch", `{"count":1001}`));
    expect(err.message).toBe(
      "stream returned more than 1000 messages: narrow the request",
    );
    expect(err.reason).toBe("invalid-response");
  });

  it("applies the fix-up before decoding (strict)", async () => {
    const e = newExecutor();
    const out = await e.execute(
      "fixup_strict",
      JSON.stringify({
        labels: [
          { key: "a", value: "1" },
          { key: "a", value: "2" },
        ],
        itemsByNum: [
          {
            key: 7,
            value: { name: "seven", counts: [{ key: "c", value: 3 }] },
          },
        ],
        flags: [{ key: true, value: "yes" }],
        attrs: [{ key: "o", value: '{"x":[1,2]}' }],
        extra: '{"k":null}',
        list: ["1", "two"],
        text: "t",
        number: null,
        note: null,
        unknownField: { ignored: true },
      }),
    );
    expect(JSON.parse(out)).toEqual({
      labels: { a: "2" },
      items_by_num: { "7": { name: "seven", counts: { c: 3 } } },
      flags: { true: "yes" },
      attrs: { o: { x: [1, 2] } },
      extra: { k: null },
      list: [1, "two"],
      text: "t",
    });
  });

  it("keeps Value strings of a loose tool", async () => {
    const e = newExecutor();
    const out = await e.execute(
      "fixup_loose",
      JSON.stringify({ extra: "[1]", values: ["2"] }),
    );
    expect(JSON.parse(out)).toEqual({ extra: "[1]", values: ["2"] });
  });

  it("keeps every digit of a 64-bit integer written as a number", async () => {
    const e = newExecutor();
    const out = await e.execute("fixup_loose", `{"number": 9007199254740993}`);
    expect(JSON.parse(out)).toEqual({ number: "9007199254740993" });
  });

  it("reports a oneof conflict", async () => {
    const e = newExecutor();
    const err = await toolError(
      e.execute("fixup_strict", `{"text":"a","number":"1"}`),
    );
    expect(err.message).toBe(
      `invalid arguments, nothing was sent:\n- "number": "text" and "number" are members of oneof "kind": set only one`,
    );
    expect(err.violations).toEqual([
      {
        field: "number",
        reason: "invalid-value",
        message: `"text" and "number" are members of oneof "kind": set only one`,
      },
    ]);
  });
});

describe("executor, bad input", () => {
  const head = "invalid arguments, nothing was sent:\n- ";
  const cases: [string, string, string | RegExp][] = [
    [
      "not JSON",
      `{"name":`,
      `${head}invalid JSON; send the arguments as one JSON object`,
    ],
    [
      "trailing text",
      `{"name":"a"} x`,
      `${head}invalid JSON; send the arguments as one JSON object`,
    ],
    ["empty", ``, `${head}invalid JSON; send the arguments as one JSON object`],
    ["an array", `[1]`, `${head}expected a JSON object, got an array`],
    ["a string", `"x"`, `${head}expected a JSON object, got a string`],
    ["null", `null`, `${head}expected a JSON object, got null`],
    [
      "a wrong type",
      createArgs({ note_count: "many" }),
      `${head}"note_count": expected an integer, got "many"`,
    ],
    [
      "an int32 out of range",
      createArgs({ note_count: 4294967296 }),
      /^invalid arguments, nothing was sent:\n- \S/,
    ],
    [
      "a message as a string",
      createArgs({ name: { a: 1 } }),
      `${head}"name": expected a string, got an object`,
    ],
    [
      "an unknown field and a missing one",
      `{"nme":"a","owner_id":"","note_count":1}`,
      `${head}"nme": unknown field; did you mean "name"? valid fields: name, owner_id, note_count, contact_count\n- "name": missing required field\n- "contact_count": missing required field`,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: a ToolError, no request sent`, async () => {
      const e = newExecutor();
      const before = server.calls.length;
      const err = await toolError(e.execute("accounts_create", args));
      if (typeof message === "string") {
        expect(err.message).toBe(message);
      } else {
        expect(err.message).toMatch(message);
      }
      expect(err.violations.length).toBeGreaterThan(0);
      expect(err.reason).toBe("invalid-arguments");
      expect(err.code).toBe(Code.InvalidArgument);
      expect(server.calls.length).toBe(before);
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    });
  }

  it("__proto__ as a map or Struct key reaches no prototype", async () => {
    const e = newExecutor();
    for (const args of [
      `{"labels":{"__proto__":"x"}}`,
      `{"labels":[{"key":"__proto__","value":"x"}]}`,
      `{"attrs":[{"key":"__proto__","value":"{\\"polluted\\":true}"}]}`,
      `{"attrs":{"__proto__":{"polluted":true}}}`,
      `{"extra":{"__proto__":{"polluted":true}}}`,
      `{"valueMap":{"__proto__":{"polluted":true}}}`,
    ]) {
      const err = await toolError(e.execute("fixup_strict", args));
      expect(err.message).toMatch(
        /^invalid arguments, nothing was sent:\n- "\w+": map key "__proto__" is not supported$/,
      );
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("an unknown tool: a ToolError", async () => {
    const e = newExecutor();
    const err = await toolError(e.execute("accounts_delete", "{}"));
    expect(err.message).toBe(`no auto-executor for tool: accounts_delete`);
    expect(err.reason).toBe("unknown-tool");
    expect(err.code).toBe(Code.NotFound);
  });

  it("arguments that are not a string: a ToolError", async () => {
    const e = newExecutor();
    const err = await toolError(
      e.execute("accounts_create", { name: "x" } as unknown as string),
    );
    expect(err.reason).toBe("invalid-arguments");
  });

  it("a cancelled call: a ToolError with code Canceled", async () => {
    const e = newExecutor();
    const err = await toolError(
      e.execute("accounts_list", `{"count":1,"contacts_per_account":0}`, {
        signal: AbortSignal.abort(),
      }),
    );
    expect(err.code).toBe(Code.Canceled);
    const err2 = await toolError(
      e.execute("accounts_watch", `{"count":1}`, {
        signal: AbortSignal.abort(),
      }),
    );
    expect(err2.code).toBe(Code.Canceled);
  });

  it("refuses duplicate tool names at creation", () => {
    const [first] = aitestMethods;
    expect(() =>
      createExecutor(server.transport, {
        methods: [first!, first!],
        aliases: aitestAliases,
      }),
    ).toThrow(`tool "accounts_create" is declared twice`);
  });
});

describe("no UUID reaches the model", () => {
  const ids = [
    "0a1b2c3d-0000-4000-8000-000000000001",
    "0a1b2c3d-0000-4000-8000-000000000002",
    "0a1b2c3d-0000-4000-8000-000000000003",
  ];
  const calls: [tool: string, args: string][] = [
    ["fixup_loose", `{"count":"acct-1"}`],
    ["fixup_loose", `{"enabled":"acct-2"}`],
    ["fixup_loose", `{"timeout":"user-1"}`],
    ["fixup_loose", `{"data":"acct-1"}`],
    ["fixup_loose", `{"data":["acct-1"]}`],
    ["fixup_loose", `{"items":[{"children":"acct-2"}]}`],
    ["fixup_loose", `{"labels":{"a":["user-1"]}}`],
    ["fixup_loose", `{"items_by_num":{"acct-1":{"name":"x"}}}`],
    ["fixup_loose", `{"text":"acct-1","other_text":"acct-2"}`],
    ["fixup_strict", `{"list":"acct-1"}`],
    ["accounts_merge", `"acct-1"`],
    ["accounts_merge", `["acct-1","acct-2"]`],
    ["accounts_merge", `{"source_id":"acct-1","target_id":"acct-2"}`],
    ["accounts_list", `{"count":"user-1"}`],
  ];
  for (const [tool, args] of calls) {
    it(`${tool} ${args}`, async () => {
      const e = newExecutor();
      e.aliases.register("acct", ids[0]!);
      e.aliases.register("acct", ids[1]!);
      e.aliases.register("user", ids[2]!);
      let text: string;
      try {
        // The bytes case may succeed: a UUID is valid URL-safe base64.
        text = await e.execute(tool, args);
      } catch (err) {
        expect(err).toBeInstanceOf(ToolError);
        const te = err as ToolError;
        text = `${te.message}\n${te.rawMessage}`;
      }
      for (const id of ids) {
        expect(text).not.toContain(id);
      }
    });
  }

  it("a server error names the alias, its details keep the UUID", async () => {
    const e = newExecutor();
    e.aliases.register("acct", ids[0]!);
    server.failNext(Code.NotFound, `account ${ids[0]} not found`);
    const err = await toolError(
      e.execute(
        "accounts_merge",
        `{"source_id":"acct-1","target_id":"acct-1","note":""}`,
      ),
    );
    expect(err.message).toBe(
      "rpc error: code = NotFound desc = account acct-1 not found",
    );
    expect(err.rawMessage).toBe("account acct-1 not found");
    expect(err.reason).toBe("server-error");
  });
});

describe("ToolError.from", () => {
  it("keeps a ToolError, reads anything else as a failed call", () => {
    const own = new ToolError("x", {
      reason: "invalid-arguments",
      code: Code.InvalidArgument,
    });
    expect(ToolError.from(own)).toBe(own);
    const gone = ToolError.from(new ConnectError("down", Code.Unavailable));
    expect([gone.reason, gone.code, gone.message, gone.rawMessage]).toEqual([
      "unavailable",
      Code.Unavailable,
      "rpc error: code = Unavailable desc = down",
      "down",
    ]);
    const denied = new ConnectError("no", Code.PermissionDenied);
    const err = ToolError.from(denied);
    expect([err.reason, err.message, err.cause]).toEqual([
      "server-error",
      "rpc error: code = PermissionDenied desc = no",
      denied,
    ]);
    const aborted = ToolError.from(new DOMException("stop", "AbortError"));
    expect([aborted.reason, aborted.code]).toEqual([
      "server-error",
      Code.Canceled,
    ]);
    const other = ToolError.from(new Error("boom"));
    expect([other.code, other.message]).toEqual([
      Code.Unknown,
      "rpc error: code = Unknown desc = boom",
    ]);
  });
});

describe("executor, unreachable server", () => {
  it("is a ToolError with reason unavailable", async () => {
    const s = await startAitestServer();
    const transport = s.transport;
    await s.close();
    const e = createExecutor(transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
    });
    const err = await toolError(
      e.execute("accounts_list", `{"count":1,"contacts_per_account":0}`),
    );
    expect(err.reason).toBe("unavailable");
    expect(err.code).toBe(Code.Unavailable);
    expect(err.message).toMatch(/^rpc error: code = Unavailable desc = /);
    expect(err.message).toBe(
      `rpc error: code = Unavailable desc = ${err.rawMessage}`,
    );
  });
});

describe("executor, shared alias manager", () => {
  it("uses the manager it is given, shared with hand-written tools", async () => {
    const shared = createAliasManager(aitestAliases);
    const owner = randomUUID();
    // A hand-written tool registered this user.
    expect(shared.register("user", owner)).toBe("user-1");
    const a = createExecutor(server.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
      aliasManager: shared,
    });
    const b = createExecutor(server.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
      aliasManager: shared,
    });
    expect(a.aliases).toBe(shared);
    const out = JSON.parse(
      await a.execute(
        "accounts_create",
        createArgs({ name: "x", owner_id: "user-1" }),
      ),
    ) as { account: { id: string; owner_id: string } };
    expect(out.account).toMatchObject({ id: "acct-1", owner_id: "user-1" });
    // The other executor and the hand-written tool see the new alias.
    const uuid = shared.resolveAlias("acct-1");
    expect(uuid).toMatch(uuidPattern);
    await b.execute(
      "accounts_merge",
      `{"source_id":"acct-1","target_id":"acct-1","note":""}`,
    );
    expect(
      (server.calls.at(-1)?.request as { sourceId: string }).sourceId,
    ).toBe(uuid);
  });
});

describe("executor, __proto__", () => {
  const args = `{"__proto__":{"polluted":true},"name":"x","owner_id":"","note_count":0,"contact_count":0,"constructor":1}`;

  it("is an unknown field when the request has no such field", async () => {
    const e = newExecutor();
    const before = server.calls.length;
    const err = await toolError(e.execute("accounts_create", args));
    expect(err.violations.map((v) => [v.field, v.reason])).toEqual([
      ["__proto__", "unknown-field"],
      ["constructor", "unknown-field"],
    ]);
    expect(server.calls.length).toBe(before);
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("is discarded like any unknown key with lenientArguments", async () => {
    const e = createExecutor(server.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
      lenientArguments: true,
    });
    const out = await e.execute("accounts_create", args);
    expect((server.calls.at(-1)?.request as { name: string }).name).toBe("x");
    expect(JSON.parse(out)).toHaveProperty("account.name", "x");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("executor, resultJson", () => {
  it("writes the result with the options; ids still register from JSON names", async () => {
    const e = createExecutor(server.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
      resultJson: { useProtoFieldName: true, alwaysEmitImplicit: true },
    });
    const owner = randomUUID();
    const out = await e.execute(
      "accounts_create",
      createArgs({ name: "n", owner_id: owner, note_count: 1 }),
    );
    const account = (JSON.parse(out) as { account: Record<string, unknown> })
      .account;
    // Proto names, defaults written; ids registered (acct, note, user).
    expect(account).toMatchObject({
      id: "acct-1",
      owner_id: "user-1",
      notes: [{ id: "note-1", text: "note 0" }],
      contacts: [],
      member_ids: {},
    });
    expect(e.aliases.resolveAlias("user-1")).toBe(owner);
    const items = JSON.parse(
      await e.execute("accounts_watch", `{"count":2}`),
    ) as { id: string; owner_id: string }[];
    expect(items.map((a) => a.id)).toEqual(["acct-2", "acct-3"]);
    expect(items[0]).toHaveProperty("contacts_by_role", {});
  });
});
