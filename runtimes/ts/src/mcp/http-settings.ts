import type { McpHttpOptions } from "./http-auth-options.js";
import { isLoopbackHost } from "./host-origin.js";
import { defaultMaxBodyBytes } from "./read-body.js";
import { checkScopeTokens } from "./required-scopes.js";

/**
 * Check the security options before anything listens, and fill in their
 * defaults: `auth` needs `publicUrl`, an introspection hook needs its
 * authorization servers, scopes are RFC 6749 scope tokens, sizes are
 * positive integers. Throws an Error
 * saying what to set.
 */
export function checkHttpOptions(options: McpHttpOptions): {
  readonly maxBodyBytes: number;
} {
  const { publicUrl, auth } = options;
  if (publicUrl !== undefined) {
    checkPublicUrl(publicUrl);
  }
  if (auth !== undefined && publicUrl === undefined) {
    throw new Error(
      `auth needs publicUrl (public_url / PublicURL): the URL clients use, e.g. "https://tools.example.com/mcp"`,
    );
  }
  if (
    auth !== undefined &&
    "introspect" in auth &&
    auth.authorizationServers.length === 0
  ) {
    throw new Error(
      "auth.introspect needs auth.authorizationServers: the URLs of the servers clients get their tokens from",
    );
  }
  checkScopeTokens(auth?.scopes ?? [], "auth.scopes");
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  checkPositive("maxBodyBytes", maxBodyBytes);
  return { maxBodyBytes };
}

/**
 * Refuse to serve a non-loopback address without authorization, unless
 * `allowUnauthenticated` says so.
 */
export function checkAuthorizedBind(
  host: string,
  options: McpHttpOptions,
): void {
  if (
    options.auth === undefined &&
    options.allowUnauthenticated !== true &&
    !isLoopbackHost(host)
  ) {
    throw new Error(
      `refusing to serve MCP over HTTP on ${JSON.stringify(host)} without authorization: set auth, or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) to serve anyone who can reach the port`,
    );
  }
}

/** Throw unless `value` is a positive integer. */
export function checkPositive(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(
      `${name} ${String(value)} is not a positive integer: leave it out for the default`,
    );
  }
}

function checkPublicUrl(publicUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(publicUrl);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    throw new Error(
      `publicUrl ${JSON.stringify(publicUrl)} is not an absolute http(s) URL without query or fragment: use the URL clients use, e.g. "https://tools.example.com/mcp"`,
    );
  }
}
