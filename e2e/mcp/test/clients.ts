// The three official clients of the suite, each running the same steps
// (steps.ts): the TypeScript SDK client (@modelcontextprotocol/client, in
// this process), the Python SDK client (`mcp`, scripts/py_client.py, one
// process per batch of plans) and the MCP Inspector CLI (one process per
// request).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { python, type Command } from "./languages.js";
import {
  handleKey,
  type CallResult,
  type ListedTool,
  type Outcome,
  type Step,
} from "./steps.js";

/** A protocol revision: 2025-11-25 (sessions) or 2026-07-28 (stateless). */
export type Revision = "2025-11-25" | "2026-07-28";

/** Where a client connects: a command (stdio) or an HTTP endpoint. */
export type Target = Command | URL;

/**
 * A TypeScript SDK client connected to target, speaking revision:
 * `versionNegotiation: {mode: "auto"}` for 2026-07-28 (the client probes
 * with server/discover), the default legacy handshake for 2025-11-25.
 */
export async function connectTs(
  target: Target,
  revision: Revision,
): Promise<Client> {
  const client = new Client(
    { name: "e2e-mcp", version: "1.0.0" },
    revision === "2026-07-28"
      ? { versionNegotiation: { mode: "auto" } }
      : undefined,
  );
  await client.connect(
    target instanceof URL
      ? new StreamableHTTPClientTransport(target)
      : new StdioClientTransport({
          command: target.command,
          args: target.args,
          ...(target.env === undefined ? {} : { env: target.env }),
          stderr: "inherit",
        }),
  );
  return client;
}

/** The listed tools of a TypeScript client, as on the wire. */
export async function listTs(client: Client): Promise<ListedTool[]> {
  const { tools } = await client.listTools();
  return JSON.parse(JSON.stringify(tools)) as ListedTool[];
}

/**
 * Run steps with TypeScript clients, one after the other; a JSON-RPC error
 * is an outcome, not a failure.
 */
export async function runTs(
  clients: Client[],
  steps: readonly Step[],
): Promise<Outcome[]> {
  const handles = clients.map((): string | undefined => undefined);
  const outcomes: Outcome[] = [];
  for (const step of steps) {
    const i = step.client ?? 0;
    const client = clients[i]!;
    if (step.op === "list") {
      outcomes.push({ tools: await listTs(client) });
      continue;
    }
    const args = { ...step.arguments };
    const meta = { ...step.meta };
    const handle = handles[i];
    if (handle !== undefined && step.handle === "meta")
      meta[handleKey] = handle;
    if (handle !== undefined && step.handle === "argument")
      args["conversation"] = handle;
    try {
      const result = (await client.callTool({
        name: step.name,
        arguments: args,
        ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
      })) as CallResult;
      const minted = result._meta?.[handleKey];
      if (typeof minted === "string") handles[i] = minted;
      outcomes.push({ result: structuredClone(result) });
    } catch (e) {
      const { code, message } = e as { code?: unknown; message?: unknown };
      if (typeof code !== "number") throw e;
      outcomes.push({ error: { code, message: String(message) } });
    }
  }
  return outcomes;
}

/** One run of the Python client: its server, revision, clients and steps. */
export interface PythonPlan {
  readonly target: Target;
  /** "legacy" (2025-11-25), "auto" (probe) or "2026-07-28" (adopted). */
  readonly mode: "legacy" | "auto" | "2026-07-28";
  readonly clients?: number;
  readonly steps: readonly Step[];
}

/** What a Python plan answered. */
export interface PythonOutput {
  /** The negotiated revision of each client. */
  protocolVersions: string[];
  results: Outcome[];
}

const pyClient = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "scripts",
  "py_client.py",
);

/**
 * Run plans with the official Python client, concurrently, in one process
 * (scripts/py_client.py): its start-up is paid once.
 */
export async function runPython(
  plans: readonly PythonPlan[],
): Promise<PythonOutput[]> {
  const input = plans.map((p) => ({
    server:
      p.target instanceof URL
        ? { url: p.target.href }
        : {
            command: p.target.command,
            args: p.target.args,
            ...(p.target.env === undefined ? {} : { env: p.target.env }),
          },
    mode: p.mode,
    clients: p.clients ?? 1,
    steps: p.steps,
  }));
  const stdout = await runProcess(python, [pyClient], JSON.stringify(input));
  return JSON.parse(stdout) as PythonOutput[];
}

const inspectorCli = path.join(
  path.dirname(
    createRequire(import.meta.url).resolve(
      "@modelcontextprotocol/inspector/package.json",
    ),
  ),
  "cli",
  "build",
  "cli.js",
);

/**
 * One request with the MCP Inspector CLI (`mcp-inspector --cli`, 2025-11-25):
 * `tools/list`, or `tools/call` with `--tool-arg k=v` arguments (each
 * value written as JSON, which the CLI parses back). Its answer, parsed.
 */
export async function runInspector(
  target: Target,
  method: "tools/list" | "tools/call",
  tool?: { name: string; args: Record<string, unknown> },
): Promise<unknown> {
  const args = [inspectorCli, "--cli"];
  if (target instanceof URL) {
    args.push(target.href, "--transport", "http");
  } else {
    for (const [k, v] of Object.entries(target.env ?? {})) {
      if (k === "PYTHONPATH") args.push("-e", `${k}=${v}`);
    }
    args.push(target.command, ...target.args);
  }
  args.push("--method", method);
  if (tool !== undefined) {
    args.push("--tool-name", tool.name);
    for (const [k, v] of Object.entries(tool.args)) {
      args.push("--tool-arg", `${k}=${JSON.stringify(v)}`);
    }
  }
  const stdout = await runProcess(process.execPath, args);
  // A deprecation notice comes first on stdout; the answer is the JSON after.
  const start = stdout.indexOf("{");
  if (start < 0) throw new Error(`mcp-inspector printed no JSON:\n${stdout}`);
  return JSON.parse(stdout.slice(start));
}

/** Run a process to its end; its stdout, or an error with its stderr. */
function runProcess(
  command: string,
  args: string[],
  input?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${path.basename(command)} ${args.map((a) => path.basename(a)).join(" ")} exited with ${String(code)}:\n${stderr}`,
          ),
        );
    });
    child.stdin.end(input ?? "");
  });
}
