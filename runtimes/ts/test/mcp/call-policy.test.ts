// What the MCP tool server applies to every call for a caller (issue 33,
// contract §0, §2, §3): handles bound to the subject, the identity sent to
// the gRPC service as metadata (never the client's token), the rate and
// concurrency limits, the audit records; and the executors' approve hook.
// The SDK client speaks 2026-07-28 to the SDK's request handler, which
// takes the verified identity (AuthInfo) as the HTTP gate hands it over;
// the tools forward to the aitest gRPC server on a real socket.
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExecutor, ToolError } from "../../src/index.js";
import { authInfoOf, type Identity } from "../../src/mcp/identity.js";
import {
  conversationKey,
  createJsonLinesAuditWriter,
  createMemoryConversationStore,
  createMcpToolServer,
  type ApprovalRequest,
  type McpToolServer,
  type McpToolServerOptions,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import {
  aitestAliases,
  aitestMethods,
  noAliases,
  strictDefaults,
} from "../support/aitest-tools.js";
import { createRateLimiter } from "../../src/mcp/call-limits.js";
import { createOpenTelemetry } from "../../src/otel.js";
import { callTool, firstText } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

let grpc: AitestServer;

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  await grpc.close();
});

beforeEach(() => {
  grpc.calls.length = 0;
  grpc.metadata.length = 0;
});

const clientToken = "eyJ.client-token-never-forwarded.sig";

function identity(subject: string, claims: Record<string, unknown> = {}) {
  return {
    subject,
    scopes: [],
    claims: { sub: subject, ...claims },
  } satisfies Identity;
}

function toolServer(options: McpToolServerOptions = {}): McpToolServer {
  const server = createMcpToolServer({ handleArgument: true, ...options });
  server.addTools({
    methods: aitestMcpMethods.map((m) =>
      m.tool.name === "accounts_create" ? { ...m, needsApproval: true } : m,
    ),
    aliases: aitestAliases,
    transport: grpc.transport,
  });
  return server;
}

/**
 * A client whose requests reach the server as who's (none: no auth); with
 * session, every request in one conversation of its own, as a 2025-11-25
 * session or the stdio connection.
 */
async function connect(
  server: McpToolServer,
  who?: Identity,
  session = false,
): Promise<Client> {
  const aliases = server.createAliasManager();
  const handler = createMcpHandler(
    () =>
      server.createSdkServer(
        session ? { kind: "connection", aliases } : { kind: "handle" },
      ),
    { legacy: "reject" },
  );
  const authInfo = who === undefined ? undefined : authInfoOf(who, clientToken);
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: (url, init) =>
        handler.fetch(
          new Request(url, init),
          authInfo === undefined ? undefined : { authInfo },
        ),
    }),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return client;
}

const listArgs = { ...strictDefaults.accounts_list, count: 1 };
const mergeArgs = {
  ...strictDefaults.accounts_merge,
  source_id: "acct-1",
  target_id: "acct-1",
};
const handleKey = "ai-tools/conversation";

describe("conversationKey", () => {
  const vectors = JSON.parse(
    readFileSync(
      path.resolve(
        path.dirname(fileURLToPath(import.meta.url)),
        "../../../../e2e/vectors/security/security.json",
      ),
      "utf8",
    ),
  ) as {
    conversationKey: { handle: string; subject: string; key: string }[];
  };

  it.each(vectors.conversationKey)(
    "$handle for $subject",
    ({ handle, subject, key }) => {
      expect(conversationKey(handle, subject)).toBe(key);
    },
  );
});

describe("handles bound to the subject", () => {
  it("answers another subject's handle as unknown, nothing sent", async () => {
    const store = createMemoryConversationStore();
    const server = toolServer({ conversationStore: store });
    const alice = await connect(server, identity("alice"));
    const first = await callTool(alice, "accounts_list", listArgs);
    expect(first.isError).toBeFalsy();
    const handle = first._meta?.[handleKey] as string;
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Stored under the bound key, not the handle.
    await expect(
      store.load(conversationKey(handle, "alice")),
    ).resolves.toBeDefined();
    await expect(store.load(handle)).rejects.toThrow(ToolError);

    const sent = grpc.calls.length;
    const unknown = `unknown or expired conversation "${handle}"; call again without "conversation" to start a new one`;
    for (const other of [
      await connect(server, identity("bob")),
      await connect(server),
    ]) {
      const r = await callTool(other, "accounts_merge", {
        ...mergeArgs,
        conversation: handle,
      });
      expect(r.isError).toBe(true);
      expect(firstText(r)).toBe(unknown);
      await other.close();
    }
    expect(grpc.calls.length).toBe(sent);
    const again = await callTool(alice, "accounts_merge", {
      ...mergeArgs,
      conversation: handle,
    });
    expect(again.isError).toBeFalsy();
    await alice.close();
  });

  it("answers a handle not of the minted form as unknown: no key of another subject", async () => {
    const store = createMemoryConversationStore();
    const alice = await connect(
      toolServer({ conversationStore: store }),
      identity("alice"),
    );
    const first = await callTool(alice, "accounts_list", listArgs);
    const key = conversationKey(first._meta?.[handleKey] as string, "alice");
    // A server without auth sharing the store: the key names alice's.
    const anonymous = await connect(toolServer({ conversationStore: store }));
    const sent = grpc.calls.length;
    for (const handle of [key, "short", "with space in it, 22 chars"]) {
      const r = await callTool(anonymous, "accounts_merge", {
        ...mergeArgs,
        conversation: handle,
      });
      expect(r.isError).toBe(true);
      expect(firstText(r)).toBe(
        `unknown or expired conversation ${JSON.stringify(handle)}; call again without "conversation" to start a new one`,
      );
    }
    expect(grpc.calls.length).toBe(sent);
    await Promise.all([alice.close(), anonymous.close()]);
  });
});

describe("the alias cap over MCP", () => {
  it("a conversation at its store's maxAliases: conversation-full with the handle (not the bound key), nothing sent", async () => {
    const store = createMemoryConversationStore({ maxAliases: 1 });
    const alice = await connect(
      toolServer({ conversationStore: store }),
      identity("alice"),
    );
    const first = await callTool(alice, "accounts_list", listArgs);
    expect(first.isError).toBeFalsy();
    const handle = first._meta?.[handleKey] as string;
    const { state } = await store.load(conversationKey(handle, "alice"));
    const held = Object.keys(
      (JSON.parse(state) as { aliases: object }).aliases,
    ).length;
    expect(held).toBeGreaterThanOrEqual(1);
    const sent = grpc.calls.length;
    const r = await callTool(alice, "accounts_list", {
      ...listArgs,
      conversation: handle,
    });
    expect(r.isError).toBe(true);
    expect(firstText(r)).toBe(
      `conversation "${handle}" holds ${held} aliases, its limit: start a new conversation (this call was not sent)`,
    );
    expect(grpc.calls.length).toBe(sent);
    await alice.close();
  });

  it("a connection's conversation (stdio, a session) at the store's maxAliases: conversation-full, nothing sent", async () => {
    const store = createMemoryConversationStore({ maxAliases: 2 });
    const client = await connect(
      toolServer({ conversationStore: store }),
      undefined,
      true,
    );
    // One call let through goes past the cap (3 aliases), the next is refused.
    const first = await callTool(client, "accounts_list", {
      ...listArgs,
      contacts_per_account: 1,
    });
    expect(first.isError).toBeFalsy();
    const sent = grpc.calls.length;
    const r = await callTool(client, "accounts_list", listArgs);
    expect(r.isError).toBe(true);
    // No handle: the model holds none for its connection.
    expect(firstText(r)).toBe(
      "this conversation holds 3 aliases, its limit: start a new conversation (this call was not sent)",
    );
    expect(grpc.calls.length).toBe(sent);
    await client.close();
  });
});

describe("scopes at the tool layer", () => {
  it("refuses a caller whose token lacks a scope of the tool, nothing sent", async () => {
    const server = toolServer({
      requiredScopes: { accounts_list: ["accounts.read", "z.z", "a.b"] },
    });
    const without = await connect(server, {
      ...identity("alice"),
      scopes: ["accounts.read"],
    });
    const r = await callTool(without, "accounts_list", listArgs);
    expect(r.isError).toBe(true);
    // Every missing scope, sorted, as the HTTP gate says it.
    expect(firstText(r)).toBe(
      'the call of "accounts_list" needs scope "a.b z.z"',
    );
    expect(grpc.calls).toHaveLength(0);
    const holding = await connect(server, {
      ...identity("alice"),
      scopes: ["a.b", "accounts.read", "z.z"],
    });
    expect(
      (await callTool(holding, "accounts_list", listArgs)).isError,
    ).toBeFalsy();
    // Without authorization (stdio, HTTP without auth) scopes are not checked.
    const anonymous = await connect(server);
    expect(
      (await callTool(anonymous, "accounts_list", listArgs)).isError,
    ).toBeFalsy();
    await Promise.all([without.close(), holding.close(), anonymous.close()]);
  });

  it("refuses a requiredScopes option that is no scope token", () => {
    for (const bad of ["a b", 'a"b', "a\\b", "", "é"]) {
      expect(() =>
        createMcpToolServer({ requiredScopes: { links_get: ["ok", bad] } }),
      ).toThrow(
        `requiredScopes: scope ${JSON.stringify(bad)} of tool "links_get" is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`,
      );
    }
  });
});

describe("identity to the backend", () => {
  it("sends the configured claims and the backend credentials, never the client's token", async () => {
    const seen: string[] = [];
    const server = toolServer({
      forwardIdentity: {
        metadata: {
          "x-user-id": "sub",
          "X-Tenant": "tenant",
          "x-groups": "groups",
          "x-missing": "absent",
        },
        backendCredentials: (who) => {
          seen.push(who?.subject ?? "(none)");
          return Promise.resolve({
            authorization: `Bearer backend-for-${who?.subject ?? "app"}`,
          });
        },
      },
    });
    const client = await connect(
      server,
      identity("alice", { tenant: "acme", groups: ["a", "b"] }),
    );
    const r = await callTool(client, "accounts_list", listArgs);
    expect(r.isError).toBeFalsy();
    expect(grpc.metadata).toHaveLength(1);
    expect(grpc.metadata[0]).toMatchObject({
      "x-user-id": "alice",
      "x-tenant": "acme",
      "x-groups": '["a","b"]',
      authorization: "Bearer backend-for-alice",
    });
    expect(grpc.metadata[0]).not.toHaveProperty("x-missing");
    expect(seen).toEqual(["alice"]);
    expect(JSON.stringify(grpc.metadata)).not.toContain(clientToken);
    expect(JSON.stringify(r)).not.toContain(clientToken);
    expect(JSON.stringify(r)).not.toContain("backend-for");

    // Without authorization, no claims; the hook's credentials (the
    // application's own).
    const anonymous = await connect(server);
    await callTool(anonymous, "accounts_list", listArgs);
    expect(grpc.metadata[1]).not.toHaveProperty("x-user-id");
    expect(grpc.metadata[1]?.["authorization"]).toBe("Bearer backend-for-app");
    expect(seen).toEqual(["alice", "(none)"]);
    await Promise.all([client.close(), anonymous.close()]);
  });

  it("refuses a hook that passes the client's token through, nothing sent", async () => {
    const server = toolServer({
      forwardIdentity: {
        backendCredentials: () =>
          Promise.resolve({ authorization: `Bearer ${clientToken}` }),
      },
    });
    const client = await connect(server, identity("alice"));
    const r = await callTool(client, "accounts_list", listArgs);
    expect(r.isError).toBe(true);
    expect(firstText(r)).toBe(
      `the call of "accounts_list" could not carry the caller's identity (metadata "authorization" holds the client's token); nothing was sent`,
    );
    expect(grpc.calls).toHaveLength(0);
    await client.close();
  });

  it("fails the call, nothing sent, when the hook fails", async () => {
    const server = toolServer({
      forwardIdentity: {
        backendCredentials: () => Promise.reject(new Error("exchange down")),
      },
    });
    const client = await connect(server, identity("alice"));
    const r = await callTool(client, "accounts_list", listArgs);
    expect(firstText(r)).toBe(
      'the backend credentials of the call of "accounts_list" could not be obtained; nothing was sent',
    );
    expect(grpc.calls).toHaveLength(0);
    await client.close();
  });

  it("refuses a metadata key that is not gRPC metadata", () => {
    expect(() =>
      createMcpToolServer({
        forwardIdentity: { metadata: { "x user": "sub" } },
      }),
    ).toThrow(
      /forwardIdentity.metadata key "x user" is not a gRPC metadata key/,
    );
  });
});

describe("limits", () => {
  it("limits the calls per minute of each subject, nothing sent past it", async () => {
    const server = toolServer({ rateLimit: { callsPerMinute: 2 } });
    const alice = await connect(server, identity("alice"));
    for (let i = 0; i < 2; i++) {
      expect(
        (await callTool(alice, "accounts_list", listArgs)).isError,
      ).toBeFalsy();
    }
    const over = await callTool(alice, "accounts_list", listArgs);
    expect(over.isError).toBe(true);
    expect(firstText(over)).toBe(
      "too many calls: the limit is 2 per minute for this user; retry in 30 s",
    );
    expect(grpc.calls).toHaveLength(2);
    // Another subject has its own bucket.
    const bob = await connect(server, identity("bob"));
    expect(
      (await callTool(bob, "accounts_list", listArgs)).isError,
    ).toBeFalsy();
    await Promise.all([alice.close(), bob.close()]);
  });

  it("limits the calls at once in one conversation", async () => {
    const server = toolServer({ maxConcurrentCalls: 1 });
    const client = await connect(server, identity("alice"));
    const first = await callTool(client, "accounts_list", listArgs);
    const handle = first._meta?.[handleKey] as string;
    grpc.holdNextList();
    const abort = new AbortController();
    const held = client
      .callTool(
        {
          name: "accounts_list",
          arguments: { ...listArgs, conversation: handle },
        },
        { signal: abort.signal },
      )
      .catch((e: unknown) => e);
    await expect.poll(() => grpc.held.holding).toBe(1);
    const sent = grpc.calls.length;
    const over = await callTool(client, "accounts_merge", {
      ...mergeArgs,
      conversation: handle,
    });
    expect(over.isError).toBe(true);
    expect(firstText(over)).toBe(
      "too many calls at once in this conversation (limit 1); retry when one finishes",
    );
    expect(grpc.calls.length).toBe(sent);
    // Another conversation is not held up.
    expect(
      (await callTool(client, "accounts_list", listArgs)).isError,
    ).toBeFalsy();
    abort.abort();
    await held;
    await expect.poll(() => grpc.held.holding).toBe(0);
    // The place is given back once the call ends.
    const after = await callTool(client, "accounts_merge", {
      ...mergeArgs,
      conversation: handle,
    });
    expect(after.isError).toBeFalsy();
    await client.close();
  });

  it("counts every call first, a refused one too", async () => {
    const server = toolServer({ rateLimit: { callsPerMinute: 1 } });
    const alice = await connect(server, identity("alice"));
    const mistaken = await callTool(alice, "accounts_list", { count: "x" });
    expect(firstText(mistaken)).toMatch(/^invalid arguments/);
    const over = await callTool(alice, "accounts_list", listArgs);
    expect(firstText(over)).toBe(
      "too many calls: the limit is 1 per minute for this user; retry in 60 s",
    );
    expect(grpc.calls).toHaveLength(0);
    await alice.close();
  });

  it("counts the calls without a conversation per subject", async () => {
    const server = toolServer({ maxConcurrentCalls: 1 });
    const alice = await connect(server, identity("alice"));
    grpc.holdNextList();
    const abort = new AbortController();
    const held = alice
      .callTool(
        { name: "accounts_list", arguments: listArgs },
        { signal: abort.signal },
      )
      .catch((e: unknown) => e);
    await expect.poll(() => grpc.held.holding).toBe(1);
    const sent = grpc.calls.length;
    const over = await callTool(alice, "accounts_list", listArgs);
    expect(firstText(over)).toBe(
      "too many calls at once (limit 1); retry when one finishes",
    );
    expect(grpc.calls.length).toBe(sent);
    // Another subject has its own count.
    const bob = await connect(server, identity("bob"));
    expect(
      (await callTool(bob, "accounts_list", listArgs)).isError,
    ).toBeFalsy();
    abort.abort();
    await held;
    await expect.poll(() => grpc.held.holding).toBe(0);
    await Promise.all([alice.close(), bob.close()]);
  });

  it("counts a session's calls per session, for a tool set without aliases too", async () => {
    const server = createMcpToolServer({ maxConcurrentCalls: 1 });
    server.addTools({
      methods: aitestMcpMethods,
      aliases: noAliases,
      transport: grpc.transport,
    });
    const one = await connect(server, identity("alice"), true);
    const two = await connect(server, identity("alice"), true);
    grpc.holdNextList();
    const abort = new AbortController();
    const held = one
      .callTool(
        { name: "accounts_list", arguments: listArgs },
        { signal: abort.signal },
      )
      .catch((e: unknown) => e);
    await expect.poll(() => grpc.held.holding).toBe(1);
    const over = await callTool(one, "accounts_merge", mergeArgs);
    expect(firstText(over)).toBe(
      "too many calls at once in this conversation (limit 1); retry when one finishes",
    );
    // The same subject's other session has its own count.
    const sent = grpc.calls.length;
    const other = await callTool(two, "accounts_merge", mergeArgs);
    expect(firstText(other)).not.toMatch(/^too many calls/);
    expect(grpc.calls.length).toBe(sent + 1);
    abort.abort();
    await held;
    await expect.poll(() => grpc.held.holding).toBe(0);
    await Promise.all([one.close(), two.close()]);
  });

  it("keeps the buckets of the subjects used last", () => {
    const limiter = createRateLimiter({ callsPerMinute: 1 }, () => 0, 2);
    limiter.take("a");
    limiter.take("b");
    expect(() => limiter.take("a")).toThrow(/^too many calls/);
    // c drops b, the least recently used; a, used after b, stays empty.
    limiter.take("c");
    expect(() => limiter.take("a")).toThrow(/^too many calls/);
    limiter.take("b");
  });

  it("refuses limits that are not positive", () => {
    expect(() => createMcpToolServer({ maxConcurrentCalls: 0 })).toThrow(
      "maxConcurrentCalls must be a positive whole number, got 0",
    );
    expect(() =>
      createMcpToolServer({ rateLimit: { callsPerMinute: -1 } }),
    ).toThrow("rateLimit.callsPerMinute must be a positive number, got -1");
  });
});

describe("audit", () => {
  it("writes one JSON line per call: who, what, how it ended; no arguments, ids or tokens", async () => {
    const lines: string[] = [];
    // Every call counts: the fifth of alice's is over the limit.
    const server = toolServer({
      rateLimit: { callsPerMinute: 4 },
      audit: createJsonLinesAuditWriter({
        write: (l: string) => lines.push(l),
      }),
    });
    const alice = await connect(server, identity("alice"));
    const ok = await callTool(alice, "accounts_list", listArgs);
    const handle = ok._meta?.[handleKey] as string;
    grpc.failNext(5, "account 3f1c… not found");
    await callTool(alice, "accounts_list", listArgs);
    await callTool(alice, "accounts_list", { count: "many" });
    await callTool(alice, "accounts_create", {
      ...strictDefaults.accounts_create,
      owner_id: randomUUID(),
    });
    await callTool(alice, "accounts_list", listArgs);
    const bob = await connect(server, identity("bob"));
    await callTool(bob, "accounts_merge", {
      ...mergeArgs,
      conversation: handle,
    });

    const records = lines.map((l) => {
      expect(l.endsWith("\n")).toBe(true);
      return JSON.parse(l) as Record<string, unknown>;
    });
    expect(
      records.map((r) => [r["subject"], r["tool"], r["outcome"], r["code"]]),
    ).toEqual([
      ["alice", "accounts_list", "ok", undefined],
      ["alice", "accounts_list", "tool_error", "NOT_FOUND"],
      ["alice", "accounts_list", "invalid_arguments", undefined],
      ["alice", "accounts_create", "denied", undefined],
      ["alice", "accounts_list", "limited", undefined],
      ["bob", "accounts_merge", "unauthorized", undefined],
    ]);
    for (const r of records) {
      expect(Object.keys(r)).toEqual(
        r["code"] === undefined
          ? ["time", "subject", "tool", "method", "outcome", "durationMs"]
          : [
              "time",
              "subject",
              "tool",
              "method",
              "outcome",
              "code",
              "durationMs",
            ],
      );
      expect(r["time"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // Milliseconds, rounded to 3 decimals (the same in every language).
      const ms = r["durationMs"] as number;
      expect(Math.round(ms * 1000) / 1000).toBe(ms);
    }
    expect(records[0]?.["method"]).toBe(
      "/aitest.v1.AccountService/ListAccounts",
    );
    const text = lines.join("");
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(text).not.toContain(clientToken);
    expect(text).not.toContain(handle);
    expect(text).not.toContain("many");
    await Promise.all([alice.close(), bob.close()]);
  });
});

describe("executor approvals", () => {
  const methods = aitestMethods.map((m) =>
    m.tool.name === "accounts_create" ? { ...m, needsApproval: true } : m,
  );
  const args = () => ({
    ...strictDefaults.accounts_create,
    name: "x",
    owner_id: randomUUID(),
  });
  const created = () =>
    grpc.calls.filter((c) => c.method === "CreateAccount").length;

  it("refuses a tool that needs an approval without a hook", async () => {
    const e = createExecutor(grpc.transport, {
      methods,
      aliases: aitestAliases,
    });
    const err = await e
      .execute("accounts_create", JSON.stringify(args()))
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).reason).toBe("not-approved");
    expect((err as ToolError).message).toBe(
      'the call of "accounts_create" needs an approval and none could be asked (no approval hook); nothing was sent',
    );
    // Tools that need none run.
    await e.execute("accounts_list", JSON.stringify(listArgs));
    expect(created()).toBe(0);
  });

  it("asks the hook: no refuses, yes runs", async () => {
    const requests: ApprovalRequest[] = [];
    let answer = false;
    const e = createExecutor(grpc.transport, {
      methods,
      aliases: aitestAliases,
      approve: (r) => {
        requests.push(r);
        return Promise.resolve(answer);
      },
    });
    const a = args();
    await expect(
      e.execute("accounts_create", JSON.stringify(a), { subject: "alice" }),
    ).rejects.toThrow(
      'the call of "accounts_create" was not approved; nothing was sent',
    );
    expect(created()).toBe(0);
    answer = true;
    await e.execute("accounts_create", JSON.stringify(a));
    expect(created()).toBe(1);
    expect(requests).toEqual([
      {
        subject: "alice",
        tool: "accounts_create",
        method: "/aitest.v1.AccountService/CreateAccount",
        arguments: a,
      },
      {
        subject: "",
        tool: "accounts_create",
        method: "/aitest.v1.AccountService/CreateAccount",
        arguments: a,
      },
    ]);
  });
});

describe("the span of a refusal over MCP", () => {
  const createArgs = { ...strictDefaults.accounts_create, name: "n" };
  const refusals: [string, McpToolServerOptions, string, object, string][] = [
    [
      "a missing scope",
      { requiredScopes: { accounts_list: ["accounts.write"] } },
      "accounts_list",
      listArgs,
      "unauthorized",
    ],
    [
      "an approval refused",
      { approve: () => Promise.resolve(false) },
      "accounts_create",
      createArgs,
      "not-approved",
    ],
    [
      "backend credentials that could not be obtained",
      {
        forwardIdentity: {
          backendCredentials: () => Promise.reject(new Error("exchange down")),
        },
      },
      "accounts_list",
      listArgs,
      "unavailable",
    ],
  ];

  it.each(refusals)(
    "%s: the span of %s ends, error.type %s, nothing sent",
    async (_, options, tool, args, errorType) => {
      const exporter = new InMemorySpanExporter();
      const telemetry = createOpenTelemetry({
        tracerProvider: new BasicTracerProvider({
          spanProcessors: [new SimpleSpanProcessor(exporter)],
        }),
      });
      const client = await connect(toolServer({ ...options, telemetry }), {
        ...identity("alice"),
        scopes: ["accounts.read"],
      });
      const r = await callTool(client, tool, args as Record<string, unknown>);
      await client.close();
      expect(r.isError).toBe(true);
      expect(grpc.calls).toHaveLength(0);
      // Only an ended span is finished.
      const spans = exporter.getFinishedSpans();
      expect(
        spans.map((s) => [s.name, s.attributes["error.type"], s.status.code]),
      ).toEqual([[`execute_tool ${tool}`, errorType, SpanStatusCode.ERROR]]);
      expect(spans[0]?.attributes).not.toHaveProperty(
        "rpc.response.status_code",
      );
    },
  );
});
