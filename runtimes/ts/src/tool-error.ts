import type { Code, ConnectError } from "@connectrpc/connect";

/**
 * Why a tool call failed:
 *
 * - `unknown-tool`: no auto-executor for the tool name;
 * - `unknown-alias`: an argument is an alias of a known prefix that was never
 *   registered (docs/runtime.md, "Unknown-alias error");
 * - `invalid-arguments`: the arguments are not JSON, break the argument
 *   fix-up, or do not decode into the request message;
 * - `server-error`: the server (or the transport) answered with an error;
 *   `code` and `details` are the ones it sent;
 * - `invalid-response`: too many stream messages, or a response that cannot
 *   be written as JSON.
 */
export type ToolErrorReason =
  | "unknown-tool"
  | "unknown-alias"
  | "invalid-arguments"
  | "server-error"
  | "invalid-response";

/** Options of the {@link ToolError} constructor. */
export interface ToolErrorOptions {
  /** Why the call failed. */
  readonly reason: ToolErrorReason;
  /** The gRPC code; see {@link ToolError.code}. */
  readonly code?: Code | undefined;
  /** Error details of a server error, as the server sent them. */
  readonly details?: ConnectError["details"] | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The one error type a model-caused tool failure is thrown as. Its `message`
 * is written for the model (show it to the model as the tool result); UUIDs
 * in a server's message are replaced by their aliases.
 */
export class ToolError extends Error {
  override name = "ToolError";

  /** Why the call failed. */
  readonly reason: ToolErrorReason;

  /**
   * The gRPC code (Connect `Code`): the server's for `server-error`;
   * `InvalidArgument` for `unknown-alias` and `invalid-arguments`;
   * `NotFound` for `unknown-tool`; `ResourceExhausted` or `Internal` for
   * `invalid-response`.
   */
  readonly code: Code | undefined;

  /** Error details of a server error, with the raw ids; empty otherwise. */
  readonly details: ConnectError["details"];

  /** Create an error whose message is shown to the model as it is. */
  constructor(message: string, options: ToolErrorOptions) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = options.reason;
    this.code = options.code;
    this.details = options.details ?? [];
  }
}
