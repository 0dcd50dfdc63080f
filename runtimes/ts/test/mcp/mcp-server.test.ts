import { Code, type Interceptor } from "@connectrpc/connect";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMcpToolServer,
  extraPropertiesKey,
  serveStdio,
  type McpToolServer,
  type McpToolServerOptions,
} from "../../src/mcp/index.js";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { strictDefaults, aitestAliases } from "../support/aitest-tools.js";
import { callTool, firstText } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

let grpc: AitestServer;
const seen: Record<string, string>[] = [];

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  await grpc.close();
});

/** A tool server forwarding to the aitest gRPC server. */
function newServer(options: McpToolServerOptions = {}): McpToolServer {
  const server = createMcpToolServer(options);
  // Interceptors see the call's extra properties.
  const record: Interceptor = (next) => (req) => {
    seen.push({ ...req.contextValues.get(extraPropertiesKey) });
    return next(req);
  };
  server.addTools({
    methods: aitestMcpMethods,
    aliases: aitestAliases,
    transport: createGrpcTransport({
      baseUrl: grpc.url,
      interceptors: [record],
    }),
  });
  return server;
}

/** An SDK client connected to the server as stdio would: one connection. */
async function connect(
  server: McpToolServer,
  mode: "auto" | "legacy" = "auto",
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { versionNegotiation: { mode } },
  );
  await client.connect(clientSide);
  return client;
}

const uuidPattern =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe("tools/list", () => {
  it("lists every tool, sorted, with extras, the handle property and hints", async () => {
    const server = newServer({
      extraProperties: [
        { name: "tenant", description: "The tenant.", required: true },
        { name: "trace", description: "A trace id." },
      ],
      handleArgument: true,
    });
    const client = await connect(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "accounts_create",
      "accounts_list",
      "accounts_merge",
      "accounts_watch",
      "fixup_loose",
      "fixup_strict",
    ]);
    const create = tools[0];
    const nullable = (description: string) => ({
      anyOf: [{ type: "string" }, { type: "null" }],
      description,
    });
    expect(create?.inputSchema).toEqual({
      type: "object",
      properties: {
        tenant: nullable("The tenant."),
        trace: nullable("A trace id."),
        conversation: nullable(
          'The conversation handle of the previous result ("conversation: …"); leave it out on the first call.',
        ),
      },
      // strict: every added property is required
      required: ["tenant", "trace", "conversation"],
    });
    // loose: only the required extras
    expect(tools[3]?.inputSchema["required"]).toEqual(["tenant"]);
    expect(create?.outputSchema).toEqual({ type: "object" });
    expect(create?.annotations).toBeUndefined();
    expect(tools[1]?.annotations).toEqual({ readOnlyHint: true });
    // Every hint the method sets, false ones too, in MCP's order.
    expect(tools[2]?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(Object.keys(tools[2]?.annotations ?? {})).toEqual([
      "readOnlyHint",
      "destructiveHint",
      "idempotentHint",
      "openWorldHint",
    ]);
    await client.close();
  });

  it("refuses an extra property that a tool already has, naming the tool", () => {
    const server = createMcpToolServer({
      extraProperties: [{ name: "name", description: "clash" }],
    });
    const withName = {
      ...aitestMcpMethods[0]!,
      tool: {
        ...aitestMcpMethods[0]!.tool,
        parameters: {
          type: "object",
          properties: { name: { type: "string" } },
        },
      },
    };
    expect(() =>
      server.addTools({
        methods: [withName],
        aliases: aitestAliases,
        transport: grpc.transport,
      }),
    ).toThrow('tool "accounts_create" already has a property "name"');
  });

  it("refuses a tool registered twice and a prefixed name past 64 characters", () => {
    const server = newServer();
    const again = {
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
    };
    expect(() => server.addTools(again)).toThrow(
      'tool "accounts_create" is registered twice',
    );
    server.addTools({ ...again, namePrefix: "b_" });
    expect(server.listTools().map((t) => t.name)).toContain("b_accounts_list");
    expect(() =>
      server.addTools({ ...again, namePrefix: "p".repeat(60) }),
    ).toThrow("use a shorter name prefix");
  });
});

describe("the listing, built once", () => {
  it("listTools() hands out copies; tools/list answers the same listing each time", async () => {
    const server = newServer();
    const copy = server.listTools();
    const first = copy[0]!;
    (first as { description: string }).description = "changed";
    (first.inputSchema as Record<string, unknown>).properties = {};
    expect(server.listTools()[0]!.description).not.toBe("changed");
    const client = await connect(server);
    const one = await client.listTools();
    const two = await client.listTools();
    expect(two).toEqual(one);
    expect(one.tools.map((t) => t.description)).not.toContain("changed");
    // The listed input schema is the tool's, plus nothing without extras.
    const method = aitestMcpMethods.find((m) => m.tool.name === first.name)!;
    expect(one.tools.find((t) => t.name === first.name)!.inputSchema).toEqual({
      ...method.tool.parameters,
      type: "object",
    });
  });
});

describe("tools/call over one connection", () => {
  for (const mode of ["auto", "legacy"] as const) {
    it(`keeps aliases across calls (${mode === "auto" ? "2026-07-28" : "2025-11-25"})`, async () => {
      const client = await connect(newServer(), mode);
      expect(client.getNegotiatedProtocolVersion()).toBe(
        mode === "auto" ? "2026-07-28" : "2025-11-25",
      );
      const owner = randomUUID();
      const first = await callTool(client, "accounts_create", {
        ...strictDefaults.accounts_create,
        name: "a",
        owner_id: owner,
        note_count: 1,
      });
      expect(first.isError).toBeFalsy();
      expect(first.content).toHaveLength(1);
      expect(first._meta?.["ai-tools/conversation"]).toBeUndefined();
      const account = (first.structuredContent as { account: { id: string } })
        .account;
      expect(account.id).toBe("acct-1");
      expect(JSON.parse(firstText(first))).toEqual(first.structuredContent);
      const second = await callTool(client, "accounts_create", {
        ...strictDefaults.accounts_create,
        name: "b",
        owner_id: owner,
      });
      expect(
        (second.structuredContent as { account: { id: string } }).account.id,
      ).toBe("acct-2");
      // acct-1 resolves to the UUID the server created.
      const merged = await callTool(client, "accounts_merge", {
        ...strictDefaults.accounts_merge,
        source_id: "acct-1",
        target_id: "acct-2",
      });
      expect(merged.isError).toBeFalsy();
      expect(grpc.calls.at(-1)?.request).toMatchObject({
        sourceId: [...grpc.accounts.keys()].at(-2),
      });
      expect(merged.structuredContent).toMatchObject({
        account: { id: "acct-2" },
        received_source_id: "acct-1",
      });
      await client.close();
    });
  }

  it("wraps a server stream's messages", async () => {
    const client = await connect(newServer());
    const r = await callTool(client, "accounts_watch", { count: 2 });
    expect(r.structuredContent).toMatchObject({
      messages: [{ id: "acct-1" }, { id: "acct-2" }],
    });
    expect(JSON.parse(firstText(r))).toEqual(r.structuredContent);
    await client.close();
  });

  it("writes the result text as Go's protojson does", async () => {
    const client = await connect(newServer());
    const r = await callTool(client, "fixup_loose", {
      note: "n",
      other_text: "o",
      items_by_num: { "10": { name: "x", counts: { b: 1, a: 2 } }, "-2": {} },
      flags: { true: "t", false: "f" },
      attrs: { z: 1, "😀": 2, "！": 3, a: { y: 1, b: 2 } },
    });
    // Declaration order (other_text, field 20, before note), map keys by
    // value, false before true, Struct keys by their UTF-8 bytes.
    expect(firstText(r)).toBe(
      '{"labels":{},"items_by_num":{"-2":{"name":"","counts":{},"children":[],"owner_id":""},"10":{"name":"x","counts":{"a":2,"b":1},"children":[],"owner_id":""}},"flags":{"false":"f","true":"t"},"attrs":{"a":{"b":2,"y":1},"z":1,"！":3,"😀":2},"items":[],"other_text":"o","note":"n","values":[],"value_map":{},"display_name":"","count":0,"enabled":false,"data":"","level":"LEVEL_UNSPECIFIED","levels":{}}',
    );
    await client.close();
  });

  it("answers bad arguments, unknown aliases and server errors with isError", async () => {
    const client = await connect(newServer());
    const bad = await callTool(client, "accounts_create", {
      ...strictDefaults.accounts_create,
      note_count: "many",
    });
    expect(bad.isError).toBe(true);
    expect(firstText(bad)).toMatch(/note_count|noteCount/);
    const unknown = await callTool(client, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-7",
      target_id: "acct-8",
    });
    expect(unknown.isError).toBe(true);
    expect(firstText(unknown)).toBe(
      'invalid arguments, nothing was sent:\n- "source_id": unknown alias "acct-7"; no acct aliases exist yet: call a tool that returns accts first',
    );
    await callTool(client, "accounts_create", {
      ...strictDefaults.accounts_create,
      name: "a",
      owner_id: randomUUID(),
    });
    const id = [...grpc.accounts.keys()].at(-1)!;
    grpc.failNext(Code.NotFound, `account ${id} not found`);
    const failed = await callTool(client, "accounts_list", {
      ...strictDefaults.accounts_list,
      count: 1,
    });
    expect(failed.isError).toBe(true);
    expect(failed.content).toHaveLength(1);
    expect(firstText(failed)).toBe(
      "rpc error: code = NotFound desc = account acct-1 not found",
    );
    expect(firstText(failed)).not.toMatch(uuidPattern);
    await client.close();
  });

  it("answers an unknown tool with JSON-RPC -32602", async () => {
    const client = await connect(newServer());
    await expect(callTool(client, "nope", {})).rejects.toMatchObject({
      code: -32602,
    });
    await client.close();
  });

  it("hands extra properties to the call's context, not to the request", async () => {
    const client = await connect(
      newServer({
        extraProperties: [
          { name: "tenant", description: "The tenant.", required: true },
        ],
      }),
    );
    seen.length = 0;
    const r = await callTool(client, "fixup_loose", { tenant: "t-1" });
    expect(r.isError).toBeFalsy();
    expect(seen).toEqual([{ tenant: "t-1" }]);
    expect(JSON.stringify(grpc.calls.at(-1)?.request)).not.toContain("t-1");
    const missing = await callTool(client, "fixup_loose", {});
    expect(missing.isError).toBe(true);
    expect(firstText(missing)).toBe(
      'invalid arguments, nothing was sent:\n- "tenant": missing required field',
    );
    await client.close();
  });

  it("calls a tool registered under a name prefix as the tool itself", async () => {
    const server = newServer();
    server.addTools({
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
      namePrefix: "b_",
    });
    const client = await connect(server);
    const r = await callTool(client, "b_accounts_create", {
      ...strictDefaults.accounts_create,
      name: "a",
      owner_id: randomUUID(),
    });
    expect(r.structuredContent).toMatchObject({ account: { id: "acct-1" } });
    // One conversation across both registrations.
    const merged = await callTool(client, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
    });
    expect(merged.isError).toBeFalsy();
    await client.close();
  });

  it("gives two connections separate aliases", async () => {
    const server = newServer();
    const a = await connect(server);
    const b = await connect(server);
    await callTool(a, "accounts_create", {
      ...strictDefaults.accounts_create,
      name: "a",
      owner_id: randomUUID(),
    });
    const r = await callTool(b, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
    });
    expect(r.isError).toBe(true);
    expect(firstText(r)).toContain('unknown alias "acct-1"');
    await a.close();
    await b.close();
  });
});
