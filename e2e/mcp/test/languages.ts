// The three generated MCP servers of the test API (linkhub.v1), each a
// command that forwards to a gRPC server: how to start them over stdio and
// over streamable HTTP. Global setup (global-setup.ts) builds what they
// need; the paths here are where it leaves them.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
);

/** The repository's Python (AI_TOOLS_PYTHON, else .venv), as e2e/py runs it. */
export const python =
  (process.env["AI_TOOLS_PYTHON"] ?? "") !== ""
    ? process.env["AI_TOOLS_PYTHON"]!
    : path.join(repoRoot, ".venv", "bin", "python");

/** The languages whose servers the suite drives. */
export type LanguageName = "go" | "py" | "ts";

/** A command line: what a stdio client spawns. */
export interface Command {
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
}

/** One language's generated MCP server of the test API. */
export interface Language {
  readonly name: LanguageName;
  /** The server over stdio, forwarding to grpc (host:port). */
  stdio(grpc: string, flags?: string[]): Command;
}

/** The Go server, built by global setup from e2e/go/cmd/linkhub-mcp. */
export const goBinary = path.join(
  repoRoot,
  "e2e",
  "mcp",
  "dist",
  "linkhub-mcp",
);
/** The Python server's generated modules (e2e/py/scripts/run.mjs --generate). */
export const pyGenDir = path.join(repoRoot, "e2e", "py", "gen");
/** The TypeScript server, compiled by e2e/ts's build. */
export const tsServerScript = path.join(
  repoRoot,
  "e2e",
  "ts",
  "dist",
  "mcp-server.js",
);

/** Environment of a child: the parent's, plus extra. */
function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined) env[k] = v;
  }
  return { ...env, ...extra };
}

/** The languages, by name. */
export const languages: Record<LanguageName, Language> = {
  go: {
    name: "go",
    stdio: (grpc, flags = []) => ({
      command: goBinary,
      args: ["--grpc", grpc, ...flags],
    }),
  },
  py: {
    name: "py",
    stdio: (grpc, flags = []) => ({
      command: python,
      args: [
        path.join(repoRoot, "e2e", "py", "scripts", "mcp_server.py"),
        "--grpc",
        grpc,
        ...flags,
      ],
      env: childEnv({ PYTHONPATH: pyGenDir, PYTHONDONTWRITEBYTECODE: "1" }),
    }),
  },
  ts: {
    name: "ts",
    stdio: (grpc, flags = []) => ({
      command: process.execPath,
      args: [tsServerScript, "--grpc", grpc, ...flags],
    }),
  },
};

/** A running HTTP server child. */
export interface HttpServer {
  /** Its endpoint, http://127.0.0.1:<port>/mcp. */
  readonly url: URL;
  /** Stop it (SIGTERM) and wait for its exit. */
  close(): Promise<void>;
  /** The lines it wrote to stderr so far (with `captureStderr`). */
  stderrLines(): string[];
  /** Send it a signal. */
  kill(signal: NodeJS.Signals): void;
  /** Its exit code (null when a signal ended it), once it exits. */
  readonly exited: Promise<number | null>;
}

/** How to start an HTTP server child. */
export interface StartHttpOptions {
  /**
   * Read its stderr into stderrLines() (audit records, refusals) instead of
   * passing it through; lines not starting with `{` are still passed on.
   */
  readonly captureStderr?: boolean;
}

/**
 * Start a language's server over streamable HTTP on a free port. The three
 * servers print one line once they accept connections: `listening <url>`.
 */
export async function startHttp(
  language: Language,
  grpc: string,
  flags: string[] = [],
  options: StartHttpOptions = {},
): Promise<HttpServer> {
  const { command, args, env } = language.stdio(grpc, [
    "--http",
    "0",
    ...flags,
  ]);
  const child = spawn(command, args, {
    stdio: [
      "pipe",
      "pipe",
      options.captureStderr === true ? "pipe" : "inherit",
    ],
    ...(env === undefined ? {} : { env }),
  });
  const stderr: string[] = [];
  if (child.stderr !== null) {
    createInterface({ input: child.stderr }).on("line", (l) => {
      stderr.push(l);
      if (!l.startsWith("{")) process.stderr.write(`${l}\n`);
    });
  }
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(
        new Error(
          `${language.name} MCP server exited with ${String(code)}${stderr.length > 0 ? `: ${stderr.join("\n")}` : ""}`,
        ),
      ),
    );
  });
  const m = /^listening (http:\/\/\S+)$/.exec(line);
  if (m === null) {
    child.kill("SIGTERM");
    throw new Error(
      `${language.name} MCP server printed ${JSON.stringify(line)}, not its address`,
    );
  }
  const url = new URL(m[1]!);
  return {
    url,
    stderrLines: () => stderr.slice(),
    kill: (signal) => child.kill(signal),
    exited,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null)
          return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
