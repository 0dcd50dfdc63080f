// The HTTP gate of serveHttp with authorization, over real sockets: a test
// issuer serving its JWKS on a loopback port, tokens signed with its keys,
// and the cases of e2e/vectors/security/security.json that need no linkhub tool.
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import {
  createTestIssuer,
  type TestIssuer,
  type TokenRecipe,
} from "@protoc-gen-ai-tools/testkit";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createMcpToolServer,
  identityOf,
  serveHttp,
  type Identity,
  type McpToolServer,
  type RunningHttpServer,
  type ServeHttpOptions,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { aitestAliases } from "../support/aitest-tools.js";
import {
  modernRpc,
  parseChallenge,
  rpcResult,
  send,
} from "../support/http-request.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

interface VectorCase {
  name: string;
  token: string | null;
  headers?: Record<string, string>;
  setup?: string;
  bodyBytes?: number;
  chunked?: boolean;
  request: {
    rpc?: string;
    tool?: string;
    arguments?: unknown;
    batch?: boolean;
    revision?: string;
    method?: string;
    path?: string;
  };
  expect: {
    status: number;
    wwwAuthenticate?: { scheme: string; params: Record<string, string> };
    error?: string;
    description?: string;
    result?: string;
  };
}

const vectors = JSON.parse(
  readFileSync(
    new URL("../../../../e2e/vectors/security/security.json", import.meta.url),
    "utf8",
  ),
) as {
  server: {
    publicUrl: string;
    scopes: string[];
    maxBodyBytes: number;
    toolScopes: Record<string, string[]>;
  };
  tokens: Record<string, TokenRecipe>;
  cases: VectorCase[];
};

const publicUrl = vectors.server.publicUrl;
const metadataUrl =
  "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";

let grpc: AitestServer;
let issuer: TestIssuer;
let http: RunningHttpServer;
/** The identities the handlers saw (tools/list), by revision. */
const seen: (Identity | undefined)[] = [];

/** A tool server whose tools/list also records the caller's identity. */
function recordingServer(server: McpToolServer): McpToolServer {
  return {
    ...server,
    createSdkServer(scope) {
      const sdk = server.createSdkServer(scope);
      sdk.removeRequestHandler("tools/list");
      sdk.setRequestHandler("tools/list", (_request, ctx) => {
        seen.push(identityOf(ctx));
        return { tools: server.listTools() };
      });
      return sdk;
    },
  };
}

function authOptions(): ServeHttpOptions {
  return {
    publicUrl,
    auth: {
      issuer: issuer.issuer,
      jwksUrl: issuer.jwksUrl,
      scopes: vectors.server.scopes,
    },
    maxBodyBytes: vectors.server.maxBodyBytes,
  };
}

beforeAll(async () => {
  grpc = await startAitestServer();
  issuer = await createTestIssuer();
  const server = createMcpToolServer({
    requiredScopes: { accounts_merge: ["accounts.merge"] },
  });
  server.addTools({
    methods: aitestMcpMethods,
    aliases: aitestAliases,
    transport: grpc.transport,
  });
  http = await serveHttp(recordingServer(server), authOptions());
});

afterAll(async () => {
  await http.close();
  await issuer.close();
  await grpc.close();
});

/** The Authorization header of a token recipe (alice, links.read). */
function token(recipe: TokenRecipe, scope = "links.read"): Promise<string> {
  return issuer.authorization(recipe, { audience: publicUrl, scope });
}

/** The vector cases whose answer comes before any linkhub tool runs. */
const gateCases = vectors.cases.filter(
  (c) =>
    c.setup === undefined &&
    c.request.rpc !== undefined &&
    !(
      c.request.tool !== undefined &&
      c.request.tool in vectors.server.toolScopes
    ) &&
    !(c.request.rpc === "tools/call" && c.expect.status === 200),
);

describe("security.json cases the gate answers", () => {
  it("covers the refusals of the vectors", () => {
    expect(gateCases.length).toBeGreaterThan(25);
  });

  it.each(gateCases.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const rpc = modernRpc(
      c.request.rpc ?? "",
      c.request.tool === undefined
        ? {}
        : { name: c.request.tool, arguments: c.request.arguments },
      c.request.batch === true,
    );
    const recipe = c.token === null ? undefined : vectors.tokens[c.token];
    const body =
      c.bodyBytes === undefined ? rpc.body : rpc.body.padEnd(c.bodyBytes);
    const authorization =
      recipe === undefined
        ? undefined
        : await token(recipe, "links.read accounts.merge");
    const res = await send(http.url, {
      headers: {
        ...rpc.headers,
        ...(authorization === undefined ? {} : { authorization }),
        ...Object.fromEntries(
          Object.entries(c.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
        ),
      },
      body,
      chunked: c.chunked === true,
    });
    expect(res.status).toBe(c.expect.status);
    if (c.expect.result === "tools") {
      expect(rpcResult(res).tools).toEqual(expect.any(Array));
      return;
    }
    expect(res.headers["content-type"]).toBe("application/json");
    const refusal = JSON.parse(res.text) as {
      error: string;
      error_description: string;
    };
    expect(refusal.error).toBe(c.expect.error);
    if (c.expect.description !== undefined) {
      expect(refusal.error_description).toMatch(
        new RegExp(c.expect.description, "i"),
      );
    }
    // The refusal never holds the token, nor its claims.
    for (const part of authorization?.slice(7).split(".") ?? []) {
      if (part.length > 8) {
        expect(res.text).not.toContain(part);
        expect(res.headers["www-authenticate"] ?? "").not.toContain(part);
      }
    }
    const challenge = c.expect.wwwAuthenticate;
    if (challenge === undefined) {
      expect(res.headers["www-authenticate"]).toBeUndefined();
    } else {
      const params = Object.fromEntries(
        Object.entries(challenge.params).map(([k, v]) => [
          k,
          v === "$description" ? refusal.error_description : v,
        ]),
      );
      expect(parseChallenge(res.headers["www-authenticate"])).toEqual({
        scheme: challenge.scheme,
        params,
      });
    }
  });
});

describe("bearer tokens", () => {
  it("writes the challenges as RFC 6750 headers, in one order", async () => {
    const list = modernRpc("tools/list");
    const none = await send(http.url, list);
    expect(none.headers["www-authenticate"]).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="links.read"`,
    );
    expect(JSON.parse(none.text)).toEqual({
      error: "invalid_token",
      error_description: "no bearer token",
    });
    const expired = await send(http.url, {
      headers: {
        ...list.headers,
        authorization: await token({ set: { exp: { $now: -120 } } }),
      },
      body: list.body,
    });
    expect(expired.status).toBe(401);
    expect(expired.headers["www-authenticate"]).toBe(
      `Bearer error="invalid_token", error_description="token expired", resource_metadata="${metadataUrl}"`,
    );
  });

  it("says which check failed, in a few words", async () => {
    const list = modernRpc("tools/list");
    const texts: Record<string, string> = {};
    const recipes: Record<string, TokenRecipe> = {
      expired: { set: { exp: { $now: -120 } } },
      "nbf-future": { set: { nbf: { $now: 120 } } },
      "missing-exp": { unset: ["exp"] },
      "missing-sub": { unset: ["sub"] },
      "empty-sub": { set: { sub: "" } },
      "numeric-sub": { set: { sub: 123 } },
      "missing-iss": { unset: ["iss"] },
      "missing-aud": { unset: ["aud"] },
      "bad-nbf": { set: { nbf: "soon" } },
      "wrong-aud": { set: { aud: "https://other.example.test/mcp" } },
      "wrong-iss": { set: { iss: "https://evil.example.test" } },
      "bad-signature": { key: "wrong" },
      "alg-none": { alg: "none" },
      "alg-hs256": { alg: "HS256" },
      "unknown-kid": { kid: "nope", key: "wrong" },
      malformed: { raw: "Bearer not.a-jwt" },
    };
    for (const [name, recipe] of Object.entries(recipes)) {
      const res = await send(http.url, {
        headers: { ...list.headers, authorization: await token(recipe) },
        body: list.body,
      });
      expect(res.status).toBe(401);
      texts[name] = (
        JSON.parse(res.text) as { error_description: string }
      ).error_description;
    }
    expect(texts).toEqual({
      expired: "token expired",
      "nbf-future": "token not valid yet",
      "missing-exp": "token has no exp claim",
      "missing-sub": "token has no sub claim",
      "empty-sub": "token has no sub claim",
      "numeric-sub": "token has no sub claim",
      "missing-iss": "token has no iss claim",
      "missing-aud": "token has no aud claim",
      "bad-nbf": "invalid token",
      "wrong-aud": "wrong audience",
      "wrong-iss": "wrong issuer",
      "bad-signature": "bad signature",
      "alg-none": 'algorithm "none" is not allowed',
      "alg-hs256": 'algorithm "HS256" is not allowed',
      "unknown-kid": "unknown signing key",
      malformed: "malformed token",
    });
  });

  it("fetches the issuer's keys once for many tokens", async () => {
    const before = issuer.jwksFetches();
    const list = modernRpc("tools/list");
    for (let i = 0; i < 5; i++) {
      const res = await send(http.url, {
        headers: { ...list.headers, authorization: await token({}) },
        body: list.body,
      });
      expect(res.status).toBe(200);
    }
    expect(issuer.jwksFetches()).toBe(before);
    expect(before).toBeLessThanOrEqual(2); // the first token, an unknown kid
  });
});

describe("per-tool scopes", () => {
  const merge = modernRpc("tools/call", {
    name: "accounts_merge",
    arguments: { source_id: "acct-1", target_id: "acct-2" },
  });

  it("refuses a call of a tool whose scope the token lacks, naming all it needs", async () => {
    const before = grpc.calls.length;
    for (const batch of [false, true]) {
      const rpc = modernRpc(
        "tools/call",
        {
          name: "accounts_merge",
          arguments: { source_id: "acct-1", target_id: "acct-2" },
        },
        batch,
      );
      const res = await send(http.url, {
        headers: { ...rpc.headers, authorization: await token({}) },
        body: rpc.body,
      });
      expect(res.status).toBe(403);
      expect(res.headers["www-authenticate"]).toBe(
        `Bearer error="insufficient_scope", scope="accounts.merge links.read", resource_metadata="${metadataUrl}"`,
      );
      expect(JSON.parse(res.text)).toEqual({
        error: "insufficient_scope",
        error_description:
          'the call of "accounts_merge" needs scope "accounts.merge"',
      });
    }
    expect(grpc.calls.length).toBe(before);
  });

  it("lets the call through with the scope", async () => {
    const res = await send(http.url, {
      headers: {
        ...merge.headers,
        authorization: await token({}, "links.read accounts.merge"),
      },
      body: merge.body,
    });
    expect(res.status).toBe(200);
    expect(rpcResult(res).content).toEqual(expect.any(Array));
  });
});

describe("protected resource metadata", () => {
  const document = {
    resource: publicUrl,
    authorization_servers: ["https://issuer.example.test"],
    bearer_methods_supported: ["header"],
    scopes_supported: ["accounts.merge", "links.read"],
  };

  it.each([
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-protected-resource",
  ])("is served at %s, without a token", async (path) => {
    const res = await send(http.url, {
      path,
      headers: { host: "localhost:4444" },
    });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("max-age=3600");
    expect(JSON.parse(res.text)).toEqual(document);
    const post = await send(http.url, { path, method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    expect(JSON.parse(post.text)).toMatchObject({
      error: "method_not_allowed",
    });
  });

  it("is not served without auth", async () => {
    const open = await serveHttp(createMcpToolServer(), {});
    try {
      const res = await send(open.url, {
        path: "/.well-known/oauth-protected-resource",
      });
      expect(res.status).toBe(404);
    } finally {
      await open.close();
    }
  });
});

describe("the caller's identity", () => {
  it("reaches the handlers of both revisions as ctx.http.authInfo", async () => {
    seen.length = 0;
    const authorization = await token(
      { set: { sub: "carol", tenant: "t1" } },
      "links.read extra",
    );
    for (const mode of ["auto", "legacy"] as const) {
      const client = new Client(
        { name: "test", version: "1.0.0" },
        { versionNegotiation: { mode } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization } },
        }),
      );
      await client.listTools();
      await client.close();
    }
    expect(seen).toHaveLength(2);
    for (const identity of seen) {
      expect(identity).toMatchObject({
        subject: "carol",
        scopes: ["links.read", "extra"],
        claims: { sub: "carol", tenant: "t1" },
        expiresAt: expect.any(Number) as number,
      });
    }
  });

  it("binds a 2025-11-25 session to the subject that opened it", async () => {
    const client = new Client(
      { name: "test", version: "1.0.0" },
      { versionNegotiation: { mode: "legacy" } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: await token({}) } },
    });
    await client.connect(transport);
    const session = transport.sessionId ?? "";
    expect(session).not.toBe("");
    const list = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "mcp-session-id": session,
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/list",
    });
    const bob = await send(http.url, {
      headers: {
        ...list,
        authorization: await token({ set: { sub: "bob" } }),
      },
      body,
    });
    expect(bob.status).toBe(404);
    expect(JSON.parse(bob.text)).toMatchObject({ error: "session_not_found" });
    const alice = await send(http.url, {
      headers: { ...list, authorization: await token({}) },
      body,
    });
    expect(alice.status).toBe(200);
    await client.close();
  });
});

/** Two tokens to `url` are refused with 401 and `text` (the second from the remembered failure). */
async function expectKeysRefused(url: string, text: string): Promise<void> {
  const list = modernRpc("tools/list");
  for (let i = 0; i < 2; i++) {
    const res = await send(url, {
      headers: { ...list.headers, authorization: await token({}) },
      body: list.body,
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({
      error: "invalid_token",
      error_description: text,
    });
  }
}

describe("the issuer's metadata", () => {
  it("gives the JWKS URL when auth has none", async () => {
    // An issuer at a loopback URL whose RFC 8414 metadata names the
    // test issuer's JWKS.
    const meta = createServer((req, res) => {
      const found = req.url === "/.well-known/oauth-authorization-server";
      res.writeHead(found ? 200 : 404, { "content-type": "application/json" });
      res.end(found ? JSON.stringify({ jwks_uri: issuer.jwksUrl }) : "");
    });
    meta.listen(0, "127.0.0.1");
    await once(meta, "listening");
    const iss = `http://127.0.0.1:${String((meta.address() as AddressInfo).port)}`;
    const running = await serveHttp(createMcpToolServer(), {
      publicUrl,
      auth: { issuer: iss },
    });
    try {
      const now = Math.floor(Date.now() / 1000);
      const jwt = await issuer.sign({
        iss,
        aud: publicUrl,
        sub: "alice",
        exp: now + 60,
      });
      const list = modernRpc("tools/list");
      const res = await send(running.url, {
        headers: { ...list.headers, authorization: `Bearer ${jwt}` },
        body: list.body,
      });
      expect(res.status).toBe(200);
    } finally {
      await running.close();
      meta.close();
    }
  });

  it("refuses keys that would come over http beyond loopback", async () => {
    // A loopback issuer whose metadata names a JWKS over clear HTTP on
    // another host; a configured JWKS URL and an issuer likewise.
    let asked = 0;
    const meta = createServer((req, res) => {
      asked++;
      const found = req.url === "/.well-known/oauth-authorization-server";
      res.writeHead(found ? 200 : 404, { "content-type": "application/json" });
      res.end(
        found ? JSON.stringify({ jwks_uri: "http://10.0.0.8/jwks" }) : "",
      );
    });
    meta.listen(0, "127.0.0.1");
    await once(meta, "listening");
    const iss = `http://127.0.0.1:${String((meta.address() as AddressInfo).port)}`;
    for (const [auth, text] of [
      [
        { issuer: iss },
        `issuer "${iss}": its jwks_uri "http://10.0.0.8/jwks" must be https (http only on a loopback host)`,
      ],
      [
        { issuer: issuer.issuer, jwksUrl: "http://10.0.0.8/jwks" },
        `issuer "${issuer.issuer}": its JWKS URL "http://10.0.0.8/jwks" must be https (http only on a loopback host)`,
      ],
      [
        { issuer: "http://10.0.0.8" },
        `issuer "http://10.0.0.8": its URL "http://10.0.0.8" must be https (http only on a loopback host)`,
      ],
    ] as const) {
      const running = await serveHttp(createMcpToolServer(), {
        publicUrl,
        auth,
      });
      try {
        await expectKeysRefused(running.url, text);
      } finally {
        await running.close();
      }
    }
    // The metadata once: the refusal is remembered for 30 s.
    expect(asked).toBe(1);
    meta.close();
  });

  it("asks again for keys it could not have only after 30 s", async () => {
    let asked = 0;
    const down = createServer((_req, res) => {
      asked++;
      res.writeHead(500).end();
    });
    down.listen(0, "127.0.0.1");
    await once(down, "listening");
    const base = `http://127.0.0.1:${String((down.address() as AddressInfo).port)}`;
    const list = modernRpc("tools/list");
    for (const auth of [
      { issuer: issuer.issuer, jwksUrl: `${base}/jwks.json` },
      { issuer: base },
    ]) {
      asked = 0;
      const running = await serveHttp(createMcpToolServer(), {
        publicUrl,
        auth,
      });
      try {
        for (const authorization of [
          "Bearer not.a-jwt",
          await token({}),
          await token({}),
          await token({}),
        ]) {
          const res = await send(running.url, {
            headers: { ...list.headers, authorization },
            body: list.body,
          });
          expect(res.status).toBe(401);
        }
        // The key set once, or the issuer's two metadata paths once.
        expect(asked).toBe("jwksUrl" in auth ? 1 : 2);
      } finally {
        await running.close();
      }
    }
    down.close();
  });

  it("refuses tokens with 401 while the issuer's keys cannot be had", async () => {
    const running = await serveHttp(createMcpToolServer(), {
      publicUrl,
      auth: { issuer: "http://127.0.0.1:1" },
    });
    try {
      await expectKeysRefused(
        running.url,
        "could not get the issuer's signing keys",
      );
    } finally {
      await running.close();
    }
  });
});

describe("introspection", () => {
  it("takes the identity an application's hook gives, and refuses what it does not", async () => {
    const server = createMcpToolServer();
    const running = await serveHttp(server, {
      publicUrl,
      auth: {
        introspect: (t) => {
          if (t === "throws") {
            throw new Error(
              `introspection of ${t} at https://as.internal failed`,
            );
          }
          return t === "good"
            ? { subject: "svc", scopes: ["s"], claims: {} }
            : t === "old"
              ? { subject: "svc", scopes: [], claims: {}, expiresAt: 1 }
              : t === "nobody"
                ? { subject: "", scopes: ["s"], claims: {} }
                : undefined;
        },
        authorizationServers: ["https://as.example.test"],
        scopes: ["s"],
      },
    });
    try {
      const list = modernRpc("tools/list");
      const answer = async (t: string) => {
        const res = await send(running.url, {
          headers: { ...list.headers, authorization: `Bearer ${t}` },
          body: list.body,
        });
        return [res.status, res.status === 200 ? "" : res.text] as const;
      };
      expect(await answer("good")).toEqual([200, ""]);
      expect(await answer("bad")).toEqual([
        401,
        '{"error":"invalid_token","error_description":"token not accepted"}',
      ]);
      for (const t of ["old", "nobody"]) {
        expect(await answer(t)).toEqual([
          401,
          '{"error":"invalid_token","error_description":"token not accepted"}',
        ]);
      }
      // The hook's message (which may name the token) never reaches the client.
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        expect(await answer("throws")).toEqual([
          401,
          '{"error":"invalid_token","error_description":"could not introspect the token"}',
        ]);
        expect(errors).toHaveBeenCalledOnce();
      } finally {
        errors.mockRestore();
      }
      const prm = await send(running.url, {
        path: "/.well-known/oauth-protected-resource",
      });
      expect(JSON.parse(prm.text)).toMatchObject({
        authorization_servers: ["https://as.example.test"],
        scopes_supported: ["s"],
      });
    } finally {
      await running.close();
    }
  });
});

describe("unexpected failures", () => {
  it("answer 500 internal_error, never the error's message", async () => {
    const base = createMcpToolServer();
    const server: McpToolServer = {
      ...base,
      requiredScopes() {
        throw new Error("secret detail of the failure");
      },
    };
    const running = await serveHttp(server, {
      publicUrl,
      auth: {
        introspect: () => ({ subject: "svc", scopes: [], claims: {} }),
        authorizationServers: ["https://as.example.test"],
      },
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const call = modernRpc("tools/call", { name: "any", arguments: {} });
      const res = await send(running.url, {
        headers: { ...call.headers, authorization: "Bearer t" },
        body: call.body,
      });
      expect(res.status).toBe(500);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(res.text)).toEqual({
        error: "internal_error",
        error_description: "internal error",
      });
      expect(errors).toHaveBeenCalledOnce();
    } finally {
      errors.mockRestore();
      await running.close();
    }
  });
});

describe("start-up refusals", () => {
  const server = () => createMcpToolServer();

  it("refuses a non-loopback address without authorization", async () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.1"]) {
      await expect(serveHttp(server(), { host })).rejects.toThrow(
        `refusing to serve MCP over HTTP on ${JSON.stringify(host)} without authorization: set auth, or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) to serve anyone who can reach the port`,
      );
    }
  });

  it("serves one with allowUnauthenticated, and any loopback address without it", async () => {
    for (const options of [
      { host: "0.0.0.0", allowUnauthenticated: true },
      { host: "127.0.0.2" },
      { host: "localhost" },
    ]) {
      const running = await serveHttp(server(), options);
      await running.close();
    }
  });

  it("refuses auth without publicUrl, bad algorithms and bad URLs", async () => {
    const auth = { issuer: "https://i.example.test", jwksUrl: "http://x/" };
    await expect(serveHttp(server(), { auth })).rejects.toThrow(
      'auth needs publicUrl (public_url / PublicURL): the URL clients use, e.g. "https://tools.example.com/mcp"',
    );
    await expect(
      serveHttp(server(), {
        publicUrl,
        auth: { ...auth, algorithms: ["ES256", "HS256"] },
      }),
    ).rejects.toThrow('auth.algorithms: "HS256" is not allowed');
    await expect(
      serveHttp(server(), { publicUrl: "/mcp", auth }),
    ).rejects.toThrow('publicUrl "/mcp" is not an absolute http(s) URL');
    await expect(
      serveHttp(server(), {
        publicUrl,
        auth: { introspect: () => undefined, authorizationServers: [] },
      }),
    ).rejects.toThrow("auth.introspect needs auth.authorizationServers");
    await expect(
      serveHttp(server(), {
        publicUrl,
        auth: { ...auth, scopes: ["links.read", "links write"] },
      }),
    ).rejects.toThrow(
      'auth.scopes: scope "links write" is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)',
    );
  });

  it("refuses a leeway outside 0 to 300 s", async () => {
    const auth = { issuer: issuer.issuer, jwksUrl: issuer.jwksUrl };
    for (const leewaySeconds of [-1, 301, Number.NaN]) {
      await expect(
        serveHttp(server(), { publicUrl, auth: { ...auth, leewaySeconds } }),
      ).rejects.toThrow(
        `auth.leewaySeconds ${String(leewaySeconds)} is out of range: use 0 to 300 seconds, or leave it out for 30`,
      );
    }
    const running = await serveHttp(server(), {
      publicUrl,
      auth: { ...auth, leewaySeconds: 0 },
    });
    try {
      // Expired 5 s ago: inside the default 30 s, refused with none.
      const list = modernRpc("tools/list");
      const res = await send(running.url, {
        headers: {
          ...list.headers,
          authorization: await token({ set: { exp: { $now: -5 } } }),
        },
        body: list.body,
      });
      expect(res.status).toBe(401);
    } finally {
      await running.close();
    }
  });
});
