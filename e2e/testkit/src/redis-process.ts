// One redis-server process on a known port, as the testkit's servers and
// clusters start it: spawned, waited for, signalled, stopped. Every process
// still running when the test process exits is killed with it.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";

/** The processes started and not yet ended, killed at exit. */
const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const c of live) {
    c.kill("SIGKILL");
  }
});

/** A redis-server process, see {@link launchRedis}. */
export interface RedisProcess {
  /** Its process id (-1 once ended). */
  readonly pid: number;
  /** Whether it runs (or is stopped by SIGSTOP). */
  readonly running: boolean;
  /** Send it a signal (SIGSTOP, SIGCONT, …). */
  signal(signal: NodeJS.Signals): void;
  /** End it with signal (SIGCONT first: a stopped process ignores SIGTERM); resolves when it exited. */
  end(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Spawn `bin` with args and resolve once it accepts TCP connections on
 * port (127.0.0.1). Throws an Error naming the fix when it is missing, or
 * with its stderr when it exits at start.
 */
export async function launchRedis(
  bin: string,
  port: number,
  args: readonly string[],
): Promise<RedisProcess> {
  const child = spawn(bin, [...args, "--daemonize", "no"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  live.add(child);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      live.delete(child);
      resolve();
    }),
  );
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (e) =>
      reject(
        new Error(
          `cannot start ${JSON.stringify(bin)}: ${e.message}; install it with scripts/install.sh (apt: redis-server)`,
        ),
      ),
    );
    void exited.then(() =>
      reject(
        new Error(
          `redis-server exited (${child.exitCode ?? child.signalCode}) at start: ${stderr.trim()}`,
        ),
      ),
    );
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  try {
    await Promise.race([waitForPort(port), failed]);
  } catch (e) {
    if (running()) child.kill("SIGKILL");
    throw e;
  }
  failed.catch(() => {}); // an exit after the start is no start failure
  return {
    get pid() {
      return running() ? (child.pid ?? -1) : -1;
    },
    get running() {
      return running();
    },
    signal(signal) {
      if (running()) child.kill(signal);
    },
    async end(signal) {
      if (running()) {
        child.kill("SIGCONT");
        child.kill(signal);
      }
      await exited;
    },
  };
}

/** Resolve once something accepts connections on port (10 s at most). */
export async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (ok) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `redis-server did not listen on port ${port} within 10 s`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How redis-cli reaches a server: its port and, for TLS/AUTH, more flags. */
export interface CliTarget {
  readonly port: number;
  /** Flags before the command, e.g. `--tls --cacert ca.crt -a pw`. */
  readonly flags?: readonly string[];
}

/**
 * Run `redis-cli` on target (127.0.0.1) with a command; resolves with its
 * output (trimmed). Rejects naming the command when redis-cli fails or the
 * reply is an error (redis-cli prints `ERR …` and exits 0 for those).
 */
export function redisCli(
  target: CliTarget,
  ...command: string[]
): Promise<string> {
  const args = [
    "-h",
    "127.0.0.1",
    "-p",
    String(target.port),
    ...(target.flags ?? []),
    ...command,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      process.env["REDIS_CLI"] ?? "redis-cli",
      args,
      { timeout: 30_000 },
      (error, stdout, stderr) => {
        const out = stdout.trim();
        if (error !== null || /^(ERR|NOPERM|WRONGPASS)\b/.test(out)) {
          reject(
            new Error(
              `redis-cli ${command.join(" ")} on port ${target.port}: ${error?.message ?? out} ${stderr.trim()}`.trim(),
            ),
          );
          return;
        }
        resolve(out);
      },
    );
  });
}

/** Poll check every 50 ms until it returns a value (not undefined), at most seconds. */
export async function pollUntil<T>(
  what: string,
  seconds: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `: ${last.message}` : "";
      throw new Error(`${what}: not within ${seconds} s${why}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
