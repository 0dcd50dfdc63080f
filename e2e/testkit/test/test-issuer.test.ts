import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIssuer, type TestIssuer } from "../src/test-issuer.js";

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await createTestIssuer();
});
afterAll(async () => {
  await issuer.close();
});

const audience = "https://mcp.example.test/mcp";

/** Verify a Bearer header's token against the issuer's served JWKS. */
async function verify(authorization: string) {
  const jwks = createRemoteJWKSet(new URL(issuer.jwksUrl));
  const token = authorization.replace(/^Bearer /, "");
  return await jwtVerify(token, jwks, {
    issuer: issuer.issuer,
    audience,
    algorithms: ["ES256", "RS256"],
  });
}

describe("createTestIssuer", () => {
  it("signs ES256 and RS256 tokens that verify against its JWKS over HTTP", async () => {
    for (const alg of ["ES256", "RS256"] as const) {
      const auth = await issuer.authorization(
        { alg, set: { tenant: "t1" } },
        { audience, scope: "a b" },
      );
      const { payload, protectedHeader } = await verify(auth);
      expect(protectedHeader).toEqual({
        alg,
        kid: issuer.kids[alg],
        typ: "JWT",
      });
      expect(payload).toMatchObject({
        sub: "alice",
        scope: "a b",
        tenant: "t1",
      });
      expect(payload.exp! - payload.iat!).toBe(300);
    }
    expect(issuer.jwksFetches()).toBeGreaterThan(0);
  });

  it("makes the recipes' bad tokens, which jose refuses", async () => {
    const refused = async (
      recipe: Parameters<TestIssuer["authorization"]>[0],
    ) =>
      await verify(await issuer.authorization(recipe, { audience })).then(
        () => "accepted",
        (e: unknown) => (e as { code?: string }).code,
      );
    expect(await refused({ key: "wrong" })).toBe(
      "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    );
    expect(await refused({ alg: "RS256", key: "wrong" })).toBe(
      "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    );
    expect(await refused({ set: { exp: { $now: -120 } } })).toBe(
      "ERR_JWT_EXPIRED",
    );
    expect(await refused({ set: { nbf: { $now: 120 } } })).toBe(
      "ERR_JWT_CLAIM_VALIDATION_FAILED",
    );
    expect(await refused({ set: { aud: "https://other.example.test" } })).toBe(
      "ERR_JWT_CLAIM_VALIDATION_FAILED",
    );
    expect(await refused({ kid: "not-in-the-jwks", key: "wrong" })).toBe(
      "ERR_JWKS_NO_MATCHING_KEY",
    );
    expect(await refused({ alg: "HS256" })).toBe("ERR_JOSE_ALG_NOT_ALLOWED");
  });

  it("writes alg none by hand: header, payload, empty signature", async () => {
    const auth = await issuer.authorization({ alg: "none" }, { audience });
    const token = auth.slice("Bearer ".length);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.$/);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "none", typ: "JWT" });
    await expect(verify(auth)).rejects.toThrow();
  });

  it("unsets claims and passes raw headers through", async () => {
    const auth = await issuer.authorization(
      { unset: ["exp", "sub"] },
      { audience },
    );
    const { payload } = await verify(auth);
    expect(payload).not.toHaveProperty("exp");
    expect(payload).not.toHaveProperty("sub");
    expect(await issuer.authorization({ raw: "Bearer x" }, { audience })).toBe(
      "Bearer x",
    );
  });
});
