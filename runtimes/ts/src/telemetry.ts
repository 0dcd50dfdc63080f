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
  /**
   * The RPC, `<package>.<Service>/<Method>`. A tool the executor does not
   * know is not observed.
   */
  readonly method: string;
  /**
   * The W3C trace context the call continues (`traceparent`, `tracestate`,
   * perhaps `baggage`): an MCP `tools/call`'s `params._meta`, or
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
  /**
   * The {@link ToolError} reason of a failed call (`_OTHER` for another
   * error); undefined on success.
   */
  readonly errorType: string | undefined;
  /** The RPC's gRPC status code (0 for OK) when it was sent, else undefined. */
  readonly rpcCode: number | undefined;
  /** Aliases in the arguments replaced by their ids. */
  readonly aliasesResolved: number;
  /** New aliases minted from the result. */
  readonly aliasesRegistered: number;
  /**
   * The conversation's aliases after the call, when its table was loaded
   * (0 for one made for a call that failed; not for a plain executor, nor
   * when the load failed).
   */
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
  /** Whether the call's aliases are a conversation's table, loaded. */
  conversation: boolean;
  /**
   * Whether the call stopped to ask for an approval (MCP input_required):
   * it ends without error; the retry is a call of its own.
   */
  asked?: boolean;
  /** Whether the call's telemetry was ended: it ends once. */
  ended?: boolean;
}

/**
 * The key of {@link ExecuteOptions} under which an MCP server hands the
 * executor the telemetry it started before its own checks.
 * @internal
 */
export const startedCall = Symbol("ai-tools started call");

/**
 * Options that may carry a call's started telemetry.
 * @internal
 */
export interface StartedCall {
  readonly [startedCall]?: CallStats | undefined;
}

/**
 * The telemetry of a call of toolName: the one the caller started, else a
 * new one; none without telemetry and for a tool the executor does not
 * know (its name is the model's: no span, no metric).
 * @internal
 */
export function callStats(
  telemetry: Telemetry | undefined,
  toolName: string,
  method: DescMethod | undefined,
  options: StartedCall & {
    readonly traceContext?: Readonly<Record<string, unknown>> | undefined;
  },
): CallStats | undefined {
  const given = options[startedCall];
  if (given !== undefined) {
    return given;
  }
  if (telemetry === undefined || method === undefined) {
    return undefined;
  }
  return startCall(telemetry, toolName, method, options.traceContext);
}

/**
 * Begin the telemetry of a call of the tool whose RPC is method; none when
 * the hook throws (the call runs without it).
 * @internal
 */
export function startCall(
  telemetry: Telemetry,
  toolName: string,
  method: DescMethod,
  traceContext: Readonly<Record<string, unknown>> | undefined,
): CallStats | undefined {
  let call: ToolCallTelemetry;
  try {
    call = telemetry.startToolCall({
      tool: toolName,
      method: `${method.parent.typeName}/${method.name}`,
      traceContext,
    });
  } catch (e) {
    hookFailed(e);
    return undefined;
  }
  return {
    call,
    resolved: 0,
    registered: 0,
    rpcCode: undefined,
    conversation: false,
  };
}

/**
 * Run work in the call's context; when the hook's `run` throws, work runs
 * (once) without it.
 * @internal
 */
export function runObserved<T>(
  stats: CallStats,
  work: () => Promise<T>,
): Promise<T> {
  let running: Promise<T> | undefined;
  try {
    return stats.call.run(() => (running = work()));
  } catch (e) {
    hookFailed(e);
    return running ?? work();
  }
}

let warned = false;

/**
 * A telemetry hook threw: warned once per process; the call's outcome
 * stands.
 */
function hookFailed(e: unknown): void {
  if (!warned) {
    warned = true;
    console.warn(
      "ai-tools: the telemetry hook failed (the call's result stands; warned once):",
      e,
    );
  }
}

/**
 * End the telemetry of a call: failed with error when given; nothing when
 * it already ended.
 * @internal
 */
export function endCall(
  stats: CallStats,
  error: unknown,
  conversationAliases: number | undefined,
): void {
  endWith(
    stats,
    error === undefined || stats.asked === true
      ? undefined
      : error instanceof ToolError
        ? error.reason
        : "_OTHER",
    conversationAliases,
  );
}

/**
 * End the telemetry of a call an MCP server refused before its executor
 * (errorType: `too-many-calls`, `unauthorized`, `invalid-arguments`).
 * @internal
 */
export function endRefused(stats: CallStats, errorType: string): void {
  endWith(stats, errorType, undefined);
}

function endWith(
  stats: CallStats,
  errorType: string | undefined,
  conversationAliases: number | undefined,
): void {
  if (stats.ended === true) {
    return;
  }
  stats.ended = true;
  try {
    stats.call.end({
      errorType,
      rpcCode: stats.rpcCode,
      aliasesResolved: stats.resolved,
      aliasesRegistered: stats.registered,
      conversationAliases: stats.conversation ? conversationAliases : undefined,
    });
  } catch (e) {
    hookFailed(e);
  }
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
  try {
    stats.call.inject(out);
  } catch (e) {
    hookFailed(e);
  }
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
    // A ToolError came after the server answered: OK, unless the runtime
    // cut the stream.
    stats.rpcCode =
      e instanceof ToolError
        ? cuts.has(e)
          ? Code.Canceled
          : 0
        : ConnectError.from(e).code;
    throw e;
  }
}

/** The ToolErrors of streams the runtime cut (over a limit). */
const cuts = new WeakSet<ToolError>();

/**
 * error, of a stream the runtime cut: its RPC's status is CANCELLED.
 * @internal
 */
export function streamCut(error: ToolError): ToolError {
  cuts.add(error);
  return error;
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
