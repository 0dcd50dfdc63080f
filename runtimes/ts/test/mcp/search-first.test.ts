// The search-first tool set (docs/mcp.md, "Search-first tool sets") with
// the official SDK client: stdio (an in-memory pair, as serveStdio serves
// it) and streamable HTTP, both protocol revisions, calls reaching the real
// aitest gRPC server.
import { randomUUID } from "node:crypto";
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { createTestIssuer } from "@protoc-gen-ai-tools/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolSearch } from "../../src/index.js";
import {
  createMcpToolServer,
  serveHttp,
  serveStdio,
  type McpToolServer,
  type McpToolServerOptions,
} from "../../src/mcp/index.js";
import {
  createSearchCatalog,
  createSearchSession,
} from "../../src/mcp/search-first.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { aitestAliases, strictDefaults } from "../support/aitest-tools.js";
import { fixtureSearch } from "../support/deferred-fixture.js";
import { modernRpc, send } from "../support/http-request.js";
import { callTool, firstText } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

/**
 * Tool-search data of the aitest tools (the runtime's tests cannot run the
 * generator): the fixture's index over their names and descriptions.
 */
function aitestSearch(): ToolSearch {
  return fixtureSearch(
    [
      {
        name: "AccountService",
        description:
          "Accounts. Functions: CreateAccount, ListAccounts, MergeAccounts, WatchAccount",
        tools: [
          { tool: "accounts_create", function: "CreateAccount" },
          { tool: "accounts_list", function: "ListAccounts" },
          { tool: "accounts_merge", function: "MergeAccounts" },
          { tool: "accounts_watch", function: "WatchAccount" },
        ],
      },
      {
        name: "FixupService",
        description: "Fix-ups. Functions: Loose, Strict",
        tools: [
          { tool: "fixup_loose", function: "Loose" },
          { tool: "fixup_strict", function: "Strict" },
        ],
      },
    ],
    aitestMcpMethods.map((m) => m.tool),
  );
}

let grpc: AitestServer;

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  await grpc.close();
});

/** A tool server of the aitest tools, forwarding to the aitest server. */
function newServer(options: McpToolServerOptions = {}): McpToolServer {
  const server = createMcpToolServer(options);
  server.addTools({
    methods: aitestMcpMethods,
    aliases: aitestAliases,
    transport: grpc.transport,
  });
  return server;
}

const searchFirst = (extra: object = {}) => ({
  searchFirst: { search: aitestSearch(), ...extra },
});

type Mode = "auto" | "legacy";

/**
 * A client that counts `notifications/tools/list_changed`: `changed(n)`
 * resolves once the n-th has arrived (vitest's test timeout is the cap).
 */
function newClient(mode: Mode): {
  client: Client;
  changes: () => number;
  changed: (n: number) => Promise<void>;
} {
  let changes = 0;
  const waiting = new Map<number, () => void>();
  const client = new Client(
    { name: "test", version: "1.0.0" },
    {
      versionNegotiation: { mode },
      // Subscribes (2026-07-28: subscriptions/listen) where the server
      // declares tools.listChanged.
      listChanged: {
        tools: {
          autoRefresh: false,
          debounceMs: 0,
          onChanged: () => {
            changes++;
            waiting.get(changes)?.();
          },
        },
      },
    },
  );
  const changed = (n: number) =>
    n <= changes
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.set(n, resolve));
  return { client, changes: () => changes, changed };
}

/** A client connected as stdio connects: one connection. */
async function connectStdio(server: McpToolServer, mode: Mode) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const c = newClient(mode);
  await c.client.connect(clientSide);
  expect(c.client.getNegotiatedProtocolVersion()).toBe(
    mode === "auto" ? "2026-07-28" : "2025-11-25",
  );
  return c;
}

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name);
}

/**
 * Search where the list cannot change: the tool found comes with its input
 * schema, and nothing joins the list (search_tools, call_tool,
 * accounts_list).
 */
async function searchInCallView(
  client: Client,
  query: string,
  tool: string,
): Promise<void> {
  const found = await callTool(client, "search_tools", { query, limit: 1 });
  expect(found.structuredContent).toEqual({
    tools: [
      {
        name: tool,
        description: `${tool} tool`,
        inputSchema: { type: "object", properties: {} },
      },
    ],
  });
  expect(await names(client)).toEqual([
    "search_tools",
    "call_tool",
    "accounts_list",
  ]);
}

/**
 * Merge acct-1 into itself through call_tool: the alias of the
 * connection's conversation reaches the server as its UUID and comes back
 * as the alias.
 */
async function mergeThroughCallTool(client: Client): Promise<void> {
  const merged = await callTool(client, "call_tool", {
    name: "accounts_merge",
    arguments: {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
    },
  });
  expect(merged.isError, firstText(merged)).toBeFalsy();
  expect(merged.structuredContent).toMatchObject({
    account: { id: "acct-1" },
    received_source_id: "acct-1",
  });
}

describe("search-first off (the default)", () => {
  it("lists every tool and declares no listChanged", async () => {
    const { client } = await connectStdio(newServer(), "legacy");
    expect(await names(client)).toEqual([
      "accounts_create",
      "accounts_list",
      "accounts_merge",
      "accounts_watch",
      "fixup_loose",
      "fixup_strict",
    ]);
    expect(client.getServerCapabilities()?.tools).toEqual({});
    // search_tools is no tool of such a server.
    await expect(
      callTool(client, "search_tools", { query: "x" }),
    ).rejects.toThrow(/unknown tool "search_tools"/);
  });
});

describe.each([
  ["2025-11-25", "legacy"],
  ["2026-07-28", "auto"],
] as const)("stdio, %s", (_revision, mode) => {
  it("lists search_tools and the always-loaded tools, then what a search found", async () => {
    const server = newServer(searchFirst({ alwaysLoaded: ["accounts_list"] }));
    const { client, changes, changed } = await connectStdio(server, mode);
    expect(client.getServerCapabilities()?.tools).toEqual({
      listChanged: true,
    });
    const before = await client.listTools();
    expect(before.tools.map((t) => t.name)).toEqual([
      "search_tools",
      "accounts_list",
    ]);
    const search = before.tools[0]!;
    expect(search.description).toBe(
      "Find this server's tools by what you want to do, in a few words. The tools found are added to your tool list: call them as any other tool.\nTool groups:\n- AccountService: Accounts. Functions: CreateAccount, ListAccounts, MergeAccounts, WatchAccount\n- FixupService: Fix-ups. Functions: Loose, Strict",
    );
    expect(search.inputSchema).toEqual({
      type: "object",
      properties: {
        query: {
          type: "string",
          description: "What you want to do, in a few words.",
        },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: 20,
          description: "The most tools to find; 5 by default.",
        },
      },
      required: ["query"],
      additionalProperties: false,
    });

    const found = await callTool(client, "search_tools", {
      query: "merge the accounts",
      limit: 2,
    });
    // accounts_merge has both words; then the other account tools, ties by
    // name bytes.
    const expected = {
      tools: [
        { name: "accounts_merge", description: "accounts_merge tool" },
        { name: "accounts_create", description: "accounts_create tool" },
      ],
    };
    expect(found.isError).toBeFalsy();
    expect(JSON.parse(firstText(found))).toEqual(expected);
    expect(found.structuredContent).toEqual(expected);
    await changed(1);
    expect(changes()).toBe(1);
    expect(await names(client)).toEqual([
      "search_tools",
      "accounts_list",
      "accounts_merge",
      "accounts_create",
    ]);

    // Found again, or always loaded: nothing joins, no notification.
    await callTool(client, "search_tools", {
      query: "list accounts",
      limit: 1,
    });
    await callTool(client, "search_tools", { query: "merge", limit: 1 });
    expect(await names(client)).toHaveLength(4);
    expect(changes()).toBe(1);
    // A new one joins at the end (load order, never reordered).
    await callTool(client, "search_tools", { query: "fixup strict", limit: 1 });
    await changed(2);
    expect(changes()).toBe(2);
    expect(await names(client)).toEqual([
      "search_tools",
      "accounts_list",
      "accounts_merge",
      "accounts_create",
      "fixup_strict",
    ]);
  });

  it("keeps each connection's found tools apart", async () => {
    const server = newServer(searchFirst());
    const a = await connectStdio(server, mode);
    const b = await connectStdio(server, mode);
    await callTool(a.client, "search_tools", { query: "watch" });
    expect(await names(a.client)).toEqual(["search_tools", "accounts_watch"]);
    expect(await names(b.client)).toEqual(["search_tools"]);
  });

  it("calls a tool not listed, directly or through call_tool", async () => {
    const server = newServer(searchFirst());
    const { client } = await connectStdio(server, mode);
    const created = await callTool(client, "accounts_create", {
      ...strictDefaults.accounts_create,
      name: "a",
      owner_id: randomUUID(),
    });
    expect(created.isError, firstText(created)).toBeFalsy();
    expect(created.structuredContent).toMatchObject({
      account: { id: "acct-1" },
    });
    await mergeThroughCallTool(client);
  });
});

describe("stdio, 2026-07-28, a client that does not listen", () => {
  /** A 2026-07-28 client without the listChanged option: no listen. */
  async function connectDeaf(server: McpToolServer) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serveStdio(server, { transport: serverSide });
    const client = new Client(
      { name: "test", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(clientSide);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    return client;
  }

  it("gets the call view until it listens, the list view while it listens", async () => {
    const server = newServer(searchFirst({ alwaysLoaded: ["accounts_list"] }));
    const client = await connectDeaf(server);
    // It cannot be told of a change: call_tool, and schemas in results.
    const before = await client.listTools();
    expect(before.tools.map((t) => t.name)).toEqual([
      "search_tools",
      "call_tool",
      "accounts_list",
    ]);
    expect(before.tools[0]!.description).toContain(
      "Each tool found comes with its input schema: call it with call_tool.",
    );
    expect(before.tools[0]!.description).not.toContain(
      "added to your tool list",
    );
    await searchInCallView(client, "merge", "accounts_merge");
    const created = await callTool(client, "call_tool", {
      name: "accounts_create",
      arguments: {
        ...strictDefaults.accounts_create,
        name: "d",
        owner_id: randomUUID(),
      },
    });
    expect(created.isError, firstText(created)).toBeFalsy();
    await mergeThroughCallTool(client);

    // Listening, it is told: the list view, and the change on its listen.
    let told: () => void = () => undefined;
    const change = new Promise<void>((resolve) => {
      told = resolve;
    });
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      told();
    });
    const listen = await client.listen({ toolsListChanged: true });
    expect(listen.honoredFilter).toEqual({ toolsListChanged: true });
    expect(await names(client)).toEqual(["search_tools", "accounts_list"]);
    const again = await callTool(client, "search_tools", {
      query: "watch",
      limit: 1,
    });
    expect(again.structuredContent).toEqual({
      tools: [{ name: "accounts_watch", description: "accounts_watch tool" }],
    });
    await change;
    expect(await names(client)).toEqual([
      "search_tools",
      "accounts_list",
      "accounts_watch",
    ]);

    // The listen closed: the call view again.
    await listen.close();
    expect(await names(client)).toEqual([
      "search_tools",
      "call_tool",
      "accounts_list",
    ]);
    await client.close();
  });
});

describe("search_tools and call_tool refusals", () => {
  it("answers bad arguments and unknown tools with isError naming them", async () => {
    const { client } = await connectStdio(newServer(searchFirst()), "legacy");
    const texts = async (name: string, args: Record<string, unknown>) => {
      const r = await callTool(client, name, args);
      expect(r.isError).toBe(true);
      return firstText(r);
    };
    expect(await texts("call_tool", { name: "links_get", arguments: {} })).toBe(
      'unknown tool "links_get": call search_tools to find a tool, then call_tool with one of the names it gives',
    );
    expect(await texts("call_tool", { name: "search_tools" })).toBe(
      'unknown tool "search_tools": call search_tools to find a tool, then call_tool with one of the names it gives',
    );
    expect(
      await texts("call_tool", { name: 5, arguments: [], id: "acct-1" }),
    ).toBe(
      'invalid arguments, nothing was sent:\n- "id": unknown field; valid fields: name, arguments\n- "name": must be a string\n- "arguments": expected a JSON object, got an array',
    );
    expect(await texts("call_tool", {})).toBe(
      'invalid arguments, nothing was sent:\n- "name": missing required field',
    );
    expect(await texts("search_tools", { limit: 21 })).toBe(
      'invalid arguments, nothing was sent:\n- "query": missing required field\n- "limit": must be a whole number from 1 to 20',
    );
    // The called tool's own checks, as a direct call's.
    expect(
      await texts("call_tool", {
        name: "accounts_merge",
        arguments: { source_id: "acct-9" },
      }),
    ).toContain("invalid arguments, nothing was sent:");
    // Nothing found: an empty list, not an error.
    const none = await callTool(client, "search_tools", { query: "zebra" });
    expect(none.structuredContent).toEqual({ tools: [] });
  });

  it("refuses a bad option and a tool named as a search-first tool", () => {
    expect(() => newServer(searchFirst({ limit: 0 }))).toThrow(
      "searchFirst.limit 0 is not a whole number from 1 to 20: leave it out for 5",
    );
    expect(() =>
      newServer(
        searchFirst({ alwaysLoaded: ["accounts_list", "accounts_list"] }),
      ),
    ).toThrow(
      'searchFirst.alwaysLoaded: "accounts_list" is given twice: give each tool once',
    );
    const server = createMcpToolServer(searchFirst());
    const [first] = aitestMcpMethods;
    expect(() =>
      server.addTools({
        methods: [{ ...first!, tool: { ...first!.tool, name: "call_tool" } }],
        aliases: aitestAliases,
        transport: grpc.transport,
      }),
    ).toThrow(
      'tool "call_tool" has the name of a search-first tool: register it with a name prefix',
    );
  });
});

describe("streamable HTTP", () => {
  let http: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    http = await serveHttp(
      newServer(searchFirst({ alwaysLoaded: ["accounts_list"] })),
    );
  });
  afterAll(async () => {
    await http.close();
  });

  async function connectHttp(mode: Mode) {
    const c = newClient(mode);
    await c.client.connect(
      new StreamableHTTPClientTransport(new URL(http.url)),
    );
    expect(c.client.getNegotiatedProtocolVersion()).toBe(
      mode === "auto" ? "2026-07-28" : "2025-11-25",
    );
    return c;
  }

  it("2025-11-25 session: the list grows, list_changed is received", async () => {
    const { client, changes, changed } = await connectHttp("legacy");
    expect(client.getServerCapabilities()?.tools).toEqual({
      listChanged: true,
    });
    expect(await names(client)).toEqual(["search_tools", "accounts_list"]);
    await callTool(client, "search_tools", { query: "merge" });
    await changed(1);
    expect(changes()).toBe(1);
    expect(await names(client)).toEqual([
      "search_tools",
      "accounts_list",
      "accounts_merge",
    ]);
    await client.close();
  });

  it("2026-07-28: search_tools gives schemas, call_tool runs them", async () => {
    const { client } = await connectHttp("auto");
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([
      "search_tools",
      "call_tool",
      "accounts_list",
    ]);
    expect(listed.tools[0]!.description).toContain(
      "Each tool found comes with its input schema: call it with call_tool.",
    );
    expect(listed.tools[1]).toEqual({
      name: "call_tool",
      description:
        "Call a tool that search_tools found, by its name, with its arguments.",
      inputSchema: {
        type: "object",
        properties: {
          name: {
            type: "string",
            description: "The tool's name, as search_tools gave it.",
          },
          arguments: {
            type: "object",
            description: "The tool's arguments, following its input schema.",
          },
        },
        required: ["name"],
        additionalProperties: false,
      },
    });
    await searchInCallView(client, "create accounts", "accounts_create");
    const first = await callTool(client, "call_tool", {
      name: "accounts_create",
      arguments: {
        ...strictDefaults.accounts_create,
        name: "h",
        owner_id: randomUUID(),
      },
    });
    expect(first.isError, firstText(first)).toBeFalsy();
    const handle = first._meta?.["ai-tools/conversation"];
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const merged = await callTool(
      client,
      "call_tool",
      {
        name: "accounts_merge",
        arguments: {
          ...strictDefaults.accounts_merge,
          source_id: "acct-1",
          target_id: "acct-1",
        },
      },
      { "ai-tools/conversation": handle },
    );
    expect(merged.isError, firstText(merged)).toBeFalsy();
    expect(merged.structuredContent).toMatchObject({
      received_source_id: "acct-1",
    });
    await client.close();
  });
});

describe("call_tool over HTTP with authorization", () => {
  it("is refused 403 naming the called tool when the token lacks its scope", async () => {
    const issuer = await createTestIssuer();
    const publicUrl = "https://mcp.example.test/mcp";
    const http = await serveHttp(
      newServer({
        ...searchFirst(),
        requiredScopes: { accounts_merge: ["accounts.merge"] },
      }),
      { publicUrl, auth: { issuer: issuer.issuer, jwksUrl: issuer.jwksUrl } },
    );
    try {
      const rpc = modernRpc("tools/call", {
        name: "call_tool",
        arguments: {
          name: "accounts_merge",
          arguments: { source_id: "acct-1", target_id: "acct-2" },
        },
      });
      const before = grpc.calls.length;
      const res = await send(http.url, {
        headers: {
          ...rpc.headers,
          authorization: await issuer.authorization(
            {},
            { audience: publicUrl, scope: "links.read" },
          ),
        },
        body: rpc.body,
      });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toEqual({
        error: "insufficient_scope",
        error_description:
          'the call of "accounts_merge" needs scope "accounts.merge"',
      });
      expect(grpc.calls.length).toBe(before);
    } finally {
      await http.close();
      await issuer.close();
    }
  });
});

describe.each(["auto", "legacy"] as const)(
  "call_tool of a tool that needs an approval, HTTP %s",
  (mode) => {
    it("asks the user through elicitation, as a direct call does", async () => {
      const server = createMcpToolServer(searchFirst());
      server.addTools({
        methods: aitestMcpMethods.map((m) =>
          m.tool.name === "accounts_create" ? { ...m, needsApproval: true } : m,
        ),
        aliases: aitestAliases,
        transport: grpc.transport,
      });
      const http = await serveHttp(server);
      try {
        const asked: string[] = [];
        let answer: "accept" | "decline" = "decline";
        const client = new Client(
          { name: "test", version: "1.0.0" },
          {
            capabilities: { elicitation: { form: {} } },
            versionNegotiation: { mode },
          },
        );
        client.setRequestHandler("elicitation/create", (request) => {
          asked.push(request.params.message);
          return Promise.resolve(
            answer === "accept"
              ? { action: "accept", content: { approve: true } }
              : { action: "decline" },
          );
        });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(http.url)),
        );
        const call = () =>
          callTool(client, "call_tool", {
            name: "accounts_create",
            arguments: {
              ...strictDefaults.accounts_create,
              name: "approved",
              owner_id: randomUUID(),
            },
          });
        const before = grpc.calls.length;
        const denied = await call();
        expect(denied.isError).toBe(true);
        expect(firstText(denied)).toBe(
          'the call of "accounts_create" was not approved; nothing was sent',
        );
        expect(grpc.calls.length).toBe(before);
        answer = "accept";
        const approved = await call();
        expect(approved.isError, firstText(approved)).toBeFalsy();
        expect(approved.structuredContent).toMatchObject({
          account: { name: "approved" },
        });
        expect(asked).toHaveLength(2);
        expect(asked[0]).toContain('Allow the call of "accounts_create"?');
        await client.close();
      } finally {
        await http.close();
      }
    });
  },
);

describe("served tools the search data does not name", () => {
  /** The aitest tools with data that has no FixupService. */
  const accountsOnly = () => {
    const search = aitestSearch();
    return { ...search, namespaces: search.namespaces.slice(0, 1) };
  };

  it("are refused at registration, unless always loaded", () => {
    const refused = createMcpToolServer({
      searchFirst: { search: accountsOnly() },
    });
    const add = (server: McpToolServer) =>
      server.addTools({
        methods: aitestMcpMethods,
        aliases: aitestAliases,
        transport: grpc.transport,
      });
    expect(() => add(refused)).toThrow(
      'tool "fixup_strict" is served but not in the tool-search data: generate its file with tool_search=true and pass that file\'s data, or list it in alwaysLoaded',
    );
    expect(refused.listTools()).toEqual([]);
    const served = createMcpToolServer({
      searchFirst: {
        search: accountsOnly(),
        alwaysLoaded: ["fixup_loose", "fixup_strict"],
      },
    });
    add(served);
    const catalog = createSearchCatalog(
      { search: accountsOnly(), alwaysLoaded: ["fixup_loose", "fixup_strict"] },
      served.listTools().map((listed) => ({ listed, tool: listed.name })),
    );
    expect(catalog.alwaysLoaded.map((t) => t.name)).toEqual([
      "fixup_loose",
      "fixup_strict",
    ]);
  });

  it("with no group served, the description ends as Go's and Python's", () => {
    const catalog = createSearchCatalog({ search: aitestSearch() }, []);
    for (const mode of ["list", "call"] as const) {
      expect(catalog.searchTool(mode).description).toMatch(/\nTool groups:$/);
    }
  });
});

describe("an always-loaded name no served tool has", () => {
  it("is refused at the first list or search", async () => {
    const server = newServer(searchFirst({ alwaysLoaded: ["accounts_lst"] }));
    const { client } = await connectStdio(server, "legacy");
    const refusal =
      'always-loaded tool "accounts_lst" is not served here: check its name (the generated tool names), or drop it from alwaysLoaded';
    await expect(client.listTools()).rejects.toThrow(refusal);
    await expect(
      client.callTool({ name: "search_tools", arguments: { query: "merge" } }),
    ).rejects.toThrow(refusal);
    await client.close();
  });

  it("is checked again when tools are added", async () => {
    const server = createMcpToolServer(
      searchFirst({ alwaysLoaded: ["accounts_list"] }),
    );
    const { client } = await connectStdio(server, "legacy");
    await expect(client.listTools()).rejects.toThrow(
      'always-loaded tool "accounts_list" is not served here',
    );
    server.addTools({
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
    });
    expect(await names(client)).toEqual(["search_tools", "accounts_list"]);
    await client.close();
  });
});

describe("the search-first listing", () => {
  it("shares the server's frozen listings: no schema is copied per list", () => {
    const server = newServer();
    const listed = server.listTools();
    const tools = aitestMcpMethods.map((m) => ({
      tool: m.tool.name,
      listed: Object.freeze(listed.find((t) => t.name === m.tool.name)!),
    }));
    const catalog = createSearchCatalog(
      { search: aitestSearch(), alwaysLoaded: ["accounts_list"] },
      tools,
    );
    const a = createSearchSession(
      () => catalog,
      () => "list",
    );
    const b = createSearchSession(
      () => catalog,
      () => "list",
    );
    a.search({ query: "merge accounts", limit: 1 });
    const [search, always, merge] = a.list();
    expect(search).toBe(b.list()[0]);
    expect(Object.isFrozen(search?.inputSchema)).toBe(true);
    expect(always).toBe(tools[1]!.listed);
    expect(merge).toBe(tools[2]!.listed);
    expect(a.list()[2]).toBe(merge);
    expect(b.list()).toHaveLength(2);
  });
});

describe("a service registered twice, with a name prefix", () => {
  it("lists and finds every registration of a tool, in registration order", async () => {
    const server = newServer(searchFirst({ alwaysLoaded: ["accounts_list"] }));
    server.addTools({
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
      namePrefix: "east_",
    });
    const { client } = await connectStdio(server, "legacy");
    expect(await names(client)).toEqual([
      "search_tools",
      "accounts_list",
      "east_accounts_list",
    ]);
    const found = await callTool(client, "search_tools", {
      query: "merge",
      limit: 3,
    });
    expect(
      (found.structuredContent as { tools: { name: string }[] }).tools.map(
        (t) => t.name,
      ),
    ).toEqual(["accounts_merge", "east_accounts_merge"]);
    expect(await names(client)).toEqual([
      "search_tools",
      "accounts_list",
      "east_accounts_list",
      "accounts_merge",
      "east_accounts_merge",
    ]);
  });
});
