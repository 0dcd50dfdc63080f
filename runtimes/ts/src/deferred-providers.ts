import { defineTool, type AgentTool } from "./agent-tool.js";
import { toAnthropicTools, type AnthropicRequestTool } from "./anthropic.js";
import { toGeminiTool, type GeminiOptions, type GeminiTool } from "./gemini.js";
import {
  checkOpenAiDeferredRequest,
  toOpenAiChatTools,
  toOpenAiNamespaceFunction,
  toOpenAiResponsesTool,
  type OpenAiChatTool,
  type OpenAiNamespaceTool,
  type OpenAiResponsesRequestTool,
} from "./openai.js";
import {
  checkAnthropicToolSearchRequest,
  geminiLimits,
  openAiLimits,
} from "./provider-limits.js";
import { searchParameters, searchToolsName } from "./search-arguments.js";
import type { ToolSearchNamespace } from "./tool-search.js";

/** Which tool search an OpenAI Responses request carries. */
export interface OpenAiDeferredOptions {
  /** `hosted`: OpenAI searches; `client`: the model asks the application. */
  readonly search: "hosted" | "client";
}

/** Which tool search an Anthropic request carries, and strict tool use. */
export interface AnthropicDeferredOptions {
  /** Anthropic's server search (`bm25`, `regex`), or `client`: `search_tools`. */
  readonly search: "bm25" | "regex" | "client";
  /**
   * Send `strict: true` for the strict tools: every strict tool of the
   * request counts toward Anthropic's limits, deferred or not (20 at most).
   */
  readonly strict?: boolean | undefined;
}

/**
 * What the request builders read, checked once by `createDeferredTools`:
 * the tools, the always-loaded ones and the search data.
 */
export interface DeferredRequestSet {
  /** The tools of the generated file, in the order given. */
  readonly tools: readonly AgentTool[];
  /** The same tools by name. */
  readonly byName: ReadonlyMap<string, AgentTool>;
  /** The names of the always-loaded tools. */
  readonly always: ReadonlySet<string>;
  /** The always-loaded tools, in the order given. */
  readonly alwaysTools: readonly AgentTool[];
  /** The namespaces of the tool-search data. */
  readonly namespaces: readonly ToolSearchNamespace[];
  /** How many tools a search finds when the model does not say. */
  readonly defaultLimit: number;
  /** The `search_tools` function ({@link searchToolOf}). */
  readonly searchTool: AgentTool;
}

/** OpenAI's client `tool_search` description. */
const clientSearchDescription =
  "Search the functions of the namespaces above by what they do; the best matches are loaded.";

/**
 * The `tools` of an OpenAI Responses request: the always-loaded tools,
 * each namespace with its other functions deferred, then `tool_search`.
 * Throws an Error for an unknown search mode, a namespace named like an
 * always-loaded tool, or more than 128 top-level items.
 */
export function openAiResponsesTools(
  set: DeferredRequestSet,
  options: OpenAiDeferredOptions,
): OpenAiResponsesRequestTool[] {
  const mode = options.search;
  if (mode !== "hosted" && mode !== "client") {
    throw new Error(
      `openAiResponses: search ${JSON.stringify(mode)} is not "hosted" or "client"`,
    );
  }
  const namespaces = namespaceTools(set.namespaces, set.byName, set.always);
  for (const ns of namespaces) {
    if (set.always.has(ns.name)) {
      throw new Error(
        `namespace ${JSON.stringify(ns.name)} has the name of an always-loaded tool: OpenAI could not tell them apart; load another tool always`,
      );
    }
  }
  checkOpenAiDeferredRequest(set.alwaysTools.length, namespaces.length);
  return [
    ...set.alwaysTools.map((t) => toOpenAiResponsesTool(t)),
    ...namespaces,
    mode === "hosted"
      ? { type: "tool_search" as const }
      : {
          type: "tool_search" as const,
          execution: "client" as const,
          description: clientSearchDescription,
          parameters: searchParameters(set.defaultLimit) as unknown as {
            [key: string]: unknown;
          },
        },
  ];
}

/**
 * The `tools` of an OpenAI Chat Completions request: the always-loaded
 * tools, `search_tools`, then the `loaded` ones in load order; more than
 * 128 throw an Error.
 */
export function openAiChatTools(
  set: DeferredRequestSet,
  loaded: readonly string[],
): OpenAiChatTool[] {
  const tools = requestTools(set, loaded);
  checkLoadedRequest(tools.length, openAiLimits.maxTools, "tools", "OpenAI");
  return toOpenAiChatTools(tools);
}

/**
 * The Gemini tool of a request: the functions of {@link openAiChatTools};
 * more than 512 throw an Error.
 */
export function geminiRequestTool(
  set: DeferredRequestSet,
  loaded: readonly string[],
  options: GeminiOptions,
): GeminiTool {
  const tools = requestTools(set, loaded);
  checkLoadedRequest(
    tools.length,
    geminiLimits.maxFunctionDeclarations,
    "function declarations",
    "Gemini",
  );
  return toGeminiTool(tools, options);
}

/**
 * The `tools` of an Anthropic request: the always-loaded tools, every
 * other tool with `defer_loading: true`, then the search tool. Throws an
 * Error for an unknown search mode or a request over Anthropic's limits.
 */
export function anthropicRequestTools(
  set: DeferredRequestSet,
  options: AnthropicDeferredOptions,
): AnthropicRequestTool[] {
  const server = anthropicSearchTool(options.search);
  const deferred = set.tools.filter((t) => !set.always.has(t.name));
  const client = server === undefined ? [set.searchTool] : [];
  const out: AnthropicRequestTool[] = toAnthropicTools(
    [...set.alwaysTools, ...deferred, ...client],
    { strict: options.strict },
  ).map((t) =>
    set.always.has(t.name) || t.name === searchToolsName
      ? t
      : { ...t, defer_loading: true as const },
  );
  if (server !== undefined) {
    out.push(server);
  }
  checkAnthropicToolSearchRequest(out.length);
  return out;
}

/**
 * The `search_tools` function, its description naming the namespaces
 * (their descriptions' first lines).
 */
export function searchToolOf(
  namespaces: readonly ToolSearchNamespace[],
  defaultLimit: number,
): AgentTool {
  const listed = namespaces
    .map((ns) => `${ns.name} (${ns.description.split("\n")[0]!.trim()})`)
    .join("; ");
  const { additionalProperties, ...openApi } = searchParameters(defaultLimit);
  void additionalProperties;
  return defineTool({
    name: searchToolsName,
    description: `Search this API's tools by what they do and load the best matches: a loaded tool can be called from the next turn on. Searchable: ${listed}.`,
    strict: false,
    parameters: searchParameters(defaultLimit) as never,
    forms: { geminiParameters: openApi as never },
  });
}

/**
 * The functions of a Chat Completions or Gemini request: the always-loaded
 * tools, `search_tools`, then the loaded ones (always-loaded and unknown
 * names left out).
 */
function requestTools(
  set: DeferredRequestSet,
  loaded: readonly string[],
): AgentTool[] {
  return [
    ...set.alwaysTools,
    set.searchTool,
    ...loaded
      .filter((n) => !set.always.has(n) && set.byName.has(n))
      .map((n) => set.byName.get(n)!),
  ];
}

/**
 * A Chat Completions or Gemini request over its provider's limit: the
 * loaded tools make it, so the fix is a lower `maxLoaded` too.
 */
function checkLoadedRequest(
  count: number,
  limit: number,
  what: string,
  provider: string,
): void {
  if (count > limit) {
    throw new Error(
      `${String(count)} ${what} in one request: ${provider} takes at most ${String(limit)}; send a subset of the tools, or lower maxLoaded`,
    );
  }
}

/** The namespaces with their deferred functions (always-loaded ones out). */
function namespaceTools(
  namespaces: readonly ToolSearchNamespace[],
  byName: ReadonlyMap<string, AgentTool>,
  always: ReadonlySet<string>,
): OpenAiNamespaceTool[] {
  const out: OpenAiNamespaceTool[] = [];
  for (const ns of namespaces) {
    const tools = ns.tools
      .filter((f) => !always.has(f.tool))
      .map((f) => toOpenAiNamespaceFunction(byName.get(f.tool)!, f.function));
    if (tools.length > 0) {
      out.push({
        type: "namespace",
        name: ns.name,
        description: ns.description,
        tools,
      });
    }
  }
  return out;
}

/** Anthropic's server search tool for `mode`; none for `client`. */
function anthropicSearchTool(
  mode: AnthropicDeferredOptions["search"],
): AnthropicRequestTool | undefined {
  switch (mode) {
    case "bm25":
      return {
        type: "tool_search_tool_bm25_20251119",
        name: "tool_search_tool_bm25",
      };
    case "regex":
      return {
        type: "tool_search_tool_regex_20251119",
        name: "tool_search_tool_regex",
      };
    case "client":
      return undefined;
    default:
      throw new Error(
        `anthropic: search ${JSON.stringify(mode)} is not "bm25", "regex" or "client"`,
      );
  }
}
