import type { AgentTool } from "./agent-tool.js";

/** An Anthropic Messages API tool (`Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
}

/** Options of {@link toAnthropicTool}. */
export interface AnthropicToolOptions {
  /**
   * Also send the tool's `strict` flag (Anthropic structured tool use, which
   * limits a request to 20 strict tools). Off by default.
   */
  readonly strict?: boolean | undefined;
}

/** The tool as an Anthropic tool: `name`, `description`, `input_schema`. */
export function toAnthropicTool(
  tool: AgentTool,
  options: AnthropicToolOptions = {},
): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: objectSchema(tool),
    ...(options.strict === true ? { strict: tool.strict } : {}),
  };
}

/** The tool's parameters, checked to be an object schema. */
export function objectSchema(tool: AgentTool): {
  type: "object";
  [key: string]: unknown;
} {
  const schema = tool.parameters;
  if (schema["type"] !== "object") {
    throw new Error(
      `tool ${JSON.stringify(tool.name)}: parameters are not an object schema`,
    );
  }
  return schema as { type: "object"; [key: string]: unknown };
}
