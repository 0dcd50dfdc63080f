import type { JsonObject } from "@bufbuild/protobuf";
import type { ToolMethod } from "../agent-tool.js";

/**
 * One tool of a generated MCP file: its definition, its RPC, the JSON
 * Schema of its result and its hints (docs/mcp.md, "Tools as listed").
 */
export interface McpToolMethod extends ToolMethod {
  /**
   * The JSON Schema of `structuredContent`: the response's JSON (a
   * server-streaming RPC's messages wrapped as `{"messages": […]}`).
   */
  readonly outputSchema: JsonObject;
  /**
   * The key the response's JSON is wrapped under in the result, so that
   * every result is an object: `"messages"` for a server stream's messages,
   * `"value"` for a response whose JSON is not an object, `""` for none.
   * By default `"messages"` for a server-streaming RPC, else `""`.
   */
  readonly outputWrapKey?: "" | "messages" | "value" | undefined;
  /** True for `idempotency_level = NO_SIDE_EFFECTS`. */
  readonly readOnlyHint?: boolean | undefined;
  /** True for `idempotency_level = IDEMPOTENT`. */
  readonly idempotentHint?: boolean | undefined;
}
