/**
 * The HTTP flags of the e2e MCP servers (the same in Go, Python and
 * TypeScript): where to listen and the security options of serveHttp.
 */
import type { ServeHttpOptions } from "@protoc-gen-ai-tools/runtime/mcp";

/** The flags, as node:util parseArgs options. */
export const httpFlags = {
  http: { type: "string" },
  host: { type: "string" },
  "public-url": { type: "string" },
  "auth-issuer": { type: "string" },
  "auth-jwks-url": { type: "string" },
  "auth-scopes": { type: "string" },
  "allow-unauthenticated": { type: "boolean" },
  "allowed-origin": { type: "string", multiple: true },
  "allowed-host": { type: "string", multiple: true },
  "max-body-bytes": { type: "string" },
  "shutdown-grace-ms": { type: "string" },
} as const;

/** The usage line of the flags. */
export const httpFlagsUsage =
  "[--http [HOST:]PORT] [--host ADDR] [--public-url URL] [--auth-issuer URL --auth-jwks-url URL [--auth-scopes a,b]] [--allow-unauthenticated] [--allowed-origin O]... [--allowed-host H]... [--max-body-bytes N] [--shutdown-grace-ms N]";

/** The values parseArgs reads for {@link httpFlags}. */
export interface HttpFlagValues {
  readonly http?: string | undefined;
  readonly host?: string | undefined;
  readonly "public-url"?: string | undefined;
  readonly "auth-issuer"?: string | undefined;
  readonly "auth-jwks-url"?: string | undefined;
  readonly "auth-scopes"?: string | undefined;
  readonly "allow-unauthenticated"?: boolean | undefined;
  readonly "allowed-origin"?: string[] | undefined;
  readonly "allowed-host"?: string[] | undefined;
  readonly "max-body-bytes"?: string | undefined;
  readonly "shutdown-grace-ms"?: string | undefined;
}

/**
 * The serveHttp options of the flags, or undefined without `--http`
 * (stdio). Throws an Error naming a bad flag.
 */
export function serveHttpOptionsOf(
  values: HttpFlagValues,
): ServeHttpOptions | undefined {
  if (values.http === undefined) {
    return undefined;
  }
  const split = /^(.*):(\d+)$/.exec(values.http);
  const port = integerFlag("--http", split?.[2] ?? values.http);
  const issuer = values["auth-issuer"];
  const scopes = values["auth-scopes"]?.split(",").filter((s) => s !== "");
  return {
    port,
    host: values.host ?? split?.[1]?.replace(/^\[(.*)\]$/, "$1") ?? "127.0.0.1",
    publicUrl: values["public-url"],
    auth:
      issuer === undefined
        ? undefined
        : { issuer, jwksUrl: values["auth-jwks-url"], scopes },
    allowUnauthenticated: values["allow-unauthenticated"],
    allowedOrigins: values["allowed-origin"],
    allowedHosts: values["allowed-host"],
    maxBodyBytes: optionalInteger("--max-body-bytes", values["max-body-bytes"]),
    shutdownGraceMs: optionalInteger(
      "--shutdown-grace-ms",
      values["shutdown-grace-ms"],
    ),
  };
}

function optionalInteger(
  flag: string,
  value: string | undefined,
): number | undefined {
  return value === undefined ? undefined : integerFlag(flag, value);
}

function integerFlag(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
    throw new Error(`${flag}: ${JSON.stringify(value)} is not a whole number`);
  }
  return n;
}
