import type { JsonObject } from "@bufbuild/protobuf";
import type { ToolMethod } from "../agent-tool.js";

/**
 * One tool of a generated MCP file: its definition, its RPC, the JSON
 * Schema of its result and its hints (docs/mcp.md, "Tools as listed").
 */
export interface McpToolMethod extends ToolMethod {
  /**
   * The JSON Schema of `structuredContent`: the response's JSON (a
   * server-streaming RPC's messages wrapped as `{"messages": […]}`), as
   * JSON text (what the generated MCP file writes: tsc checks text far
   * faster than an object literal) or as an object.
   */
  readonly outputSchema: JsonObject | string;
  /**
   * The key the response's JSON is wrapped under in the result, so that
   * every result is an object: `"messages"` for a server stream's messages,
   * `"value"` for a response whose JSON is not an object, `""` for none.
   * By default `"messages"` for a server-streaming RPC, else `""`.
   */
  readonly outputWrapKey?: "" | "messages" | "value" | undefined;
  /**
   * MCP's `readOnlyHint`: the tool changes nothing. The generator sets all
   * four hints (docs/mcp.md, "Tool hints"): from the method's kind (Get, List,
   * Search, Watch, BatchGet read), then its `idempotency_level`, then the
   * annotation's `hints`. A hint left undefined is not listed.
   */
  readonly readOnlyHint?: boolean | undefined;
  /**
   * MCP's `destructiveHint`: a change may destroy or overwrite data (MCP
   * assumes true when it is not listed).
   */
  readonly destructiveHint?: boolean | undefined;
  /** MCP's `idempotentHint`: calling it again with the same arguments changes nothing more. */
  readonly idempotentHint?: boolean | undefined;
  /**
   * MCP's `openWorldHint`: it reaches entities outside the server's own
   * domain (MCP assumes true when it is not listed).
   */
  readonly openWorldHint?: boolean | undefined;
  /**
   * The scopes a caller's token must hold to call the tool over HTTP with
   * authorization (the annotation's `required_scopes`), besides the
   * server's `requiredScopes` option for it; compared exactly.
   */
  readonly requiredScopes?: readonly string[] | undefined;
}
