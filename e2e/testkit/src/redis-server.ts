import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  launchRedis,
  redisCli,
  type CliTarget,
  type RedisProcess,
} from "./redis-process.js";
import { createTestCertificates } from "./redis-tls.js";

/** A redis-server started by {@link startRedis}. */
export interface RedisServer {
  /** The port it listens on, on 127.0.0.1 (and ::1 when the host has it). */
  readonly port: number;
  /**
   * The administrator's URL: `redis://127.0.0.1:<port>`; `rediss://…@localhost`
   * with TLS; with the default user's password when there is an ACL user.
   */
  readonly url: string;
  /** The ACL user's URL (`redis[s]://<user>:<password>@…`), else {@link url}. */
  readonly userUrl: string;
  /** The CA certificate (PEM) clients trust, with TLS. */
  readonly caPath?: string | undefined;
  /** The server's process id (-1 while it is down). */
  readonly pid: number;
  /** Run a command as the administrator with redis-cli; its output. */
  cli(...command: string[]): Promise<string>;
  /** SIGSTOP: it accepts TCP connections and answers nothing. */
  pause(): void;
  /** SIGCONT after {@link pause}. */
  resume(): void;
  /** Kill it with SIGKILL (its data is lost: no persistence). */
  kill(): Promise<void>;
  /** Start it again on the same port (same certificate and users), empty. */
  restart(): Promise<void>;
  /** Stop it (SIGTERM) and remove its files; resolves when it exited. Idempotent. */
  stop(): Promise<void>;
}

/** How to start a redis-server, see {@link startRedis}. */
export interface RedisOptions {
  /** The redis-server executable (default `$REDIS_SERVER` or `redis-server`). */
  readonly bin?: string;
  /**
   * Serve TLS only, with a CA and a server certificate for localhost made
   * at start-up ({@link RedisServer.caPath}); the URLs are `rediss://localhost:<port>`.
   */
  readonly tls?: boolean;
  /**
   * Add this ACL user with the store's least-privilege rules
   * ({@link storeAclRules}) and a random password; the default user then
   * needs a password too (in {@link RedisServer.url}).
   */
  readonly aclUser?: string;
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

/** The redis-server version of bin, e.g. [7, 0, 15] ([0, 0, 0] when unknown). */
export function redisVersion(bin = "redis-server"): number[] {
  try {
    const out = execFileSync(bin, ["--version"]).toString();
    return (/v=(\d+)\.(\d+)\.(\d+)/.exec(out) ?? ["", "0", "0", "0"])
      .slice(1)
      .map(Number);
  } catch {
    return [0, 0, 0];
  }
}

/**
 * The ACL rules of the conversation stores' least-privilege user
 * (docs/production.md): its keys (`ai-tools:*`), the scripts and the
 * commands they run, and the clients' handshake; `+client|setinfo` only
 * from Redis 7.2, which knows it.
 */
export function storeAclRules(password: string, version: number[]): string[] {
  const [major = 0, minor = 0] = version;
  const setinfo = major > 7 || (major === 7 && minor >= 2);
  return [
    "on",
    `>${password}`,
    "resetkeys",
    "~ai-tools:*",
    "resetchannels",
    "-@all",
    "+evalsha",
    "+eval",
    "+del",
    "+exists",
    "+hget",
    "+hset",
    "+hexists",
    "+hincrby",
    "+hgetall",
    "+pexpire",
    "+ping",
    "+hello",
    "+client|setname",
    ...(setinfo ? ["+client|setinfo"] : []),
  ];
}

/**
 * Start Debian's `redis-server` (scripts/install.sh installs it) on a free
 * local port, without persistence (`--save '' --appendonly no`); resolves
 * when it accepts connections. With `tls`, it serves TLS only; with
 * `aclUser`, that user has the store's least-privilege rules. Throws an
 * Error naming the fix when redis-server is missing.
 */
export async function startRedis(
  options: RedisOptions = {},
): Promise<RedisServer> {
  const bin = options.bin ?? process.env["REDIS_SERVER"] ?? "redis-server";
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), "ai-tools-redis-"));
  try {
    const setup = await configure(bin, port, dir, options);
    let proc: RedisProcess | undefined = await launchRedis(
      bin,
      port,
      setup.args,
    );
    const end = async (signal: NodeJS.Signals) => {
      const p = proc;
      proc = undefined;
      await p?.end(signal);
    };
    const cli: CliTarget = { port, flags: setup.cliFlags };
    return {
      port,
      url: setup.url,
      userUrl: setup.userUrl,
      caPath: setup.caPath,
      get pid() {
        return proc?.pid ?? -1;
      },
      cli: (...command) => redisCli(cli, ...command),
      pause: () => proc?.signal("SIGSTOP"),
      resume: () => proc?.signal("SIGCONT"),
      kill: () => end("SIGKILL"),
      restart: async () => {
        await end("SIGKILL");
        proc = await launchRedis(bin, port, setup.args);
      },
      stop: async () => {
        await end("SIGTERM");
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The command line, URLs and redis-cli flags of a server of {@link startRedis}. */
async function configure(
  bin: string,
  port: number,
  dir: string,
  options: RedisOptions,
): Promise<{
  args: string[];
  url: string;
  userUrl: string;
  caPath?: string | undefined;
  cliFlags: string[];
}> {
  const args = [
    "--bind",
    "127.0.0.1",
    "-::1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    "no",
    "--loglevel",
    "warning",
  ];
  const cliFlags: string[] = [];
  let scheme = "redis";
  let host = "127.0.0.1";
  let caPath: string | undefined;
  if (options.tls === true) {
    const certs = await createTestCertificates(dir);
    caPath = certs.caPath;
    args.push(
      ...["--port", "0", "--tls-port", String(port)],
      ...["--tls-cert-file", certs.certPath, "--tls-key-file", certs.keyPath],
      ...["--tls-ca-cert-file", caPath, "--tls-auth-clients", "no"],
    );
    cliFlags.push("--tls", "--cacert", caPath);
    [scheme, host] = ["rediss", "localhost"];
  } else {
    args.push("--port", String(port));
  }
  const url = `${scheme}://${host}:${port}`;
  if (options.aclUser === undefined) {
    return { args, url, userUrl: url, caPath, cliFlags };
  }
  const admin = randomBytes(12).toString("hex");
  const password = randomBytes(12).toString("hex");
  args.push("--requirepass", admin);
  args.push(
    "--user",
    options.aclUser,
    ...storeAclRules(password, redisVersion(bin)),
  );
  cliFlags.push("-a", admin, "--no-auth-warning");
  return {
    args,
    url: `${scheme}://default:${admin}@${host}:${port}`,
    userUrl: `${scheme}://${encodeURIComponent(options.aclUser)}:${password}@${host}:${port}`,
    caPath,
    cliFlags,
  };
}
