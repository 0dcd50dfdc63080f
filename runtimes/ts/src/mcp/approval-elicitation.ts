import { createHash, randomBytes } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { quote } from "../json.js";

/** The key of the approval in `inputRequests` and `inputResponses`. */
export const approvalInputKey = "approval";

/** How long an approval request stays answerable: 10 minutes. */
const approvalTtlSeconds = 600;

/**
 * Signs and checks the `requestState` of approvals asked by elicitation:
 * HMAC-SHA256 (the SDK's request state codec) over the subject, the tool,
 * the SHA-256 of the canonical arguments and an expiry of 10 minutes.
 */
export interface ApprovalStates {
  /** The state of an approval asked for binding. */
  mint(binding: string, ctx: ServerContext): Promise<string>;
  /** Whether state is one this server minted for binding, unexpired. */
  verify(state: string, binding: string, ctx: ServerContext): Promise<boolean>;
}

/**
 * Create the approval states of a server: the key comes from secret
 * (share it between replicas), else is random per process. Throws an
 * Error for an empty secret.
 */
export function createApprovalStates(
  secret: string | Uint8Array | undefined,
): ApprovalStates {
  if (secret !== undefined && secret.length === 0) {
    throw new Error(
      "approvalSecret is empty: set a long random secret shared by every replica, or leave it out for a random key per process",
    );
  }
  // The codec wants at least 32 bytes: any secret is stretched to them.
  const key =
    secret === undefined
      ? randomBytes(32)
      : createHash("sha256")
          .update("ai-tools approval state\0")
          .update(secret)
          .digest();
  const codecOf = (binding: string) =>
    createRequestStateCodec<string>({
      key,
      ttlSeconds: approvalTtlSeconds,
      bind: () => binding,
    });
  return {
    mint: (binding, ctx) => codecOf(binding).mint("approval", ctx),
    async verify(state, binding, ctx) {
      try {
        return (await codecOf(binding).verify(state, ctx)) === "approval";
      } catch {
        return false;
      }
    },
  };
}

/**
 * What an approval is bound to: the subject, the tool, and the SHA-256 of
 * the arguments as canonical JSON (keys sorted) with the conversation
 * handle, so that a state answers only the call it was asked for.
 */
export function approvalBinding(
  subject: string,
  tool: string,
  args: unknown,
  handle: string | undefined,
): string {
  const digest = createHash("sha256")
    .update(canonicalJson([args, handle ?? null]))
    .digest("base64url");
  return `${subject}\0${tool}\0${digest}`;
}

/** JSON with every object's keys sorted. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) {
    return `[${v.map(canonicalJson).join(",")}]`;
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * Whether the client can answer a form elicitation on this request: the
 * capabilities of the request's `_meta` (2026-07-28), else those the
 * session declared at initialization (2025-11-25).
 */
export function canElicitForm(ctx: ServerContext, sdk: Server): boolean {
  // The SDK types the envelope as {}: its keys are read as JSON.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ??
    sdk.getClientCapabilities()) as { elicitation?: unknown } | undefined;
  const elicitation = caps?.elicitation;
  if (typeof elicitation !== "object" || elicitation === null) {
    return false;
  }
  return "form" in elicitation || Object.keys(elicitation).length === 0;
}

/**
 * The answer a retried call carries: `undefined` when it carries none
 * (ask), else whether it was accepted with `approve: true`.
 */
export function elicitedApproval(ctx: ServerContext): boolean | undefined {
  const state = ctx.mcpReq.requestState();
  const view = inputResponse(ctx.mcpReq.inputResponses, approvalInputKey);
  if (view.kind === "missing" && state === undefined) {
    return undefined;
  }
  return (
    view.kind === "elicit" &&
    view.action === "accept" &&
    view.content?.["approve"] === true
  );
}

/** The `input_required` result asking to approve the call of tool with args. */
export function approvalInputRequired(
  tool: string,
  args: unknown,
  requestState: string,
): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [approvalInputKey]: inputRequired.elicit({
        message: `Allow the call of ${quote(tool)}? Arguments: ${JSON.stringify(args)}`,
        requestedSchema: {
          type: "object",
          properties: { approve: { type: "boolean", title: "Approve" } },
          required: ["approve"],
        },
      }),
    },
    requestState,
  });
}
