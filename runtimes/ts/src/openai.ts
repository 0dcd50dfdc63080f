import { parametersOf, type AgentTool } from "./agent-tool.js";

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
    parameters: parametersOf(tool),
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
      parameters: parametersOf(tool),
      strict: tool.strict,
    },
  };
}
