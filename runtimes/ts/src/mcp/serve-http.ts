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
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { defaultIdleTtlMs } from "../conversation-store.js";
import { createBearerGate, sortedUnique } from "./bearer-gate.js";
import { mintConversationHandle } from "./conversation-handle.js";
import {
  checkHostOrigin,
  hostOriginPolicy,
  isLoopbackHost,
} from "./host-origin.js";
import type { McpHttpOptions } from "./http-auth-options.js";
import { writeRefusal, type Refusal } from "./http-refusal.js";
import {
  checkAuthorizedBind,
  checkHttpOptions,
  checkPositive,
} from "./http-settings.js";
import {
  protectedResourceOf,
  writeProtectedResourceMetadata,
} from "./protected-resource.js";
import { closeAfterResponse, readBody } from "./read-body.js";
import { checkToolScopes } from "./scope-check.js";
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
 * per `Mcp-Session-Id`, closed after the idle TTL). With `auth`, every
 * request needs a bearer token, and a session answers only the subject
 * that opened it.
 */
export interface McpHttpHandler {
  /**
   * Serve one request: mount it at the MCP endpoint's path, and with
   * `auth` at {@link McpHttpHandler.metadataPaths} too.
   */
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * The paths of the protected resource metadata it answers (RFC 9728):
   * `/.well-known/oauth-protected-resource` + the public URL's path, and
   * the root one; none without `auth`.
   */
  readonly metadataPaths: readonly string[];
  /**
   * Refuse new requests (503 `shutting_down`), wait up to `graceMs` (10 s
   * by default) for the requests in flight, then close.
   */
  shutdown(graceMs?: number): Promise<void>;
  /** End every session and in-flight exchange. */
  close(): Promise<void>;
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions extends McpHttpOptions {
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /**
   * The address to listen on; `127.0.0.1` by default. A non-loopback
   * address (`0.0.0.0` included) needs `auth` or `allowUnauthenticated`.
   */
  readonly host?: string | undefined;
  /** The endpoint's path; `/mcp` by default. */
  readonly path?: string | undefined;
  /**
   * How long `close()` waits for the calls in flight, in milliseconds;
   * 10,000 by default.
   */
  readonly shutdownGraceMs?: number | undefined;
  /**
   * The most connections open at once (more are closed as they arrive);
   * 1024 by default. Headers must arrive within 10 s, and an idle
   * keep-alive connection closes after 5 s.
   */
  readonly maxConnections?: number | undefined;
}

/** A running HTTP server of {@link serveHttp}. */
export interface RunningHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8080/mcp`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /**
   * Stop listening, refuse new requests (503 `shutting_down`), let the
   * calls in flight finish (up to `shutdownGraceMs`), then end every
   * session and connection.
   */
  close(): Promise<void>;
}

/** How long {@link McpHttpHandler.shutdown} waits by default. */
const defaultShutdownGraceMs = 10_000;

/**
 * Create the HTTP handler of the tools (it loads `@modelcontextprotocol/node`,
 * an optional peer dependency, and `jose` for JWTs). Without `publicUrl`
 * or allow-lists it checks no `Host` or `Origin` header: the application
 * mounting it does. Throws an Error for `auth` without `publicUrl`.
 */
export async function createMcpHttpHandler(
  server: McpToolServer,
  options: McpHttpOptions = {},
): Promise<McpHttpHandler> {
  return createHandler(server, options, undefined);
}

async function createHandler(
  server: McpToolServer,
  options: McpHttpOptions,
  loopback: boolean | undefined,
): Promise<McpHttpHandler> {
  const { maxBodyBytes } = checkHttpOptions(options);
  const node = await loadNodeAdapter();
  const resource =
    options.auth !== undefined && options.publicUrl !== undefined
      ? protectedResourceOf(options.publicUrl)
      : undefined;
  const gate =
    options.auth !== undefined && resource !== undefined
      ? await createBearerGate(options.auth, resource)
      : undefined;
  const policy = hostOriginPolicy(options, loopback);
  const modern = createMcpHandler(
    () => server.createSdkServer({ kind: "handle" }),
    { legacy: "reject" },
  );
  const serveModern = node.toNodeHandler(modern);
  const sessions = createSessions(server);
  const flight = createFlightCounter();

  const serveLegacy = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    subject: string,
  ) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const s = sessions.get(id, subject);
      if (s === undefined) {
        return writeRefusal(res, {
          status: 404,
          code: "session_not_found",
          description: "session not found: initialize a new one",
        });
      }
      cancelOnDisconnect(s, res, body);
      return s.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return reply(res, 400, -32000, "Bad Request: No valid session ID");
    }
    const transport = await sessions.open(node, subject);
    await transport.handleRequest(req, res, body);
  };

  const scopesSupported = () =>
    sortedUnique([
      ...(gate?.scopes ?? []),
      ...server.listTools().flatMap((t) => server.requiredScopes(t.name)),
    ]);

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = checkHostOrigin(req, policy);
    if (refused !== undefined) {
      return writeRefusal(res, refused);
    }
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    if (resource !== undefined && resource.paths.includes(pathname)) {
      return writeProtectedResourceMetadata(req.method, res, {
        resource: resource.resource,
        authorization_servers:
          options.auth !== undefined && "issuer" in options.auth
            ? [options.auth.issuer]
            : [...(options.auth?.authorizationServers ?? [])],
        bearer_methods_supported: ["header"],
        scopes_supported: scopesSupported(),
      });
    }
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBodyBytes);
      if (read.text === undefined) {
        if (read.tooLarge === "cut") {
          closeAfterResponse(req, res);
        }
        return writeRefusal(res, {
          status: 413,
          code: "request_too_large",
          description: `the request body is over ${String(maxBodyBytes)} bytes`,
        });
      }
      try {
        body = JSON.parse(read.text) as unknown;
      } catch {
        return reply(res, 400, -32700, "Parse error: invalid JSON");
      }
    }
    let subject = "";
    if (gate !== undefined) {
      const checked = await gate.check(req);
      if ("refusal" in checked) {
        return writeRefusal(res, checked.refusal);
      }
      const refusal = checkToolScopes(
        body,
        checked.identity,
        (tool) => server.requiredScopes(tool),
        gate,
      );
      if (refusal !== undefined) {
        return writeRefusal(res, refusal);
      }
      subject = checked.identity.subject;
      // The SDK hands it to the handlers (both revisions) as ctx.http.authInfo.
      (req as IncomingMessage & { auth?: AuthInfo }).auth = checked.authInfo;
    }
    // Node's optional fields and the adapter's are typed apart
    // (exactOptionalPropertyTypes); the object is what it reads.
    const nodeReq = req as NodeRequest;
    const probe = await node.toWebRequest(nodeReq, body);
    if (await isLegacyRequest(probe, body)) {
      await serveLegacy(req, res, body, subject);
    } else {
      await serveModern(nodeReq, res, body);
    }
  };

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    if (flight.draining) {
      closeAfterResponse(req, res);
      return writeRefusal(res, shuttingDown);
    }
    if (req.method === "POST") {
      flight.start(res);
    }
    try {
      await serve(req, res);
    } catch (e) {
      if (!res.headersSent) {
        reply(res, 500, -32603, e instanceof Error ? e.message : String(e));
      } else {
        res.end();
      }
    }
  };
  const close = async () => {
    await sessions.close();
    await modern.close();
  };
  return Object.assign(handler, {
    metadataPaths: resource?.paths ?? [],
    async shutdown(graceMs = defaultShutdownGraceMs) {
      await flight.drain(graceMs);
      await close();
    },
    close,
  });
}

const shuttingDown: Refusal = {
  status: 503,
  code: "shutting_down",
  description: "the server is shutting down: retry on another instance",
};

/**
 * Listen on a port and serve the tools over streamable HTTP at one path,
 * and with `auth` the protected resource metadata (other paths answer
 * 404). Refuses to start (throws) on a non-loopback address without
 * `auth` or `allowUnauthenticated`, and for `auth` without `publicUrl`.
 *
 * On SIGTERM, call `close()`: new requests are refused, calls in flight
 * finish, then the process may exit:
 *
 * ```ts
 * const running = await serveHttp(server, options);
 * process.once("SIGTERM", () => void running.close().then(() => process.exit(0)));
 * ```
 */
export async function serveHttp(
  server: McpToolServer,
  options: ServeHttpOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  checkAuthorizedBind(host, options);
  const grace = options.shutdownGraceMs ?? defaultShutdownGraceMs;
  if (!Number.isSafeInteger(grace) || grace < 0) {
    throw new Error(
      `shutdownGraceMs ${String(grace)} is not a whole number of milliseconds: leave it out for 10,000`,
    );
  }
  const maxConnections = options.maxConnections ?? 1024;
  checkPositive("maxConnections", maxConnections);
  const handler = await createHandler(server, options, isLoopbackHost(host));
  const http = createServer(
    {
      headersTimeout: 10_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      const pathname = new URL(req.url ?? "/", "http://x").pathname;
      if (pathname !== path && !handler.metadataPaths.includes(pathname)) {
        res.writeHead(404).end();
        return;
      }
      void handler(req, res);
    },
  );
  http.maxConnections = maxConnections;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) =>
          http.close(() => resolve()),
        );
        http.closeIdleConnections();
        await handler.shutdown(grace);
        http.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** The 2025-11-25 sessions of a handler, each bound to its subject. */
interface Sessions {
  /** The session `id` opened by `subject`, marked used; else undefined. */
  get(id: string, subject: string): SessionTransport | undefined;
  /** A new session of `subject`, connected to a fresh SDK server. */
  open(node: NodeAdapter, subject: string): Promise<SessionTransport>;
  /** End every session. */
  close(): Promise<void>;
}

function createSessions(server: McpToolServer): Sessions {
  const ttl = server.options.idleTtlMs ?? defaultIdleTtlMs;
  const sessions = new Map<
    string,
    { transport: SessionTransport; used: number; subject: string }
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
  return {
    get(id, subject) {
      const s = sessions.get(id);
      if (s === undefined || s.subject !== subject) {
        return undefined;
      }
      s.used = Date.now();
      return s.transport;
    },
    async open(node, subject) {
      const transport: SessionTransport =
        new node.NodeStreamableHTTPServerTransport({
          sessionIdGenerator: mintConversationHandle,
          onsessioninitialized: (sid) => {
            sessions.set(sid, { transport, used: Date.now(), subject });
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
      return transport;
    },
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.transport.close()));
    },
  };
}

/** Counts the POST requests in flight, for a graceful shutdown. */
interface FlightCounter {
  /** Whether new requests are refused. */
  readonly draining: boolean;
  /** Count a request until its response closes. */
  start(res: ServerResponse): void;
  /** Refuse new requests; resolve when none is in flight, or after `ms`. */
  drain(ms: number): Promise<void>;
}

function createFlightCounter(): FlightCounter {
  let count = 0;
  let idle: (() => void) | undefined;
  const counter = {
    draining: false,
    start(res: ServerResponse) {
      count++;
      res.once("close", () => {
        if (--count === 0) {
          idle?.();
        }
      });
    },
    async drain(ms: number) {
      counter.draining = true;
      if (count === 0) {
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
    },
  };
  return counter;
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
): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(
      JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    );
}
