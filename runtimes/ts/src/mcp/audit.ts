/**
 * How a call ended, for the audit: `ok`; `tool_error` (the server, or
 * reaching it, failed: `code` says how); `invalid_arguments` (a mistake of
 * the model caught before sending); `denied` (not approved); `limited`
 * (rate or concurrency limit); `unauthorized` (a handle the caller does
 * not own, answered as unknown).
 */
export type AuditOutcome =
  | "ok"
  | "tool_error"
  | "invalid_arguments"
  | "denied"
  | "limited"
  | "unauthorized";

/**
 * One tool call as the audit hook receives it: who, what, how it ended and
 * how long it took. Never argument values, ids or tokens.
 */
export interface AuditRecord {
  /** When the call started, RFC 3339 in UTC with milliseconds. */
  readonly time: string;
  /** The caller's verified subject; `""` without authorization. */
  readonly subject: string;
  /** The tool's name. */
  readonly tool: string;
  /** The full gRPC method name, `/pkg.Service/Method`. */
  readonly method: string;
  /** How the call ended. */
  readonly outcome: AuditOutcome;
  /** The gRPC code name of a `tool_error` (`NOT_FOUND`). */
  readonly code?: string | undefined;
  /** How long the call took, in milliseconds (to the microsecond). */
  readonly durationMs: number;
}

/** Receives one {@link AuditRecord} per call. */
export type AuditHook = (record: AuditRecord) => void;

/** What {@link createJsonLinesAuditWriter} writes to. */
export interface AuditStream {
  write(chunk: string): unknown;
}

/**
 * An audit hook writing each record as one line of JSON to stream (e.g.
 * `process.stderr`, or a file's write stream), keys in the order of
 * {@link AuditRecord}.
 */
export function createJsonLinesAuditWriter(stream: AuditStream): AuditHook {
  return (r) => {
    const line = {
      time: r.time,
      subject: r.subject,
      tool: r.tool,
      method: r.method,
      outcome: r.outcome,
      ...(r.code === undefined ? {} : { code: r.code }),
      durationMs: r.durationMs,
    };
    stream.write(`${JSON.stringify(line)}\n`);
  };
}
