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
