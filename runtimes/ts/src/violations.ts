import { Code } from "@connectrpc/connect";
import { quote } from "./json.js";
import { ToolError, type ToolErrorReason } from "./tool-error.js";

/**
 * Why one part of a tool call's arguments was refused (docs/runtime.md,
 * "Errors"):
 *
 * - `invalid-json`: the arguments are not JSON text;
 * - `not-an-object`: they are JSON but not an object;
 * - `unknown-field`: a key that is no property of the schema;
 * - `required`: a required field absent or `null`;
 * - `invalid-value`: a value of the wrong kind, an enum name or base64 that
 *   is not one, two members of a oneof, a FieldMask path that names no
 *   field, or what the decoder refused;
 * - `unknown-alias`: an alias of a known prefix that was never registered;
 * - `validation`: a `buf.validate` rule (protovalidate);
 * - `server`: a field violation of the server's `google.rpc.BadRequest`.
 */
export type ViolationReason =
  | "invalid-json"
  | "not-an-object"
  | "unknown-field"
  | "required"
  | "invalid-value"
  | "unknown-alias"
  | "validation"
  | "server";

/** One refused part of a tool call (the same fields in every language). */
export interface Violation {
  /**
   * The field's path as the model wrote it (`steps[2].link_id`,
   * `labels.env`); `""` for the arguments as a whole or a message-level rule.
   */
  readonly field: string;
  /** Why it was refused. */
  readonly reason: ViolationReason;
  /** What is wrong, for the model. */
  readonly message: string;
}

/** The first line of the message of arguments refused before sending. */
export const invalidArgumentsHeader = "invalid arguments, nothing was sent:";

/**
 * One line per violation, `- "<field>": <message>` (`- <message>` without a
 * field), each on its own line.
 */
export function violationLines(violations: readonly Violation[]): string {
  return violations
    .map((v) =>
      v.field === "" ? `- ${v.message}` : `- ${quote(v.field)}: ${v.message}`,
    )
    .join("\n");
}

/**
 * The ToolError of arguments refused before anything was sent: the header
 * line, then one line per violation. The reason is `invalid-arguments`
 * unless given (`unknown-alias`, `failed-validation`); the code
 * `InvalidArgument`.
 */
export function violationError(
  violations: readonly Violation[],
  reason: ToolErrorReason = "invalid-arguments",
  cause?: unknown,
): ToolError {
  return new ToolError(
    `${invalidArgumentsHeader}\n${violationLines(violations)}`,
    { reason, code: Code.InvalidArgument, violations, cause },
  );
}

/** A ToolError of one violation without a field. */
export function argumentsError(
  reason: ViolationReason,
  message: string,
  cause?: unknown,
): ToolError {
  return violationError([{ field: "", reason, message }], undefined, cause);
}

/**
 * The path of key below path, as every message writes field paths
 * (docs/runtime.md, "Unknown-alias error"): keys joined by `.`, the root's
 * keys alone.
 */
export function childPath(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
