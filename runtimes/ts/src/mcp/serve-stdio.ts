import {
  serveStdio as sdkServeStdio,
  type StdioServerHandle,
} from "@modelcontextprotocol/server/stdio";
import type { Transport } from "@modelcontextprotocol/server";
import type { McpToolServer } from "./tool-server.js";

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /**
   * The transport, a stdio-shaped one (e.g. a `StdioServerTransport` over
   * other streams); the process's stdin and stdout by default.
   */
  readonly transport?: Transport | undefined;
  /** Called with errors the connection cannot report to the client. */
  readonly onerror?: ((error: Error) => void) | undefined;
}

/**
 * Serve the tools over stdio, both protocol revisions: the connection is
 * one conversation (no handle). Returns a handle whose `close()` ends it.
 */
export function serveStdio(
  server: McpToolServer,
  options: ServeStdioOptions = {},
): StdioServerHandle {
  // The SDK calls the factory once per connection (and once for a probe of
  // the protocol revision it may discard): each gets its own aliases.
  return sdkServeStdio(
    () =>
      server.createSdkServer({
        kind: "connection",
        aliases: server.createAliasManager(),
      }),
    {
      ...(options.transport === undefined
        ? {}
        : { transport: options.transport }),
      ...(options.onerror === undefined ? {} : { onerror: options.onerror }),
    },
  );
}
