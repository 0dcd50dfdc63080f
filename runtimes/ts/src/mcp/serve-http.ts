import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
} from "@modelcontextprotocol/server";
import { defaultIdleTtlMs } from "../conversation-store.js";
import { mintConversationHandle } from "./conversation-handle.js";
import type { McpToolServer } from "./tool-server.js";

type NodeAdapter = typeof import("@modelcontextprotocol/node");
type NodeRequest = import("@modelcontextprotocol/node").NodeIncomingMessageLike;
type SessionTransport = InstanceType<
  NodeAdapter["NodeStreamableHTTPServerTransport"]
>;

/**
 * A Node `(req, res)` handler serving the tools over streamable HTTP, both
 * protocol revisions: 2026-07-28 requests (no session; the conversation is
 * the handle a call passes back) and 2025-11-25 sessions (one conversation
 * per `Mcp-Session-Id`, closed after the idle TTL).
 */
export interface McpHttpHandler {
  /** Serve one request (mount it at the MCP endpoint's path). */
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** End every session and in-flight exchange. */
  close(): Promise<void>;
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** The address to listen on; `127.0.0.1` by default. */
  readonly host?: string | undefined;
  /** The endpoint's path; `/mcp` by default. */
  readonly path?: string | undefined;
}

/** A running HTTP server of {@link serveHttp}. */
export interface RunningHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8080/mcp`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stop listening and end every session. */
  close(): Promise<void>;
}

/**
 * Create the HTTP handler of the tools (it loads `@modelcontextprotocol/node`,
 * an optional peer dependency).
 */
export async function createMcpHttpHandler(
  server: McpToolServer,
): Promise<McpHttpHandler> {
  const node = await loadNodeAdapter();
  const modern = createMcpHandler(
    () => server.createSdkServer({ kind: "handle" }),
    { legacy: "reject" },
  );
  const serveModern = node.toNodeHandler(modern);
  const ttl = server.options.idleTtlMs ?? defaultIdleTtlMs;
  const sessions = new Map<
    string,
    { transport: SessionTransport; used: number }
  >();
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) {
        if (now - s.used >= ttl) {
          sessions.delete(id);
          void s.transport.close();
        }
      }
    },
    Math.min(ttl, 60_000),
  );
  sweep.unref();

  const serveLegacy = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const s = sessions.get(id);
      if (s === undefined) {
        return reply(res, 404, -32001, "Session not found");
      }
      s.used = Date.now();
      cancelOnDisconnect(s.transport, res, body);
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return reply(res, 400, -32000, "Bad Request: No valid session ID");
    }
    const transport: SessionTransport =
      new node.NodeStreamableHTTPServerTransport({
        sessionIdGenerator: mintConversationHandle,
        onsessioninitialized: (sid) => {
          sessions.set(sid, { transport, used: Date.now() });
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
        },
      });
    const sdk = server.createSdkServer({
      kind: "connection",
      aliases: server.createAliasManager(),
    });
    await sdk.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      let body: unknown;
      if (req.method === "POST") {
        const read = await readBody(req);
        if (read.text === undefined) {
          const cut = read.tooLarge === "cut";
          if (cut) {
            // Too much to drain: the connection ends with the answer.
            res.once("finish", () => req.socket.destroy());
          }
          return reply(
            res,
            413,
            -32600,
            "Request body too large",
            cut ? { connection: "close" } : {},
          );
        }
        try {
          body = JSON.parse(read.text) as unknown;
        } catch {
          return reply(res, 400, -32700, "Parse error: invalid JSON");
        }
      }
      // Node's optional fields and the adapter's are typed apart
      // (exactOptionalPropertyTypes); the object is what it reads.
      const nodeReq = req as NodeRequest;
      const probe = await node.toWebRequest(nodeReq, body);
      if (await isLegacyRequest(probe, body)) {
        await serveLegacy(req, res, body);
      } else {
        await serveModern(nodeReq, res, body);
      }
    } catch (e) {
      if (!res.headersSent) {
        reply(res, 500, -32603, e instanceof Error ? e.message : String(e));
      } else {
        res.end();
      }
    }
  };
  return Object.assign(handler, {
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.transport.close()));
      await modern.close();
    },
  });
}

/**
 * Listen on a port and serve the tools over streamable HTTP at one path
 * (other paths answer 404); localhost-only Host headers are accepted when
 * listening on a loopback address.
 */
export async function serveHttp(
  server: McpToolServer,
  options: ServeHttpOptions = {},
): Promise<RunningHttpServer> {
  const node = await loadNodeAdapter();
  const handler = await createMcpHttpHandler(server);
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const loopback = ["127.0.0.1", "localhost", "::1"].includes(host);
  const validHost = loopback ? node.localhostHostValidation() : undefined;
  const http = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://x").pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    if (validHost !== undefined && !validHost(req, res)) {
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function loadNodeAdapter(): Promise<NodeAdapter> {
  try {
    return await import("@modelcontextprotocol/node");
  } catch (e) {
    throw new Error(
      "serving MCP over HTTP needs @modelcontextprotocol/node: install it next to @modelcontextprotocol/server",
      { cause: e },
    );
  }
}

/** The most bytes a request body may have (the SDK's default bound). */
const maxBodyBytes = 4 * 1024 * 1024;

/**
 * The most bytes past {@link maxBodyBytes} read and dropped so that a
 * keep-alive connection outlives a 413; past them the connection is closed.
 */
const maxDrainBytes = 1024 * 1024;

/** A request body read: its text, or why not. */
type ReadBody =
  | { readonly text: string; readonly tooLarge?: undefined }
  | { readonly text?: undefined; readonly tooLarge: "drained" | "cut" };

/**
 * The request body as text, unless past {@link maxBodyBytes}. A body past
 * the limit is still read to its end and dropped (`drained`: what a 413
 * left unread would be taken for the next request of a keep-alive
 * connection), up to {@link maxDrainBytes} more; past those, reading stops
 * (`cut`) and the connection must close.
 */
function readBody(req: IncomingMessage): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
      } else if (size <= maxBodyBytes + maxDrainBytes) {
        chunks.length = 0;
      } else {
        req.off("data", onData).off("end", onEnd).pause();
        resolve({ tooLarge: "cut" });
      }
    };
    const onEnd = () => {
      resolve(
        size > maxBodyBytes
          ? { tooLarge: "drained" }
          : { text: Buffer.concat(chunks).toString("utf8") },
      );
    };
    req.on("data", onData).once("end", onEnd).once("error", reject);
  });
}

/**
 * When the connection of a session's POST closes before its response is
 * written (the client went away), cancel the requests it carried, as a
 * `notifications/cancelled` from the client would: their gRPC calls end.
 */
function cancelOnDisconnect(
  transport: SessionTransport,
  res: ServerResponse,
  body: unknown,
): void {
  const ids = (Array.isArray(body) ? body : [body]).flatMap((m: unknown) =>
    typeof m === "object" &&
    m !== null &&
    "method" in m &&
    "id" in m &&
    (typeof m.id === "string" || typeof m.id === "number")
      ? [m.id]
      : [],
  );
  if (ids.length === 0) {
    return;
  }
  res.on("close", () => {
    if (res.writableFinished) {
      return;
    }
    for (const requestId of ids) {
      transport.onmessage?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason: "the client disconnected" },
      });
    }
  });
}

function reply(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(
      JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    );
}
