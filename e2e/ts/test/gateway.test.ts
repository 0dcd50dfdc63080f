// The MCP gateway (`protoc-gen-ai-tools mcp`, issue 35 part 2): the
// plugin's model served over MCP from a descriptor set, no generated file.
// Over stdio, with the official SDK client: its tools/list equals the
// generated TypeScript MCP server's for the same protos, and a call goes
// through it to the test server (its own process) with the ids resolved.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayBin, startHttpGateway } from "./gateway-support.js";
import {
  callTool,
  connectStdio,
  linkIdOf,
  newLinkArgs,
} from "./mcp-support.js";
import {
  decodeRecorded,
  linkIds,
  newUUID,
  recorded,
  resetServer,
  useServer,
} from "./support.js";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  startServer,
  startServerProcess,
  testTlsFiles,
  type RunningServer,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import { TestControlService } from "../src/gen/linkhub/v1/control_pb.js";
import {
  GetLinkRequestSchema,
  LinkService,
} from "../src/gen/linkhub/v1/links_pb.js";

const env = useServer({ process: true });
const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(pkgDir, "..", "..");
const bin = (name: string) => path.join(pkgDir, "node_modules", ".bin", name);
const dir = mkdtempSync(path.join(tmpdir(), "e2e-gateway-"));
const setFile = path.join(dir, "linkhub.binpb");
const clients: Client[] = [];

beforeAll(() => {
  // buf keeps source info (the comments) unless --exclude-source-info.
  execFileSync(bin("buf"), ["build", "e2e/proto", "-o", setFile], {
    cwd: repoRoot,
    stdio: "inherit",
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Through gateway, links_create in workspace ws (shown as `link-1`), then
 * links_get of that alias; both answered without error.
 */
async function createThenGet(
  gateway: Awaited<ReturnType<typeof connectGateway>>,
  ws: string,
): Promise<void> {
  const created = await callTool(
    gateway,
    "links_create",
    newLinkArgs(ws, "gw"),
  );
  expect(created.isError, created.content[0]?.text).toBeFalsy();
  expect(linkIdOf(created)).toBe("link-1");
  const got = await callTool(gateway, "links_get", { id: "link-1" });
  expect(got.isError, got.content[0]?.text).toBeFalsy();
}

/** The gateway over stdio with `source` flags, and a client of it. */
async function connectGateway(
  source: () => string[] = () => [
    "--descriptor-set",
    setFile,
    "--target",
    env.server.address,
  ],
  onToolsChanged?: () => void,
): Promise<Client> {
  const client = new Client(
    { name: "e2e-ts", version: "1.0.0" },
    {
      versionNegotiation: { mode: "auto" },
      // With it the client listens for tool list changes (2026-07-28).
      ...(onToolsChanged === undefined
        ? {}
        : {
            listChanged: {
              tools: {
                autoRefresh: false,
                debounceMs: 0,
                onChanged: () => onToolsChanged(),
              },
            },
          }),
    },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [gatewayBin, "mcp", ...source()],
      stderr: "inherit",
    }),
  );
  clients.push(client);
  return client;
}

describe("protoc-gen-ai-tools mcp --descriptor-set", () => {
  it("lists the tools the generated TypeScript MCP server lists", async () => {
    const gateway = await connectGateway();
    const generated = await connectStdio(env, "2026-07-28");
    const listed = (await gateway.listTools()).tools;
    expect(listed.length).toBe(16);
    // Parsed values, compared whole: names, descriptions, schemas, hints.
    expect(listed).toEqual((await generated.listTools()).tools);
  });

  it("with --provider, lists what the generated server lists with that provider", async () => {
    // linkhub's forms equal its parameters (none is strict on a cycle): the
    // form itself is checked on one that differs in
    // generator/test/gateway-provider.test.ts.
    const gateway = await connectGateway(() => [
      "--descriptor-set",
      setFile,
      "--target",
      env.server.address,
      "--provider",
      "openai",
    ]);
    const generated = await connectStdio(env, "2026-07-28", [
      "--provider",
      "openai",
    ]);
    const listed = (await gateway.listTools()).tools;
    expect(listed.length).toBe(16);
    expect(listed).toEqual((await generated.listTools()).tools);
  });

  it("with --search-first, lists what the generated server lists with searchFirst, before and after a search", async () => {
    const flags = ["--search-first", "--always-loaded", "ping"];
    const source = (): string[] => [
      "--descriptor-set",
      setFile,
      "--target",
      env.server.address,
      ...flags,
    ];
    // Clients that listen for tool list changes: the found tools join the list.
    const ignore = (): void => undefined;
    const gateway = await connectGateway(source, ignore);
    const generated = await connectStdio(env, "2026-07-28", flags, ignore);
    const before = (await gateway.listTools()).tools;
    expect(before.map((t) => t.name)).toEqual(["search_tools", "ping"]);
    expect(before).toEqual((await generated.listTools()).tools);
    const query = { query: "archive a link" };
    const found = await callTool(gateway, "search_tools", query);
    expect(found.structuredContent).toEqual(
      (await callTool(generated, "search_tools", query)).structuredContent,
    );
    const after = (await gateway.listTools()).tools;
    expect(after.map((t) => t.name)).toContain("links_archive");
    expect(after).toEqual((await generated.listTools()).tools);
  });

  it("with --search-first, a client that does not listen gets call_tool, as from the generated server", async () => {
    const flags = ["--search-first", "--always-loaded", "ping"];
    const gateway = await connectGateway(() => [
      "--descriptor-set",
      setFile,
      "--target",
      env.server.address,
      ...flags,
    ]);
    const generated = await connectStdio(env, "2026-07-28", flags);
    const before = (await gateway.listTools()).tools;
    expect(before.map((t) => t.name)).toEqual([
      "search_tools",
      "call_tool",
      "ping",
    ]);
    expect(before).toEqual((await generated.listTools()).tools);
    const query = { query: "archive a link" };
    const found = await callTool(gateway, "search_tools", query);
    expect(found.structuredContent).toEqual(
      (await callTool(generated, "search_tools", query)).structuredContent,
    );
    expect((await gateway.listTools()).tools).toEqual(before);
  });

  it("calls the server, sending the UUID behind an alias", async () => {
    await resetServer(env);
    const gateway = await connectGateway();
    const ws = newUUID();
    await createThenGet(gateway, ws);
    const [uuid] = await linkIds(env, ws);
    const gets = (await recorded(env)).filter(
      (r) => r.procedure === "linkhub.v1.LinkService/GetLink",
    );
    expect(gets).toHaveLength(1);
    const { message } = decodeRecorded(gets[0]!);
    expect(message).toMatchObject({
      $typeName: GetLinkRequestSchema.typeName,
      id: uuid,
    });
  });
});

describe("protoc-gen-ai-tools mcp --http", () => {
  it("lists the same tools over streamable HTTP on loopback", async () => {
    const { url } = await startHttpGateway([
      "--descriptor-set",
      setFile,
      "--target",
      env.server.address,
      "--http",
      "127.0.0.1:0",
    ]);
    const client = new Client({ name: "e2e-ts", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    const stdio = await connectGateway();
    expect((await client.listTools()).tools).toEqual(
      (await stdio.listTools()).tools,
    );
  });
});

describe("protoc-gen-ai-tools mcp --grpc (reflection)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ reflection: {} });
  });
  afterAll(() => server.close());

  it("calls the server it described, sending the UUID behind an alias", async () => {
    const gateway = await connectGateway(() => ["--grpc", server.address]);
    const names = (await gateway.listTools()).tools.map((t) => t.name);
    expect(names).toContain("links_create");
    const ws = newUUID();
    await createThenGet(gateway, ws);
    const transport = createGrpcTransport({ baseUrl: server.baseUrl });
    const { links } = await createClient(LinkService, transport).listLinks({
      workspaceId: ws,
    });
    const { requests } = await createClient(
      TestControlService,
      transport,
    ).getRecorded({});
    const gets = requests.filter(
      (r) => r.procedure === "linkhub.v1.LinkService/GetLink",
    );
    expect(gets).toHaveLength(1);
    expect(decodeRecorded(gets[0]!).message).toMatchObject({
      id: links[0]!.id,
    });
  });
});

describe("protoc-gen-ai-tools mcp --grpc-tls-ca", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({
      tls: testTlsFiles,
      reflection: ["v1"],
    });
  });
  afterAll(() => server.close());

  it("describes a TLS server by reflection and calls it, trusting the CA given", async () => {
    const gateway = await connectGateway(() => [
      "--grpc",
      server.address,
      "--grpc-tls-ca",
      testTlsFiles.ca,
    ]);
    expect((await gateway.listTools()).tools.length).toBe(16);
    await createThenGet(gateway, newUUID());
  });

  it("calls a TLS server, trusting the CA given", async () => {
    const gateway = await connectGateway(() => [
      "--descriptor-set",
      setFile,
      "--target",
      server.address,
      "--grpc-tls-ca",
      testTlsFiles.ca,
    ]);
    const created = await callTool(
      gateway,
      "links_create",
      newLinkArgs(newUUID(), "over tls"),
    );
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    expect(linkIdOf(created)).toBe("link-1");
  });
});
