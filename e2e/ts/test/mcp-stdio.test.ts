// The generated MCP server of the test API over stdio, driven by the
// official TypeScript SDK client on both protocol revisions: tools/list,
// calls against the shared gRPC server, aliases across calls, output
// schema vs structured content (ajv), isError results, unknown tool, two
// clients with separate aliases, register<Service>Handler in process, and
// lines that are not JSON-RPC answered with -32700 (raw stdin and stdout).
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import {
  createMcpToolServer,
  serveStdio,
} from "@protoc-gen-ai-tools/runtime/mcp";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { allTools } from "../src/gen/ai_tools.gen.js";
import {
  exportServiceTools,
  linkServiceTools,
  operationsTools,
  pageThemeServiceTools,
  registerWorkflowServiceHandler,
  sampleServiceTools,
  workflowServiceTools,
} from "../src/gen/ai_tools_mcp.gen.js";
import {
  callOk,
  callTool,
  connectStdio,
  serverScript,
  linkIdOf,
  anyUuid,
  newLinkArgs,
  type Revision,
} from "./mcp-support.js";
import { newUUID, useServer } from "./support.js";

const env = useServer();

const mcpTools = [
  ...exportServiceTools,
  ...operationsTools,
  ...linkServiceTools,
  ...pageThemeServiceTools,
  ...sampleServiceTools,
  ...workflowServiceTools,
];

for (const revision of ["2026-07-28", "2025-11-25"] as Revision[]) {
  describe(`stdio, ${revision}`, () => {
    it("lists every tool, sorted, with its schemas and hints", async () => {
      const client = await connectStdio(env, revision);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(allTools().map((t) => t.name));
      for (const t of tools) {
        const m = mcpTools.find((x) => x.tool.name === t.name)!;
        expect(t.description).toBe(m.tool.description);
        expect(t.inputSchema).toEqual(m.tool.parameters);
        // The generated file holds the output schema as JSON text.
        expect(t.outputSchema).toEqual(
          typeof m.outputSchema === "string"
            ? JSON.parse(m.outputSchema)
            : m.outputSchema,
        );
        // Every generated tool sets all four hints, false ones too.
        expect(t.annotations).toEqual({
          readOnlyHint: m.readOnlyHint,
          destructiveHint: m.destructiveHint,
          idempotentHint: m.idempotentHint,
          openWorldHint: m.openWorldHint,
        });
        expect(Object.values(t.annotations ?? {})).not.toContain(undefined);
      }
      // The method kinds' hints (docs/mcp.md, "Tool hints").
      const hints = (name: string) =>
        tools.find((t) => t.name === name)?.annotations;
      const read = {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      };
      expect(hints("links_get")).toEqual(read);
      expect(hints("google_longrunning_Operations_GetOperation")).toEqual(read);
      expect(hints("links_create")).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      // DeleteLink: idempotency_level IDEMPOTENT.
      expect(hints("links_delete")).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
    });

    it("calls tools with aliases across calls, results valid against outputSchema", async () => {
      const client = await connectStdio(env, revision);
      const ws = newUUID();
      const created = await callOk(
        client,
        "links_create",
        newLinkArgs(ws, "one"),
      );
      expect(linkIdOf(created)).toBe("link-1");
      expect(created.content).toHaveLength(1);
      await callOk(client, "links_create", newLinkArgs(ws, "two"));
      const got = await callOk(client, "links_get", { id: "link-1" });
      expect(got.structuredContent).toMatchObject({
        link: { id: "link-1", title: "one", workspace_id: ws },
      });
      const listed = await callOk(client, "links_list", { workspace_id: ws });
      const links = (listed.structuredContent as { links: { id: string }[] })
        .links;
      expect(links.map((l) => l.id)).toEqual(["link-1", "link-2"]);
      const updated = await callOk(client, "links_update", {
        id: "link-2",
        title: "renamed",
        update_mask: "title",
      });
      expect(updated.structuredContent).toMatchObject({
        link: { id: "link-2", title: "renamed" },
      });
      // An Empty response, and a request of Empty.
      await callOk(client, "links_delete", { id: "link-2" });
      await callOk(client, "ping", {});
    });

    it("answers bad arguments, unknown aliases and server errors with isError", async () => {
      const client = await connectStdio(env, revision);
      const bad = await callTool(client, "links_get", { id: 7 });
      expect(bad.isError).toBe(true);
      expect(bad.content).toHaveLength(1);
      const unknown = await callTool(client, "links_get", { id: "link-9" });
      expect(unknown.isError).toBe(true);
      expect(unknown.content[0]!.text).toBe(
        'invalid arguments, nothing was sent:\n- "id": unknown alias "link-9"; no link aliases exist yet: call a tool that returns links first',
      );
      const ws = newUUID();
      await callOk(client, "links_create", newLinkArgs(ws, "gone"));
      await callOk(client, "links_delete", { id: "link-1" });
      const missing = await callTool(client, "links_get", { id: "link-1" });
      expect(missing.isError).toBe(true);
      const text = missing.content[0]!.text!;
      expect(text).not.toMatch(anyUuid);
      // The text the executors and the Go and Python servers write.
      expect(text).toBe(
        'rpc error: code = NotFound desc = link "link-1" not found',
      );
    });

    it("answers an unknown tool with JSON-RPC -32602", async () => {
      const client = await connectStdio(env, revision);
      await expect(callTool(client, "links_nope", {})).rejects.toMatchObject({
        code: -32602,
      });
    });
  });
}

it("stdio: a sample's result text is the bytes the Go server writes", async () => {
  const client = await connectStdio(env, "2026-07-28");
  const r = await callOk(client, "samples_echo_loose", {
    by_num: { "10": "a", "-2": "b", "3": "c" },
    by_flag: { true: 1, false: 2 },
    meta: { b: 1, a: { z: 1, é: 1, "！": 2, "😀": 3 }, "10": 2 },
    maybe_ratio: "-0",
    // No `extension`: an Any is no property of the schema, so an unknown
    // field (the response vectors pin "@type" first in an Any).
    attrs: { z: 1, "10": 2, a: { d: 1, c: 2 } },
  });
  // e2e/go's server, same call: map keys by value (false before true),
  // Struct keys by UTF-8 bytes, -0.
  expect(r.content[0]!.text).toBe(
    '{"meta":{"10":2,"a":{"z":1,"é":1,"！":2,"😀":3},"b":1},"maybe_ratio":-0,"blob":"","big":"0","ubig":"0","sbig":"0","fbig":"0","color":"COLOR_UNSPECIFIED","by_name":{},"by_num":{"-2":"b","3":"c","10":"a"},"by_flag":{"false":2,"true":1},"attrs":{"10":2,"a":{"c":2,"d":1},"z":1},"items":[],"times":[],"score":0,"nothing_at_all":null}',
  );
});

it("stdio: two clients at once keep separate aliases", async () => {
  const [a, b] = await Promise.all([
    connectStdio(env, "2026-07-28"),
    connectStdio(env, "2025-11-25"),
  ]);
  const ws = newUUID();
  await Promise.all([
    callOk(a, "links_create", newLinkArgs(ws, "a")),
    callOk(b, "links_create", newLinkArgs(ws, "b")),
  ]);
  const [ra, rb] = await Promise.all([
    callOk(a, "links_get", { id: "link-1" }),
    callOk(b, "links_get", { id: "link-1" }),
  ]);
  expect(ra.structuredContent).toMatchObject({ link: { title: "a" } });
  expect(rb.structuredContent).toMatchObject({ link: { title: "b" } });
});

it("registerWorkflowServiceHandler serves an implementation in process", async () => {
  const server = createMcpToolServer();
  registerWorkflowServiceHandler(server, {
    ping: () => ({ serverTime: "pong from the implementation" }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const client = new Client(
    { name: "e2e-ts", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(clientSide);
  const r = await callOk(client, "ping", {});
  expect(r.structuredContent).toEqual({
    server_time: "pong from the implementation",
  });
  const steps = await callTool(client, "steps_list", { link_id: "x" });
  expect(steps.isError).toBe(true);
  expect(steps.content[0]!.text).toMatch(
    /^rpc error: code = Unimplemented desc = /,
  );
  await client.close();
});

it("stdio: a line that is not JSON-RPC is answered with -32700, and the next one served", async () => {
  const child = spawn(
    process.execPath,
    [serverScript, "--grpc", env.server.address],
    { stdio: ["pipe", "pipe", "ignore"] },
  );
  try {
    const lines = createInterface({ input: child.stdout })[
      Symbol.asyncIterator
    ]();
    const next = async () =>
      JSON.parse((await lines.next()).value as string) as unknown;
    const parseError = {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error" },
    };
    child.stdin.write("this is not json\n");
    expect(await next()).toEqual(parseError);
    child.stdin.write('{"not":"json-rpc"}\n');
    expect(await next()).toEqual(parseError);
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      })}\n`,
    );
    expect(await next()).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: "2025-11-25" },
    });
  } finally {
    child.kill();
  }
});
