import { Code } from "@connectrpc/connect";
import type { DescMethod } from "@bufbuild/protobuf";
import { quote } from "./json.js";
import { ToolError } from "./tool-error.js";

/** A tool call waiting for an approval (docs/mcp.md, "Approvals"). */
export interface ApprovalRequest {
  /** The caller's verified subject; `""` without authorization. */
  readonly subject: string;
  /** The tool's name. */
  readonly tool: string;
  /** The full gRPC method name, `/pkg.Service/Method`. */
  readonly method: string;
  /** The model's arguments, with aliases as the model wrote them. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * Decides whether a call that needs an approval runs: true runs it;
 * false, or a throw, refuses it and nothing is sent.
 */
export type ApproveHook = (request: ApprovalRequest) => Promise<boolean>;

/** The full gRPC name of a method: `/pkg.Service/Method`. */
export function grpcMethodName(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

/** The error of a call the approver refused. */
export function notApproved(tool: string): ToolError {
  return new ToolError(
    `the call of ${quote(tool)} was not approved; nothing was sent`,
    { reason: "not-approved", code: Code.PermissionDenied },
  );
}

/**
 * The error of a call that needs an approval no one could give: `why` is
 * what was missing (`no approval hook`, and over MCP the client's lack of
 * elicitation).
 */
export function noApprover(tool: string, why: string): ToolError {
  return new ToolError(
    `the call of ${quote(tool)} needs an approval and none could be asked (${why}); nothing was sent`,
    { reason: "not-approved", code: Code.PermissionDenied },
  );
}

/** The hook's answer; a throw or anything but `true` is a refusal. */
export async function askApprover(
  approve: ApproveHook,
  request: ApprovalRequest,
): Promise<boolean> {
  try {
    return (await approve(request)) === true;
  } catch {
    return false;
  }
}
