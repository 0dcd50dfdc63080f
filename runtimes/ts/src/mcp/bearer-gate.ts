import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { HttpAuthOptions } from "./http-auth-options.js";
import {
  bearerChallenge,
  logServerError,
  type Refusal,
} from "./http-refusal.js";
import { authInfoOf, type Identity } from "./identity.js";
import {
  createJwtVerifier,
  InvalidTokenError,
  type TokenVerifier,
} from "./jwt-verifier.js";
import type { ProtectedResource } from "./protected-resource.js";
import { sortedUnique } from "./sorted-unique.js";

/** What the gate found: the caller, or why the request is refused. */
export type GateResult =
  | { readonly identity: Identity; readonly authInfo: AuthInfo }
  | { readonly refusal: Refusal };

/**
 * Checks the bearer token of each request: 401 without one or with an
 * invalid one, 403 without a server-wide scope (RFC 6750 challenges
 * naming the protected resource metadata).
 */
export interface BearerGate {
  /** The server-wide scopes, sorted. */
  readonly scopes: readonly string[];
  /** Check a request's `Authorization` header. */
  check(req: IncomingMessage): Promise<GateResult>;
  /** A 403 challenge naming every scope `needed` (sorted). */
  insufficientScope(needed: readonly string[], description: string): Refusal;
}

/** Create the gate of an endpoint (loads `jose` for JWTs). */
export async function createBearerGate(
  auth: HttpAuthOptions,
  resource: ProtectedResource,
): Promise<BearerGate> {
  const verify =
    "introspect" in auth
      ? introspectionVerifier(auth.introspect)
      : await createJwtVerifier(auth, auth.audience ?? resource.resource);
  const scopes = sortedUnique(auth.scopes ?? []);
  const metadata = resource.metadataUrl;
  const resourceUrl = new URL(resource.resource);
  const unauthorized = (description: string, challenge: string): Refusal => ({
    status: 401,
    code: "invalid_token",
    description,
    headers: { "www-authenticate": challenge },
  });
  const gate: BearerGate = {
    scopes,
    async check(req) {
      const token = bearerToken(req.headers.authorization);
      if (token === undefined) {
        return {
          refusal: unauthorized(
            "no bearer token",
            bearerChallenge([
              ["resource_metadata", metadata],
              ["scope", scopes.length > 0 ? scopes.join(" ") : undefined],
            ]),
          ),
        };
      }
      let identity: Identity;
      try {
        identity = await verify(token);
      } catch (e) {
        if (!(e instanceof InvalidTokenError)) {
          throw e;
        }
        return {
          refusal: unauthorized(
            e.message,
            bearerChallenge([
              ["error", "invalid_token"],
              ["error_description", e.message],
              ["resource_metadata", metadata],
            ]),
          ),
        };
      }
      const missing = scopes.filter((s) => !identity.scopes.includes(s));
      if (missing.length > 0) {
        return {
          refusal: gate.insufficientScope(
            scopes,
            `the token lacks scope ${JSON.stringify(missing.join(" "))}`,
          ),
        };
      }
      return { identity, authInfo: authInfoOf(identity, token, resourceUrl) };
    },
    insufficientScope(needed, description) {
      return {
        status: 403,
        code: "insufficient_scope",
        description,
        headers: {
          "www-authenticate": bearerChallenge([
            ["error", "insufficient_scope"],
            ["scope", needed.join(" ")],
            ["resource_metadata", metadata],
          ]),
        },
      };
    },
  };
  return gate;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer +(\S+) *$/i.exec(header ?? "");
  return match?.[1];
}

/**
 * An application's introspection hook as a verifier: a hook that fails
 * is logged here and answered `could not introspect the token` (never its
 * message); no identity, an empty subject or a past `expiresAt` is
 * `token not accepted`.
 */
function introspectionVerifier(
  introspect: (
    token: string,
  ) => Identity | null | undefined | Promise<Identity | null | undefined>,
): TokenVerifier {
  return async (token) => {
    let identity: Identity | null | undefined;
    try {
      identity = await introspect(token);
    } catch (e) {
      logServerError("the introspection hook failed", e);
      throw new InvalidTokenError("could not introspect the token");
    }
    if (
      identity === null ||
      identity === undefined ||
      typeof identity.subject !== "string" ||
      identity.subject === "" ||
      (identity.expiresAt !== undefined &&
        identity.expiresAt * 1000 <= Date.now())
    ) {
      throw new InvalidTokenError("token not accepted");
    }
    return identity;
  };
}
