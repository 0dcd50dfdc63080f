import { Code } from "@connectrpc/connect";
import type { AgentTool } from "./agent-tool.js";
import type {
  AnthropicRequestTool,
  AnthropicToolResultBlock,
} from "./anthropic.js";
import { storeCall } from "./conversation-executor.js";
import {
  toolLoadingOf,
  type ConversationStore,
  type ToolLoadingStore,
} from "./conversation-store.js";
import {
  anthropicRequestTools,
  geminiRequestTool,
  openAiChatTools,
  openAiResponsesTools,
  searchToolOf,
  type AnthropicDeferredOptions,
  type DeferredRequestSet,
  type OpenAiDeferredOptions,
} from "./deferred-providers.js";
import type { GeminiOptions, GeminiTool } from "./gemini.js";
import {
  toOpenAiNamespaceFunction,
  type OpenAiChatTool,
  type OpenAiNamespaceTool,
  type OpenAiResponsesRequestTool,
  type OpenAiToolSearchOutput,
} from "./openai.js";
import { openAiLimits } from "./provider-limits.js";
import { ToolError } from "./tool-error.js";
import {
  defaultSearchLimit,
  maxSearchLimit,
  notInSearchData,
  parseSearchArguments,
  searchToolsName,
} from "./search-arguments.js";
import {
  rankTools,
  type ToolSearch,
  type ToolSearchNamespace,
} from "./tool-search.js";

/** Options of {@link createDeferredTools}. */
export interface DeferredToolsOptions {
  /** The tools of the generated file (`allTools()`). */
  readonly tools: readonly AgentTool[];
  /** Its tool-search data (`toolSearch`, generated with `tool_search=true`). */
  readonly search: ToolSearch;
  /**
   * Where each conversation's loaded tools live: the store of the
   * conversation executor (a handle is one its `start()` returned). It
   * needs `loadTools` and `loadedTools` (the memory and Redis stores have
   * them).
   */
  readonly store: ConversationStore;
  /** Tools sent as ordinary tools in every request, never deferred. */
  readonly alwaysLoaded?: readonly string[] | undefined;
  /** How many tools a search finds when the model does not say: 5 (at most 20). */
  readonly limit?: number | undefined;
  /**
   * The most tools a conversation's searches may load (always-loaded ones
   * aside): a search that would load more loads nothing and throws a
   * `ToolError` (`conversation-full`) for the model. By default 128 less
   * the always-loaded tools less 1, what OpenAI Chat Completions takes with
   * `search_tools` (1 when that is less); at least 1 (docs/tool-search.md,
   * "Limits").
   */
  readonly maxLoaded?: number | undefined;
}

/** What {@link DeferredTools.search} found and what is loaded now. */
export interface ToolSearchOutcome {
  /** The tools the search found, best first (loaded before or not). */
  readonly found: string[];
  /** The conversation's loaded tools after the search, in load order. */
  readonly loaded: string[];
}

/**
 * A generated API's tools for requests that load tools on demand
 * (docs/tool-search.md): per provider, the request's tools, and the
 * answers to the model's search calls. The loaded tools of a conversation
 * live in the conversation store, in load order, never reordered, so any
 * replica builds the same request.
 */
export interface DeferredTools {
  /**
   * Rank the tools for `query` (at most `limit`, the options' by default)
   * and append the found ones not yet loaded (always-loaded ones aside) to
   * the conversation's loaded tools, atomically. Bad arguments (a model's
   * mistake) throw a `ToolError` (`invalid-arguments`) to show the model,
   * and so does a search that would load more than `maxLoaded` tools
   * (`conversation-full`; nothing loaded); store failures throw
   * `conversation-expired` or `store-unavailable`.
   */
  search(
    handle: string,
    query: string,
    limit?: number,
  ): Promise<ToolSearchOutcome>;
  /** The conversation's loaded tools, in load order. */
  loaded(handle: string): Promise<string[]>;
  /**
   * The `tools` of an OpenAI Responses request: the always-loaded tools,
   * each namespace with its other functions deferred, then `tool_search`.
   * The same every turn (OpenAI keeps what a search loaded in the
   * conversation's items); more than 128 top-level items are refused.
   */
  openAiResponses(
    handle: string,
    options: OpenAiDeferredOptions,
  ): Promise<OpenAiResponsesRequestTool[]>;
  /**
   * The `tools` of an OpenAI Chat Completions request: the always-loaded
   * tools, `search_tools`, then the loaded ones in load order (a load
   * only appends: the prefix a provider caches stays the same); more than
   * 128 are refused.
   */
  openAiChat(handle: string): Promise<OpenAiChatTool[]>;
  /**
   * The Gemini tool of a request: the same functions as
   * {@link DeferredTools.openAiChat}; more than 512 are refused.
   */
  gemini(handle: string, options?: GeminiOptions): Promise<GeminiTool>;
  /**
   * The `tools` of an Anthropic request: the always-loaded tools, every
   * other tool with `defer_loading: true`, then the search tool. The same
   * every turn (Anthropic expands `tool_reference` blocks of the history);
   * more than 10,000 are refused.
   */
  anthropic(
    handle: string,
    options: AnthropicDeferredOptions,
  ): Promise<AnthropicRequestTool[]>;
  /**
   * The input item answering OpenAI's client `tool_search_call` of
   * `callId`: the found functions grouped in their namespaces (always-loaded
   * tools left out: the model has them).
   */
  openAiToolSearchOutput(
    callId: string,
    found: readonly string[],
  ): OpenAiToolSearchOutput;
  /**
   * The content of the `tool_result` answering Anthropic's `search_tools`
   * call: a `tool_reference` per found deferred tool, or one text block
   * when there is none (saying so, or naming the found tools when they are
   * all always loaded).
   */
  anthropicToolReferences(found: readonly string[]): AnthropicToolResultBlock[];
  /**
   * The result text of a `search_tools` call (Chat Completions, Gemini):
   * `{"tools":[{"name","description"}]}`, found order.
   */
  searchToolsResult(found: readonly string[]): string;
  /**
   * The tool an OpenAI namespaced function call names; an unknown pair
   * throws a `ToolError` (`unknown-tool`) naming both, to show the model.
   */
  toolOf(namespace: string, functionName: string): string;
}

/** Where a tool sits in the search data. */
interface Placement {
  readonly namespace: ToolSearchNamespace;
  readonly functionName: string;
}

/** Anthropic's answer when a search found nothing deferred. */
const nothingFound = "no tool found; search again with other words";

/**
 * Tools for requests that load tools on demand, from a generated file's
 * tools and tool-search data. Throws an Error for options that cannot
 * work: a store without the loaded-tools operations, an unknown
 * always-loaded tool, search data naming tools that are not given (or a
 * given tool in no namespace nor always loaded), a `limit` outside 1..20,
 * a `maxLoaded` below 1.
 */
export function createDeferredTools(
  options: DeferredToolsOptions,
): DeferredTools {
  const store = toolLoadingOf(options.store);
  const defaultLimit = checkLimitOption(options.limit);
  const byName = toolMap(options.tools);
  const always = alwaysLoadedOf(options.alwaysLoaded ?? [], byName);
  const maxLoaded = checkMaxLoaded(options.maxLoaded, always.size);
  const search = options.search;
  const placements = placementsOf(search.namespaces, byName, always);
  const toolsByPair = toolsByPairOf(placements);
  const set: DeferredRequestSet = {
    tools: options.tools,
    byName,
    always,
    alwaysTools: [...always].map((n) => byName.get(n)!),
    namespaces: search.namespaces,
    defaultLimit,
    searchTool: searchToolOf(search.namespaces, defaultLimit),
  };
  const loaded = (handle: string): Promise<string[]> =>
    storeCall(() => store.loadedTools(handle));
  const known = (found: readonly string[]): AgentTool[] =>
    knownTools(byName, found);

  return {
    async search(handle, query, limit) {
      const args = parseSearchArguments({ query, limit });
      const hits = rankTools(search, args.query, args.limit ?? defaultLimit);
      const found = hits.map((h) => h.name).filter((n) => byName.has(n));
      const fresh = found.filter((n) => !always.has(n));
      const now = await loadNames(store, handle, fresh, maxLoaded);
      return { found, loaded: now };
    },
    loaded,
    openAiResponses: (handle, opts) =>
      Promise.resolve().then(() => {
        void handle;
        return openAiResponsesTools(set, opts);
      }),
    openAiChat: async (handle) => openAiChatTools(set, await loaded(handle)),
    gemini: async (handle, opts = {}) =>
      geminiRequestTool(set, await loaded(handle), opts),
    anthropic: (handle, opts) =>
      Promise.resolve().then(() => {
        void handle;
        return anthropicRequestTools(set, opts);
      }),
    openAiToolSearchOutput: (callId, found) =>
      toolSearchOutput(callId, known(found), placements, always),
    anthropicToolReferences: (found) => toolReferences(known(found), always),
    searchToolsResult: (found) => searchResult(known(found)),
    toolOf: (namespace, functionName) =>
      toolOfPair(toolsByPair, namespace, functionName),
  };
}

/** The tools by namespace, then by function name: an OpenAI call's pair. */
function toolsByPairOf(
  placements: ReadonlyMap<string, Placement>,
): Map<string, Map<string, string>> {
  const toolsByPair = new Map<string, Map<string, string>>();
  for (const [tool, p] of placements) {
    const fns = toolsByPair.get(p.namespace.name) ?? new Map<string, string>();
    fns.set(p.functionName, tool);
    toolsByPair.set(p.namespace.name, fns);
  }
  return toolsByPair;
}

/** The tools of found names; an unknown name throws an Error. */
function knownTools(
  byName: ReadonlyMap<string, AgentTool>,
  found: readonly string[],
): AgentTool[] {
  return found.map((name) => {
    const tool = byName.get(name);
    if (tool === undefined) {
      throw new Error(
        `unknown tool ${JSON.stringify(name)}: pass names a search found`,
      );
    }
    return tool;
  });
}

/**
 * The item answering OpenAI's client `tool_search_call`: the found
 * functions grouped in their namespaces, always-loaded tools left out.
 */
function toolSearchOutput(
  callId: string,
  found: readonly AgentTool[],
  placements: ReadonlyMap<string, Placement>,
  always: ReadonlySet<string>,
): OpenAiToolSearchOutput {
  const groups = new Map<string, OpenAiNamespaceTool>();
  for (const tool of found) {
    const p = placements.get(tool.name);
    if (p === undefined || always.has(tool.name)) {
      continue;
    }
    let group = groups.get(p.namespace.name);
    if (group === undefined) {
      group = {
        type: "namespace",
        name: p.namespace.name,
        description: p.namespace.description,
        tools: [],
      };
      groups.set(p.namespace.name, group);
    }
    if (!group.tools.some((f) => f.name === p.functionName)) {
      group.tools.push(toOpenAiNamespaceFunction(tool, p.functionName));
    }
  }
  return {
    type: "tool_search_output",
    call_id: callId,
    execution: "client",
    status: "completed",
    tools: [...groups.values()],
  };
}

/**
 * The content answering Anthropic's `search_tools` call: a
 * `tool_reference` per found deferred tool, else one text block.
 */
function toolReferences(
  found: readonly AgentTool[],
  always: ReadonlySet<string>,
): AnthropicToolResultBlock[] {
  const refs: AnthropicToolResultBlock[] = [];
  for (const tool of found) {
    if (!always.has(tool.name)) {
      refs.push({ type: "tool_reference", tool_name: tool.name });
    }
  }
  if (refs.length > 0) {
    return refs;
  }
  const names = found.map((t) => t.name);
  return [
    {
      type: "text",
      text:
        names.length > 0
          ? `the tools found are already loaded: ${names.join(", ")}`
          : nothingFound,
    },
  ];
}

/** The result text of a `search_tools` call, found order. */
function searchResult(found: readonly AgentTool[]): string {
  return JSON.stringify({
    tools: found.map((t) => ({ name: t.name, description: t.description })),
  });
}

/** The tool of an OpenAI namespaced call; an unknown pair: a ToolError. */
function toolOfPair(
  toolsByPair: ReadonlyMap<string, ReadonlyMap<string, string>>,
  namespace: string,
  functionName: string,
): string {
  const fns = toolsByPair.get(namespace);
  const tool = fns?.get(functionName);
  if (tool !== undefined) {
    return tool;
  }
  throw new ToolError(
    fns === undefined
      ? `unknown namespace ${JSON.stringify(namespace)} (function ${JSON.stringify(functionName)}): call a function a tool search loaded, with its namespace`
      : `no function ${JSON.stringify(functionName)} in namespace ${JSON.stringify(namespace)}: call a function a tool search loaded`,
    { reason: "unknown-tool", code: Code.NotFound },
  );
}

/**
 * Append names to the loaded tools (the epoch read first); the whole list.
 * Names that would bring the list over `maxLoaded` load none of them: a
 * `conversation-full` ToolError for the model.
 */
async function loadNames(
  store: ToolLoadingStore,
  handle: string,
  names: readonly string[],
  maxLoaded: number,
): Promise<string[]> {
  const now = await storeCall(() => store.loadedTools(handle));
  const added = names.filter((n) => !now.includes(n));
  if (added.length === 0) {
    return now;
  }
  const count = now.length + added.length;
  if (count > maxLoaded) {
    throw new ToolError(
      `${String(count)} tools would be loaded, at most ${String(maxLoaded)}: call one of the loaded tools, or start a new conversation`,
      { reason: "conversation-full", code: Code.ResourceExhausted },
    );
  }
  const { epoch } = await storeCall(() => store.load(handle));
  return storeCall(() => store.loadTools(handle, epoch, names));
}

function checkMaxLoaded(maxLoaded: number | undefined, always: number): number {
  if (maxLoaded === undefined) {
    // What Chat Completions takes: 128 functions, `search_tools` one of
    // them; at least 1 (many always-loaded tools: Responses, Anthropic).
    return Math.max(1, openAiLimits.maxTools - always - 1);
  }
  if (!Number.isInteger(maxLoaded) || maxLoaded < 1) {
    throw new Error(
      `maxLoaded ${JSON.stringify(String(maxLoaded))}: give a whole number of at least 1`,
    );
  }
  return maxLoaded;
}

function checkLimitOption(limit: number | undefined): number {
  const n = limit ?? defaultSearchLimit;
  if (!Number.isInteger(n) || n < 1 || n > maxSearchLimit) {
    throw new Error(
      `limit ${JSON.stringify(String(limit))}: give a whole number from 1 to ${maxSearchLimit}`,
    );
  }
  return n;
}

function toolMap(tools: readonly AgentTool[]): Map<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const t of tools) {
    if (byName.has(t.name)) {
      throw new Error(
        `tool ${JSON.stringify(t.name)} is given twice: pass the generated file's allTools()`,
      );
    }
    if (t.name === searchToolsName) {
      throw new Error(
        `tool ${JSON.stringify(t.name)} has the name of the search function: rename the RPC's tool`,
      );
    }
    byName.set(t.name, t);
  }
  return byName;
}

function alwaysLoadedOf(
  names: readonly string[],
  byName: ReadonlyMap<string, AgentTool>,
): Set<string> {
  for (const name of names) {
    if (!byName.has(name)) {
      throw new Error(
        `alwaysLoaded: unknown tool ${JSON.stringify(name)}: name tools of the generated file`,
      );
    }
  }
  return new Set(names);
}

/** Each tool's namespace and function name, checked against the tools. */
function placementsOf(
  namespaces: readonly ToolSearchNamespace[],
  byName: ReadonlyMap<string, AgentTool>,
  always: ReadonlySet<string>,
): Map<string, Placement> {
  const placements = new Map<string, Placement>();
  const seen = new Set<string>();
  for (const namespace of namespaces) {
    const ns = JSON.stringify(namespace.name);
    if (seen.has(namespace.name)) {
      throw new Error(
        `tool search data: namespace ${ns} is listed twice: regenerate the file with protoc-gen-ai-tools`,
      );
    }
    seen.add(namespace.name);
    const functions = new Set<string>();
    for (const f of namespace.tools) {
      if (!byName.has(f.tool)) {
        throw new Error(
          `tool search data: namespace ${ns} names the tool ${JSON.stringify(f.tool)}, which is not given: pass the tools and the toolSearch of one generated file`,
        );
      }
      if (placements.has(f.tool) || functions.has(f.function)) {
        throw new Error(
          `tool search data: namespace ${ns} lists the tool ${JSON.stringify(f.tool)} (function ${JSON.stringify(f.function)}) a second time: regenerate the file with protoc-gen-ai-tools`,
        );
      }
      functions.add(f.function);
      placements.set(f.tool, { namespace, functionName: f.function });
    }
  }
  for (const name of byName.keys()) {
    if (!placements.has(name) && !always.has(name)) {
      throw new Error(notInSearchData(name));
    }
  }
  return placements;
}
