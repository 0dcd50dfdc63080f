import { formsOf, parametersOf, type AgentTool } from "./agent-tool.js";
import {
  checkAnthropicStrictRequest,
  type AnthropicStrictCounts,
} from "./provider-limits.js";

/** An Anthropic Messages API tool (`Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
  /** Left out of the context until tool search finds it (deferred requests). */
  defer_loading?: true;
}

/** Anthropic's server tool search (`ToolSearchToolBm25_20251119`, `ToolSearchToolRegex20251119`). */
export type AnthropicToolSearchTool =
  | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25" }
  | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };

/** One item of a deferred Anthropic request's `tools`. */
export type AnthropicRequestTool = AnthropicTool | AnthropicToolSearchTool;

/**
 * A content block of the `tool_result` answering a client-side tool
 * search: a found tool (`ToolReferenceBlockParam`), or a text saying that
 * nothing was found.
 */
export type AnthropicToolResultBlock =
  | { type: "tool_reference"; tool_name: string }
  | { type: "text"; text: string };

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
 * copy of the generated form: `forms.anthropic`, else `parameters`), and
 * `strict: true` when asked for and the tool is strict; the schema is then
 * the strict tool use form the generator wrote (`forms.anthropicStrict`,
 * what Anthropic's SDK makes of the schema, absent when that is
 * `parameters`), which a tool written by hand does not have (an error
 * naming the tool).
 */
export function toAnthropicTool(
  tool: AgentTool,
  options: AnthropicToolOptions = {},
): AnthropicTool {
  if (options.strict === true && tool.strict) {
    return {
      name: tool.name,
      description: tool.description,
      input_schema: objectSchema(
        tool,
        structuredClone(formsOf(tool).anthropicStrict ?? tool.parameters),
      ),
      strict: true,
    };
  }
  return {
    name: tool.name,
    description: tool.description,
    input_schema: objectSchema(tool, parametersOf(tool, "anthropic")),
  };
}

/** A form of the tool's schema (a copy), checked to be an object schema. */
function objectSchema(
  tool: AgentTool,
  form: object,
): AnthropicTool["input_schema"] {
  const schema = form as Record<string, unknown>;
  if (schema["type"] !== "object") {
    throw new Error(
      `tool ${JSON.stringify(tool.name)}: parameters are not an object schema`,
    );
  }
  return schema as AnthropicTool["input_schema"];
}

/**
 * The tools of one Anthropic request, each as {@link toAnthropicTool}
 * makes it. With `strict: true`, the strict tools carry the flag, and a
 * request over the limits of strict tool use (20 strict tools, 24 optional
 * and 16 union parameters across them: {@link anthropicStrictLimits},
 * summed from each tool's generated `forms.anthropicStrictCounts`) is
 * refused here, as Anthropic would refuse it.
 */
export function toAnthropicTools(
  tools: readonly AgentTool[],
  options: AnthropicToolOptions = {},
): AnthropicTool[] {
  const out = tools.map((t) => toAnthropicTool(t, options));
  const counts: AnthropicStrictCounts[] = [];
  if (options.strict === true) {
    for (const t of tools) {
      if (t.strict) {
        counts.push(
          formsOf(t).anthropicStrictCounts ?? { optional: 0, unions: 0 },
        );
      }
    }
  }
  checkAnthropicStrictRequest(counts);
  return out;
}
