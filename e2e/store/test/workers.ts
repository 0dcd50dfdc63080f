// The store workers of the three languages, one protocol (e2e/go/cmd/
// linkhub-worker): JSON requests on stdin, one JSON answer per line on
// stdout, matched by id. Each runs the generated executor of the test API
// with its conversations on Redis (docs/store.md).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

/** A worker's language. */
export type Language = "go" | "py" | "ts";

/** The languages, in the order a conversation hops through them. */
export const languages: readonly Language[] = ["py", "go", "ts"];

/** One answer of a worker, without its id. */
export interface Answer {
  readonly handle?: string;
  /** The tool's result, parsed. */
  readonly result?: unknown;
  readonly ok?: boolean;
  readonly error?: {
    readonly reason: string;
    readonly code?: string;
    readonly message: string;
  };
}

/** A running worker process. */
export interface Worker {
  readonly language: Language;
  readonly pid: number;
  /** Send a request (its id is added) and resolve with the answer. */
  send(request: object): Promise<Answer>;
  /** Start a conversation: its handle (throws when the worker refuses). */
  start(): Promise<string>;
  /** Call a tool in a conversation. */
  call(handle: string, tool: string, args: unknown): Promise<Answer>;
  /** End a conversation. */
  end(handle: string): Promise<Answer>;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): number;
  /** Close its stdin: resolves with its exit code once it has answered all. */
  close(): Promise<number | null>;
}

/** Where the Go worker is built (see {@link buildWorkers}). */
const goWorker = path.join(repoRoot, "e2e", "store", "dist", "linkhub-worker");
const pyWorker = path.join(repoRoot, "e2e", "py", "scripts", "store_worker.py");
const tsWorker = path.join(repoRoot, "e2e", "ts", "dist", "store-worker.js");
const python =
  (process.env["AI_TOOLS_PYTHON"] ?? "") !== ""
    ? process.env["AI_TOOLS_PYTHON"]!
    : path.join(repoRoot, ".venv", "bin", "python");

/** Run a build step, its output on stderr; throw naming it when it fails. */
function step(command: string, args: string[], cwd: string): void {
  const r = spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] });
  if (r.status !== 0) {
    throw new Error(
      `e2e-store setup: ${command} ${args.join(" ")} (in ${cwd}) failed${r.error ? `: ${r.error.message}` : ""}`,
    );
  }
}

/**
 * Make the three workers ready to start: the Go one built from
 * e2e/go/cmd/linkhub-worker into dist/, the Python one's generated modules
 * and the TypeScript one's script checked (the language packages' builds
 * make them).
 */
export function buildWorkers(): void {
  const goDir = path.join(repoRoot, "e2e", "go");
  if (!existsSync(path.join(goDir, "gentools", "ai_tools.gen.go"))) {
    step(process.execPath, ["scripts/run.mjs", "--generate"], goDir);
  }
  step("go", ["build", "-o", goWorker, "./cmd/linkhub-worker"], goDir);
  const pyDir = path.join(repoRoot, "e2e", "py");
  if (!existsSync(path.join(pyDir, "gen", "ai_tools_gen.py"))) {
    step(process.execPath, ["scripts/run.mjs", "--generate"], pyDir);
  }
  if (!existsSync(tsWorker)) {
    throw new Error(
      `${tsWorker} not found: build e2e/ts first (npx -y pnpm@12.4.2 --filter @ai-tools/e2e-ts build)`,
    );
  }
}

/** The command line of a language's worker. */
function commandOf(language: Language): [string, string[]] {
  switch (language) {
    case "go":
      return [goWorker, []];
    case "py":
      return [python, [pyWorker]];
    case "ts":
      return [process.execPath, [tsWorker]];
  }
}

/** Clock ticks a second, for /proc/<pid>/stat. */
const ticks = Number(
  spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim() || 100,
);

/** CPU seconds (user + system) of a running process, from /proc. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): state is 3rd,
  // utime the 14th and stime the 15th of the whole line.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

/**
 * Spawn a language's worker on the test server (host:port) and Redis
 * (a redis:// URL), running up to `parallel` requests at once.
 */
export function spawnWorker(
  language: Language,
  grpc: string,
  redisUrl: string,
  parallel: number,
): Worker {
  const [command, args] = commandOf(language);
  const child: ChildProcess = spawn(
    command,
    [
      ...args,
      "--grpc",
      grpc,
      "--redis",
      redisUrl,
      "--parallel",
      String(parallel),
    ],
    {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    },
  );
  const waiting = new Map<number, (a: Answer) => void>();
  let next = 0;
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      for (const [id, answer] of waiting) {
        answer({
          error: {
            reason: "worker-exited",
            message: `${language} worker exited (${String(code)}) before answering request ${id}`,
          },
        });
      }
      waiting.clear();
      resolve(code);
    }),
  );
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const { id, ...answer } = JSON.parse(line) as Answer & { id: number };
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  const send = (request: object) =>
    new Promise<Answer>((resolve) => {
      if (exitCode !== undefined) {
        throw new Error(`${language} worker has exited (${String(exitCode)})`);
      }
      const id = next++;
      waiting.set(id, resolve);
      child.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  return {
    language,
    pid: child.pid ?? -1,
    send,
    async start() {
      const a = await send({ op: "start" });
      if (a.handle === undefined) {
        throw new Error(`${language} worker: start: ${JSON.stringify(a)}`);
      }
      return a.handle;
    },
    call: (handle, tool, args) => send({ op: "call", handle, tool, args }),
    end: (handle) => send({ op: "end", handle }),
    cpuSeconds: () => cpuSecondsOf(child.pid ?? -1),
    close() {
      child.stdin!.end();
      return exited;
    },
  };
}
