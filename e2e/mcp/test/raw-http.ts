// Raw HTTP to an MCP server, every header written by the test (Host and
// Origin included, which fetch would not let it set), and the JSON-RPC
// requests of both protocol revisions as the official TypeScript client
// writes them.
import { request as httpRequest } from "node:http";

/** An HTTP request. */
export interface RawRequest {
  readonly port: number;
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Send the body without Content-Length (chunked). */
  readonly chunked?: boolean;
}

/** An HTTP response, its body read whole. */
export interface RawResponse {
  readonly status: number;
  /** Header names lower-case; repeated headers joined by ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/**
 * Send one request on a connection of its own and read the whole response.
 * A server that closes the connection while the body is still being sent
 * (a 413 before reading it) still gives its response.
 */
export function rawRequest(r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      host: `127.0.0.1:${String(r.port)}`,
      ...lowerKeys(r.headers ?? {}),
    };
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    if (body !== undefined && r.chunked !== true)
      headers["content-length"] = String(body.length);
    if (r.chunked === true) headers["transfer-encoding"] = "chunked";
    let answered = false;
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: r.port,
        method: r.method ?? "POST",
        path: r.path,
        headers,
        agent: false,
        setHost: false,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: out,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    // A server may answer and close before the whole body is written.
    req.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EPIPE" && e.code !== "ECONNRESET") reject(e);
    });
    req.on("close", () => {
      // No response at all: the reset was the answer.
      if (!answered) reject(new Error("the server closed the connection"));
    });
    if (body !== undefined && r.chunked === true) {
      // Several chunks, as a streaming client sends them.
      for (let i = 0; i < body.length; i += 16384)
        req.write(body.subarray(i, i + 16384));
    } else if (body !== undefined) req.write(body);
    req.end();
  });
}

function lowerKeys(
  h: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]),
  );
}

/** A parsed `WWW-Authenticate` challenge. */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/**
 * Parse one challenge, `Bearer k="v", k2=token` (RFC 9110 auth-param:
 * quoted strings with backslash escapes, or tokens).
 */
export function parseChallenge(header: string): Challenge {
  const m = /^\s*([!#$%&'*+.^_`|~\w-]+)\s*/.exec(header);
  if (m === null)
    throw new Error(`no auth scheme in ${JSON.stringify(header)}`);
  const params: Record<string, string> = {};
  let rest = header.slice(m[0].length);
  const param =
    /^([!#$%&'*+.^_`|~\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+.^_`|~\w/:-]+))\s*(?:,\s*|$)/;
  while (rest.length > 0) {
    const p = param.exec(rest);
    if (p === null)
      throw new Error(
        `bad auth-param at ${JSON.stringify(rest)} in ${JSON.stringify(header)}`,
      );
    const value = p[2] !== undefined ? p[2].replace(/\\(.)/g, "$1") : p[3]!;
    params[p[1]!.toLowerCase()] = value;
    rest = rest.slice(p[0].length);
  }
  return { scheme: m[1]!, params };
}

/** The protocol revisions. */
export type Revision = "2025-11-25" | "2026-07-28";

/** The `_meta` envelope every 2026-07-28 request carries. */
export const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "e2e-security", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
} as const;

/** A JSON-RPC request of the suite. */
export interface Rpc {
  readonly id: number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** `tools/call` params: a tool, its arguments, and `_meta` to add. */
export function callParams(
  tool: string,
  args: unknown,
  meta: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: tool,
    arguments: args,
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}

/**
 * The headers and body of a JSON-RPC request on a revision, as the
 * TypeScript client writes them: on 2026-07-28 the `Mcp-Method` and
 * `Mcp-Name` headers and the `_meta` envelope; on 2025-11-25 the session.
 */
export function rpcMessage(
  rpc: Rpc,
  revision: Revision,
  session?: string,
): { headers: Record<string, string>; body: Record<string, unknown> } {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const params: Record<string, unknown> = { ...(rpc.params ?? {}) };
  if (revision === "2026-07-28") {
    headers["mcp-protocol-version"] = "2026-07-28";
    headers["mcp-method"] = rpc.method;
    const name = params["name"];
    if (rpc.method === "tools/call" && typeof name === "string")
      headers["mcp-name"] = name;
    params["_meta"] = {
      ...envelope,
      ...(params["_meta"] as object | undefined),
    };
  } else if (session !== undefined) {
    headers["mcp-protocol-version"] = "2025-11-25";
    headers["mcp-session-id"] = session;
  }
  return {
    headers,
    body: { jsonrpc: "2.0", id: rpc.id, method: rpc.method, params },
  };
}

/**
 * The JSON-RPC messages of a response: its JSON body, or the `data:` lines
 * of its event stream.
 */
export function rpcMessages(res: RawResponse): Record<string, unknown>[] {
  const type = res.headers["content-type"] ?? "";
  if (type.startsWith("text/event-stream")) {
    return res.text
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trim())
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  const parsed = JSON.parse(res.text) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]) as Record<
    string,
    unknown
  >[];
}

/** The answer to request id in a response; throws naming what came instead. */
export function rpcAnswer(
  res: RawResponse,
  id: number,
): {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
} {
  const answer = rpcMessages(res).find((m) => m["id"] === id);
  if (answer === undefined)
    throw new Error(
      `no answer to request ${String(id)} in ${res.status} ${res.text.slice(0, 500)}`,
    );
  return answer;
}
