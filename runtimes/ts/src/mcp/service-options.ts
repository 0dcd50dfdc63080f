import type { InProcessTransportOptions } from "./in-process-transport.js";
import type { McpProvider } from "./provider-form.js";

/** Options of a generated file's `forwardTo<Service>Client`. */
export interface McpServiceOptions {
  /**
   * A prefix for the service's tool names, to register one service twice;
   * a prefixed name must still be at most 64 characters.
   */
  readonly namePrefix?: string | undefined;
  /**
   * Serve each tool's generated form for this provider as its input schema,
   * instead of its `parameters` (docs/mcp.md, "Serving a provider's form").
   * Registration throws for an unknown provider or a tool without
   * generated forms.
   */
  readonly provider?: McpProvider | undefined;
}

/** Options of a generated file's `register<Service>Handler`. */
export interface McpHandlerOptions
  extends McpServiceOptions, InProcessTransportOptions {}
