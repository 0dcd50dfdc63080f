import { spawn, type ChildProcess } from "node:child_process";
import { connect, createServer } from "node:net";

/** A redis-server started by {@link startRedis}. */
export interface RedisServer {
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The server's process id. */
  readonly pid: number;
  /** Kill it with SIGKILL (its data is lost: no persistence). */
  kill(): Promise<void>;
  /** Start it again on the same port, empty. */
  restart(): Promise<void>;
  /** Stop it (SIGTERM); resolves when it exited. Idempotent. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Start Debian's `redis-server` (scripts/install.sh installs it) on a free
 * local port, without persistence (`--save '' --appendonly no`); resolves
 * when it accepts connections. Throws an Error naming the fix when
 * redis-server is missing.
 */
export async function startRedis(
  options: { bin?: string } = {},
): Promise<RedisServer> {
  const bin = options.bin ?? process.env["REDIS_SERVER"] ?? "redis-server";
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    const c = spawn(
      bin,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    c.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const failed = new Promise<never>((_, reject) => {
      c.once("error", (e) =>
        reject(
          new Error(
            `cannot start ${JSON.stringify(bin)}: ${e.message}; install it with scripts/install.sh (apt: redis-server)`,
          ),
        ),
      );
      c.once("exit", (code) =>
        reject(
          new Error(`redis-server exited (${code}) at start: ${stderr.trim()}`),
        ),
      );
    });
    child = c;
    await Promise.race([waitForPort(port), failed]);
    c.removeAllListeners("exit");
  };
  const end = async (signal: NodeJS.Signals) => {
    const c = child;
    child = undefined;
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) {
      return;
    }
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill(signal);
    });
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? -1;
    },
    kill: () => end("SIGKILL"),
    restart: async () => {
      await end("SIGKILL");
      await launch();
    },
    stop: () => end("SIGTERM"),
  };
}

/** Resolve once something accepts connections on port (10 s at most). */
async function waitForPort(port: number): Promise<void> {
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
