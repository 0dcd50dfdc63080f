import { PassThrough, Writable } from "node:stream";
import {
  serveStdio as sdkServeStdio,
  StdioServerTransport,
  type StdioServerHandle,
} from "@modelcontextprotocol/server/stdio";
import type { Transport } from "@modelcontextprotocol/server";
import { ListingStdioTransport } from "./listing-pieces.js";
import {
  answerParseErrors,
  createParseErrorFilter,
} from "./parse-error-reply.js";
import { watchToolListens } from "./tool-listens.js";
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
 * one conversation (no handle). A line that is not JSON-RPC is answered
 * with the parse error -32700, and the next line is read. Returns a handle
 * whose `close()` ends it.
 */
export function serveStdio(
  server: McpToolServer,
  options: ServeStdioOptions = {},
): StdioServerHandle {
  const transport = answerParseErrors(options.transport ?? processStdio());
  // A 2026-07-28 connection is told of a list change on its listens.
  const listens = watchToolListens(transport);
  // The SDK calls the factory once per connection (and once for a probe of
  // the protocol revision it may discard): each gets its own aliases.
  return sdkServeStdio(
    () =>
      server.createSdkServer({
        kind: "connection",
        aliases: server.createAliasManager(),
        listensToTools: listens.open,
      }),
    {
      transport,
      ...(options.onerror === undefined ? {} : { onerror: options.onerror }),
    },
  );
}

/**
 * The process's stdin and stdout, a line that is not JSON answered with
 * the parse error (the SDK's transport skips it silently).
 */
function processStdio(): StdioServerTransport {
  const input = new PassThrough();
  const transport = new ListingStdioTransport(input, process.stdout);
  // The parse errors are written in turn with the messages: never inside a
  // listing written in pieces.
  const answers = new Writable({
    write(chunk: Buffer, _encoding, done) {
      transport.writeInTurn(chunk.toString());
      done();
    },
  });
  process.stdin.pipe(createParseErrorFilter(answers)).pipe(input);
  return transport;
}
