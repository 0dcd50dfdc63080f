import { Code, ConnectError } from "@connectrpc/connect";
import { badRequestViolations } from "./bad-request.js";
import { violationLines, type Violation } from "./violations.js";

/**
 * Why a tool call failed (docs/runtime.md, "Errors"), a closed list:
 *
 * - `unknown-tool`: no auto-executor for the tool name (`NotFound`);
 * - `unknown-alias`: an argument is an alias of a known prefix that was never
 *   registered (`InvalidArgument`);
 * - `invalid-arguments`: the arguments are not JSON, not an object, hold
 *   unknown fields or miss required ones, break the argument fix-up or its
 *   kind checks, or do not decode into the request message
 *   (`InvalidArgument`);
 * - `failed-validation`: the request breaks its `buf.validate` rules
 *   (`InvalidArgument`);
 * - `result-too-large`: the result is over the executor's
 *   `maxResultBytes` (`ResourceExhausted`);
 * - `server-error`: the server answered with an error status other than
 *   `Unavailable`; `code` and `details` are the ones it sent;
 * - `unavailable`: the server could not be reached, or answered
 *   `Unavailable`;
 * - `invalid-response`: a stream of more than 1000 messages
 *   (`ResourceExhausted`), or a response that cannot be written as JSON
 *   (`Internal`);
 * - `conversation-expired`: the conversation store holds no conversation
 *   under the handle, or one of another epoch (`NotFound`);
 * - `conversation-corrupt`: the stored state cannot be read (`DataLoss`);
 * - `conversation-full`: the conversation holds its store's `maxAliases`
 *   aliases or more, or a tool search would load more than the deferred
 *   tools' `maxLoaded` (`ResourceExhausted`); nothing was sent or loaded;
 * - `store-unavailable`: the conversation store cannot be reached, timed
 *   out or failed (`Unavailable`);
 * - `not-approved`: a tool that needs an approval was not approved, or no
 *   approval could be asked (`PermissionDenied`); nothing was sent;
 * - `too-many-calls`: an MCP server's rate or concurrency limit refused
 *   the call (`ResourceExhausted`); nothing was sent.
 */
export type ToolErrorReason =
  | "unknown-tool"
  | "unknown-alias"
  | "invalid-arguments"
  | "failed-validation"
  | "result-too-large"
  | "server-error"
  | "unavailable"
  | "invalid-response"
  | "conversation-expired"
  | "conversation-corrupt"
  | "conversation-full"
  | "store-unavailable"
  | "not-approved"
  | "too-many-calls";

/** Options of the {@link ToolError} constructor. */
export interface ToolErrorOptions {
  /** Why the call failed. */
  readonly reason: ToolErrorReason;
  /** The gRPC code; see {@link ToolError.code}. */
  readonly code: Code;
  /**
   * The server's own message, for `server-error` and `unavailable`;
   * the message itself by default.
   */
  readonly rawMessage?: string | undefined;
  /** Error details of a server error, as the server sent them. */
  readonly details?: ConnectError["details"] | undefined;
  /** The refused parts of the arguments, or the server's field violations. */
  readonly violations?: readonly Violation[] | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The one error type a tool call fails with (the same fields as Go's
 * `*ToolError` and Python's `ToolError`). Its `message` is written for the
 * model (show it to the model as the tool result), with every registered
 * UUID shown as its alias.
 */
export class ToolError extends Error {
  override name = "ToolError";

  /** Why the call failed. */
  readonly reason: ToolErrorReason;

  /**
   * The gRPC code (Connect `Code`): the server's for `server-error`;
   * `Unavailable` for `unavailable`; `InvalidArgument` for `unknown-alias`,
   * `invalid-arguments` and `failed-validation`; `NotFound` for
   * `unknown-tool`; `ResourceExhausted` for `result-too-large`;
   * `ResourceExhausted` or `Internal` for `invalid-response`; `NotFound`,
   * `DataLoss` and `Unavailable` for `conversation-expired`,
   * `conversation-corrupt` and `store-unavailable`; `ResourceExhausted`
   * for `conversation-full`; `PermissionDenied` for `not-approved`;
   * `ResourceExhausted` for `too-many-calls`.
   */
  readonly code: Code;

  /**
   * For `server-error` and `unavailable`, the server's message (aliasified)
   * without the `rpc error: code = … desc = ` prefix; else the message.
   */
  readonly rawMessage: string;

  /** Error details of a server error, with the raw ids; empty otherwise. */
  readonly details: ConnectError["details"];

  /**
   * What was refused, one entry per line of the message: the arguments'
   * violations (nothing was sent), or the field violations of a server's
   * `google.rpc.BadRequest` (reason `server`); empty otherwise.
   */
  readonly violations: readonly Violation[];

  /** Create an error whose message is shown to the model as it is. */
  constructor(message: string, options: ToolErrorOptions) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = options.reason;
    this.code = options.code;
    this.rawMessage = options.rawMessage ?? message;
    this.details = options.details ?? [];
    this.violations = options.violations ?? [];
  }

  /**
   * Convert any error to a ToolError, as `ConnectError.from` does for
   * ConnectError: a ToolError is returned as it is; anything else is read
   * as a failed call (`ConnectError.from`: an AbortError is `Canceled`,
   * another error `Unknown`) and becomes a `server-error` (`unavailable`
   * for code `Unavailable`) whose message reads
   * `rpc error: code = NotFound desc = …`. No alias is applied here: the
   * executor aliasifies the server's message before it builds the error.
   */
  static from(reason: unknown): ToolError {
    if (reason instanceof ToolError) {
      return reason;
    }
    return callError(ConnectError.from(reason), (s) => s, reason);
  }
}

/**
 * The ToolError of a failed call: the server's code and details, its message
 * passed through aliasify, written as every target writes it:
 * `rpc error: code = NotFound desc = …`, then one line per field violation
 * of a `google.rpc.BadRequest` detail, `- "<field>": <description>`.
 */
export function callError(
  err: ConnectError,
  aliasify: (text: string) => string,
  cause: unknown,
): ToolError {
  const raw = aliasify(err.rawMessage);
  const violations = badRequestViolations(err.details).map((v) => ({
    ...v,
    field: aliasify(v.field),
    message: aliasify(v.message),
  }));
  const head = `rpc error: code = ${codeName(err.code)} desc = ${raw}`;
  return new ToolError(
    violations.length === 0 ? head : `${head}\n${violationLines(violations)}`,
    {
      reason: err.code === Code.Unavailable ? "unavailable" : "server-error",
      code: err.code,
      rawMessage: raw,
      details: err.details,
      violations,
      cause,
    },
  );
}

/** The gRPC name of a code, as Go prints it: `NotFound`. */
function codeName(code: Code): string {
  return Code[code] ?? "Unknown";
}
