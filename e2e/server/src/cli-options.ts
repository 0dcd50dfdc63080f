import type { ReflectionVersion } from "./reflection-service.js";

/**
 * The command line of `node dist/main.js`.
 */
export interface CliOptions {
  /** The port to listen on; 0 lets the OS choose one. */
  port: number;
  /** With tlsKey: serve over TLS with this certificate file (PEM). */
  tlsCert?: string;
  /** With tlsCert: the certificate's private key file (PEM). */
  tlsKey?: string;
  /** Serve gRPC server reflection in these versions (`--reflection`). */
  reflection?: ReflectionVersion[];
}

/** The usage line printed with a command line error. */
export const usage =
  "usage: node dist/main.js [--port N] [--tls-cert FILE --tls-key FILE] [--reflection v1,v1alpha]";

/** The flags that take a value. */
const flags = ["--port", "--tls-cert", "--tls-key", "--reflection"] as const;

/**
 * Parses the arguments after the script name: `--port N` (N from 0 to
 * 65535), `--tls-cert FILE --tls-key FILE` (both or neither) and
 * `--reflection VERSIONS` (`v1`, `v1alpha` or both, comma-separated), each also
 * as `--flag=value`. Throws an Error naming the offending argument.
 */
export function parseCliOptions(args: readonly string[]): CliOptions {
  const options: CliOptions = { port: 0 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const flag = flags.find((f) => arg === f || arg.startsWith(`${f}=`));
    if (flag === undefined) {
      throw new Error(`unknown argument ${JSON.stringify(arg)}`);
    }
    const value = arg === flag ? args[++i] : arg.slice(flag.length + 1);
    if (value === undefined) {
      throw new Error(`missing value for ${JSON.stringify(flag)}`);
    }
    if (flag === "--tls-cert") options.tlsCert = value;
    else if (flag === "--tls-key") options.tlsKey = value;
    else if (flag === "--reflection") options.reflection = parseVersions(value);
    else options.port = parsePort(value);
  }
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    throw new Error(
      `"--tls-cert" and "--tls-key" go together: give both files, or neither for cleartext`,
    );
  }
  return options;
}

/** A port number from 0 to 65535. */
function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new Error(
      `invalid port ${JSON.stringify(value)}: want an integer from 0 to 65535`,
    );
  }
  return Number(value);
}

/** Reflection versions, comma-separated: `v1`, `v1alpha` or both. */
function parseVersions(value: string): ReflectionVersion[] {
  const versions = value.split(",");
  for (const v of versions) {
    if (v !== "v1" && v !== "v1alpha") {
      throw new Error(
        `invalid reflection version ${JSON.stringify(v)} in "--reflection": want v1, v1alpha or v1,v1alpha`,
      );
    }
  }
  return [...new Set(versions as ReflectionVersion[])];
}
