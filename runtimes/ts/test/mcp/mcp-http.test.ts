import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { connect as connectSocket, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMcpToolServer,
  createMemoryConversationStore,
  serveHttp,
  type RunningHttpServer,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import {
  strictDefaults,
  aitestAliases,
  noAliases,
} from "../support/aitest-tools.js";
import { callTool } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

let grpc: AitestServer;
let http: RunningHttpServer;

beforeAll(async () => {
  grpc = await startAitestServer();
  const server = createMcpToolServer({ handleArgument: true });
  server.addTools({
    methods: aitestMcpMethods,
    aliases: aitestAliases,
    transport: grpc.transport,
  });
  http = await serveHttp(server);
});

afterAll(async () => {
  await http.close();
  await grpc.close();
});

async function connect(mode: "auto" | "legacy"): Promise<Client> {
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { versionNegotiation: { mode } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  expect(client.getNegotiatedProtocolVersion()).toBe(
    mode === "auto" ? "2026-07-28" : "2025-11-25",
  );
  return client;
}

const key = "ai-tools/conversation";

describe("streamable HTTP, 2026-07-28", () => {
  it("mints a handle and finds the conversation by _meta or argument", async () => {
    const client = await connect("auto");
    const first = await callTool(client, "accounts_create", {
      ...strictDefaults.accounts_create,
      name: "a",
      owner_id: randomUUID(),
    });
    expect(first.isError).toBeFalsy();
    const handle = first._meta?.[key];
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.content[1]).toEqual({
      type: "text",
      text: `conversation: ${String(handle)}`,
    });
    // Without the handle: a new conversation, where acct-1 is unknown.
    const lost = await callTool(client, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
    });
    expect(lost.isError).toBe(true);
    // By _meta (an application hosting the model).
    const byMeta = await callTool(
      client,
      "accounts_merge",
      {
        ...strictDefaults.accounts_merge,
        source_id: "acct-1",
        target_id: "acct-1",
      },
      { [key]: handle },
    );
    expect(byMeta.isError).toBeFalsy();
    expect(byMeta._meta?.[key]).toBe(handle);
    // By argument (the model carries it).
    const byArg = await callTool(client, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
      conversation: handle,
    });
    expect(byArg.isError).toBeFalsy();
    expect(byArg.structuredContent).toMatchObject({
      account: { id: "acct-1" },
    });
    await client.close();
  });

  it("has no conversation for tools whose file declares no alias prefix", async () => {
    // Nothing to remember between calls: no handle is minted, shown,
    // listed or read (as the Go file without aliases has no
    // conversations), and nothing is stored.
    const memory = createMemoryConversationStore();
    let created = 0;
    const server = createMcpToolServer({
      handleArgument: true,
      conversationStore: {
        ...memory,
        create: () => {
          created++;
          return memory.create();
        },
      },
    });
    server.addTools({
      methods: aitestMcpMethods,
      aliases: noAliases,
      transport: grpc.transport,
    });
    const plain = await serveHttp(server);
    try {
      const client = new Client(
        { name: "test", version: "1.0.0" },
        { versionNegotiation: { mode: "auto" } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(plain.url)),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      for (const t of tools) {
        expect(Object.keys(t.inputSchema.properties ?? {})).not.toContain(
          "conversation",
        );
      }
      const result = await callTool(
        client,
        "accounts_create",
        {
          ...strictDefaults.accounts_create,
          name: "a",
          owner_id: randomUUID(),
        },
        { [key]: "nope" },
      );
      expect(result.isError).toBeFalsy();
      expect(result.content).toHaveLength(1);
      expect(result._meta?.[key]).toBeUndefined();
      expect(result.structuredContent).toMatchObject({
        account: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown },
      });
      expect(created).toBe(0);
      await client.close();
    } finally {
      await plain.close();
    }
  });

  it("answers an unknown handle with isError telling what to do", async () => {
    const client = await connect("auto");
    const r = await callTool(client, "accounts_list", {
      ...strictDefaults.accounts_list,
      count: 1,
      conversation: "AAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(r.isError).toBe(true);
    expect(r.content).toEqual([
      {
        type: "text",
        text: 'unknown or expired conversation "AAAAAAAAAAAAAAAAAAAAAA"; call again without "conversation" to start a new one',
      },
    ]);
    await client.close();
  });
});

describe("a conversation the store loses during a call", () => {
  it("is named as the model knows it: no handle when the call made it", async () => {
    // Deleted before its ids are registered: the model never saw the handle
    // of the conversation made for the failed call; a handle it passed gets
    // the unknown-handle text.
    const memory = createMemoryConversationStore();
    let lose = false;
    const server = createMcpToolServer({
      conversationStore: {
        ...memory,
        register: async (handle, epoch, pairs) => {
          if (lose) {
            await memory.delete(handle);
          }
          return memory.register(handle, epoch, pairs);
        },
      },
    });
    server.addTools({
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
    });
    const lossy = await serveHttp(server);
    try {
      const client = new Client(
        { name: "test", version: "1.0.0" },
        { versionNegotiation: { mode: "auto" } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(lossy.url)),
      );
      const args = { ...strictDefaults.accounts_list, count: 1 };
      lose = true;
      const made = await callTool(client, "accounts_list", args);
      expect(made.isError).toBe(true);
      expect(made.content).toEqual([
        {
          type: "text",
          text: "this conversation expired or was lost: start a new conversation",
        },
      ]);
      lose = false;
      const first = await callTool(client, "accounts_list", args);
      const handle = first._meta?.[key] as string;
      expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
      lose = true;
      const passed = await callTool(client, "accounts_list", args, {
        [key]: handle,
      });
      expect(passed.content).toEqual([
        {
          type: "text",
          text: `unknown or expired conversation "${handle}"; call again without "conversation" to start a new one`,
        },
      ]);
      await client.close();
    } finally {
      await lossy.close();
    }
  });
});

describe("streamable HTTP, 2025-11-25 sessions", () => {
  it("keeps one conversation per session, and two sessions apart", async () => {
    const a = await connect("legacy");
    const b = await connect("legacy");
    const created = await callTool(a, "accounts_create", {
      ...strictDefaults.accounts_create,
      name: "a",
      owner_id: randomUUID(),
    });
    expect(created._meta?.[key]).toBeUndefined();
    expect(created.content).toHaveLength(1);
    const again = await callTool(a, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
    });
    expect(again.isError).toBeFalsy();
    const other = await callTool(b, "accounts_merge", {
      ...strictDefaults.accounts_merge,
      source_id: "acct-1",
      target_id: "acct-1",
    });
    expect(other.isError).toBe(true);
    await a.close();
    await b.close();
  });

  it("answers a request of an unknown session with 404", async () => {
    const res = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "nope",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });
});

describe("streamable HTTP, idle TTL", () => {
  it("closes a 2025-11-25 session idle past the TTL", async () => {
    const server = createMcpToolServer({ idleTtlMs: 200 });
    server.addTools({
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
    });
    const short = await serveHttp(server);
    try {
      const client = new Client(
        { name: "test", version: "1.0.0" },
        { versionNegotiation: { mode: "legacy" } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(short.url)),
      );
      const r = await callTool(client, "accounts_list", {
        ...strictDefaults.accounts_list,
        count: 1,
      });
      expect(r.isError).toBeFalsy();
      await new Promise((resolve) => setTimeout(resolve, 700));
      await expect(
        callTool(client, "accounts_list", {
          ...strictDefaults.accounts_list,
          count: 1,
        }),
      ).rejects.toThrow(/"error":"session_not_found"/);
      await client.close();
    } finally {
      await short.close();
    }
  });
});

describe("streamable HTTP, bad requests", () => {
  it("answers invalid JSON with 400 and a body past 4 MiB with 413", async () => {
    const post = (body: string) =>
      fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body,
      });
    expect((await post("{not json")).status).toBe(400);
    expect((await post(" ".repeat(5 * 1024 * 1024))).status).toBe(413);
  });

  it("keeps a keep-alive connection usable after a 413", async () => {
    const { port } = new URL(http.url);
    const socket = connectSocket(Number(port), "127.0.0.1");
    await once(socket, "connect");
    const responses = readResponses(socket);
    const request = (body: string) =>
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n` +
      `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    socket.write(request(" ".repeat(5 * 1024 * 1024)));
    const first = await responses.next();
    expect(first.status).toBe(413);
    // The same socket: the rest of the big body was read and dropped.
    socket.write(request("{not json"));
    const second = await responses.next();
    expect(second.status).toBe(400);
    expect(JSON.parse(second.body)).toMatchObject({ error: { code: -32700 } });
    expect(socket.destroyed).toBe(false);
    socket.destroy();
  });

  it("closes the connection after a 413 when the body goes on past 5 MiB", async () => {
    const { port } = new URL(http.url);
    const socket = connectSocket(Number(port), "127.0.0.1");
    await once(socket, "connect");
    socket.on("error", () => {}); // the server stops reading: EPIPE, ECONNRESET
    let received = "";
    socket.on(
      "data",
      (chunk: Buffer) => (received += chunk.toString("latin1")),
    );
    const closed = new Promise<void>((resolve) =>
      socket.once("close", () => resolve()),
    );
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n`,
    );
    // An endless body: 64 KiB chunks until the server has answered and gone.
    const chunk = `10000\r\n${" ".repeat(0x10000)}\r\n`;
    let sent = 0;
    while (!socket.destroyed && received === "" && sent < 64 * 1024 * 1024) {
      sent += 0x10000;
      if (!socket.write(chunk)) {
        await Promise.race([
          new Promise((resolve) => socket.once("drain", resolve)),
          closed,
        ]);
      }
    }
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(received).toContain('"error":"request_too_large"');
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
});

/**
 * The HTTP/1.1 responses arriving on a socket, one at a time (a body of a
 * Content-Length, or chunked).
 */
function readResponses(socket: Socket): {
  next(): Promise<{ status: number; body: string }>;
} {
  let buffered = Buffer.alloc(0);
  const waiting: (() => void)[] = [];
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting.splice(0).forEach((wake) => wake());
  });
  const take = (): { status: number; body: string } | undefined => {
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) return undefined;
    const head = buffered.subarray(0, end).toString("latin1");
    const status = Number(head.split(" ")[1]);
    let at = end + 4;
    if (!/transfer-encoding: *chunked/i.test(head)) {
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? "0");
      if (buffered.length < at + length) return undefined;
      const body = buffered.subarray(at, at + length).toString("utf8");
      buffered = buffered.subarray(at + length);
      return { status, body };
    }
    const parts: Buffer[] = [];
    for (;;) {
      const line = buffered.indexOf("\r\n", at);
      if (line < 0) return undefined;
      const size = parseInt(buffered.subarray(at, line).toString("latin1"), 16);
      if (buffered.length < line + 2 + size + 2) return undefined;
      parts.push(buffered.subarray(line + 2, line + 2 + size));
      at = line + 2 + size + 2;
      if (size === 0) break;
    }
    buffered = buffered.subarray(at);
    return { status, body: Buffer.concat(parts).toString("utf8") };
  };
  return {
    async next() {
      for (;;) {
        const r = take();
        if (r !== undefined) return r;
        if (socket.destroyed || socket.readableEnded) {
          throw new Error("the server closed the connection");
        }
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          socket.once("close", resolve);
        });
      }
    },
  };
}
