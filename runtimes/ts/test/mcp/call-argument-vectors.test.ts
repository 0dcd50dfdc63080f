// Runs the shared MCP call-argument vectors (e2e/vectors/mcp/*.json)
// unchanged: each case on a tool server of its `server` setup, served over
// streamable HTTP to an SDK client speaking 2026-07-28, the tool forwarding
// to the aitest gRPC server on a real socket.
import type { Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMcpToolServer,
  extraPropertiesKey,
  serveHttp,
  type McpToolServer,
  type RunningHttpServer,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { aitestAliases } from "../support/aitest-tools.js";
import { callTool } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../e2e/vectors/mcp",
);

interface ServerSetup {
  extraProperties?: { name: string; required?: boolean }[];
  handleArgument?: boolean;
}

interface Case {
  name: string;
  server: ServerSetup;
  /** Any JSON value: null and non-objects are part of the contract. */
  arguments: unknown;
  meta?: Record<string, unknown>;
  expect?: { extras: Record<string, string>; conversation: string };
  expectError?: string;
}

interface Vector {
  name: string;
  tool: string;
  cases: Case[];
}

const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
const vectors = files.map(
  (f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Vector,
);

interface Running {
  server: McpToolServer;
  http: RunningHttpServer;
  client: Client;
}

let grpc: AitestServer;
/** The extra properties each call to the gRPC server carried. */
const seen: Record<string, string>[] = [];
/** One server per distinct setup (the README allows sharing). */
const running = new Map<string, Running>();

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  for (const r of running.values()) {
    await r.client.close();
    await r.http.close();
  }
  await grpc.close();
});

async function serverOf(tool: string, setup: ServerSetup): Promise<Running> {
  const key = JSON.stringify([tool, setup]);
  let r = running.get(key);
  if (r === undefined) {
    const server = createMcpToolServer({
      extraProperties: (setup.extraProperties ?? []).map((e) => ({
        name: e.name,
        description: "",
        required: e.required,
      })),
      handleArgument: setup.handleArgument,
    });
    const record: Interceptor = (next) => (req) => {
      seen.push({ ...req.contextValues.get(extraPropertiesKey) });
      return next(req);
    };
    server.addTools({
      methods: aitestMcpMethods.filter((m) => m.tool.name === tool),
      aliases: aitestAliases,
      transport: createGrpcTransport({
        baseUrl: grpc.url,
        interceptors: [record],
      }),
    });
    const http = await serveHttp(server);
    const client = new Client(
      { name: "vectors", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    r = { server, http, client };
    running.set(key, r);
  }
  return r;
}

/** v with the strings "$h1" and "$h2" replaced by those handles. */
function withHandles(
  v: Record<string, unknown>,
  handles: Record<string, string>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      typeof x === "string" && x.startsWith("$") ? (handles[x] ?? x) : x,
    ]),
  );
}

const metaKey = "ai-tools/conversation";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

describe("MCP call-argument vectors", () => {
  it("finds the vector files", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(1);
  });

  for (const vector of vectors) {
    describe(vector.name, () => {
      for (const c of vector.cases) {
        it(c.name, async () => {
          const { server, client } = await serverOf(vector.tool, c.server);
          const store = server.conversationStore();
          const handles = {
            $h1: await store.create(),
            $h2: await store.create(),
          };
          const calls = grpc.calls.length;
          seen.length = 0;
          const r = await callTool(
            client,
            vector.tool,
            isObject(c.arguments)
              ? withHandles(c.arguments, handles)
              : (c.arguments as Record<string, unknown>),
            c.meta === undefined ? undefined : withHandles(c.meta, handles),
          );
          if (c.expectError !== undefined) {
            expect(r.isError).toBe(true);
            expect(r.content).toEqual([{ type: "text", text: c.expectError }]);
            expect(grpc.calls.length).toBe(calls);
            return;
          }
          expect(r.isError).toBeFalsy();
          expect(seen).toEqual([c.expect!.extras]);
          const handle = r._meta?.[metaKey];
          const named: Record<string, string> = {
            h1: handles.$h1,
            h2: handles.$h2,
          };
          if (c.expect!.conversation === "new") {
            expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
            expect(Object.values(named)).not.toContain(handle);
          } else {
            expect(handle).toBe(named[c.expect!.conversation]);
          }
        });
      }
    });
  }
});
