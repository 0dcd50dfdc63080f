// A stdio line that is not JSON-RPC is answered with -32700 (docs/mcp.md,
// "Transports"): the stdin filter for lines that are not JSON (which the
// SDK skips silently), the transport hook for JSON that is not JSON-RPC.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { PassThrough, type Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  answerParseErrors,
  createParseErrorFilter,
} from "../../src/mcp/parse-error-reply.js";

const parseError = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n`;

function collect(stream: Readable): () => string {
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString("utf8");
}

describe("createParseErrorFilter", () => {
  it("answers each line that is not JSON and passes the others on, whatever the chunks", async () => {
    const out = new PassThrough();
    const answered = collect(out);
    const filter = createParseErrorFilter(out);
    const passed = collect(filter);
    const text = Buffer.from('{"a":"é"}\nnot json\n\n{"b":\n[1]\n{"c":2}');
    // One byte at a time: lines and UTF-8 sequences split across chunks.
    for (let i = 0; i < text.length; i++) {
      filter.write(text.subarray(i, i + 1));
    }
    filter.end();
    await new Promise((resolve) => filter.on("end", resolve));
    expect(passed()).toBe('{"a":"é"}\n\n[1]\n{"c":2}');
    expect(answered()).toBe(parseError + parseError);
  });
});

describe("answerParseErrors", () => {
  it("answers JSON that is not JSON-RPC, and still reports it", async () => {
    const input = new PassThrough();
    const out = new PassThrough();
    const written = collect(out);
    const transport = answerParseErrors(new StdioServerTransport(input, out));
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.name);
    await transport.start();
    input.write('{"not":"json-rpc"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).toBe(parseError);
    expect(errors).toEqual(["ZodError"]);
    await transport.close();
  });
});
