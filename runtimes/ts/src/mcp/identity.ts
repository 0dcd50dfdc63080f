import type { AuthInfo } from "@modelcontextprotocol/server";

/**
 * Who called: the verified subject of a bearer token (or what an
 * introspection hook returned). The HTTP gate creates it; the tool layer
 * reads it with {@link identityOf}. It never holds the token itself.
 */
export interface Identity {
  /** The token's `sub` claim; `""` never appears (no auth = no identity). */
  readonly subject: string;
  /** The token's scopes (`scope` split at spaces, or `scp`). */
  readonly scopes: readonly string[];
  /** Every claim of the token, as verified. */
  readonly claims: Readonly<Record<string, unknown>>;
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number | undefined;
}

/** The key of the {@link Identity} in `AuthInfo.extra`. */
const identityKey = "identity";

/**
 * The SDK's `AuthInfo` carrying an identity: `clientId` is the subject and
 * `extra.identity` the {@link Identity}, so the SDK's own `authInfo`
 * plumbing takes it to the handlers of both protocol revisions. `token` is
 * the client's bearer token: never log or forward an `AuthInfo`.
 */
export function authInfoOf(
  identity: Identity,
  token: string,
  resource?: URL,
): AuthInfo {
  return {
    token,
    clientId: identity.subject,
    scopes: [...identity.scopes],
    ...(identity.expiresAt !== undefined
      ? { expiresAt: identity.expiresAt }
      : {}),
    ...(resource !== undefined ? { resource } : {}),
    extra: { [identityKey]: identity },
  };
}

/** What {@link identityOf} reads: the SDK handler's context. */
export interface IdentityContext {
  readonly http?: { readonly authInfo?: AuthInfo | undefined } | undefined;
}

/**
 * The caller's identity in a request handler's context (`ctx` of a
 * `tools/call` handler), or `undefined` when the server runs without
 * authorization (stdio, or HTTP without `auth`).
 */
export function identityOf(ctx: IdentityContext): Identity | undefined {
  const value = ctx.http?.authInfo?.extra?.[identityKey];
  return isIdentity(value) ? value : undefined;
}

function isIdentity(value: unknown): value is Identity {
  return (
    typeof value === "object" &&
    value !== null &&
    "subject" in value &&
    typeof value.subject === "string" &&
    "scopes" in value &&
    Array.isArray(value.scopes)
  );
}
