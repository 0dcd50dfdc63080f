import type { ServeHttpOptions } from "@protoc-gen-ai-tools/runtime/mcp";
import { GatewayError } from "./gateway-error.js";

/** The flags of `--http`'s security: serveHttp's McpHttpOptions. */
export const httpSecurityFlags = {
  "public-url": { type: "string" },
  "auth-issuer": { type: "string" },
  "auth-jwks-url": { type: "string" },
  "auth-audience": { type: "string" },
  "auth-scope": { type: "string", multiple: true },
  "allowed-host": { type: "string", multiple: true },
  "allowed-origin": { type: "string", multiple: true },
  "allow-unauthenticated": { type: "boolean" },
} as const;

/** The values parseArgs gives the security flags. */
interface SecurityValues {
  readonly "public-url"?: string | undefined;
  readonly "auth-issuer"?: string | undefined;
  readonly "auth-jwks-url"?: string | undefined;
  readonly "auth-audience"?: string | undefined;
  readonly "auth-scope"?: string[] | undefined;
  readonly "allowed-host"?: string[] | undefined;
  readonly "allowed-origin"?: string[] | undefined;
  readonly "allow-unauthenticated"?: boolean | undefined;
}

/** `--http` as serveHttp takes it: the address and the security options. */
export type GatewayHttp = ServeHttpOptions & {
  readonly host: string;
  readonly port: number;
};

const loopbackHosts = ["127.0.0.1", "localhost", "::1"];

/** Throws unless `value` of `flag` is an http(s) URL. */
function checkUrl(flag: string, value: string | undefined): void {
  if (value === undefined) {
    return;
  }
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== "https:" && protocol !== "http:") {
    throw new GatewayError(
      `--${flag} ${JSON.stringify(value)}: not an http(s) URL; write e.g. https://tools.example.com/mcp`,
    );
  }
}

/**
 * The security options of `--http` at `address`: refuses a flag given
 * without --http, an --auth-* flag without --auth-issuer, --auth-issuer
 * without --public-url, and a non-loopback address with neither
 * --auth-issuer nor --allow-unauthenticated (serveHttp's rule).
 */
export function httpOptionsOf(
  address: { host: string; port: number } | undefined,
  values: SecurityValues,
): GatewayHttp | undefined {
  const given = Object.keys(httpSecurityFlags).filter(
    (f) => values[f as keyof SecurityValues] !== undefined,
  );
  if (address === undefined) {
    if (given.length > 0) {
      throw new GatewayError(
        `--${given[0]!} applies to --http only: add --http HOST:PORT, or leave it out for stdio`,
      );
    }
    return undefined;
  }
  const issuer = values["auth-issuer"];
  const orphan = given.find(
    (f) => f.startsWith("auth-") && f !== "auth-issuer",
  );
  if (issuer === undefined && orphan !== undefined) {
    throw new GatewayError(
      `--${orphan} needs --auth-issuer URL, the issuer of the bearer tokens the gateway accepts`,
    );
  }
  const publicUrl = values["public-url"];
  if (issuer !== undefined && publicUrl === undefined) {
    throw new GatewayError(
      `--auth-issuer needs --public-url URL, the URL clients use (e.g. https://tools.example.com/mcp): the tokens' audience by default`,
    );
  }
  for (const flag of ["public-url", "auth-issuer", "auth-jwks-url"] as const) {
    checkUrl(flag, values[flag]);
  }
  const allowUnauthenticated = values["allow-unauthenticated"] === true;
  if (
    issuer === undefined &&
    !allowUnauthenticated &&
    !loopbackHosts.includes(address.host)
  ) {
    throw new GatewayError(
      `--http ${JSON.stringify(`${address.host}:${address.port}`)}: a non-loopback address needs --auth-issuer URL (with --public-url URL) so that every request carries a token, or --allow-unauthenticated to let anyone who reaches the port call every tool`,
    );
  }
  return {
    ...address,
    publicUrl,
    auth:
      issuer === undefined
        ? undefined
        : {
            issuer,
            jwksUrl: values["auth-jwks-url"],
            audience: values["auth-audience"],
            scopes: values["auth-scope"],
          },
    allowUnauthenticated,
    allowedHosts: values["allowed-host"],
    allowedOrigins: values["allowed-origin"],
  };
}
