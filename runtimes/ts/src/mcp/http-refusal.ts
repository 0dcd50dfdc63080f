import type { ServerResponse } from "node:http";

/**
 * The codes of an HTTP-level refusal, the same in the Go, Python and
 * TypeScript runtimes (docs/production.md).
 */
export type RefusalCode =
  | "invalid_token"
  | "insufficient_scope"
  | "forbidden_host"
  | "forbidden_origin"
  | "request_too_large"
  | "shutting_down"
  | "session_not_found"
  | "request_timeout"
  | "method_not_allowed"
  | "internal_error";

/** An HTTP-level refusal: status, body and extra headers. */
export interface Refusal {
  readonly status: number;
  readonly code: RefusalCode;
  readonly description: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Write a refusal: `{"error": code, "error_description": text}` as JSON
 * with its status and headers (returns undefined: nothing more to do).
 */
export function writeRefusal(res: ServerResponse, refusal: Refusal): undefined {
  res
    .writeHead(refusal.status, {
      "content-type": "application/json",
      ...refusal.headers,
    })
    .end(
      JSON.stringify({
        error: refusal.code,
        error_description: refusal.description,
      }),
    );
  return undefined;
}

/**
 * Write a JSON-RPC error without an id (a request the SDK never saw:
 * not JSON, no session, a failure) with its HTTP status.
 */
export function writeRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
): undefined {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(
      JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    );
  return undefined;
}

/**
 * A `WWW-Authenticate: Bearer …` value (RFC 6750 §3): the parameters in
 * the order given, each a quoted string (`\` and `"` escaped, other
 * characters outside printable ASCII replaced by a space); parameters
 * without a value are left out.
 */
export function bearerChallenge(
  params: ReadonlyArray<readonly [string, string | undefined]>,
): string {
  const written = params.flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}="${quotedValue(value)}"`],
  );
  return `Bearer ${written.join(", ")}`;
}

function quotedValue(value: string): string {
  return value.replace(/[\\"]/g, "\\$&").replace(/[^\x20-\x7e]/g, " ");
}

/** The 500 of an unexpected failure: a fixed text, never its message. */
export const internalError: Refusal = {
  status: 500,
  code: "internal_error",
  description: "internal error",
};

/**
 * Log a failure of the server on stderr (the client gets a fixed text):
 * what failed, and the error with its stack.
 */
export function logServerError(what: string, e: unknown): void {
  console.error(`mcp http: ${what}:`, e);
}
