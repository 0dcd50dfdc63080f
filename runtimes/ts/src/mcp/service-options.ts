import type { InProcessTransportOptions } from "./in-process-transport.js";

/** Options of a generated file's `forwardTo<Service>Client`. */
export interface McpServiceOptions {
  /**
   * A prefix for the service's tool names, to register one service twice;
   * a prefixed name must still be at most 64 characters.
   */
  readonly namePrefix?: string | undefined;
}

/** Options of a generated file's `register<Service>Handler`. */
export interface McpHandlerOptions
  extends McpServiceOptions, InProcessTransportOptions {}
