/**
 * The test API as a process:
 * `node dist/main.js [--port N] [--tls-cert FILE --tls-key FILE]
 * [--reflection v1,v1alpha]` (gRPC server reflection off without it).
 *
 * Listens on 127.0.0.1 (port N, or one the OS chooses), over TLS with the
 * certificate and key files when given, prints exactly one
 * line to stdout, `ready 127.0.0.1:<port>`, and nothing else; diagnostics go
 * to stderr. It closes the server and exits with status 0 on SIGTERM, SIGINT,
 * or when its stdin (a pipe) reaches end of file, so a parent that dies never
 * leaves it running. A second signal during shutdown exits at once.
 */
import { fstatSync, readFileSync } from "node:fs";
import { parseCliOptions, usage, type CliOptions } from "./cli-options.js";
import {
  startServer,
  type RunningServer,
  type TlsOptions,
} from "./linkhub-server.js";
import type { ReflectionVersion } from "./reflection-service.js";

/** Whether stdin is a pipe or socket, whose end means the parent is gone. */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/** The certificate and key the options name, read; undefined for cleartext. */
function readTls(options: CliOptions): TlsOptions | undefined {
  if (options.tlsCert === undefined || options.tlsKey === undefined) {
    return undefined;
  }
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(
        `cannot read ${flag} ${JSON.stringify(file)}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        { cause: err },
      );
    }
  };
  return {
    cert: read("--tls-cert", options.tlsCert),
    key: read("--tls-key", options.tlsKey),
  };
}

async function main(): Promise<void> {
  let port: number;
  let tls: TlsOptions | undefined;
  let reflection: ReflectionVersion[] | undefined;
  try {
    const options = parseCliOptions(process.argv.slice(2));
    port = options.port;
    tls = readTls(options);
    reflection = options.reflection;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}\n`);
    process.exit(2);
  }

  const server: RunningServer = await startServer({
    port,
    ...(tls === undefined ? {} : { tls }),
    ...(reflection === undefined
      ? {}
      : { reflection: { versions: reflection } }),
  });
  let shuttingDown = false;
  const shutdown = (reason: string) => {
    if (shuttingDown) {
      process.stderr.write(`${reason} during shutdown: exiting now\n`);
      process.exit(1);
    }
    shuttingDown = true;
    void server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`close failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  if (stdinIsPipe()) {
    process.stdin.on("end", () => shutdown("stdin closed"));
    process.stdin.on("error", () => shutdown("stdin failed"));
    process.stdin.resume();
  }

  process.stdout.write(`ready ${server.address}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `linkhub server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
