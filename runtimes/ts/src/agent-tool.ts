import type { DescMethod, JsonObject } from "@bufbuild/protobuf";
import { deepFreeze } from "./deep-freeze.js";
import type { AnthropicStrictCounts } from "./provider-limits.js";

/** A tool definition, provider-neutral, as the generated code declares it. */
export interface AgentTool {
  /** The tool name (`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`). */
  readonly name: string;
  /** The description shown to the model. */
  readonly description: string;
  /** Whether the schema is an OpenAI strict schema. */
  readonly strict: boolean;
  /** The JSON Schema of the arguments (same schema as the Go target's). */
  readonly parameters: JsonObject;
  /**
   * The provider forms the generator computed for the tool
   * ({@link ProviderForms}); absent on a tool written by hand, which the
   * adapters send with `parameters` in every default form.
   */
  readonly forms?: ProviderForms | undefined;
}

/**
 * A tool's schema in each provider's form, as the generator writes it
 * (docs/compat.md, "What providers accept"): an absent key means "send
 * `parameters`". The adapters select a form and wrap it; no runtime
 * transforms a schema.
 */
export interface ProviderForms {
  /** `parameters` of OpenAI Chat Completions and Responses. */
  readonly openai?: JsonObject;
  /** Anthropic's `input_schema` without strict tool use. */
  readonly anthropic?: JsonObject;
  /**
   * Anthropic's `input_schema` with strict tool use (a strict tool only;
   * absent when equal to `parameters`).
   */
  readonly anthropicStrict?: JsonObject;
  /** What `anthropicStrict` adds to a request's strict tool use limits. */
  readonly anthropicStrictCounts?: AnthropicStrictCounts;
  /** Gemini's `parametersJsonSchema`. */
  readonly gemini?: JsonObject;
  /** Gemini's OpenAPI-subset `parameters`; `null`: the declaration has none. */
  readonly geminiParameters?: JsonObject | null;
}

/** One auto-executed tool: its definition and the RPC it calls. */
export interface ToolMethod {
  /** The tool definition. */
  readonly tool: AgentTool;
  /** The RPC, from the protoc-gen-es service descriptor (unary or server-streaming). */
  readonly method: DescMethod;
  /**
   * The argument table, as JSON text (docs/runtime.md, "Structure check"):
   * unknown and missing required fields are refused before anything is
   * sent. Without it, no structure check.
   */
  readonly arguments?: string | undefined;
  /**
   * The tool's deadline in milliseconds (its `(ai.tools.v1.rpc_tool).timeout`
   * annotation), over the executor's.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Whether the request carries `buf.validate` rules: checked with the
   * executor's validator, when it has one, before sending.
   */
  readonly validate?: boolean | undefined;
  /**
   * Whether a call needs an approval before it is sent (the annotation
   * does not set `auto_execute`; docs/mcp.md, "Approvals"): the MCP servers
   * and executors ask their `approve` hook, or MCP elicitation.
   */
  readonly needsApproval?: boolean | undefined;
}

/**
 * A deep copy of the tool's schema in a provider's form (`forms[form]`,
 * else `parameters`): adapters hand out copies, so that a caller editing a
 * provider's tool never changes the generated one.
 */
export function parametersOf(
  tool: AgentTool,
  form?: "openai" | "anthropic" | "gemini",
): { [key: string]: unknown } {
  const chosen = form === undefined ? undefined : tool.forms?.[form];
  return structuredClone(chosen ?? tool.parameters);
}

/**
 * The provider forms the generator wrote for the tool, or an error naming
 * the tool when it has none (a tool written by hand).
 */
export function formsOf(tool: AgentTool): ProviderForms {
  const forms = tool.forms;
  if (forms === undefined) {
    throw new Error(
      `tool ${JSON.stringify(tool.name)} has no generated provider forms: generate it with protoc-gen-ai-tools`,
    );
  }
  return forms;
}

/**
 * Freeze a tool and its schema, deeply, and return it: the generated tools
 * are frozen so that no caller can change what every conversation sends.
 */
export function defineTool(tool: AgentTool): AgentTool;
/**
 * A generated tool: its schema and provider forms are JSON text, parsed on
 * first read (the same frozen object on every read). Generated code
 * passes JSON text rather than object literals, which TypeScript checks
 * far faster (docs/benchmarks.md, "Type-checking the generated code").
 */
export function defineTool(
  name: string,
  description: string,
  strict: boolean,
  parametersJson: string,
  formsJson?: string,
): AgentTool;
export function defineTool(
  toolOrName: AgentTool | string,
  description = "",
  strict = false,
  parametersJson = "{}",
  formsJson?: string,
): AgentTool {
  if (typeof toolOrName !== "string") {
    return deepFreeze(toolOrName);
  }
  const parameters = lazyJson<JsonObject>(parametersJson);
  const forms =
    formsJson === undefined ? undefined : lazyJson<ProviderForms>(formsJson);
  return Object.freeze({
    name: toolOrName,
    description,
    strict,
    get parameters(): JsonObject {
      return parameters();
    },
    get forms(): ProviderForms | undefined {
      return forms?.();
    },
  });
}

/**
 * A getter of `json` parsed once, on first call, and frozen deeply; the
 * text is let go once parsed (a server of many tools holds each schema
 * once, not as text and object).
 */
function lazyJson<T>(json: string): () => T {
  let text: string | undefined = json;
  let value: T | undefined;
  return () => {
    if (text !== undefined) {
      value = deepFreeze(JSON.parse(text) as T);
      text = undefined;
    }
    return value as T;
  };
}
