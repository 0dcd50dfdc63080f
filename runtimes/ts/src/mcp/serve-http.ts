import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  isLegacyRequest,
} from "@modelcontextprotocol/server";
import { createFlightCounter } from "./flight-counter.js";
import { isLoopbackHost } from "./host-origin.js";
import type { McpHttpOptions } from "./http-auth-options.js";
import { createHttpGate } from "./http-gate.js";
import {
  internalError,
  logServerError,
  writeRefusal,
  type Refusal,
} from "./http-refusal.js";
import { createHttpSessions } from "./http-sessions.js";
import { checkAuthorizedBind, checkPositive } from "./http-settings.js";
import { closeAfterResponse } from "./read-body.js";
import type { McpToolServer } from "./tool-server.js";

type NodeAdapter = typeof import("@modelcontextprotocol/node");
type NodeRequest = import("@modelcontextprotocol/node").NodeIncomingMessageLike;

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
 * an optional peer dependency, and `jose` for JWTs). Without allow-lists
 * it takes the loopback `Host` names and any loopback `Origin`, plus
 * `publicUrl`'s host and origin: behind a proxy or on a network, set
 * `publicUrl` or the lists. Throws an Error for `auth` without `publicUrl`.
 */
export async function createMcpHttpHandler(
  server: McpToolServer,
  options: McpHttpOptions = {},
): Promise<McpHttpHandler> {
  return createHandler(server, options, true);
}

async function createHandler(
  server: McpToolServer,
  options: McpHttpOptions,
  loopback: boolean,
): Promise<McpHttpHandler> {
  const gate = await createHttpGate(server, options, loopback);
  const node = await loadNodeAdapter();
  const modern = createMcpHandler(
    () => server.createSdkServer({ kind: "handle" }),
    { legacy: "reject" },
  );
  const serveModern = node.toNodeHandler(modern);
  const sessions = createHttpSessions(server, node);
  const flight = createFlightCounter();

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const admitted = await gate.admit(req, res);
    if (admitted === undefined) {
      return;
    }
    const { body, subject } = admitted;
    // Node's optional fields and the adapter's are typed apart
    // (exactOptionalPropertyTypes); the object is what it reads.
    const nodeReq = req as NodeRequest;
    const probe = await node.toWebRequest(nodeReq, body);
    if (await isLegacyRequest(probe, body)) {
      await sessions.serve(req, res, body, subject);
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
      logServerError("a request failed", e);
      if (!res.headersSent) {
        writeRefusal(res, internalError);
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
    metadataPaths: gate.metadataPaths,
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
