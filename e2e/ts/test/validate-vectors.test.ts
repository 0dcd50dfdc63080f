// Runs the shared buf.validate vectors (e2e/vectors/validate/*.json)
// unchanged, through the executor generated for the golden case validate
// (src/gen/cases/validate), which checks each request with
// @bufbuild/protovalidate before sending, over a gRPC channel to a local
// port nobody listens on: a request that passes every rule fails as
// unavailable, any other before anything is sent. Then the same cases
// through its generated MCP server (forwardToRulesServiceClient, an SDK
// client in memory): the same text as an isError result.
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { ToolError } from "@protoc-gen-ai-tools/runtime";
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { rpcCodeName } from "../../../runtimes/ts/test/support/error-vectors.js";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import {
  createMcpToolServer,
  serveStdio,
} from "@protoc-gen-ai-tools/runtime/mcp";
import * as validate from "../src/gen/cases/validate/ai_tools.gen.js";
import { forwardToRulesServiceClient } from "../src/gen/cases/validate/ai_tools_mcp.gen.js";

interface ValidateCase {
  readonly name: string;
  readonly set?: Record<string, unknown>;
  readonly unset?: readonly string[];
  readonly expect: {
    readonly reason: string;
    readonly code: string;
    readonly violations?: readonly unknown[];
    readonly message?: string;
  };
}

interface ValidateVector {
  readonly tool: string;
  readonly register: readonly { prefix: string; uuid: string }[];
  readonly base: Record<string, unknown>;
  readonly cases: readonly ValidateCase[];
}

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../vectors/validate",
);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

/** A local port nobody listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let baseUrl: string;

beforeAll(async () => {
  baseUrl = `http://127.0.0.1:${await closedPort()}`;
});

describe("validate vectors", () => {
  it("finds the vector files", () => {
    expect(files.length).toBeGreaterThanOrEqual(1);
  });
  for (const file of files) {
    const vector = JSON.parse(
      readFileSync(path.join(dir, file), "utf8"),
    ) as ValidateVector;
    describe(file, () => {
      for (const c of vector.cases) {
        it(c.name, async () => {
          const executor = validate.createExecutor(
            createGrpcTransport({ baseUrl }),
          );
          for (const r of vector.register) {
            executor.aliases.register(r.prefix, r.uuid);
          }
          const args: Record<string, unknown> = { ...vector.base, ...c.set };
          for (const key of c.unset ?? []) {
            delete args[key];
          }
          const err = await executor
            .execute(vector.tool, JSON.stringify(args))
            .then(
              () => undefined,
              (e: unknown) => e as ToolError,
            );
          expect(err?.name).toBe("ToolError");
          const got = {
            reason: err!.reason,
            code: rpcCodeName(err!.code),
            ...(c.expect.violations === undefined
              ? {}
              : { violations: err!.violations }),
            ...(c.expect.message === undefined
              ? {}
              : { message: err!.message }),
          };
          expect(got).toEqual(c.expect);
        });
      }
      it("the generated MCP server answers each case with the same text", async () => {
        const server = createMcpToolServer();
        forwardToRulesServiceClient(server, createGrpcTransport({ baseUrl }));
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        serveStdio(server, { transport: serverSide });
        const client = new Client({ name: "test", version: "1.0.0" });
        await client.connect(clientSide);
        try {
          for (const c of vector.cases) {
            const args: Record<string, unknown> = { ...vector.base, ...c.set };
            for (const key of c.unset ?? []) {
              delete args[key];
            }
            // The vector's aliases are an executor's: give the UUIDs.
            for (const r of vector.register) {
              for (const [k, v] of Object.entries(args)) {
                if (v === `${r.prefix}-1`) args[k] = r.uuid;
              }
            }
            const r = (await client.callTool({
              name: vector.tool,
              arguments: args,
            })) as { isError?: boolean; content: { text?: string }[] };
            expect(r.isError, c.name).toBe(true);
            if (c.expect.message !== undefined) {
              expect(r.content[0]?.text, c.name).toBe(c.expect.message);
            } else {
              expect(r.content[0]?.text, c.name).toMatch(
                /^rpc error: code = Unavailable desc = /,
              );
            }
          }
        } finally {
          await client.close();
        }
      });
    });
  }
});
