import type { DescMethod, JsonObject } from "@bufbuild/protobuf";

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
}

/**
 * A deep copy of the tool's parameters: adapters hand out copies, so that a
 * caller editing a provider's tool never changes the generated one.
 */
export function parametersOf(tool: AgentTool): { [key: string]: unknown } {
  return structuredClone(tool.parameters);
}

/**
 * Freeze a tool and its schema, deeply, and return it: the generated tools
 * are frozen so that no caller can change what every conversation sends.
 */
export function defineTool(tool: AgentTool): AgentTool {
  return deepFreeze(tool);
}

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    for (const key of Object.keys(v)) {
      deepFreeze((v as Record<string, unknown>)[key]);
    }
    Object.freeze(v);
  }
  return v;
}
