import type { DescMethod, Registry } from "@bufbuild/protobuf";
import { createContextValues, type Transport } from "@connectrpc/connect";
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import {
  createAliasManager,
  type AliasConfig,
  type AliasManager,
} from "../alias-manager.js";
import { executeInConversation } from "../conversation-executor.js";
import { conversationExpired } from "../conversation-errors.js";
import {
  checkRoom,
  createMemoryConversationStore,
  type ConversationStore,
} from "../conversation-store.js";
import {
  coreOf,
  createExecutor,
  type ExecuteOptions,
  type Executor,
  type ExecutorConfig,
  type ExecutorCore,
} from "../executor.js";
import type { RequestValidator } from "../request-validation.js";
import { quote } from "../json.js";
import {
  createDelegatingRegistry,
  createMethodRegistry,
} from "../method-registry.js";
import { checkCallLimits } from "../result-limit.js";
import {
  callStats,
  endCall,
  endRefused,
  startedCall,
  type CallStats,
  type Telemetry,
} from "../telemetry.js";
import {
  errorResult,
  errorText,
  successResult,
  type ToolResult,
} from "./call-result.js";
import { takeCallArguments } from "./call-arguments.js";
import { subjectCallsKey } from "./call-limits.js";
import {
  createCallPolicy,
  failureOutcome,
  policeCall,
  type CallPolicy,
  type CallPolicyOptions,
} from "./call-policy.js";
import { conversationKey, subjectConversations } from "./conversation-key.js";
import {
  conversationArgument,
  isMintedHandle,
  unknownConversationMessage,
} from "./conversation-handle.js";
import { extraPropertiesKey, type ExtraProperty } from "./extra-properties.js";
import type { McpToolMethod } from "./mcp-tool.js";
import { mergeAliasConfigs } from "./merge-alias-configs.js";
import { checkMcpProvider, type McpProvider } from "./provider-form.js";
import { ToolCallServer } from "./tool-call-guard.js";
import { checkRequiredScopes } from "./required-scopes.js";
import {
  callArguments,
  callToolName,
  checkSearchFirst,
  createSearchCatalog,
  createSearchSession,
  isModernRevision,
  searchableCheck,
  searchToolsName,
  unknownCalledTool,
  type SearchCatalog,
  type SearchFirst,
  type SearchFirstMode,
} from "./search-first.js";
import { sortedUnique } from "./sorted-unique.js";
import { listTool, type ListedTool } from "./tool-listing.js";

/**
 * Options of {@link createMcpToolServer}; those applied to every call
 * (approvals, limits, audit, the identity to the backend) are
 * {@link CallPolicyOptions}.
 */
export interface McpToolServerOptions extends CallPolicyOptions {
  /** The server's name, sent to clients; `"ai-tools"` by default. */
  readonly name?: string | undefined;
  /** The server's version, sent to clients; `"0.0.0"` by default. */
  readonly version?: string | undefined;
  /** Instructions for the model, sent to clients. */
  readonly instructions?: string | undefined;
  /**
   * Properties added to every tool's input schema, taken out of the
   * arguments and handed to the call's context ({@link extraPropertiesKey}).
   */
  readonly extraProperties?: readonly ExtraProperty[] | undefined;
  /**
   * Take the conversation handle as the tool argument `conversation` (listed
   * in every input schema) as well as in the request's `_meta`.
   */
  readonly handleArgument?: boolean | undefined;
  /**
   * Where conversations with handles (HTTP, protocol 2026-07-28) live:
   * in memory by default; a shared store (`@protoc-gen-ai-tools/runtime/redis`) lets
   * several instances serve one handle (docs/store.md).
   */
  readonly conversationStore?: ConversationStore | undefined;
  /**
   * How long an unused conversation of the default store, or an unused
   * HTTP session, lives, in milliseconds; 30 minutes by default.
   */
  readonly idleTtlMs?: number | undefined;
  /**
   * Message types of the error details servers send and of the Any values
   * results hold, to write them as JSON; the types of every registered
   * service's files and their imports are known without it (so
   * `GetOperation` writes the response of an operation another service
   * started).
   */
  readonly registry?: Registry | undefined;
  /**
   * The most UTF-8 bytes of a result's JSON: a larger one is an `isError`
   * result asking for less, a stream cancelled once past it. 100,000 by
   * default (about the 25,000-token cap common MCP clients apply); 0 for
   * no limit.
   */
  readonly maxResultBytes?: number | undefined;
  /**
   * The deadline of a call, in milliseconds, for tools without their own
   * `timeoutMs`: 30,000 by default; 0 for none.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Scopes a caller's token must hold to call a tool over HTTP with
   * authorization, by tool name, besides the tool's own (the annotation's
   * `required_scopes`).
   */
  readonly requiredScopes?:
    Readonly<Record<string, readonly string[]>> | undefined;
  /**
   * Observes every call (a span and metrics with
   * `@protoc-gen-ai-tools/runtime/otel`), continuing the trace context of a
   * `tools/call`'s `_meta` (`traceparent`, `tracestate`, `baggage`).
   */
  readonly telemetry?: Telemetry | undefined;
  /**
   * Serve a search-first tool set (docs/mcp.md, "Search-first tool sets"):
   * to a connection that can be told of a list change now (2025-11-25
   * stdio or HTTP session; 2026-07-28 stdio while it listens for tool list
   * changes) `tools/list` gives `search_tools`, the always-loaded tools and
   * the tools its searches found (`notifications/tools/list_changed` after
   * a search adds some); to any other (HTTP 2026-07-28, a 2026-07-28
   * connection that does not listen) `search_tools`, `call_tool` and the
   * always-loaded tools. Any served tool can still be called by name. Off
   * by default: every tool is listed. Every served tool must be in the
   * search data or in `alwaysLoaded` (refused at registration), and every
   * `alwaysLoaded` name a served tool (refused at the first list or
   * search, when every registration is known).
   */
  readonly searchFirst?: SearchFirst | undefined;
}

/** A group of tools served through one transport. */
export interface McpToolSet {
  /** The tools. */
  readonly methods: readonly McpToolMethod[];
  /** The alias facts of the generated file. */
  readonly aliases: AliasConfig;
  /** The transport the calls go through. */
  readonly transport: Transport;
  /**
   * A prefix for the tool names (one service registered twice); a name
   * must still be at most 64 characters.
   */
  readonly namePrefix?: string | undefined;
  /**
   * The provider whose generated form each tool lists as its input schema
   * (docs/mcp.md, "Serving a provider's form"); its `parameters` without.
   */
  readonly provider?: McpProvider | undefined;
  /**
   * A protovalidate validator, for the tools with `validate` (the
   * generated file passes one when some tool's request has rules).
   */
  readonly validator?: RequestValidator | undefined;
  /** Leave unknown argument keys to the decoder (`lenient_arguments=true`). */
  readonly lenientArguments?: boolean | undefined;
}

/**
 * Which conversation the calls of one SDK server belong to: the
 * connection's (stdio, an HTTP session), or one named by a handle per call
 * (HTTP, protocol 2026-07-28).
 */
export type ConversationScope =
  | {
      readonly kind: "connection";
      readonly aliases: AliasManager;
      /**
       * Whether the connection listens for tool list changes now
       * (`subscriptions/listen`, 2026-07-28, served by the stdio entry):
       * a search-first view. Absent: it does not listen.
       */
      readonly listensToTools?: (() => boolean) | undefined;
    }
  | { readonly kind: "handle" };

/**
 * Tools served over MCP: `register<Service>Handler` and
 * `forwardTo<Service>Client` add tools, `serveStdio` and `serveHttp` serve
 * them. Each connection or HTTP request gets its own SDK server.
 */
export interface McpToolServer {
  /** The options the server was created with. */
  readonly options: McpToolServerOptions;
  /**
   * Add tools. Throws an Error for a name taken, a name too long, an
   * extra property that is already a property of a tool, an unknown
   * provider, or a provider given for a tool without generated forms.
   */
  addTools(set: McpToolSet): void;
  /**
   * Every served tool as `tools/list` lists it without `searchFirst`,
   * sorted by name (a copy).
   */
  listTools(): ListedTool[];
  /**
   * The scopes a call of the tool needs: its own (`requiredScopes` of its
   * method) and the `requiredScopes` option's for it, sorted, each once;
   * none for an unknown tool. The HTTP layer checks them per call.
   */
  requiredScopes(tool: string): readonly string[];
  /** A fresh alias manager knowing every added tool (one conversation). */
  createAliasManager(): AliasManager;
  /** The store of conversations with handles. */
  conversationStore(): ConversationStore;
  /** A low-level SDK server answering `tools/list` and `tools/call`. */
  createSdkServer(scope: ConversationScope): Server;
}

interface Entry {
  readonly listed: ListedTool;
  readonly method: McpToolMethod;
  readonly set: McpToolSet;
  /** The set's executors, one per conversation. */
  readonly executors: WeakMap<AliasManager, Executor>;
  /** The set's executor core, for calls through the conversation store. */
  readonly core: ExecutorCore;
  readonly registry: Registry;
  /** The key the result's JSON is wrapped under, or "". */
  readonly wrapKey: string;
  /**
   * Whether its calls belong to a conversation: only when its set declares
   * alias prefixes. Without any, nothing is remembered between calls, and
   * no handle is taken or shown (as the Go file without aliases has no
   * conversations; docs/mcp.md).
   */
  readonly conversations: boolean;
}

/** MCP results: proto field names, defaults written (docs/mcp.md). */
const mcpResultJson = {
  useProtoFieldName: true,
  alwaysEmitImplicit: true,
} as const;

const toolNamePattern = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/** Create an MCP tool server without tools. */
export function createMcpToolServer(
  options: McpToolServerOptions = {},
): McpToolServer {
  checkCallLimits(options);
  checkRequiredScopes(options.requiredScopes);
  const searchFirst = options.searchFirst;
  if (searchFirst !== undefined) {
    checkSearchFirst(searchFirst);
  }
  const checkSearchable =
    searchFirst === undefined ? undefined : searchableCheck(searchFirst);
  const policy = createCallPolicy(options);
  const extras = options.extraProperties ?? [];
  const handleArgument = options.handleArgument === true;
  for (const e of extras) {
    if (handleArgument && e.name === conversationArgument) {
      throw new Error(
        `extra property ${JSON.stringify(e.name)} is the handle argument: rename it`,
      );
    }
  }
  const entries = new Map<string, Entry>();
  const configs: AliasConfig[] = [];
  let merged: AliasConfig | undefined;
  let store = options.conversationStore;
  // Built once per change of the tools and frozen: `tools/list` answers
  // with it as it is (a copy per list of a large API's tools would be as
  // large as the tools; bench/README.md, "Gateway").
  let listing: readonly ListedTool[] | undefined;
  const listed = () =>
    (listing ??= Object.freeze(
      [...entries.values()]
        .map((e) => e.listed)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    ));

  // The search-first catalog: rebuilt, as the listing, when tools change.
  let catalog: SearchCatalog | undefined;
  const searchCatalog = (sf: SearchFirst) =>
    (catalog ??= createSearchCatalog(
      sf,
      [...entries.values()].map((e) => ({
        listed: e.listed,
        tool: e.method.tool.name,
      })),
    ));

  const aliasConfig = () => (merged ??= mergeAliasConfigs(configs));
  // The types of every registered service's files, for Any values: an
  // operation's response type is declared beside the method that started
  // it, GetOperation in another service.
  const methods: DescMethod[] = [];
  let union: Registry | undefined;
  const registry = createDelegatingRegistry(
    () => (union ??= createMethodRegistry(methods, options.registry)),
  );
  const server: McpToolServer = {
    options,
    addTools(set) {
      const added: Entry[] = [];
      const executors = new WeakMap<AliasManager, Executor>();
      const core = coreOf(
        createExecutor(set.transport, executorConfig(set, options, registry)),
      ) as ExecutorCore;
      const conversations = set.aliases.knownAliasPrefixes.length > 0;
      checkMcpProvider(set.provider);
      for (const m of set.methods) {
        const name = (set.namePrefix ?? "") + m.tool.name;
        if (!toolNamePattern.test(name)) {
          throw new Error(
            `tool name ${JSON.stringify(name)} is not ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$: use a shorter name prefix`,
          );
        }
        if (
          searchFirst !== undefined &&
          (name === searchToolsName || name === callToolName)
        ) {
          throw new Error(
            `tool ${JSON.stringify(name)} has the name of a search-first tool: register it with a name prefix`,
          );
        }
        checkSearchable?.(m.tool.name);
        if (entries.has(name) || added.some((a) => a.listed.name === name)) {
          throw new Error(
            `tool ${JSON.stringify(name)} is registered twice: register the service once, or with a name prefix`,
          );
        }
        added.push({
          listed: listTool(
            name,
            m,
            extras,
            handleArgument && conversations,
            set.provider,
          ),
          method: m,
          set,
          executors,
          core,
          registry,
          wrapKey:
            m.outputWrapKey ??
            (m.method.methodKind === "server_streaming" ? "messages" : ""),
          conversations,
        });
      }
      for (const a of added) {
        entries.set(a.listed.name, a);
        methods.push(a.method.method);
      }
      union = undefined;
      configs.push(set.aliases);
      merged = undefined;
      listing = undefined;
      catalog = undefined;
    },
    listTools() {
      return structuredClone(listed()) as ListedTool[];
    },
    requiredScopes(tool) {
      const entry = entries.get(tool);
      if (entry === undefined) {
        return [];
      }
      const own = entry.method.requiredScopes ?? [];
      const added = Object.hasOwn(options.requiredScopes ?? {}, tool)
        ? (options.requiredScopes?.[tool] ?? [])
        : [];
      return sortedUnique([...own, ...added]);
    },
    createAliasManager() {
      return createAliasManager(aliasConfig());
    },
    conversationStore() {
      store ??= createMemoryConversationStore({
        idleTtlMs: options.idleTtlMs,
      });
      return store;
    },
    createSdkServer(scope) {
      // The list view where the connection can be told of a change now: a
      // 2025-11-25 connection (stdio, an HTTP session), or a 2026-07-28 one
      // while it listens; else (a 2026-07-28 request, or connection that
      // does not listen) the call view: call_tool.
      const mode = (): SearchFirstMode =>
        scope.kind === "connection" &&
        (!isModernRevision(sdk.getNegotiatedProtocolVersion()) ||
          scope.listensToTools?.() === true)
          ? "list"
          : "call";
      const session =
        searchFirst === undefined
          ? undefined
          : createSearchSession(() => searchCatalog(searchFirst), mode);
      const sdk = new ToolCallServer(
        {
          name: options.name ?? "ai-tools",
          version: options.version ?? "0.0.0",
        },
        {
          capabilities: {
            tools:
              session !== undefined && scope.kind === "connection"
                ? { listChanged: true }
                : {},
          },
          ...(options.instructions === undefined
            ? {}
            : { instructions: options.instructions }),
        },
      );
      // The frozen listing itself: the SDK copies what it changes.
      sdk.setRequestHandler("tools/list", () => ({
        tools: session?.list() ?? (listed() as ListedTool[]),
      }));
      sdk.setRequestHandler("tools/call", async (request, ctx) => {
        const args = request.params.arguments ?? {};
        if (session !== undefined && request.params.name === searchToolsName) {
          const { result, added } = session.search(args);
          if (added) {
            await ctx.mcpReq.notify({
              method: "notifications/tools/list_changed",
            });
          }
          return result;
        }
        if (session !== undefined && request.params.name === callToolName) {
          // The named tool, through the same path as its direct call.
          const target = callArguments(args);
          const entry =
            typeof target === "string" ? undefined : entries.get(target.name);
          if (typeof target === "string" || entry === undefined) {
            return errorResult(
              typeof target === "string"
                ? target
                : unknownCalledTool(target.name),
            );
          }
          const result = await callTool(
            server,
            policy,
            entry,
            target.args,
            ctx,
            scope,
            sdk,
          );
          return isInputRequiredResult(result)
            ? result
            : sdk.projectCallToolResult(result, undefined);
        }
        const entry = entries.get(request.params.name);
        if (entry === undefined) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `unknown tool ${quote(request.params.name)}`,
          );
        }
        const result = await callTool(
          server,
          policy,
          entry,
          args,
          ctx,
          scope,
          sdk,
        );
        return isInputRequiredResult(result)
          ? result
          : sdk.projectCallToolResult(result, entry.listed.outputSchema);
      });
      return sdk;
    },
  };
  return server;
}

/** One `tools/call`: never throws; every failure is an `isError` result. */
async function callTool(
  server: McpToolServer,
  policy: CallPolicy,
  entry: Entry,
  argsIn: Record<string, unknown>,
  ctx: ServerContext,
  scope: ConversationScope,
  sdk: Server,
): Promise<ToolResult | InputRequiredResult> {
  const taken = entry.conversations
    ? takeCallArguments(argsIn, ctx.mcpReq._meta, server.options)
    : takeCallArguments(argsIn, undefined, {
        ...server.options,
        handleArgument: false,
      });
  const handle = typeof taken === "string" ? undefined : taken.handle;
  // Started before the checks, so a refusal has its span too.
  const stats = callStats(
    entry.core.config.telemetry,
    entry.method.tool.name,
    entry.method.method,
    { traceContext: ctx.mcpReq._meta },
  );
  const call = policeCall(
    policy,
    {
      tool: entry.listed.name,
      method: entry.method.method,
      args: typeof taken === "string" ? argsIn : taken.args,
      conversationId:
        scope.kind === "connection" ? (ctx.sessionId ?? "") : (handle ?? ""),
      // A session or stdio connection counts per connection, with or
      // without aliases; a handle per handle; neither: the subject's count.
      conversation: (subject) =>
        scope.kind === "connection"
          ? scope.aliases
          : handle !== undefined
            ? conversationKey(handle, subject)
            : // No conversation: the subject's count.
              subjectCallsKey(subject),
    },
    ctx,
    sdk,
  );
  let aliases: AliasManager | undefined;
  const fail = (e: unknown): ToolResult => {
    call.end(...failureOutcome(e));
    return errorResult(errorText(e, aliases, entry.registry));
  };
  /** A refusal before the executor: its span ends here. */
  const refuse = (errorType: string, text: string): ToolResult => {
    if (stats !== undefined) {
      endRefused(stats, errorType);
    }
    return errorResult(text);
  };
  try {
    call.countCall();
  } catch (e) {
    if (stats !== undefined) {
      endCall(stats, e, undefined);
    }
    return fail(e);
  }
  // The HTTP gate refuses it first (403); this holds for any transport.
  const missing = call.missingScopes(server.requiredScopes(entry.listed.name));
  if (missing !== undefined) {
    call.end("unauthorized");
    return refuse(
      "unauthorized",
      `the call of ${quote(entry.listed.name)} needs scope ${quote(missing)}`,
    );
  }
  if (typeof taken === "string") {
    call.end("invalid_arguments");
    return refuse("invalid-arguments", taken);
  }
  if (
    scope.kind === "handle" &&
    handle !== undefined &&
    !isMintedHandle(handle)
  ) {
    // Not a handle this server minted: unknown, whoever asks (the span's
    // reason is an unknown handle's, as Go's and Python's).
    call.end(call.subject === "" ? "invalid_arguments" : "unauthorized");
    return refuse("conversation-expired", unknownConversationMessage(handle));
  }
  try {
    const { args, extras } = taken;
    const contextValues = createContextValues().set(extraPropertiesKey, extras);
    const callOptions: ExecuteOptions = {
      signal: ctx.mcpReq.signal,
      contextValues,
      extraRoot: rootExtras(server.options),
      headers: call.headers,
      subject: call.subject,
      beforeSend: async (m) => {
        try {
          await call.beforeSend(m);
        } catch (e) {
          if (stats !== undefined && call.inputRequired() !== undefined) {
            stats.asked = true;
          }
          throw e;
        }
      },
      traceContext: ctx.mcpReq._meta,
      [startedCall]: stats,
    } as ExecuteOptions;
    if (scope.kind === "handle" && entry.conversations) {
      const result = await executeInConversation(
        entry.core,
        subjectConversations(server.conversationStore(), call.subject),
        () => server.createAliasManager(),
        taken.handle,
        entry.method.tool.name,
        JSON.stringify(args),
        callOptions,
      );
      aliases = result.aliases;
      if (result.error === undefined) {
        call.end("ok");
        return successResult(result.out, entry.wrapKey, result.handle);
      }
      if (
        result.error.reason === "conversation-expired" &&
        taken.handle !== undefined
      ) {
        // Another subject's handle is unknown to this one: the same answer.
        call.end(call.subject === "" ? "invalid_arguments" : "unauthorized");
        return errorResult(unknownConversationMessage(taken.handle));
      }
      if (result.error.reason === "conversation-expired") {
        // Made for this call and lost in it: the model never saw its handle.
        return fail(conversationExpired(undefined));
      }
      return call.inputRequired() ?? fail(result.error);
    }
    if (scope.kind === "connection" && entry.conversations) {
      aliases = scope.aliases;
      checkConnectionRoom(server, aliases, stats);
    } else {
      aliases = createAliasManager(entry.set.aliases);
    }
    const out = await executorOf(server, entry, aliases).execute(
      entry.method.tool.name,
      JSON.stringify(args),
      callOptions,
    );
    call.end("ok");
    return successResult(out, entry.wrapKey, undefined);
  } catch (e) {
    if (stats !== undefined) {
      // The span ends whatever threw (already ended: nothing).
      endCall(stats, e, undefined);
    }
    return call.inputRequired() ?? fail(e);
  }
}

/**
 * Refuse a call of a connection's conversation (stdio, an HTTP session)
 * holding the store's `maxAliases` aliases or more, as a stored
 * conversation's (`conversation-full`, nothing sent); with stats, the call
 * is observed as a conversation's. The model holds no handle of it: the
 * text names "this conversation".
 */
function checkConnectionRoom(
  server: McpToolServer,
  aliases: AliasManager,
  stats: CallStats | undefined,
): void {
  if (stats !== undefined) {
    stats.conversation = true;
  }
  try {
    checkRoom(server.options.conversationStore, undefined, aliases);
  } catch (error) {
    if (stats !== undefined) {
      endCall(stats, error, aliases.aliasCount());
    }
    throw error;
  }
}

/** The executor configuration of a tool set. */
function executorConfig(
  set: McpToolSet,
  options: McpToolServerOptions,
  registry: Registry,
): ExecutorConfig {
  return {
    methods: set.methods,
    aliases: set.aliases,
    resultJson: mcpResultJson,
    validator: set.validator,
    lenientArguments: set.lenientArguments,
    maxResultBytes: options.maxResultBytes,
    timeoutMs: options.timeoutMs,
    registry,
    telemetry: prefixedTelemetry(options.telemetry, set.namePrefix),
  };
}

/** Telemetry naming a set's tools as clients call them, prefix included. */
function prefixedTelemetry(
  telemetry: Telemetry | undefined,
  prefix: string | undefined,
): Telemetry | undefined {
  if (telemetry === undefined || prefix === undefined || prefix === "") {
    return telemetry;
  }
  return {
    startToolCall: (start) =>
      telemetry.startToolCall({ ...start, tool: prefix + start.tool }),
  };
}

/**
 * The names never unknown at the root of a call's arguments: `conversation`
 * (with or without handleArgument) and the extra properties.
 */
function rootExtras(options: McpToolServerOptions): ReadonlySet<string> {
  return new Set([
    conversationArgument,
    ...(options.extraProperties ?? []).map((e) => e.name),
  ]);
}

/** The executor of the entry's tool set for one conversation. */
function executorOf(
  server: McpToolServer,
  entry: Entry,
  aliases: AliasManager,
): Executor {
  let e = entry.executors.get(aliases);
  if (e === undefined) {
    e = createExecutor(entry.set.transport, {
      ...executorConfig(entry.set, server.options, entry.registry),
      aliasManager: aliases,
    });
    entry.executors.set(aliases, e);
  }
  return e;
}
