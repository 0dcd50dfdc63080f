import type { JWTVerifyGetKey } from "jose";
import type { JwtAuthOptions } from "./http-auth-options.js";
import type { Identity } from "./identity.js";

type Jose = typeof import("jose");
type KeySet = ReturnType<Jose["createRemoteJWKSet"]>;

/** A token refused: `message` is short, names the check, never the token. */
export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
}

/** Checks a bearer token; throws {@link InvalidTokenError} for a bad one. */
export type TokenVerifier = (token: string) => Promise<Identity>;

/** The algorithms accepted by default. */
const defaultAlgorithms = ["RS256", "ES256"];

/**
 * Check the algorithms of the options: never `none`, never a shared-secret
 * `HS*` (the issuer's JWKS holds public keys).
 */
export function checkAlgorithms(algorithms: readonly string[]): void {
  for (const alg of algorithms) {
    if (alg.toLowerCase() === "none" || /^HS/i.test(alg)) {
      throw new Error(
        `auth.algorithms: ${JSON.stringify(alg)} is not allowed (a token must be signed with the issuer's private key): use RS256, ES256, PS256 or EdDSA`,
      );
    }
  }
}

/**
 * A verifier of JWTs from one issuer (`jose`): signature by a key of the
 * issuer's JWKS (fetched once, cached, refetched for an unknown key id at
 * most every 30 s), `iss`, `aud` containing `audience` exactly, `exp`
 * (required) and `nbf` with the leeway (0 to 300 s), and `sub` (a
 * non-empty string).
 */
export async function createJwtVerifier(
  options: JwtAuthOptions,
  audience: string,
): Promise<TokenVerifier> {
  const jose = await loadJose();
  const algorithms = [...(options.algorithms ?? defaultAlgorithms)];
  checkAlgorithms(algorithms);
  const leeway = checkLeeway(options.leewaySeconds);
  const getKey = createKeyGetter(options, jose);
  return async (token) => {
    try {
      const { payload } = await jose.jwtVerify(token, getKey, {
        issuer: options.issuer,
        audience,
        algorithms,
        clockTolerance: leeway,
        requiredClaims: ["exp", "iss", "aud", "sub"],
      });
      if (typeof payload.sub !== "string" || payload.sub === "") {
        throw new InvalidTokenError("token has no sub claim");
      }
      return identityOfClaims(payload);
    } catch (e) {
      if (e instanceof InvalidTokenError) {
        throw e;
      }
      throw new InvalidTokenError(reasonOf(e, token, algorithms, jose), {
        cause: e,
      });
    }
  };
}

/** How long keys that could not be had are not asked for again: 30 s. */
const keysDownMs = 30_000;

/** The jose errors of keys that could not be had (and errors of fetch). */
const keysUnavailableCodes = new Set([
  undefined,
  "ERR_JOSE_GENERIC",
  "ERR_JWKS_TIMEOUT",
  "ERR_JWKS_INVALID",
]);

function keysUnavailable(e: unknown): boolean {
  return keysUnavailableCodes.has((e as { code?: string } | undefined)?.code);
}

/**
 * The key of a token (asked by jose once the token parses with an
 * allowed algorithm): from the issuer's JWKS, found through its metadata
 * when `jwksUrl` is not set. When the metadata or the key set cannot be
 * had, no token asks again for 30 s: each is refused meanwhile without a
 * fetch.
 */
function createKeyGetter(options: JwtAuthOptions, jose: Jose): JWTVerifyGetKey {
  let keys: Promise<KeySet> | undefined;
  let downUntil = 0;
  let downError: unknown;
  return async (header, token) => {
    if (Date.now() < downUntil) {
      throw downError;
    }
    try {
      keys ??= jwksUrlOf(options).then(
        (url) => jose.createRemoteJWKSet(new URL(url)),
        (e: unknown) => {
          keys = undefined;
          throw e;
        },
      );
      const keySet = await keys;
      return await keySet(header, token);
    } catch (e) {
      if (keysUnavailable(e)) {
        downUntil = Date.now() + keysDownMs;
        downError = e;
      }
      throw e;
    }
  };
}

/** The most clock skew `leewaySeconds` may allow: 5 minutes. */
const maxLeewaySeconds = 300;

/** The leeway of the options: 0 to 300 s, 30 by default. */
export function checkLeeway(leewaySeconds: number | undefined): number {
  const leeway = leewaySeconds ?? 30;
  if (
    typeof leeway !== "number" ||
    !Number.isFinite(leeway) ||
    leeway < 0 ||
    leeway > maxLeewaySeconds
  ) {
    throw new Error(
      `auth.leewaySeconds ${String(leeway)} is out of range: use 0 to ${String(maxLeewaySeconds)} seconds, or leave it out for 30`,
    );
  }
  return leeway;
}

/** The identity of verified claims: `sub`, and `scope` (or `scp`). */
export function identityOfClaims(claims: Record<string, unknown>): Identity {
  const scope = claims.scope ?? claims.scp;
  const scopes =
    typeof scope === "string"
      ? scope.split(" ").filter((s) => s !== "")
      : Array.isArray(scope)
        ? scope.filter((s): s is string => typeof s === "string")
        : [];
  return {
    subject: typeof claims.sub === "string" ? claims.sub : "",
    scopes,
    claims,
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
  };
}

/** What a failed check of a claim is called. */
const failedChecks = new Map([
  ["nbf", "token not valid yet"],
  ["iss", "wrong issuer"],
  ["aud", "wrong audience"],
]);

/**
 * The check a jose error says failed, in a few words (docs/production.md,
 * "Tokens"); `invalid token` for any other problem of the token.
 */
function reasonOf(
  e: unknown,
  token: string,
  algorithms: readonly string[],
  jose: Jose,
): string {
  const code = (e as { code?: unknown }).code;
  const claim = String((e as { claim?: unknown }).claim);
  const reason = (e as { reason?: unknown }).reason;
  if (keysUnavailable(e)) {
    // Fetching or reading the issuer's metadata or key set failed.
    return "could not get the issuer's signing keys";
  }
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "token expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (reason === "missing") {
        return `token has no ${claim} claim`;
      }
      return (
        (reason === "check_failed" ? failedChecks.get(claim) : undefined) ??
        "invalid token"
      );
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED": {
      const alg = headerAlg(token, jose);
      return alg !== undefined && !algorithms.includes(alg)
        ? `algorithm ${JSON.stringify(alg)} is not allowed`
        : "invalid token";
    }
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return "unknown signing key";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "bad signature";
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
      return "malformed token";
    default:
      return "invalid token";
  }
}

/** The `alg` of a token's header, if it can be read. */
function headerAlg(token: string, jose: Jose): string | undefined {
  try {
    return jose.decodeProtectedHeader(token).alg;
  } catch {
    return undefined;
  }
}

/**
 * The JWKS URL: the option, else the issuer's metadata's `jwks_uri`. Each
 * URL the keys come through must be https, or http on a loopback name.
 */
async function jwksUrlOf(options: JwtAuthOptions): Promise<string> {
  if (options.jwksUrl !== undefined) {
    return overTls(options.issuer, "its JWKS URL", options.jwksUrl);
  }
  const issuer = new URL(overTls(options.issuer, "its URL", options.issuer));
  const path = issuer.pathname === "/" ? "" : issuer.pathname;
  for (const suffix of [
    `/.well-known/oauth-authorization-server${path}`,
    `${path}/.well-known/openid-configuration`,
  ]) {
    const res = await fetch(new URL(suffix, issuer.origin), {
      signal: AbortSignal.timeout(5000),
    });
    if (res.ok) {
      const meta = (await res.json()) as { jwks_uri?: unknown };
      if (typeof meta.jwks_uri === "string") {
        return overTls(options.issuer, "its jwks_uri", meta.jwks_uri);
      }
    }
  }
  throw new Error(`issuer ${JSON.stringify(options.issuer)} has no jwks_uri`);
}

/** The host names http: is allowed on: the loopback ones. */
const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];

/**
 * `url` when it is https: or http: on a loopback name; else throws (the
 * keys deciding who calls every tool must not come over clear HTTP).
 */
function overTls(issuer: string, what: string, url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (
    parsed?.protocol !== "https:" &&
    !(parsed?.protocol === "http:" && loopbackNames.includes(parsed.hostname))
  ) {
    throw new InvalidTokenError(
      `issuer ${JSON.stringify(issuer)}: ${what} ${JSON.stringify(url)} must be https (http only on a loopback host)`,
    );
  }
  return url;
}

async function loadJose(): Promise<Jose> {
  try {
    return await import("jose");
  } catch (e) {
    throw new Error(
      "auth with an issuer needs jose: install it (npm install jose)",
      { cause: e },
    );
  }
}
