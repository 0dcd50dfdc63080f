// forwardTo…Client over TLS (issue 33 §2): the test server serves over TLS
// with the committed test CA (e2e/server/testdata/tls); the generated
// forwardToLinkServiceClient calls it through a Connect gRPC transport
// trusting that CA, with per-call credentials (an interceptor adding
// x-api-key) and the tool server's forwardIdentity hook (x-backend). The
// server's request log shows the metadata arrived; a plaintext transport
// reaches nothing. Then the generated MCP server (dist/mcp-server.js) with
// --grpc-tls-ca and --approve deny.
import { readFileSync } from "node:fs";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import {
  startServerProcess,
  testTlsFiles,
  TestControlService,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import {
  createMcpToolServer,
  serveHttp,
  type RunningHttpServer,
} from "@protoc-gen-ai-tools/runtime/mcp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forwardToLinkServiceClient } from "../src/gen/ai_tools_mcp.gen.js";
import {
  callTool,
  newLinkArgs,
  startHttp,
  type ToolCallResult,
} from "./mcp-support.js";
import { newUUID, type Env } from "./support.js";

let grpc: ServerProcess;
const ca = readFileSync(testTlsFiles.ca);
const tlsTransport = (interceptors: Interceptor[] = []) =>
  createGrpcTransport({
    baseUrl: `https://${grpc.address}`,
    nodeOptions: { ca },
    interceptors,
  });
let control: ReturnType<typeof createClient<typeof TestControlService>>;
const running: RunningHttpServer[] = [];

beforeAll(async () => {
  grpc = await startServerProcess({ tls: testTlsFiles });
  control = createClient(TestControlService, tlsTransport());
});

afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await grpc.close();
});

beforeEach(async () => {
  await control.reset({});
});

const apiKey = "key-1-never-shown";
const perCallKey: Interceptor = (next) => (req) => {
  req.header.set("x-api-key", apiKey);
  return next(req);
};

async function serveTools(
  transport: ReturnType<typeof createGrpcTransport>,
): Promise<Client> {
  const server = createMcpToolServer({
    forwardIdentity: {
      backendCredentials: () => Promise.resolve({ "x-backend": "app-1" }),
    },
  });
  forwardToLinkServiceClient(server, transport);
  const http = await serveHttp(server);
  running.push(http);
  const client = new Client(
    { name: "e2e-ts", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return client;
}

describe("forwardToLinkServiceClient over TLS", () => {
  it("reaches the server with the per-call credentials and the forwarded metadata", async () => {
    const client = await serveTools(tlsTransport([perCallKey]));
    const r = await callTool(
      client,
      "links_create",
      newLinkArgs(newUUID(), "over tls"),
    );
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    const { requests } = await control.getRecorded({});
    expect(requests.map((q) => q.procedure)).toEqual([
      "linkhub.v1.LinkService/CreateLink",
    ]);
    expect(requests[0]?.metadata).toMatchObject({
      "x-api-key": apiKey,
      "x-backend": "app-1",
    });
    expect(JSON.stringify(r)).not.toContain(apiKey);
    await client.close();
  });

  it("reaches nothing over a plaintext transport", async () => {
    const client = await serveTools(
      createGrpcTransport({ baseUrl: `http://${grpc.address}` }),
    );
    const r = await callTool(
      client,
      "links_create",
      newLinkArgs(newUUID(), "plaintext"),
    );
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toMatch(
      /^rpc error: code = (Unavailable|Canceled) /,
    );
    expect((await control.getRecorded({})).requests).toEqual([]);
    await client.close();
  });
});

describe("mcp-server --grpc-tls-ca --approve deny", () => {
  it("runs the tools that need no approval over TLS, refuses the others", async () => {
    const env = { server: { address: grpc.address } } as Env;
    const http = await startHttp(env, [
      "--grpc-tls-ca",
      testTlsFiles.ca,
      "--approve",
      "deny",
    ]);
    const client = new Client(
      { name: "e2e-ts", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(http.url));
    const created: ToolCallResult = await callTool(
      client,
      "links_create",
      newLinkArgs(newUUID(), "approved by none"),
    );
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    const archived = await callTool(
      client,
      "links_archive",
      { link_id: "link-1" },
      created._meta,
    );
    expect(archived.isError).toBe(true);
    expect(archived.content[0]?.text).toBe(
      'the call of "links_archive" was not approved; nothing was sent',
    );
    const { requests } = await control.getRecorded({});
    expect(requests.map((q) => q.procedure)).toEqual([
      "linkhub.v1.LinkService/CreateLink",
    ]);
    await client.close();
  });
});
