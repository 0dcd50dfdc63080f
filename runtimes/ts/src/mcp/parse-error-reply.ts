import { Transform, type Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/server";

/** The answer to a line that is not JSON-RPC (docs/mcp.md, "Transports"). */
const parseError = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32700, message: "Parse error" },
} as const;

/**
 * Make a stdio-shaped transport answer a line that is JSON but not a
 * JSON-RPC message with the parse error `-32700`, then go on reading as
 * before: the SDK's transport reports such a line to `onerror` only, and
 * the client would wait for an answer forever. Other errors pass through
 * unanswered. Returns the transport.
 */
export function answerParseErrors<T extends Transport>(transport: T): T {
  let handler: ((error: Error) => void) | undefined;
  const onerror = (error: Error) => {
    if (error.name === "ZodError") {
      transport
        .send(parseError as unknown as Parameters<Transport["send"]>[0])
        .catch(() => undefined);
    }
    handler?.(error);
  };
  Object.defineProperty(transport, "onerror", {
    configurable: true,
    enumerable: true,
    get: () => onerror,
    set: (h: ((error: Error) => void) | undefined) => {
      handler = h;
    },
  });
  return transport;
}

/**
 * A stdin filter answering each line that is not JSON with the parse error
 * `-32700` on `out` and dropping it (the SDK skips such lines without a
 * word); every other line passes on unchanged. Blank lines pass too.
 */
export function createParseErrorFilter(out: Writable): Transform {
  let pending: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let data: Buffer =
        pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let end: number;
      while ((end = data.indexOf(0x0a)) !== -1) {
        const line = data.subarray(0, end + 1);
        data = data.subarray(end + 1);
        if (isJsonLine(line)) {
          this.push(line);
        } else {
          out.write(`${JSON.stringify(parseError)}\n`);
        }
      }
      pending = data;
      done();
    },
    flush(done) {
      done(null, pending.length === 0 ? undefined : pending);
    },
  });
}

function isJsonLine(line: Buffer): boolean {
  const text = line.toString("utf8").trim();
  if (text === "") {
    return true;
  }
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
