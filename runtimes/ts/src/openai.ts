import { parametersOf, type AgentTool } from "./agent-tool.js";
import { openAiLimits } from "./provider-limits.js";

/** An OpenAI Responses API function tool (`OpenAI.Responses.FunctionTool`). */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: { [key: string]: unknown };
  strict: boolean;
}

/** An OpenAI Chat Completions function tool (`OpenAI.Chat.ChatCompletionFunctionTool`). */
export interface OpenAiChatTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: { [key: string]: unknown };
    strict: boolean;
  };
}

/** The tool as an OpenAI Responses API function tool, with its `strict` flag (a copy). */
export function toOpenAiResponsesTool(tool: AgentTool): OpenAiResponsesTool {
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool, "openai"),
    strict: tool.strict,
  };
}

/** The tool as an OpenAI Chat Completions function tool, with its `strict` flag (a copy). */
export function toOpenAiChatTool(tool: AgentTool): OpenAiChatTool {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: parametersOf(tool, "openai"),
      strict: tool.strict,
    },
  };
}

/**
 * Throws when one OpenAI request would carry more tools than
 * {@link openAiLimits} allows, as the API would refuse it.
 */
function checkOpenAiRequest(count: number): void {
  const limit = openAiLimits.maxTools;
  if (count > limit) {
    throw new Error(
      `${count} tools in one request: OpenAI takes at most ${limit}; send a subset of the tools`,
    );
  }
}

/**
 * The tools of one OpenAI Responses API request, as
 * {@link toOpenAiResponsesTool} makes each. More than 128 tools
 * ({@link openAiLimits}) are refused here, as OpenAI would refuse them.
 */
export function toOpenAiResponsesTools(
  tools: readonly AgentTool[],
): OpenAiResponsesTool[] {
  checkOpenAiRequest(tools.length);
  return tools.map((t) => toOpenAiResponsesTool(t));
}

/**
 * The tools of one OpenAI Chat Completions request, as
 * {@link toOpenAiChatTool} makes each. More than 128 tools
 * ({@link openAiLimits}) are refused here, as OpenAI would refuse them.
 */
export function toOpenAiChatTools(
  tools: readonly AgentTool[],
): OpenAiChatTool[] {
  checkOpenAiRequest(tools.length);
  return tools.map((t) => toOpenAiChatTool(t));
}

/**
 * A function of an OpenAI Responses namespace, deferred: its schema loads
 * only when tool search finds it (`NamespaceTool.Function` with
 * `defer_loading: true`; docs/tool-search.md, "Provider requests").
 */
export interface OpenAiNamespaceFunction extends OpenAiResponsesTool {
  defer_loading: true;
}

/** An OpenAI Responses namespace (`OpenAI.Responses.NamespaceTool`). */
export interface OpenAiNamespaceTool {
  type: "namespace";
  name: string;
  description: string;
  tools: OpenAiNamespaceFunction[];
}

/**
 * OpenAI's tool search (`OpenAI.Responses.ToolSearchTool`): hosted, or run
 * by the application (`execution: "client"`, with the model's description
 * and parameters of the search call).
 */
export interface OpenAiToolSearchTool {
  type: "tool_search";
  execution?: "client";
  description?: string;
  parameters?: { [key: string]: unknown };
}

/** One item of a deferred OpenAI Responses request's `tools`. */
export type OpenAiResponsesRequestTool =
  OpenAiResponsesTool | OpenAiNamespaceTool | OpenAiToolSearchTool;

/**
 * The answer to the model's client tool search call
 * (`OpenAI.Responses.ResponseToolSearchOutputItemParam`), an input item:
 * the found functions, grouped in their namespaces.
 */
export interface OpenAiToolSearchOutput {
  type: "tool_search_output";
  call_id: string;
  execution: "client";
  status: "completed";
  tools: OpenAiNamespaceTool[];
}

/**
 * The tool as a deferred function of its namespace, named `functionName`
 * there (a copy, as {@link toOpenAiResponsesTool} makes it).
 */
export function toOpenAiNamespaceFunction(
  tool: AgentTool,
  functionName: string,
): OpenAiNamespaceFunction {
  return {
    ...toOpenAiResponsesTool(tool),
    name: functionName,
    defer_loading: true,
  };
}

/**
 * Throws when a deferred OpenAI Responses request would carry more
 * top-level tools than {@link openAiLimits} allows: OpenAI counts the items
 * of `tools` (a namespace is one, whatever it holds; docs/tool-search.md, "Limits").
 */
export function checkOpenAiDeferredRequest(
  alwaysLoaded: number,
  namespaces: number,
): void {
  const count = alwaysLoaded + namespaces + 1;
  const limit = openAiLimits.maxTools;
  if (count > limit) {
    throw new Error(
      `${count} top-level tools in one request (${alwaysLoaded} always loaded, ${namespaces} namespaces, the tool_search tool): OpenAI takes at most ${limit}; load fewer tools always, or split the API into several tool sets (fewer services per generated file)`,
    );
  }
}
