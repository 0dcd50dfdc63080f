// A tools/list answer over stdio is written in pieces (bench/README.md,
// "Gateway"): the same bytes as the SDK's one string, and nothing written
// meanwhile lands inside it.
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { PassThrough, type Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  ListingStdioTransport,
  listingPieces,
} from "../../src/mcp/listing-pieces.js";

function collect(stream: Readable): () => string {
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString("utf8");
}

/** A tools/list answer of `n` tools, each description over 1,000 characters. */
function listing(n: number): JSONRPCMessage {
  const tools = Array.from({ length: n }, (_, i) => ({
    name: `t${i}`,
    description: `${"x".repeat(1000)} — "tools":"\u0000tools" ${i}`,
    inputSchema: { type: "object", properties: { a: { type: "string" } } },
  }));
  return {
    jsonrpc: "2.0",
    id: 7,
    result: { tools, nextCursor: "c", _meta: { tools: [1] } },
  } as unknown as JSONRPCMessage;
}

describe("listingPieces", () => {
  it("joined, they are JSON.stringify of the message", () => {
    for (const message of [listing(0), listing(1), listing(3)]) {
      const pieces = listingPieces(message);
      expect(pieces).toBeDefined();
      expect([...pieces!].join("")).toBe(JSON.stringify(message));
    }
  });

  it("leaves other messages to the SDK", () => {
    const others = [
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1, result: { tools: "none" } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, error: { code: -1, message: "m" } },
    ] as unknown as JSONRPCMessage[];
    for (const message of others) {
      expect(listingPieces(message)).toBeUndefined();
    }
  });
});

describe("ListingStdioTransport", () => {
  it("writes a listing as one line; what is written meanwhile follows it, in order", async () => {
    const input = new PassThrough();
    // A small buffer: the listing's writes wait for the reader.
    const out = new PassThrough({ highWaterMark: 1024 });
    const written = collect(out);
    const transport = new ListingStdioTransport(input, out);
    await transport.start();
    const big = listing(300);
    const sent = [
      transport.send(big),
      transport.send({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
      }),
    ];
    transport.writeInTurn("not a message\n");
    await Promise.all(sent);
    await transport.close();
    const lines = written().split("\n");
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0]!)).toEqual(big);
    expect(JSON.parse(lines[1]!)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    expect(lines[2]).toBe("not a message");
    expect(lines[3]).toBe("");
  });

  it("writes other messages as the SDK's transport does", async () => {
    const input = new PassThrough();
    const out = new PassThrough();
    const written = collect(out);
    const transport = new ListingStdioTransport(input, out);
    await transport.start();
    const message = { jsonrpc: "2.0", id: 2, result: {} } as JSONRPCMessage;
    await transport.send(message);
    expect(written()).toBe(`${JSON.stringify(message)}\n`);
    await transport.close();
  });
});
