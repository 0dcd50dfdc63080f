/**
 * The test server as its own process (dist/main.js), for suites whose
 * workers or servers run in other processes.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ReflectionVersion } from "./reflection-service.js";
/**
 * The committed test certificates (testdata/tls, see its README.md): the
 * CA a client trusts, and the server's certificate (SANs `127.0.0.1` and
 * `localhost`) and key.
 */
export const testTlsFiles = {
  ca: fileURLToPath(new URL("../testdata/tls/ca.pem", import.meta.url)),
  cert: fileURLToPath(new URL("../testdata/tls/server.pem", import.meta.url)),
  key: fileURLToPath(
    new URL("../testdata/tls/server-key.pem", import.meta.url),
  ),
} as const;

/** How to start the test server process. */
export interface ServerProcessOptions {
  /** Serve over TLS with these PEM files (e.g. {@link testTlsFiles}). */
  tls?: { readonly cert: string; readonly key: string };
  /** Serve gRPC server reflection in these versions (`--reflection`). */
  reflection?: readonly ReflectionVersion[];
}

/** A test server process started by {@link startServerProcess}. */
export interface ServerProcess {
  /** host:port. */
  readonly address: string;
  /** Its process id. */
  readonly pid: number;
  /** End its stdin (it then stops) and wait for its exit. Idempotent. */
  readonly close: () => Promise<void>;
}

/**
 * Run `node dist/main.js` on a free port, over TLS with `options.tls`;
 * resolves once it printed its `ready <host:port>` line.
 */
export async function startServerProcess(
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  // dist/main.js from src/ (under test) and from dist/ alike.
  const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
  const tls =
    options.tls === undefined
      ? []
      : ["--tls-cert", options.tls.cert, "--tls-key", options.tls.key];
  const reflection =
    options.reflection === undefined
      ? []
      : ["--reflection", options.reflection.join(",")];
  const child = spawn(process.execPath, [main, ...tls, ...reflection], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the test server exited (${String(code)}) at start`)),
    );
  });
  const address = /^ready (\S+)$/.exec(line)?.[1];
  if (address === undefined) {
    child.kill("SIGTERM");
    throw new Error(`the test server printed ${JSON.stringify(line)}`);
  }
  child.removeAllListeners("exit");
  return {
    address,
    pid: child.pid ?? -1,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          return resolve();
        }
        child.once("exit", () => resolve());
        child.stdin.end();
      }),
  };
}
