import {
  fromJson,
  type DescMessage,
  type DescMethod,
  type DescMethodServerStreaming,
  type DescMethodUnary,
  type JsonWriteOptions,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ContextValues,
  type Transport,
} from "@connectrpc/connect";
import { createAsyncIterable } from "@connectrpc/connect/protocol";
import type { ToolMethod } from "./agent-tool.js";
import {
  askApprover,
  grpcMethodName,
  noApprover,
  notApproved,
  type ApproveHook,
} from "./approval.js";
import {
  createAliasManager,
  type AliasConfig,
  type AliasManager,
} from "./alias-manager.js";
import { checkArguments, readArguments } from "./argument-check.js";
import { parseArgumentTable, type ArgumentTable } from "./argument-table.js";
import { fixTree, invalidArguments, toDecoderJson } from "./fixup.js";
import { stringifyJson, tryParseJson, type JsonMap } from "./json.js";
import {
  createChainedRegistry,
  createMethodRegistry,
} from "./method-registry.js";
import { toProtoJsonString, toProtoJsonStrings } from "./proto-json.js";
import {
  validateRequest,
  validatorOf,
  type RequestValidatorSource,
} from "./request-validation.js";
import {
  checkCallLimits,
  checkResultSize,
  defaultMaxResultBytes,
  streamTooLarge,
  utf8Length,
} from "./result-limit.js";
import {
  callStats,
  countAliases,
  endCall,
  runObserved,
  sent,
  streamCut,
  tracedHeaders,
  type CallStats,
  type Telemetry,
} from "./telemetry.js";
import { ToolError, callError } from "./tool-error.js";
import { violationError } from "./violations.js";

/** What {@link createExecutor} needs: the generated file's tools and aliases. */
export interface ExecutorConfig {
  /** The auto-executed tools. */
  readonly methods: readonly ToolMethod[];
  /** The alias facts of the generated file. */
  readonly aliases: AliasConfig;
  /**
   * The alias manager to use, shared with hand-written tools or other
   * executors of the conversation; a fresh one of `aliases` by default.
   */
  readonly aliasManager?: AliasManager | undefined;
  /**
   * How the returned JSON is written, when not as {@link
   * ExecutorConfig.jsonNames} says: the MCP results use proto names and
   * write defaults. With this option the JSON is the bytes Go's protojson
   * writes (docs/mcp.md, "Calls" step 4: fields in declaration order, map
   * keys sorted, `@type` first, `-0`). The ids are registered from the
   * contract's JSON either way.
   */
  readonly resultJson?: ResultJsonOptions | undefined;
  /**
   * Leave unknown argument keys for the decoder to drop, and take a
   * required field under its JSON name too (plugin option
   * `lenient_arguments=true`); unknown keys are refused by default.
   */
  readonly lenientArguments?: boolean | undefined;
  /**
   * Write results with lowerCamel JSON names (plugin option
   * `json_names=true`); proto field names, the schema's, by default.
   */
  readonly jsonNames?: boolean | undefined;
  /**
   * A protovalidate validator (`createValidator()` of
   * `@bufbuild/protovalidate`): the requests of tools with `validate` are
   * checked against their `buf.validate` rules before sending. Given as a
   * function making one (`createValidator`), one validator is made for
   * every executor given that function: rules are compiled once, not once
   * per executor.
   */
  readonly validator?: RequestValidatorSource | undefined;
  /**
   * The most UTF-8 bytes of a result as the model sees it: a larger one is
   * refused (`result-too-large`), a stream cancelled once past it. 100,000
   * by default; 0 for no limit.
   */
  readonly maxResultBytes?: number | undefined;
  /**
   * The deadline of a call, in milliseconds, for tools without their own
   * `timeoutMs`: 30,000 by default; 0 for none. A shorter deadline of the
   * caller wins.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Message types an Any in a result or an error detail may hold, besides
   * the well-known types and the types of the files of every tool's method
   * and their imports (an operation's response declared beside the method
   * that started it: `GetOperation` is declared in another file).
   */
  readonly registry?: Registry | undefined;
  /**
   * Asked before a tool that needs an approval (`needsApproval`: its
   * annotation does not set `auto_execute`) is called; without it such a
   * call is refused (reason `not-approved`), nothing sent.
   */
  readonly approve?: ApproveHook | undefined;
  /**
   * Observes every call (a span and metrics with
   * `@protoc-gen-ai-tools/runtime/otel`); nothing is recorded without it.
   */
  readonly telemetry?: Telemetry | undefined;
}

/** The deadline of a call when neither the tool nor the executor sets one. */
export const defaultTimeoutMs = 30_000;

/** protobuf-es JSON options of {@link ExecutorConfig.resultJson}. */
export type ResultJsonOptions = Partial<
  Pick<JsonWriteOptions, "useProtoFieldName" | "alwaysEmitImplicit">
>;

/** Options of a generated file's `createExecutor`. */
export interface CreateExecutorOptions {
  /**
   * The alias manager to use, shared with hand-written tools or other
   * executors of the conversation; a fresh one by default.
   */
  readonly aliasManager?: AliasManager | undefined;
  /** See {@link ExecutorConfig.maxResultBytes}. */
  readonly maxResultBytes?: number | undefined;
  /** See {@link ExecutorConfig.timeoutMs}. */
  readonly timeoutMs?: number | undefined;
  /** See {@link ExecutorConfig.approve}. */
  readonly approve?: ApproveHook | undefined;
  /** See {@link ExecutorConfig.telemetry}. */
  readonly telemetry?: Telemetry | undefined;
}

/** Options of one {@link Executor.execute} call. */
export interface ExecuteOptions {
  /** Cancels the call; a cancelled call fails with ToolError code `Canceled`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * A deadline for the call, in milliseconds; the tool's or the
   * executor's when that is shorter.
   */
  readonly timeoutMs?: number | undefined;
  /** Request headers (e.g. authorization) for the call. */
  readonly headers?: Parameters<Transport["unary"]>[3];
  /** Context values for the call, which the transport's interceptors see. */
  readonly contextValues?: ContextValues | undefined;
  /**
   * Names at the root of the arguments that are never unknown fields (the
   * MCP servers' `conversation` and added properties); the decoder drops
   * them.
   */
  readonly extraRoot?: ReadonlySet<string> | undefined;
  /** The caller's subject, for the approval hook; `""` by default. */
  readonly subject?: string | undefined;
  /**
   * Run once the arguments are checked and decoded, just before the RPC is
   * called, instead of the executor's approval: what it throws fails the
   * call, nothing sent (the MCP servers ask for approvals and apply their
   * limits here).
   */
  readonly beforeSend?: ((tool: ToolMethod) => Promise<void>) | undefined;
  /**
   * The W3C trace context the call continues (`traceparent`, `tracestate`)
   * for {@link ExecutorConfig.telemetry}: the MCP servers pass a
   * `tools/call`'s `params._meta`. The OpenTelemetry adapter takes its
   * `baggage` only with `createOpenTelemetry({ metaBaggage: true })`; an
   * application's own baggage travels in its active context (run the call
   * in `context.with`).
   */
  readonly traceContext?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Runs tool calls against gRPC services, with one alias manager. Use one
 * per conversation (see createSessionRegistry).
 */
export interface Executor {
  /**
   * Run the tool (docs/runtime.md, "A tool call"): read the arguments,
   * refuse unknown and missing required fields, resolve and check aliases,
   * undo the schema fixes, decode the request, check its `buf.validate`
   * rules; only then call the RPC, with a deadline; encode the response as
   * proto3 JSON (proto names by default), register its ids and return it
   * aliasified, refused when over `maxResultBytes`. A server-streaming RPC
   * returns a JSON array of at most 1000 messages. Every failure is a
   * {@link ToolError}, whose message is for the model.
   */
  execute(
    toolName: string,
    argsJson: string,
    options?: ExecuteOptions,
  ): Promise<string>;
  /** Whether toolName has an auto-executor here. */
  canExecute(toolName: string): boolean;
  /** The alias manager, to share with hand-written tools of the conversation. */
  readonly aliases: AliasManager;
}

/** The most messages a server-streaming tool returns. */
export const maxStreamMessages = 1000;

/**
 * Create an executor calling the RPCs through transport, with the given
 * alias manager or a fresh one. Throws an Error for a client- or
 * bidi-streaming method, or two tools of one name.
 */
export function createExecutor(
  transport: Transport,
  config: ExecutorConfig,
): Executor {
  checkCallLimits(config);
  const tools = new Map<string, Entry>();
  // One registry for every tool: an Any in one tool's result may hold a
  // type of another tool's file.
  const own = createMethodRegistry(config.methods.map((m) => m.method));
  const registry =
    config.registry === undefined
      ? own
      : createChainedRegistry(config.registry, own);
  for (const m of config.methods) {
    if (
      m.method.methodKind !== "unary" &&
      m.method.methodKind !== "server_streaming"
    ) {
      throw new Error(
        `tool ${JSON.stringify(m.tool.name)}: ${m.method.toString()} is ${m.method.methodKind.replace("_", "-")}; only unary and server-streaming methods can be executed`,
      );
    }
    if (tools.has(m.tool.name)) {
      throw new Error(`tool ${JSON.stringify(m.tool.name)} is declared twice`);
    }
    tools.set(m.tool.name, {
      ...m,
      registry,
      table: argumentTableOf(m),
    });
  }
  const aliases = config.aliasManager ?? createAliasManager(config.aliases);
  const core: ExecutorCore = {
    config,
    method: (toolName) =>
      typeof toolName === "string" ? tools.get(toolName)?.method : undefined,
    run: (toolName, argsJson, manager, options, onResponse, stats) =>
      run(
        transport,
        tools,
        config,
        toolName,
        argsJson,
        manager,
        options,
        onResponse,
        stats,
      ),
  };
  const execute = async (
    toolName: string,
    argsJson: string,
    options: ExecuteOptions,
    stats?: CallStats,
  ) => {
    try {
      const out = await core.run(
        toolName,
        argsJson,
        aliases,
        options,
        (t, json) => aliases.registerResponse(t, json),
        stats,
      );
      return checkResultSize(aliases.aliasifyJson(out), maxResultBytes(config));
    } catch (e) {
      throw toolError(aliases, e);
    }
  };
  return {
    aliases,
    canExecute: (toolName) =>
      typeof toolName === "string" && tools.has(toolName),
    execute(toolName, argsJson, options = {}) {
      const stats = callStats(
        config.telemetry,
        toolName,
        core.method(toolName),
        options,
      );
      return stats === undefined
        ? execute(toolName, argsJson, options)
        : traceExecute(stats, aliases, () =>
            execute(toolName, argsJson, options, stats),
          );
    },
    [executorCore]: core,
  } as Executor;
}

/**
 * A call of {@link Executor.execute} with telemetry. The table's size is
 * reported only when an MCP server marked the aliases as a conversation.
 */
async function traceExecute(
  stats: CallStats,
  aliases: AliasManager,
  execute: () => Promise<string>,
): Promise<string> {
  const before = aliases.aliasCount();
  let error: unknown;
  try {
    return await runObserved(stats, execute);
  } catch (e) {
    error = e;
    throw e;
  } finally {
    const after = aliases.aliasCount();
    stats.registered = after - before;
    endCall(stats, error, after);
  }
}

/**
 * What a store-backed executor needs of an executor made by
 * {@link createExecutor}, under the {@link executorCore} key.
 * @internal
 */
export interface ExecutorCore {
  /** The executor's configuration. */
  readonly config: ExecutorConfig;
  /** The RPC of an auto-executed tool; undefined for another name. */
  method(toolName: string): DescMethod | undefined;
  /**
   * Resolve the arguments with aliases, call the RPC and return the
   * response's JSON as shown (not yet aliasified); each response (each
   * message of a stream, in order) goes to onResponse in the runtime
   * contract's JSON. Throws what failed, not yet a ToolError. With stats,
   * the aliases resolved and the RPC's status are recorded there and the
   * call's trace context sent with the request.
   */
  run(
    toolName: string,
    argsJson: string,
    aliases: AliasManager,
    options: ExecuteOptions,
    onResponse: (toolName: string, json: string) => void,
    stats?: CallStats,
  ): Promise<string>;
}

/**
 * The key under which an executor of {@link createExecutor} carries its
 * {@link ExecutorCore}.
 * @internal
 */
export const executorCore = Symbol("ai-tools executor core");

/** The core of an executor made by {@link createExecutor}; else undefined. */
export function coreOf(executor: Executor): ExecutorCore | undefined {
  return (executor as { [executorCore]?: ExecutorCore })[executorCore];
}

/** The result limit of an executor's configuration. */
export function maxResultBytes(config: ExecutorConfig): number {
  return config.maxResultBytes ?? defaultMaxResultBytes;
}

interface Entry extends ToolMethod {
  readonly registry: Registry;
  readonly table: ArgumentTable | undefined;
}

/** The argument tables read so far, by tool (generated tools are constants). */
const tables = new WeakMap<ToolMethod, ArgumentTable>();

function argumentTableOf(m: ToolMethod): ArgumentTable | undefined {
  if (m.arguments === undefined) {
    return undefined;
  }
  let table = tables.get(m);
  if (table === undefined) {
    table = parseArgumentTable(m.tool.name, m.arguments);
    tables.set(m, table);
  }
  return table;
}

/** How results are shown when not as the contract's JSON (undefined). */
function shownJson(config: ExecutorConfig): ResultJsonOptions | undefined {
  if (config.resultJson !== undefined) {
    return config.resultJson;
  }
  return config.jsonNames === true ? undefined : protoNames;
}

const protoNames: ResultJsonOptions = { useProtoFieldName: true };

/**
 * The deadline of a call: the tool's, else the executor's, else 30 s (0:
 * none); the caller's when shorter.
 */
function deadlineMs(
  entry: Entry,
  config: ExecutorConfig,
  options: ExecuteOptions,
): number | undefined {
  const own = entry.timeoutMs ?? config.timeoutMs ?? defaultTimeoutMs;
  const caller = options.timeoutMs;
  if (own <= 0) {
    return caller;
  }
  return caller === undefined ? own : Math.min(own, caller);
}

async function run(
  transport: Transport,
  tools: ReadonlyMap<string, Entry>,
  config: ExecutorConfig,
  toolName: string,
  argsJson: string,
  aliases: AliasManager,
  options: ExecuteOptions,
  onResponse: (toolName: string, json: string) => void,
  stats: CallStats | undefined,
): Promise<string> {
  const entry = typeof toolName === "string" ? tools.get(toolName) : undefined;
  if (entry === undefined) {
    // Worded as in every target (docs/runtime.md, "Errors"): no quotes around the name.
    throw new ToolError(`no auto-executor for tool: ${String(toolName)}`, {
      reason: "unknown-tool",
      code: Code.NotFound,
    });
  }
  let request: Message;
  try {
    request = decode(
      entry,
      aliases,
      argsJson,
      config,
      options.extraRoot,
      stats,
    );
  } catch (e) {
    // Anything else is a bug, but reaches the caller as the one error type.
    throw e instanceof ToolError
      ? e
      : invalidArguments(e instanceof Error ? e.message : String(e), e);
  }
  if (options.beforeSend !== undefined) {
    await options.beforeSend(entry);
  } else if (entry.needsApproval === true) {
    await approveCall(config.approve, entry, argsJson, options.subject ?? "");
  }
  const resultJson = shownJson(config);
  const timeoutMs = deadlineMs(entry, config, options);
  if (stats !== undefined) {
    options = { ...options, headers: tracedHeaders(stats, options.headers) };
  }
  if (entry.method.methodKind === "unary") {
    const res = await sent(
      stats,
      transport.unary(
        entry.method as DescMethodUnary,
        options.signal,
        timeoutMs,
        options.headers,
        request,
        options.contextValues,
      ),
    );
    const [contract, shown] = encode(
      entry.method.output,
      res.message,
      entry.registry,
      resultJson,
    );
    onResponse(entry.tool.name, contract);
    return shown;
  }
  return await sent(
    stats,
    collect(
      transport,
      entry,
      { resultJson, timeoutMs, max: maxResultBytes(config), aliases },
      request,
      options,
      onResponse,
    ),
  );
}

/** Ask the executor's hook; throws the `not-approved` ToolError of a refusal. */
async function approveCall(
  approve: ApproveHook | undefined,
  entry: Entry,
  argsJson: string,
  subject: string,
): Promise<void> {
  const tool = entry.tool.name;
  if (approve === undefined) {
    throw noApprover(tool, "no approval hook");
  }
  const ok = await askApprover(approve, {
    subject,
    tool,
    method: grpcMethodName(entry.method),
    arguments: JSON.parse(argsJson) as Record<string, unknown>,
  });
  if (!ok) {
    throw notApproved(tool);
  }
}

/**
 * Any failure as the ToolError the model reads, every text aliasified (the
 * runtime's own messages quote what the model or the server wrote, which
 * may hold a resolved UUID); a failed call with the server's code and
 * details (`ConnectError.from`: an AbortError is `Canceled`).
 */
export function toolError(aliases: AliasManager, e: unknown): ToolError {
  if (e instanceof ToolError) {
    const message = aliases.aliasifyJson(e.message);
    const rawMessage = aliases.aliasifyJson(e.rawMessage);
    if (message === e.message && rawMessage === e.rawMessage) {
      return e;
    }
    return new ToolError(message, {
      reason: e.reason,
      code: e.code,
      rawMessage,
      details: e.details,
      violations: e.violations.map((v) => ({
        field: aliases.aliasifyJson(v.field),
        reason: v.reason,
        message: aliases.aliasifyJson(v.message),
      })),
      cause: e.cause,
    });
  }
  return callError(ConnectError.from(e), (s) => aliases.aliasifyJson(s), e);
}

/**
 * Read the model's arguments into the request message, stages 1 to 6 of
 * docs/runtime.md, "A tool call": each stage's violations are a ToolError,
 * and nothing is sent.
 */
function decode(
  entry: Entry,
  aliases: AliasManager,
  argsJson: string,
  config: ExecutorConfig,
  extraRoot: ReadonlySet<string> | undefined,
  stats: CallStats | undefined,
): Message {
  const { args, violation } = readArguments(argsJson);
  if (violation !== undefined) {
    throw violationError([violation]);
  }
  let checked = argsJson;
  if (entry.table !== undefined) {
    const violations = checkArguments(args, entry.table, {
      lenient: config.lenientArguments,
      extraRoot,
    });
    if (violations.length > 0) {
      throw violationError(violations);
    }
    // The check writes FieldMask values in their wire form.
    if (entry.table.masks.length > 0) {
      checked = stringifyJson(args);
    }
  }
  const tree = resolveAliases(aliases, checked);
  if (stats !== undefined) {
    stats.resolved = countAliases(aliases, args);
  }
  const input = entry.method.input;
  fixTree(tree, input, entry.tool.strict);
  const json = toDecoderJson(tree, input);
  let request: Message;
  try {
    request = fromJson(input, json, {
      ignoreUnknownFields: true,
      registry: entry.registry,
    });
  } catch (e) {
    throw invalidArguments(e instanceof Error ? e.message : String(e), e);
  }
  if (entry.validate === true && config.validator !== undefined) {
    validateRequest(validatorOf(config.validator), input, request);
  }
  return request;
}

/**
 * Stage 3: the arguments (one JSON object) with every alias replaced by
 * its UUID; an unknown alias is a violation.
 */
function resolveAliases(aliases: AliasManager, argsJson: string): JsonMap {
  let resolved: string;
  try {
    resolved = aliases.resolveJson(argsJson);
  } catch (e) {
    if (e instanceof ToolError && e.violations.length > 0) {
      throw violationError(e.violations, e.reason, e);
    }
    throw e;
  }
  return tryParseJson(resolved) as JsonMap;
}

/**
 * The proto3 JSON of a response as Go's protojson writes it, byte for byte:
 * in the runtime contract's form (lowerCamel names, unpopulated omitted,
 * map keys sorted), which the ids are registered from, and as shown (with
 * options; the same text without). One encoding serves both when only the
 * names differ. An Any of a type the registry lacks is written as its type
 * URL and its bytes.
 */
function encode(
  schema: DescMessage,
  message: Message,
  registry: Registry,
  options: ResultJsonOptions | undefined,
): [contract: string, shown: string] {
  try {
    if (options === undefined) {
      const text = toProtoJsonString(schema, message, { registry });
      return [text, text];
    }
    if (options.alwaysEmitImplicit !== true) {
      const both = toProtoJsonStrings(schema, message, { registry });
      return [
        both.jsonNames,
        options.useProtoFieldName === true ? both.protoNames : both.jsonNames,
      ];
    }
    return [
      toProtoJsonString(schema, message, { registry }),
      toProtoJsonString(schema, message, { ...options, registry }),
    ];
  } catch (e) {
    throw new ToolError(
      `failed to marshal response: ${e instanceof Error ? e.message : String(e)}`,
      {
        reason: "invalid-response",
        code: Code.Internal,
        cause: e,
      },
    );
  }
}

/**
 * How long a stream over the message limit is read on (and its messages
 * dropped) before it is cancelled.
 */
const overflowGraceMs = 100;

/** How {@link collect} writes and bounds a stream's messages. */
interface StreamLimits {
  /** How the messages are shown, when not as the contract's JSON. */
  readonly resultJson: ResultJsonOptions | undefined;
  /** The call's deadline. */
  readonly timeoutMs: number | undefined;
  /** The most bytes of the result; 0 for no limit. */
  readonly max: number;
  /** The aliases the result is shown with. */
  readonly aliases: AliasManager;
}

/**
 * Read a server stream into a JSON array of at most 1000 messages and at
 * most `max` bytes as the model sees them (aliasified); past either, the
 * stream is cancelled.
 */
async function collect(
  transport: Transport,
  entry: Entry,
  limits: StreamLimits,
  request: Message,
  options: ExecuteOptions,
  onResponse: (toolName: string, json: string) => void,
): Promise<string> {
  const { method } = entry;
  if (method.methodKind !== "server_streaming") {
    throw new Error(`unexpected method kind ${method.methodKind}`);
  }
  const abort = new AbortController();
  const onAbort = () => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) {
    onAbort();
  }
  options.signal?.addEventListener("abort", onAbort);
  try {
    const res = await transport.stream(
      method as DescMethodServerStreaming,
      abort.signal,
      limits.timeoutMs,
      options.headers,
      createAsyncIterable([request]),
      options.contextValues,
    );
    const items: string[] = [];
    let over: ToolError | undefined;
    let size = 1;
    let cancel: ReturnType<typeof setTimeout> | undefined;
    const stop = (error: ToolError) => {
      // Read on, for a moment, before cancelling: a stream the server has
      // ended delivers the rest at once and ends, while one whose end had
      // arrived but was cancelled unread keeps its HTTP/2 session, and so
      // the process, alive. One that goes on is cancelled.
      over = error;
      cancel = setTimeout(() => abort.abort(), overflowGraceMs);
    };
    try {
      for await (const message of res.message) {
        if (over !== undefined) {
          continue;
        }
        if (items.length === maxStreamMessages) {
          stop(
            new ToolError(
              `stream returned more than ${maxStreamMessages} messages: narrow the request`,
              { reason: "invalid-response", code: Code.ResourceExhausted },
            ),
          );
          continue;
        }
        const [item, shown] = encode(
          method.output,
          message,
          entry.registry,
          limits.resultJson,
        );
        onResponse(entry.tool.name, item);
        if (limits.max > 0) {
          size += utf8Length(limits.aliases.aliasifyJson(shown)) + 1;
          if (size > limits.max) {
            stop(streamTooLarge(limits.max));
            continue;
          }
        }
        items.push(shown);
      }
    } catch (e) {
      if (over === undefined) {
        throw e;
      }
    } finally {
      clearTimeout(cancel);
    }
    if (over !== undefined) {
      throw streamCut(over);
    }
    return `[${items.join(",")}]`;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}
