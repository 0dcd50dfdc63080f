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
 * HMAC-SHA256 (the SDK's request state codec) over a random nonce, the
 * binding (subject, tool, arguments, conversation) and an expiry of 10
 * minutes. A state approves one call: the nonces accepted are remembered
 * in this process until they expire.
 */
export interface ApprovalStates {
  /** The state of an approval asked for binding. */
  mint(binding: string, ctx: ServerContext): Promise<string>;
  /**
   * Whether state is one this server minted for binding, unexpired and not
   * used before (it is used now).
   */
  verify(state: string, binding: string, ctx: ServerContext): Promise<boolean>;
}

/** The fewest bytes of an `approvalSecret`. */
const minSecretBytes = 32;

/**
 * Create the approval states of a server: the key is secret (share it
 * between replicas), else random per process. Throws an Error for a
 * secret under 32 bytes.
 */
export function createApprovalStates(
  secret: string | Uint8Array | undefined,
  now: () => number = Date.now,
): ApprovalStates {
  const key =
    secret === undefined
      ? randomBytes(minSecretBytes)
      : typeof secret === "string"
        ? Buffer.from(secret, "utf8")
        : Buffer.from(secret);
  if (key.length < minSecretBytes) {
    throw new Error(
      `approvalSecret must be at least ${String(minSecretBytes)} bytes (got ${String(key.length)})`,
    );
  }
  const codecOf = (binding: string) =>
    createRequestStateCodec<string>({
      key,
      ttlSeconds: approvalTtlSeconds,
      bind: () => binding,
    });
  const used = createUsedNonces(now);
  return {
    mint: (binding, ctx) =>
      codecOf(binding).mint(randomBytes(16).toString("base64url"), ctx),
    async verify(state, binding, ctx) {
      let nonce: unknown;
      try {
        nonce = await codecOf(binding).verify(state, ctx);
      } catch {
        return false;
      }
      return typeof nonce === "string" && used.take(nonce);
    },
  };
}

/**
 * The nonces of approvals used in this process, each kept until its state
 * has expired: `take` is false for one seen before.
 */
function createUsedNonces(now: () => number): { take(nonce: string): boolean } {
  const expiries = new Map<string, number>();
  return {
    take(nonce) {
      const t = now();
      // Insertion order is expiry order: drop the expired from the front.
      for (const [n, expiry] of expiries) {
        if (expiry > t) {
          break;
        }
        expiries.delete(n);
      }
      if (expiries.has(nonce)) {
        return false;
      }
      expiries.set(nonce, t + approvalTtlSeconds * 1000);
      return true;
    },
  };
}

/**
 * What an approval is bound to: the subject, the tool, and the SHA-256 of
 * the arguments as canonical JSON (keys sorted) with the conversation (the
 * handle or the session; `""` for none), so that a state answers only the
 * call it was asked for.
 */
export function approvalBinding(
  subject: string,
  tool: string,
  args: unknown,
  conversation: string,
): string {
  const digest = createHash("sha256")
    .update(canonicalJson([args, conversation]))
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
