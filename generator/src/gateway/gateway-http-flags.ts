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

/** True when `host` (an address, a name, or a URL's `[::1]`) is loopback. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.includes(host.replace(/^\[(.*)\]$/, "$1"));
}

/** The URL's host when it is http: beyond loopback, else undefined. */
function clearBeyondLoopback(value: string | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const url = new URL(value);
  return url.protocol === "http:" && !isLoopbackHost(url.hostname)
    ? url.hostname
    : undefined;
}

/**
 * Throws for an http: issuer or JWKS URL (the keys deciding who calls
 * every tool) and, with --auth-issuer, an http: --public-url (the
 * tokens), unless the URL's host is loopback.
 */
function checkTls(values: SecurityValues): void {
  for (const flag of ["auth-issuer", "auth-jwks-url"] as const) {
    if (clearBeyondLoopback(values[flag]) !== undefined) {
      throw new GatewayError(
        `--${flag} ${JSON.stringify(values[flag])}: the keys must come over https (http only on a loopback host)`,
      );
    }
  }
  const publicUrl = values["public-url"];
  if (
    values["auth-issuer"] !== undefined &&
    clearBeyondLoopback(publicUrl) !== undefined
  ) {
    throw new GatewayError(
      `--public-url ${JSON.stringify(publicUrl)}: bearer tokens would travel in clear; write an https URL (http only on a loopback host)`,
    );
  }
}

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
 * without --public-url, an http: issuer, JWKS or (with --auth-issuer)
 * public URL beyond loopback, and a non-loopback address with neither
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
  checkTls(values);
  const allowUnauthenticated = values["allow-unauthenticated"] === true;
  if (
    issuer === undefined &&
    !allowUnauthenticated &&
    !isLoopbackHost(address.host)
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

/**
 * The start-up line's end for `--allow-unauthenticated` without
 * --auth-issuer on a non-loopback address served at `url`; empty otherwise.
 */
export function unauthenticatedNote(options: GatewayHttp, url: string): string {
  if (
    options.allowUnauthenticated !== true ||
    options.auth !== undefined ||
    isLoopbackHost(options.host)
  ) {
    return "";
  }
  return `; no authentication: anyone reaching ${new URL(url).host} calls every tool`;
}
