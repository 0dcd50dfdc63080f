// The store workers of the three languages, one protocol (e2e/go/cmd/
// linkhub-worker; its client in @protoc-gen-ai-tools/testkit). Each runs the generated executor of the test API
// with its conversations on Redis (docs/store.md).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  spawnStoreWorker,
  type StoreWorker,
  type StoreWorkerOptions,
  type WorkerAnswer,
} from "@protoc-gen-ai-tools/testkit";

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
export type Answer = WorkerAnswer;

/** A running worker process of a language. */
export interface Worker extends StoreWorker {
  readonly language: Language;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): number;
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
      `${tsWorker} not found: build e2e/ts first (npx -y pnpm@12.4.2 --filter @protoc-gen-ai-tools/e2e-ts build)`,
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

/** The store options of a worker (contract D of issue 34), as flags. */
export type StoreFlags = Pick<
  StoreWorkerOptions,
  "redisCa" | "cluster" | "storeTimeoutMs" | "maxAliases"
>;

/**
 * Spawn a language's worker on the test server (host:port) and Redis
 * (a redis:// or rediss:// URL), running up to `parallel` requests at
 * once, with the store options of `store`.
 */
export function spawnWorker(
  language: Language,
  grpc: string,
  redisUrl: string,
  parallel: number,
  store: StoreFlags = {},
): Worker {
  const [command, args] = commandOf(language);
  const worker = spawnStoreWorker({
    ...store,
    command,
    args,
    grpc,
    redisUrl,
    parallel,
    label: `${language} worker`,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  return {
    ...worker,
    language,
    cpuSeconds: () => cpuSecondsOf(worker.pid),
  };
}
