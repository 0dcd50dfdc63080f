// A local OAuth token issuer for the security suites: ES256 and RS256 keys
// made with node:crypto, tokens signed with jose, and the public keys served
// as a JWKS over a real loopback socket.
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, type JWTPayload } from "jose";

/** The algorithms a test token can claim. */
export type TestAlg = "ES256" | "RS256" | "HS256" | "none";

/** How {@link TestIssuer.sign} signs. */
export interface SignOptions {
  /** ES256 (the default), RS256, HS256 (HMAC key `"secret"`) or none (unsigned). */
  alg?: TestAlg;
  /**
   * The header's `kid`; the issuer's key id of the algorithm by default;
   * null: no `kid` in the header.
   */
  kid?: string | null;
  /** `"wrong"`: a key of the same algorithm that the JWKS does not hold. */
  key?: "issuer" | "wrong";
}

/**
 * A token recipe of e2e/vectors/security/security.json: the default claims
 * changed by `set` (`{"$now": n}` is now + n seconds) and `unset`, signed
 * as `alg`/`kid`/`key` say; or `raw`, a whole Authorization header.
 */
export interface TokenRecipe {
  alg?: TestAlg;
  kid?: string | null;
  key?: "issuer" | "wrong";
  set?: Record<string, unknown>;
  unset?: string[];
  raw?: string;
}

/** The claims every recipe starts from (besides iss, iat and exp). */
export interface RecipeDefaults {
  /** `aud`. */
  audience: string | string[];
  /** `sub`; `"alice"` by default. */
  subject?: string;
  /** `scope`, space-separated; none by default. */
  scope?: string;
  /** Seconds from now to `exp`; 300 by default. */
  expiresIn?: number;
}

/** A running test issuer. */
export interface TestIssuer {
  /** The `iss` of its tokens. */
  readonly issuer: string;
  /** Where its JWKS is served: `http://127.0.0.1:<port>/jwks.json`. */
  readonly jwksUrl: string;
  /** The key ids in the JWKS, by algorithm. */
  readonly kids: { readonly ES256: string; readonly RS256: string };
  /** How many times the JWKS was fetched (to see a verifier's cache work). */
  jwksFetches(): number;
  /** A JWT of exactly these claims (nothing added). */
  sign(claims: JWTPayload, options?: SignOptions): Promise<string>;
  /**
   * The Authorization header of a recipe (`Bearer <jwt>`, or the recipe's
   * `raw`), the claims starting from `iss`, `aud`, `sub`, `scope`, `iat`
   * and `exp` of `defaults`.
   */
  authorization(recipe: TokenRecipe, defaults: RecipeDefaults): Promise<string>;
  /** Stop serving the JWKS. */
  close(): Promise<void>;
}

/** The HMAC key of HS256 test tokens. */
const hmacSecret = new TextEncoder().encode("secret");

/** A key pair of an algorithm. */
function keyPair(alg: "ES256" | "RS256"): {
  privateKey: KeyObject;
  publicKey: KeyObject;
} {
  return alg === "ES256"
    ? generateKeyPairSync("ec", { namedCurve: "P-256" })
    : generateKeyPairSync("rsa", { modulusLength: 2048 });
}

/** base64url of a JSON value. */
function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Now, in seconds since the epoch. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A claim value with `{"$now": n}` replaced by now + n. */
function resolveClaim(value: unknown, now: number): unknown {
  if (value !== null && typeof value === "object" && "$now" in value) {
    return now + Number(value.$now);
  }
  return value;
}

/**
 * Starts a test issuer: fresh ES256 and RS256 keys (and a "wrong" key of
 * each), the JWKS served on 127.0.0.1 at a free port, also at
 * `/.well-known/jwks.json`, with the authorization server metadata at
 * `/.well-known/oauth-authorization-server`.
 */
export async function createTestIssuer(
  options: { issuer?: string } = {},
): Promise<TestIssuer> {
  const issuer = options.issuer ?? "https://issuer.example.test";
  const keys = { ES256: keyPair("ES256"), RS256: keyPair("RS256") };
  const wrong = { ES256: keyPair("ES256"), RS256: keyPair("RS256") };
  const kids = { ES256: "test-es256", RS256: "test-rs256" } as const;
  const jwks = JSON.stringify({
    keys: (["ES256", "RS256"] as const).map((alg) => ({
      ...keys[alg].publicKey.export({ format: "jwk" }),
      kid: kids[alg],
      alg,
      use: "sig",
    })),
  });
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/jwks.json" || path === "/.well-known/jwks.json") {
      fetches++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(jwks);
      return;
    }
    if (path === "/.well-known/oauth-authorization-server") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ issuer, jwks_uri: jwksUrl }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const jwksUrl = `http://127.0.0.1:${String(port)}/jwks.json`;

  const sign = async (
    claims: JWTPayload,
    o: SignOptions = {},
  ): Promise<string> => {
    const alg = o.alg ?? "ES256";
    if (alg === "none") {
      return `${b64json({ alg: "none", typ: "JWT" })}.${b64json(claims)}.`;
    }
    const kid =
      o.kid === undefined ? (alg === "HS256" ? kids.ES256 : kids[alg]) : o.kid;
    const key =
      alg === "HS256"
        ? hmacSecret
        : (o.key === "wrong" ? wrong : keys)[alg].privateKey;
    return await new SignJWT(claims)
      .setProtectedHeader({ alg, ...(kid === null ? {} : { kid }), typ: "JWT" })
      .sign(key);
  };

  return {
    issuer,
    jwksUrl,
    kids,
    jwksFetches: () => fetches,
    sign,
    async authorization(recipe, defaults) {
      if (recipe.raw !== undefined) return recipe.raw;
      const now = nowSeconds();
      const claims: Record<string, unknown> = {
        iss: issuer,
        aud: defaults.audience,
        sub: defaults.subject ?? "alice",
        ...(defaults.scope === undefined ? {} : { scope: defaults.scope }),
        iat: now,
        exp: now + (defaults.expiresIn ?? 300),
      };
      for (const [name, value] of Object.entries(recipe.set ?? {})) {
        claims[name] = resolveClaim(value, now);
      }
      for (const name of recipe.unset ?? []) delete claims[name];
      const signOptions: SignOptions = {
        ...(recipe.alg === undefined ? {} : { alg: recipe.alg }),
        ...(recipe.kid === undefined ? {} : { kid: recipe.kid }),
        ...(recipe.key === undefined ? {} : { key: recipe.key }),
      };
      return `Bearer ${await sign(claims, signOptions)}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
