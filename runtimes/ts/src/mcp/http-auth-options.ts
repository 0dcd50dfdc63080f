import type { Identity } from "./identity.js";

/**
 * Bearer JWTs checked against an issuer's keys (`jose`, an optional peer
 * dependency): signature from the issuer's JWKS (cached), issuer, expiry,
 * not-before, audience.
 */
export interface JwtAuthOptions {
  /** The token issuer: the `iss` every token must carry exactly. */
  readonly issuer: string;
  /**
   * The issuer's JWKS URL; by default read from the issuer's metadata
   * (`/.well-known/oauth-authorization-server`, then
   * `/.well-known/openid-configuration`) on the first token. This URL, the
   * metadata's `jwks_uri` and the issuer (when its metadata is read) must
   * be https, or http on a loopback name (127.0.0.1, localhost, ::1):
   * otherwise every token is refused with a text naming the issuer and URL.
   */
  readonly jwksUrl?: string | undefined;
  /**
   * The audience every token's `aud` must contain, compared exactly (a
   * trailing slash matters); `publicUrl` by default (RFC 8707).
   */
  readonly audience?: string | undefined;
  /** The signing algorithms accepted; `["RS256", "ES256"]` by default. */
  readonly algorithms?: readonly string[] | undefined;
  /** Scopes every request's token must hold; none by default. */
  readonly scopes?: readonly string[] | undefined;
  /** Clock skew allowed on `exp` and `nbf`, in seconds; 30 by default. */
  readonly leewaySeconds?: number | undefined;
}

/**
 * Opaque tokens checked by the application (RFC 7662 introspection, a
 * session table): `introspect` answers the caller's identity, or
 * `undefined`/`null` for a token it does not accept.
 */
export interface IntrospectAuthOptions {
  /** The identity of a token, or nothing for an invalid one. */
  readonly introspect: (
    token: string,
  ) => Identity | null | undefined | Promise<Identity | null | undefined>;
  /**
   * The authorization servers clients get tokens from (the protected
   * resource metadata's `authorization_servers`); required.
   */
  readonly authorizationServers: readonly string[];
  /** Scopes every request's token must hold; none by default. */
  readonly scopes?: readonly string[] | undefined;
}

/** How HTTP requests are authorized: JWTs or an introspection hook. */
export type HttpAuthOptions = JwtAuthOptions | IntrospectAuthOptions;

/**
 * The security options of {@link createMcpHttpHandler} and
 * {@link serveHttp} (docs/production.md).
 */
export interface McpHttpOptions {
  /**
   * The URL clients use, e.g. `https://tools.example.com/mcp`: the
   * protected resource metadata's `resource` and the tokens' audience.
   * Required with `auth`.
   */
  readonly publicUrl?: string | undefined;
  /** Require a bearer token on every request; none by default. */
  readonly auth?: HttpAuthOptions | undefined;
  /**
   * Serve a non-loopback address without `auth` (anyone who reaches the
   * port calls every tool); `serveHttp` refuses to start otherwise.
   */
  readonly allowUnauthenticated?: boolean | undefined;
  /**
   * The `Host` headers accepted (`host` for any port, or `host:port`):
   * by default the loopback names, and `publicUrl`'s host. Others: 403.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * The `Origin` headers accepted (`https://app.example.com`): by default
   * `publicUrl`'s origin, and any loopback origin when listening on
   * loopback. A request without `Origin` is accepted; others: 403.
   */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** The most bytes of a request body; 4 MiB by default. Over: 413. */
  readonly maxBodyBytes?: number | undefined;
}
