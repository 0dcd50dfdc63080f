import type {
  InputRequiredResult,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolMethod } from "../agent-tool.js";
import {
  askApprover,
  grpcMethodName,
  noApprover,
  notApproved,
  type ApprovalRequest,
  type ApproveHook,
} from "../approval.js";
import { ToolError } from "../tool-error.js";
import {
  approvalBinding,
  approvalInputRequired,
  canElicitForm,
  createApprovalStates,
  elicitedApproval,
  type ApprovalStates,
} from "./approval-elicitation.js";
import type { AuditHook, AuditOutcome } from "./audit.js";
import { codeName } from "./call-result.js";
import {
  createConcurrencyLimiter,
  createRateLimiter,
  type ConcurrencyLimiter,
  type RateLimit,
  type RateLimiter,
} from "./call-limits.js";
import {
  checkForwardIdentity,
  forwardIdentity,
  type ForwardIdentity,
} from "./forward-identity.js";
import { identityOf, type Identity } from "./identity.js";
import { sortedUnique } from "./sorted-unique.js";

/**
 * The options of an MCP tool server applied to every call
 * (docs/production.md, "Approvals", "Limits", "Audit" and "Identity to the
 * backend").
 */
export interface CallPolicyOptions {
  /**
   * Asked before a tool that needs an approval runs (`needsApproval`: its
   * annotation does not set `auto_execute`). Without it the client is
   * asked through MCP elicitation when it supports it; else the call is
   * refused, nothing sent.
   */
  readonly approve?: ApproveHook | undefined;
  /**
   * The key of the signed `requestState` of approvals asked by elicitation,
   * at least 32 bytes; random per process by default: set the same one on
   * every replica.
   */
  readonly approvalSecret?: string | Uint8Array | undefined;
  /**
   * What of the caller's verified identity goes to the gRPC service as
   * metadata; nothing by default. The client's token never does.
   */
  readonly forwardIdentity?: ForwardIdentity | undefined;
  /**
   * A rate limit per subject (a token bucket in this process: per
   * replica); none by default. Every `tools/call` counts, first.
   */
  readonly rateLimit?: RateLimit | undefined;
  /**
   * The most calls under way at once in one conversation: a handle, a
   * 2025-11-25 session, the stdio connection (for a tool set without
   * aliases too); only a call with none (2026-07-28 without a handle)
   * counts for its subject. A caller runs more at once by opening more
   * conversations: the rate limit bounds a subject. 16 by default.
   */
  readonly maxConcurrentCalls?: number | undefined;
  /**
   * Receives one record per call (`createJsonLinesAuditWriter` writes
   * them as JSON lines); none by default.
   */
  readonly audit?: AuditHook | undefined;
}

/**
 * What a server applies to every call (docs/production.md, "Approvals",
 * "Limits", "Audit"): approvals, the rate and concurrency limits, the
 * identity sent to the backend, the audit.
 */
export interface CallPolicy {
  readonly options: CallPolicyOptions;
  readonly states: ApprovalStates;
  readonly rate: RateLimiter | undefined;
  readonly concurrency: ConcurrencyLimiter;
}

/** Create the policy of a server; throws an Error for a bad option. */
export function createCallPolicy(options: CallPolicyOptions): CallPolicy {
  checkForwardIdentity(options.forwardIdentity);
  return {
    options,
    states: createApprovalStates(options.approvalSecret),
    rate:
      options.rateLimit === undefined
        ? undefined
        : createRateLimiter(options.rateLimit),
    concurrency: createConcurrencyLimiter(options.maxConcurrentCalls),
  };
}

/** One tools/call under a policy: what it asked, how it ended. */
export interface PolicedCall {
  /** The caller, when authorized. */
  readonly identity: Identity | undefined;
  /** The caller's subject; `""` without authorization. */
  readonly subject: string;
  /** The metadata the call sends (the forwarded identity). */
  readonly headers: Headers;
  /**
   * Count the call against the caller's rate limit, first of all; throws
   * the ToolError of the limit.
   */
  countCall(): void;
  /**
   * Run before sending: the approval, the concurrency limit, the identity.
   * Throws the ToolError of a refusal; an approval to ask leaves
   * {@link inputRequired}.
   */
  beforeSend(tool: ToolMethod): Promise<void>;
  /**
   * The scopes of required the caller's token lacks, sorted and joined
   * by spaces; none when it has them all, or without authorization.
   */
  missingScopes(required: readonly string[]): string | undefined;
  /** The `input_required` result of an approval to ask, once asked. */
  inputRequired(): InputRequiredResult | undefined;
  /** End the call: leave the conversation's place, write the audit record. */
  end(outcome: AuditOutcome, code?: string): void;
}

/** The facts of one call {@link policeCall} needs. */
export interface CallFacts {
  /** The tool's name as called. */
  readonly tool: string;
  /** Its method. */
  readonly method: ToolMethod["method"];
  /** The model's arguments (the added properties taken out). */
  readonly args: Record<string, unknown>;
  /**
   * The conversation an approval is bound to: the handle given or the
   * session's id; `""` for none.
   */
  readonly conversationId: string;
  /**
   * The conversation the call counts in for the concurrency limit; for a
   * call without one, its subject's count.
   */
  readonly conversation: (subject: string) => unknown;
}

/** Start one call under policy. */
export function policeCall(
  policy: CallPolicy,
  facts: CallFacts,
  ctx: ServerContext,
  sdk: Server,
): PolicedCall {
  const started = Date.now();
  const startedAt = performance.now();
  const identity = identityOf(ctx);
  const subject = identity?.subject ?? "";
  const headers = new Headers();
  const method = grpcMethodName(facts.method);
  let asked: InputRequiredResult | undefined;
  let leave: (() => void) | undefined;

  const approve = async () => {
    const { tool, args } = facts;
    const hook = policy.options.approve;
    if (hook !== undefined) {
      const request: ApprovalRequest = {
        subject,
        tool,
        method,
        arguments: args,
      };
      if (!(await askApprover(hook, request))) {
        throw notApproved(tool);
      }
      return;
    }
    const binding = approvalBinding(subject, tool, args, facts.conversationId);
    const answer = elicitedApproval(ctx);
    if (answer !== undefined) {
      const state = ctx.mcpReq.requestState();
      if (
        !answer ||
        typeof state !== "string" ||
        !(await policy.states.verify(state, binding, ctx))
      ) {
        throw notApproved(tool);
      }
      return;
    }
    if (!canElicitForm(ctx, sdk)) {
      throw noApprover(
        tool,
        "no approval hook, and the client does not support elicitation",
      );
    }
    const state = await policy.states.mint(binding, ctx);
    asked = approvalInputRequired(tool, args, state);
    throw notApproved(tool);
  };

  return {
    identity,
    subject,
    headers,
    countCall() {
      policy.rate?.take(subject);
    },
    async beforeSend(m) {
      // The concurrency place first: a call refused for it does not spend
      // an approval (its state's nonce), and a waiting approval holds one.
      const left = policy.concurrency.enter(facts.conversation(subject));
      leave = left;
      if (m.needsApproval === true) {
        try {
          await approve();
        } catch (e) {
          // Refused or asked (input_required, no end()): give the place back.
          leave = undefined;
          left();
          throw e;
        }
      }
      const f = policy.options.forwardIdentity;
      if (f !== undefined) {
        await forwardIdentity(
          f,
          identity,
          ctx.http?.authInfo?.token,
          facts.tool,
          headers,
        );
      }
    },
    missingScopes(required) {
      if (identity === undefined) {
        return undefined;
      }
      const missing = sortedUnique(
        required.filter((s) => !identity.scopes.includes(s)),
      );
      return missing.length === 0 ? undefined : missing.join(" ");
    },
    inputRequired: () => asked,
    end(outcome, code) {
      leave?.();
      const audit = policy.options.audit;
      if (asked !== undefined || audit === undefined) {
        return;
      }
      try {
        audit({
          time: new Date(started).toISOString(),
          subject,
          tool: facts.tool,
          method,
          outcome,
          ...(code === undefined ? {} : { code }),
          durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000,
        });
      } catch {
        // An audit hook that fails does not fail the call it records.
      }
    },
  };
}

/** The audit outcome and code of a failed call's error. */
export function failureOutcome(e: unknown): [AuditOutcome, string?] {
  if (!(e instanceof ToolError)) {
    return ["tool_error", "UNKNOWN"];
  }
  switch (e.reason) {
    case "invalid-arguments":
    case "unknown-alias":
    case "failed-validation":
    case "unknown-tool":
      return ["invalid_arguments"];
    case "not-approved":
      return ["denied"];
    case "too-many-calls":
      return ["limited"];
    default:
      return ["tool_error", codeName(e.code)];
  }
}
