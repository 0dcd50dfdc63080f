import type { IncomingMessage, ServerResponse } from "node:http";
import { isInitializeRequest } from "@modelcontextprotocol/server";
import { defaultIdleTtlMs } from "../conversation-store.js";
import { mintConversationHandle } from "./conversation-handle.js";
import { writeRefusal, writeRpcError } from "./http-refusal.js";
import type { McpToolServer } from "./tool-server.js";

type NodeAdapter = typeof import("@modelcontextprotocol/node");
type SessionTransport = InstanceType<
  NodeAdapter["NodeStreamableHTTPServerTransport"]
>;

/**
 * The 2025-11-25 sessions of a handler: one conversation per
 * `Mcp-Session-Id`, closed after the idle TTL, each answering only the
 * subject that opened it.
 */
export interface HttpSessions {
  /**
   * Serve a 2025-11-25 request of `subject`: in its session, or opening
   * one (`initialize`); another subject's session is not found (404
   * `session_not_found`, as an unknown id).
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    subject: string,
  ): Promise<void>;
  /** End every session. */
  close(): Promise<void>;
}

/** The sessions of a tool server. */
export function createHttpSessions(
  server: McpToolServer,
  node: NodeAdapter,
): HttpSessions {
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
  const open = async (subject: string) => {
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
  };
  return {
    async serve(req, res, body, subject) {
      const id = req.headers["mcp-session-id"];
      if (typeof id === "string") {
        const s = sessions.get(id);
        if (s === undefined || s.subject !== subject) {
          return writeRefusal(res, {
            status: 404,
            code: "session_not_found",
            description: "session not found: initialize a new one",
          });
        }
        s.used = Date.now();
        cancelOnDisconnect(s.transport, res, body);
        return s.transport.handleRequest(req, res, body);
      }
      if (req.method !== "POST" || !isInitializeRequest(body)) {
        return writeRpcError(
          res,
          400,
          -32000,
          "Bad Request: No valid session ID",
        );
      }
      const transport = await open(subject);
      await transport.handleRequest(req, res, body);
    },
    async close() {
      clearInterval(sweep);
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.transport.close()));
    },
  };
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
