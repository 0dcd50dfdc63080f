// MCP calls are bounded like the executors' (docs/mcp.md): a result over
// maxResultBytes is an isError result asking for less; a client's
// notifications/cancelled or its disconnect cancels the gRPC call, which
// the aitest server (a real socket) holds until it sees the cancellation.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createMcpToolServer,
  serveHttp,
  serveStdio,
  type McpToolServer,
  type McpToolServerOptions,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { aitestAliases, strictDefaults } from "../support/aitest-tools.js";
import { callTool, firstText } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

let grpc: AitestServer;

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  await grpc.close();
});

function newServer(options: McpToolServerOptions = {}): McpToolServer {
  const server = createMcpToolServer(options);
  server.addTools({
    methods: aitestMcpMethods,
    aliases: aitestAliases,
    transport: createGrpcTransport({ baseUrl: grpc.url }),
  });
  return server;
}

async function connectStdio(server: McpToolServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(clientSide);
  return client;
}

const list = { ...strictDefaults.accounts_list, count: 1 };

/**
 * A held accounts_list call, ended by `end` once the server holds it
 * (`abort` sends notifications/cancelled); the call must fail and the
 * server see it cancelled.
 */
async function expectCancelled(
  client: Client,
  end: (abort: AbortController) => Promise<void>,
): Promise<void> {
  const { holding, cancelled } = grpc.held;
  grpc.holdNextList();
  const abort = new AbortController();
  const call = client
    .callTool(
      { name: "accounts_list", arguments: list },
      { signal: abort.signal },
    )
    .then(
      () => "answered",
      () => "failed",
    );
  await vi.waitFor(() => expect(grpc.held.holding).toBe(holding + 1));
  await end(abort);
  expect(await call).toBe("failed");
  await vi.waitFor(() => expect(grpc.held.cancelled).toBe(cancelled + 1));
  expect(grpc.held.holding).toBe(holding);
}

const cancel = (abort: AbortController) => {
  abort.abort(); // the SDK client sends notifications/cancelled
  return Promise.resolve();
};

describe("MCP maxResultBytes", () => {
  it("answers a result over the limit with isError asking for less", async () => {
    const client = await connectStdio(newServer({ maxResultBytes: 2000 }));
    const r = await callTool(client, "accounts_list", {
      ...strictDefaults.accounts_list,
      count: 20,
    });
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(
      /^result too large: \d+ bytes, over the limit of 2000; ask for less \(a smaller page size or a filter\)$/,
    );
    const stream = await callTool(client, "accounts_watch", { count: 1000 });
    expect(firstText(stream)).toBe(
      "result too large: more than 2000 bytes; ask for less (a smaller page size or a filter)",
    );
    expect(
      (await callTool(client, "accounts_watch", { count: 2 })).isError,
    ).toBeFalsy();
    await client.close();
  });

  it("holds for calls through the conversation store too (HTTP, 2026-07-28)", async () => {
    const http = await serveHttp(newServer({ maxResultBytes: 2000 }));
    try {
      const client = new Client(
        { name: "test", version: "1.0.0" },
        { versionNegotiation: { mode: "auto" } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url)),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const r = await callTool(client, "accounts_list", {
        ...strictDefaults.accounts_list,
        count: 20,
      });
      expect(r.isError).toBe(true);
      expect(firstText(r)).toMatch(
        /^result too large: \d+ bytes, over the limit of 2000; ask for less/,
      );
      await client.close();
    } finally {
      await http.close();
    }
  });

  it("is 100,000 bytes by default", async () => {
    const client = await connectStdio(newServer());
    const r = await callTool(client, "accounts_list", {
      ...strictDefaults.accounts_list,
      count: 600,
    });
    expect(firstText(r)).toMatch(/over the limit of 100000;/);
    await client.close();
  });
});

describe("MCP cancellation", () => {
  it("notifications/cancelled cancels the gRPC call (stdio)", async () => {
    const client = await connectStdio(newServer());
    await expectCancelled(client, cancel);
    await client.close();
  });

  it("a client that disconnects cancels its gRPC call (stdio)", async () => {
    const client = await connectStdio(newServer());
    await expectCancelled(client, () => client.close());
  });

  for (const mode of ["auto", "legacy"] as const) {
    const revision = mode === "auto" ? "2026-07-28" : "2025-11-25";
    it(`notifications/cancelled and a disconnect cancel the gRPC call (HTTP, ${revision})`, async () => {
      const http = await serveHttp(newServer());
      const connectHttp = async () => {
        const client = new Client(
          { name: "test", version: "1.0.0" },
          { versionNegotiation: { mode } },
        );
        await client.connect(
          new StreamableHTTPClientTransport(new URL(http.url)),
        );
        expect(client.getNegotiatedProtocolVersion()).toBe(revision);
        return client;
      };
      try {
        const a = await connectHttp();
        await expectCancelled(a, cancel);
        await a.close();
        const b = await connectHttp();
        await expectCancelled(b, () => b.close());
      } finally {
        await http.close();
      }
    });
  }
});
