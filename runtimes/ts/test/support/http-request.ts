// Plain HTTP requests for the gate's tests: every header set by the test
// (Host and Origin too, which fetch would not send as given), on a
// connection of their own, the response read whole.
import { request } from "node:http";

/** A response: status, lower-case headers, body text. */
export interface PlainResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly text: string;
}

/** What to send. */
export interface PlainRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Without Content-Length (chunked). */
  readonly chunked?: boolean;
}

/** Send a request to a URL's port (its path unless `path`). */
export function send(
  url: string,
  r: PlainRequest = {},
): Promise<PlainResponse> {
  const target = new URL(url);
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  const headers: Record<string, string> = {
    host: target.host,
    ...(body !== undefined && r.chunked !== true
      ? { "content-length": String(body.length) }
      : {}),
    ...(r.chunked === true ? { "transfer-encoding": "chunked" } : {}),
    ...r.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method: r.method ?? (body === undefined ? "GET" : "POST"),
        path: r.path ?? target.pathname,
        headers,
        agent: false,
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string | undefined>,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    // A 413 may come before the whole body is written.
    req.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EPIPE" && e.code !== "ECONNRESET") {
        reject(e);
      }
    });
    if (body !== undefined) {
      for (let i = 0; i < body.length; i += 16384) {
        req.write(body.subarray(i, i + 16384));
      }
    }
    req.end();
  });
}

/** The `_meta` envelope of a 2026-07-28 request. */
const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * A 2026-07-28 JSON-RPC request (`tools/list`, or `tools/call` of a tool)
 * as headers and body, optionally inside a batch.
 */
export function modernRpc(
  method: string,
  params: Record<string, unknown> = {},
  batch = false,
): { headers: Record<string, string>; body: string } {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { ...params, _meta: envelope },
  };
  return {
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
    },
    body: JSON.stringify(batch ? [message] : message),
  };
}

/** The JSON-RPC result of a response (JSON or an event stream). */
export function rpcResult(res: PlainResponse): Record<string, unknown> {
  const text = (res.headers["content-type"] ?? "").startsWith(
    "text/event-stream",
  )
    ? (res.text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .pop()
        ?.slice(5) ?? "")
    : res.text;
  const message = JSON.parse(text) as { result?: Record<string, unknown> };
  if (message.result === undefined) {
    throw new Error(`no result in ${text}`);
  }
  return message.result;
}

/** A `WWW-Authenticate` value parsed: scheme and quoted parameters. */
export function parseChallenge(header: string | undefined): {
  scheme: string;
  params: Record<string, string>;
} {
  const [scheme = "", ...rest] = (header ?? "").split(" ");
  const params: Record<string, string> = {};
  for (const m of rest.join(" ").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
    params[m[1] ?? ""] = (m[2] ?? "").replace(/\\(.)/g, "$1");
  }
  return { scheme, params };
}
