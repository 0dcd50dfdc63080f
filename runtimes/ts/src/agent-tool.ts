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
  /** The tool's primary alias prefix, "" when none. */
  readonly outputPrefix: string;
}
