import {
  fromJson,
  type DescMessage,
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
  createAliasManager,
  type AliasConfig,
  type AliasManager,
} from "./alias-manager.js";
import { fixTree, invalidArguments, toDecoderJson } from "./fixup.js";
import { isJsonMap, jsonKind, tryParseJson } from "./json.js";
import { createMethodRegistry } from "./method-registry.js";
import { toProtoJsonString } from "./proto-json.js";
import { ToolError, callError } from "./tool-error.js";

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
   * How the returned JSON is written, when not as the runtime contract
   * says (JSON names, unset fields left out): the MCP results use proto
   * names and write defaults. With this option the JSON is the bytes Go's
   * protojson writes (docs/mcp.md, "Calls" step 4: fields in declaration
   * order, map keys sorted, `@type` first, `-0`). The ids are registered
   * from the contract's JSON either way.
   */
  readonly resultJson?: ResultJsonOptions | undefined;
}

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
}

/** Options of one {@link Executor.execute} call. */
export interface ExecuteOptions {
  /** Cancels the call; a cancelled call fails with ToolError code `Canceled`. */
  readonly signal?: AbortSignal | undefined;
  /** A deadline for the call, in milliseconds. */
  readonly timeoutMs?: number | undefined;
  /** Request headers (e.g. authorization) for the call. */
  readonly headers?: Parameters<Transport["unary"]>[3];
  /** Context values for the call, which the transport's interceptors see. */
  readonly contextValues?: ContextValues | undefined;
}

/**
 * Runs tool calls against gRPC services, with one alias manager. Use one
 * per conversation (see createSessionRegistry).
 */
export interface Executor {
  /**
   * Run the tool: resolve and check aliases, undo the schema fixes, decode
   * the request (unknown fields ignored), call the RPC, encode the response
   * as proto3 JSON, register its ids and return it aliasified. A
   * server-streaming RPC returns a JSON array of at most 1000 messages.
   * Every failure is a {@link ToolError}, whose message is for the model.
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
  const tools = new Map<string, Entry>();
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
    tools.set(m.tool.name, { ...m, registry: createMethodRegistry(m.method) });
  }
  const aliases = config.aliasManager ?? createAliasManager(config.aliases);
  const core: ExecutorCore = {
    config,
    run: (toolName, argsJson, manager, options, onResponse) =>
      run(
        transport,
        tools,
        config.resultJson,
        toolName,
        argsJson,
        manager,
        options,
        onResponse,
      ),
  };
  return {
    aliases,
    canExecute: (toolName) =>
      typeof toolName === "string" && tools.has(toolName),
    async execute(toolName, argsJson, options = {}) {
      try {
        const out = await core.run(
          toolName,
          argsJson,
          aliases,
          options,
          (t, json) => aliases.registerResponse(t, json),
        );
        return aliases.aliasifyJson(out);
      } catch (e) {
        throw toolError(aliases, e);
      }
    },
    [executorCore]: core,
  } as Executor;
}

/**
 * What a store-backed executor needs of an executor made by
 * {@link createExecutor}, under the {@link executorCore} key.
 * @internal
 */
export interface ExecutorCore {
  /** The executor's configuration. */
  readonly config: ExecutorConfig;
  /**
   * Resolve the arguments with aliases, call the RPC and return the
   * response's JSON as shown (not yet aliasified); each response (each
   * message of a stream, in order) goes to onResponse in the runtime
   * contract's JSON. Throws what failed, not yet a ToolError.
   */
  run(
    toolName: string,
    argsJson: string,
    aliases: AliasManager,
    options: ExecuteOptions,
    onResponse: (toolName: string, json: string) => void,
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

interface Entry extends ToolMethod {
  readonly registry: Registry;
}

async function run(
  transport: Transport,
  tools: ReadonlyMap<string, Entry>,
  resultJson: ResultJsonOptions | undefined,
  toolName: string,
  argsJson: string,
  aliases: AliasManager,
  options: ExecuteOptions,
  onResponse: (toolName: string, json: string) => void,
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
    request = decode(entry, aliases, argsJson);
  } catch (e) {
    // Anything else is a bug, but reaches the caller as the one error type.
    throw e instanceof ToolError
      ? e
      : invalidArguments(e instanceof Error ? e.message : String(e), e);
  }
  if (entry.method.methodKind === "unary") {
    const res = await transport.unary(
      entry.method as DescMethodUnary,
      options.signal,
      options.timeoutMs,
      options.headers,
      request,
      options.contextValues,
    );
    const out = encode(entry.method.output, res.message, entry.registry);
    onResponse(entry.tool.name, out);
    return resultJson === undefined
      ? out
      : encode(entry.method.output, res.message, entry.registry, resultJson);
  }
  return await collect(
    transport,
    entry,
    resultJson,
    request,
    options,
    onResponse,
  );
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
      cause: e.cause,
    });
  }
  return callError(ConnectError.from(e), (s) => aliases.aliasifyJson(s), e);
}

/** Read the model's arguments into the request message. */
function decode(
  entry: Entry,
  aliases: AliasManager,
  argsJson: string,
): Message {
  if (typeof argsJson !== "string") {
    throw invalidArguments(
      `expected the arguments as JSON text, got ${typeof argsJson}`,
    );
  }
  const tree = tryParseJson(aliases.resolveJson(argsJson));
  if (tree === undefined) {
    throw invalidArguments(
      "invalid JSON; send the arguments as one JSON object",
    );
  }
  if (!isJsonMap(tree)) {
    throw invalidArguments(`expected a JSON object, got ${jsonKind(tree)}`);
  }
  const input = entry.method.input;
  fixTree(tree, input, entry.tool.strict);
  const json = toDecoderJson(tree, input);
  try {
    return fromJson(input, json, {
      ignoreUnknownFields: true,
      registry: entry.registry,
    });
  } catch (e) {
    throw invalidArguments(e instanceof Error ? e.message : String(e), e);
  }
}

/**
 * The proto3 JSON of a response as Go's protojson writes it, byte for byte:
 * lowerCamel names, unpopulated omitted, map keys sorted; with options,
 * with those options. An Any of a type the registry lacks is written as its
 * type URL and its bytes.
 */
function encode(
  schema: DescMessage,
  message: Message,
  registry: Registry,
  options?: ResultJsonOptions,
): string {
  try {
    return toProtoJsonString(schema, message, { ...options, registry });
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

/** Read a server stream into a JSON array of at most 1000 messages. */
async function collect(
  transport: Transport,
  entry: Entry,
  resultJson: ResultJsonOptions | undefined,
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
      options.timeoutMs,
      options.headers,
      createAsyncIterable([request]),
      options.contextValues,
    );
    const items: string[] = [];
    let over = false;
    let cancel: ReturnType<typeof setTimeout> | undefined;
    try {
      for await (const message of res.message) {
        if (over) {
          continue;
        }
        if (items.length === maxStreamMessages) {
          // Read on, for a moment, before cancelling: a stream the server
          // has ended delivers the rest at once and ends, while one whose
          // end had arrived but was cancelled unread keeps its HTTP/2
          // session, and so the process, alive. One that goes on is
          // cancelled.
          over = true;
          cancel = setTimeout(() => abort.abort(), overflowGraceMs);
          continue;
        }
        const item = encode(method.output, message, entry.registry);
        onResponse(entry.tool.name, item);
        items.push(
          resultJson === undefined
            ? item
            : encode(method.output, message, entry.registry, resultJson),
        );
      }
    } catch (e) {
      if (!over) {
        throw e;
      }
    } finally {
      clearTimeout(cancel);
    }
    if (over) {
      throw new ToolError(
        `stream returned more than ${maxStreamMessages} messages: narrow the request`,
        {
          reason: "invalid-response",
          code: Code.ResourceExhausted,
        },
      );
    }
    return `[${items.join(",")}]`;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}
