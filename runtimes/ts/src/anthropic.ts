import { parametersOf, type AgentTool } from "./agent-tool.js";
import { toAnthropicStrictSchema } from "./anthropic-strict-schema.js";
import { checkAnthropicStrictRequest } from "./provider-limits.js";

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
   * Send `strict: true` for a strict tool (Anthropic strict tool use, which
   * allows at most 20 strict tools per request). Off by default. A
   * non-strict tool never carries the flag, as in the Python runtime.
   */
  readonly strict?: boolean | undefined;
}

/**
 * The tool as an Anthropic tool: `name`, `description`, `input_schema` (a
 * copy), and `strict: true` when asked for and the tool is strict; the
 * schema is then the form strict tool use takes
 * ({@link toAnthropicStrictSchema}).
 */
export function toAnthropicTool(
  tool: AgentTool,
  options: AnthropicToolOptions = {},
): AnthropicTool {
  const schema = objectSchema(tool);
  if (options.strict === true && tool.strict) {
    return {
      name: tool.name,
      description: tool.description,
      input_schema: strictSchemaOf(tool.name, schema),
      strict: true,
    };
  }
  return {
    name: tool.name,
    description: tool.description,
    input_schema: schema,
  };
}

/** The strict tool use form of a tool's schema; errors name the tool. */
function strictSchemaOf(
  name: string,
  schema: Record<string, unknown>,
): AnthropicTool["input_schema"] {
  try {
    return toAnthropicStrictSchema(schema) as AnthropicTool["input_schema"];
  } catch (e) {
    throw new Error(
      `tool ${JSON.stringify(name)}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
}

/** A copy of the tool's parameters, checked to be an object schema. */
export function objectSchema(tool: AgentTool): {
  type: "object";
  [key: string]: unknown;
} {
  const schema = parametersOf(tool);
  if (schema["type"] !== "object") {
    throw new Error(
      `tool ${JSON.stringify(tool.name)}: parameters are not an object schema`,
    );
  }
  return schema as { type: "object"; [key: string]: unknown };
}

/**
 * The tools of one Anthropic request, each as {@link toAnthropicTool}
 * makes it. With `strict: true`, the strict tools carry the flag, and a
 * request over the limits of strict tool use (20 strict tools, 24 optional
 * and 16 union parameters across them: {@link anthropicStrictLimits}) is
 * refused here, as Anthropic would refuse it.
 */
export function toAnthropicTools(
  tools: readonly AgentTool[],
  options: AnthropicToolOptions = {},
): AnthropicTool[] {
  const out = tools.map((t) => toAnthropicTool(t, options));
  checkAnthropicStrictRequest(
    out.filter((t) => t.strict === true).map((t) => t.input_schema),
  );
  return out;
}
