// Shared by the MCP e2e tests: the generated MCP server of the test API
// (dist/mcp-server.js) started as a child process over stdio or HTTP, an
// official SDK client connected to it, and a real JSON Schema validator.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { afterAll, expect } from "vitest";
import { uuidRe, type Env } from "./support.js";

/** A UUID anywhere in a text (not global: no state between tests). */
export const anyUuid = new RegExp(uuidRe.source);

/** The compiled server script (tsconfig.build.json). */
export const serverScript = fileURLToPath(
  new URL("../dist/mcp-server.js", import.meta.url),
);

/** 2026-07-28 (`auto`: the client negotiates the stateless revision) or 2025-11-25. */
export type Revision = "2026-07-28" | "2025-11-25";

/**
 * The client options that make the SDK client speak revision; with
 * `onToolsChanged`, it is called on each `notifications/tools/list_changed`
 * (2026-07-28: the client listens, `subscriptions/listen`).
 */
function clientOf(revision: Revision, onToolsChanged?: () => void): Client {
  return new Client(
    { name: "e2e-ts", version: "1.0.0" },
    {
      versionNegotiation: {
        mode: revision === "2026-07-28" ? "auto" : "legacy",
      },
      ...(onToolsChanged === undefined
        ? {}
        : {
            listChanged: {
              tools: {
                autoRefresh: false,
                debounceMs: 0,
                onChanged: () => onToolsChanged(),
              },
            },
          }),
    },
  );
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/**
 * Start the server as a child over stdio and connect a client to it; both
 * end with the file's tests.
 */
export async function connectStdio(
  env: Env,
  revision: Revision,
  flags: string[] = [],
  onToolsChanged?: () => void,
): Promise<Client> {
  const client = clientOf(revision, onToolsChanged);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [serverScript, "--grpc", env.server.address, ...flags],
      stderr: "inherit",
    }),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe(revision);
  closers.push(() => client.close());
  return client;
}

/** A running HTTP server child: its endpoint. */
export interface HttpServer {
  readonly url: URL;
}

/** Start the server as a child over HTTP on a free port. */
export async function startHttp(
  env: Env,
  flags: string[] = [],
): Promise<HttpServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [serverScript, "--grpc", env.server.address, "--http", "0", ...flags],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  );
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    child.once("exit", (code) =>
      reject(new Error(`mcp-server exited with ${String(code)}`)),
    );
  });
  const m = /^listening (http:\/\/\S+)$/.exec(line);
  if (m === null) {
    throw new Error(`mcp-server printed ${JSON.stringify(line)}`);
  }
  return { url: new URL(m[1]!) };
}

/** Connect a client to an HTTP server. */
export async function connectHttp(
  server: HttpServer,
  revision: Revision,
  onToolsChanged?: () => void,
): Promise<Client> {
  const client = clientOf(revision, onToolsChanged);
  await client.connect(new StreamableHTTPClientTransport(server.url));
  expect(client.getNegotiatedProtocolVersion()).toBe(revision);
  closers.push(() => client.close());
  return client;
}

/** A `tools/call` result as the runtime writes it. */
export interface ToolCallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The `_meta` key of the conversation handle. */
export const handleKey = "ai-tools/conversation";

const addFormats = formats as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ReturnType<Ajv2020["compile"]>>();

/**
 * Validate structuredContent against the tool's outputSchema (as listed)
 * with ajv (draft 2020-12, formats), and the text block against it.
 */
export async function expectValidResult(
  client: Client,
  tool: string,
  r: ToolCallResult,
): Promise<void> {
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  let validate = validators.get(tool);
  if (validate === undefined) {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === tool)?.outputSchema;
    expect(schema, tool).toBeDefined();
    validate = ajv.compile(schema as object);
    validators.set(tool, validate);
  }
  expect(validate(r.structuredContent), JSON.stringify(validate.errors)).toBe(
    true,
  );
  // The same JSON: the text's -0 reaches the client as 0 in
  // structuredContent (JSON.stringify writes -0 as 0).
  expect(JSON.parse(JSON.stringify(JSON.parse(r.content[0]!.text!)))).toEqual(
    r.structuredContent,
  );
}

/** Call a tool, with `_meta` when given. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<ToolCallResult> {
  return (await client.callTool({
    name,
    arguments: args,
    ...(meta === undefined ? {} : { _meta: meta }),
  })) as ToolCallResult;
}

/** Call a tool that must succeed, its result validated. */
export async function callOk(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<ToolCallResult> {
  const r = await callTool(client, name, args, meta);
  await expectValidResult(client, name, r);
  return r;
}

/** The id of the link a links_* result holds. */
export function linkIdOf(r: ToolCallResult): string {
  return (r.structuredContent as { link: { id: string } }).link.id;
}

/** The arguments of links_create for a new link in ws. */
export function newLinkArgs(
  ws: string,
  title: string,
): Record<string, unknown> {
  return {
    workspace_id: ws,
    target_url: "https://example.com/x",
    slug: null,
    page_theme_id: "",
    labels: [],
    title,
    expire_after: null,
  };
}
