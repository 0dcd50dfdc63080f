// The telemetry hook of a tool call (docs/ts-runtime-api.md, "Telemetry"):
// the executors and MCP servers call it when given one, and only then; the
// OpenTelemetry adapter (`@protoc-gen-ai-tools/runtime/otel`) implements it.
import type { DescMethod } from "@bufbuild/protobuf";
import { ConnectError, Code, type Transport } from "@connectrpc/connect";
import type { AliasManager } from "./alias-manager.js";
import { isJsonMap, type JsonTree } from "./json.js";
import { ToolError } from "./tool-error.js";

/**
 * Observes tool calls: one {@link ToolCallTelemetry} per call, started
 * before the conversation is loaded and ended once the result is
 * registered. Never given argument values, ids, handles or messages.
 */
export interface Telemetry {
  /** A tool call begins. */
  startToolCall(start: ToolCallStart): ToolCallTelemetry;
}

/** What is known of a tool call when it begins. */
export interface ToolCallStart {
  /** The tool's name, as called. */
  readonly tool: string;
  /** The RPC, `<package>.<Service>/<Method>`; undefined for an unknown tool. */
  readonly method: string | undefined;
  /**
   * The W3C trace context the call continues (`traceparent`, `tracestate`,
   * `baggage`): an MCP `tools/call`'s `params._meta`, or
   * {@link ExecuteOptions.traceContext}.
   */
  readonly traceContext: Readonly<Record<string, unknown>> | undefined;
}

/** One tool call under way. */
export interface ToolCallTelemetry {
  /** Run the call's work in the call's context. */
  run<T>(work: () => T): T;
  /** Write the call's trace context into the RPC's request headers. */
  inject(headers: Headers): void;
  /** The call ended. */
  end(outcome: ToolCallOutcome): void;
}

/** How a tool call ended. */
export interface ToolCallOutcome {
  /** The {@link ToolError} reason of a failed call; undefined on success. */
  readonly errorType: string | undefined;
  /** The RPC's gRPC status code (0 for OK) when it was sent, else undefined. */
  readonly rpcCode: number | undefined;
  /** Aliases in the arguments replaced by their ids. */
  readonly aliasesResolved: number;
  /** New aliases minted from the result. */
  readonly aliasesRegistered: number;
  /** The conversation's aliases after the call, when the call had one. */
  readonly conversationAliases: number | undefined;
}

/**
 * What an executor records of one call for its {@link ToolCallTelemetry}.
 * @internal
 */
export interface CallStats {
  /** The call's telemetry. */
  readonly call: ToolCallTelemetry;
  /** Aliases resolved in the arguments. */
  resolved: number;
  /** New aliases of the result. */
  registered: number;
  /** The RPC's status code, once sent. */
  rpcCode: number | undefined;
}

/**
 * Begin the telemetry of a call of the tool whose RPC is method.
 * @internal
 */
export function startCall(
  telemetry: Telemetry,
  toolName: string,
  method: DescMethod | undefined,
  traceContext: Readonly<Record<string, unknown>> | undefined,
): CallStats {
  const call = telemetry.startToolCall({
    tool: String(toolName),
    method:
      method === undefined
        ? undefined
        : `${method.parent.typeName}/${method.name}`,
    traceContext,
  });
  return { call, resolved: 0, registered: 0, rpcCode: undefined };
}

/**
 * End the telemetry of a call: failed with error when given.
 * @internal
 */
export function endCall(
  stats: CallStats,
  error: unknown,
  conversationAliases: number | undefined,
): void {
  stats.call.end({
    errorType:
      error === undefined
        ? undefined
        : error instanceof ToolError
          ? error.reason
          : "unknown",
    rpcCode: stats.rpcCode,
    aliasesResolved: stats.resolved,
    aliasesRegistered: stats.registered,
    conversationAliases,
  });
}

/**
 * Request headers holding headers and the call's trace context.
 * @internal
 */
export function tracedHeaders(
  stats: CallStats,
  headers: Parameters<Transport["unary"]>[3],
): Headers {
  const out = new Headers(headers);
  stats.call.inject(out);
  return out;
}

/**
 * The RPC's outcome recorded in stats: its status once it settles (a
 * stream ended by the runtime, a ToolError, was cancelled).
 * @internal
 */
export function sent<T>(
  stats: CallStats | undefined,
  rpc: Promise<T>,
): Promise<T> {
  // Without telemetry, the RPC's own promise: no added tick.
  return stats === undefined ? rpc : recordRpc(stats, rpc);
}

async function recordRpc<T>(stats: CallStats, rpc: Promise<T>): Promise<T> {
  try {
    const out = await rpc;
    stats.rpcCode = 0;
    return out;
  } catch (e) {
    stats.rpcCode =
      e instanceof ToolError ? Code.Canceled : ConnectError.from(e).code;
    throw e;
  }
}

/**
 * How many string values of v (arguments as read) are registered aliases.
 * @internal
 */
export function countAliases(aliases: AliasManager, v: JsonTree): number {
  if (typeof v === "string") {
    return aliases.resolveAlias(v) === v ? 0 : 1;
  }
  let n = 0;
  if (Array.isArray(v)) {
    for (const item of v) {
      n += countAliases(aliases, item);
    }
  } else if (isJsonMap(v)) {
    for (const key in v) {
      n += countAliases(aliases, v[key] as JsonTree);
    }
  }
  return n;
}
