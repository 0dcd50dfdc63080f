import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import type { Refusal } from "./http-refusal.js";

/** The host names of the loopback interface, as `Host` headers write them. */
const loopbackNames = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Whether an address to listen on is loopback: `localhost`, `::1` and
 * `127.0.0.0/8` are; `0.0.0.0` and `::` (every interface) are not.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "::1") {
    return true;
  }
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/** The Host and Origin allow-lists of an endpoint (DNS rebinding). */
export interface HostOriginPolicy {
  /** Lower-case `host` (any port) or `host:port` entries. */
  readonly hosts: readonly string[];
  /** Origins (`scheme://host[:port]`) accepted. */
  readonly origins: readonly string[];
  /** Whether any loopback origin (any port) is accepted too. */
  readonly loopbackOrigins: boolean;
}

/**
 * The allow-lists from the options: the lists given, else the loopback
 * names and `publicUrl`'s host, and `publicUrl`'s origin plus, when
 * `loopback` (listening on loopback, or a handler the application mounts,
 * whose address is unknown), any loopback origin.
 */
export function hostOriginPolicy(
  options: {
    readonly publicUrl?: string | undefined;
    readonly allowedHosts?: readonly string[] | undefined;
    readonly allowedOrigins?: readonly string[] | undefined;
  },
  loopback: boolean,
): HostOriginPolicy {
  const url =
    options.publicUrl === undefined ? undefined : new URL(options.publicUrl);
  const hosts = options.allowedHosts ?? [
    ...loopbackNames,
    ...(url ? [url.host] : []),
  ];
  const origins = options.allowedOrigins ?? (url ? [url.origin] : []);
  return {
    hosts: hosts.map((h) => h.toLowerCase()),
    origins: origins.map(originOf),
    loopbackOrigins: loopback && options.allowedOrigins === undefined,
  };
}

/**
 * The refusal of a request whose `Host` or `Origin` header is not allowed
 * (403 `forbidden_host` / `forbidden_origin`), or undefined.
 */
export function checkHostOrigin(
  req: IncomingMessage,
  policy: HostOriginPolicy,
): Refusal | undefined {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!hostAllowed(host, policy.hosts)) {
    return {
      status: 403,
      code: "forbidden_host",
      description: `host ${JSON.stringify(host)} is not allowed: add it to allowedHosts`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, policy)) {
    return {
      status: 403,
      code: "forbidden_origin",
      description: `origin ${JSON.stringify(origin)} is not allowed: add it to allowedOrigins`,
    };
  }
  return undefined;
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.replace(/:\d+$/, "");
  return allowed.includes(host) || allowed.includes(name);
}

function originAllowed(origin: string, policy: HostOriginPolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null", or not a URL
  }
  if (url.origin === "null") {
    return false;
  }
  if (policy.loopbackOrigins && loopbackNames.includes(url.hostname)) {
    return true;
  }
  return policy.origins.includes(url.origin);
}

function originOf(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}
