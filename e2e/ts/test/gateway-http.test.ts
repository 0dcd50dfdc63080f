// The MCP gateway (`protoc-gen-ai-tools mcp`) over streamable HTTP beyond
// its defaults: bearer tokens from a real issuer (the test kit's, serving
// its JWKS on a loopback port) checked by the runtime's HTTP security, and
// conversations kept on a real redis-server shared by two gateways, and the
// start-up line of --allow-unauthenticated beyond loopback. The refusal of a
// non-loopback address without --auth-issuer (a start-up check):
// generator/test/gateway-cli.test.ts.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import {
  createTestIssuer,
  startRedis,
  type RedisServer,
  type TestIssuer,
} from "@protoc-gen-ai-tools/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpGateway } from "./gateway-support.js";
import {
  callOk,
  handleKey,
  linkIdOf,
  newLinkArgs,
  type ToolCallResult,
} from "./mcp-support.js";
import { linkIds, newUUID, recorded, useServer } from "./support.js";

const env = useServer({ process: true });
const repoRoot = path.resolve(
  fileURLToPath(new URL("../../..", import.meta.url)),
);
const dir = mkdtempSync(path.join(tmpdir(), "e2e-gateway-http-"));
const setFile = path.join(dir, "linkhub.binpb");
const clients: Client[] = [];

beforeAll(() => {
  const buf = fileURLToPath(
    new URL("../node_modules/.bin/buf", import.meta.url),
  );
  execFileSync(buf, ["build", "e2e/proto", "-o", setFile], { cwd: repoRoot });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The gateway flags of the test API, calls to the test server. */
const api = () => ["--descriptor-set", setFile, "--target", env.server.address];

/**
 * An SDK client (2026-07-28) of url, sending `headers` on each request;
 * with `approve`, it answers every elicitation (an approval) with yes.
 */
async function connect(
  url: string,
  headers: Record<string, string> = {},
  approve = false,
): Promise<Client> {
  const client = new Client(
    { name: "e2e-ts", version: "1.0.0" },
    {
      capabilities: approve ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: "auto" },
    },
  );
  if (approve) {
    client.setRequestHandler("elicitation/create", () =>
      Promise.resolve({ action: "accept", content: { approve: true } }),
    );
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
    }),
  );
  clients.push(client);
  return client;
}

describe("protoc-gen-ai-tools mcp --http with --auth-issuer", () => {
  const publicUrl = "https://tools.example.test/mcp";
  let issuer: TestIssuer;
  let url: string;
  beforeAll(async () => {
    issuer = await createTestIssuer();
    // Every interface: the runtime's rule lets it listen there only with
    // tokens; the client reaches it on 127.0.0.1.
    const gateway = await startHttpGateway([
      ...api(),
      "--http",
      "0.0.0.0:0",
      "--public-url",
      publicUrl,
      "--auth-issuer",
      issuer.issuer,
      "--auth-jwks-url",
      issuer.jwksUrl,
      "--auth-scope",
      "links.write",
      "--allowed-host",
      "127.0.0.1",
    ]);
    expect(gateway.line).toContain(`bearer tokens of ${issuer.issuer}`);
    url = `http://127.0.0.1:${gateway.port}/mcp`;
  });
  afterAll(() => issuer.close());

  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: {},
  };
  /** A POST of `body` (tools/list) with `authorization` (none when undefined). */
  const post = (authorization?: string, body: object = initialize) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify(body),
    });

  it("answers 401 with the resource metadata to a request without a token", async () => {
    const res = await post();
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      'resource_metadata="https://tools.example.test/.well-known/oauth-protected-resource/mcp"',
    );
    // A token its issuer did not sign: 401 too.
    const forged = await issuer.authorization(
      { key: "wrong" },
      { audience: publicUrl, scope: "links.write" },
    );
    expect((await post(forged)).status).toBe(401);
  });

  it("answers 403 to a token without the scope --auth-scope names", async () => {
    const readOnly = await issuer.authorization(
      {},
      { audience: publicUrl, scope: "links.read" },
    );
    const res = await post(readOnly);
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain(
      'error="insufficient_scope"',
    );
  });

  it("lets an accepted token call a tool that reaches the server", async () => {
    const token = await issuer.authorization(
      {},
      { audience: publicUrl, scope: "links.write" },
    );
    const client = await connect(url, { authorization: token });
    const ws = newUUID();
    const created = await callOk(
      client,
      "links_create",
      newLinkArgs(ws, "jwt"),
    );
    expect(linkIdOf(created)).toBe("link-1");
    expect(await linkIds(env, ws)).toHaveLength(1);
  });

  it("enforces links_archive's annotated required_scopes (links.archive)", async () => {
    const writeOnly = await issuer.authorization(
      {},
      { audience: publicUrl, scope: "links.write" },
    );
    const archive = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "links_archive", arguments: { link_id: "link-1" } },
    };
    const refused = await post(writeOnly, archive);
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="links.archive links.write"');
    expect(await refused.json()).toEqual({
      error: "insufficient_scope",
      error_description:
        'the call of "links_archive" needs scope "links.archive"',
    });
    // With the scope (and the approval links_archive asks), it reaches
    // the server with link-1 resolved.
    const token = await issuer.authorization(
      {},
      { audience: publicUrl, scope: "links.write links.archive" },
    );
    const client = await connect(url, { authorization: token }, true);
    const ws = newUUID();
    const created = await callOk(
      client,
      "links_create",
      newLinkArgs(ws, "archived"),
    );
    const archived = await callOk(
      client,
      "links_archive",
      { link_id: "link-1" },
      created._meta,
    );
    expect(linkIdOf(archived)).toBe("link-1");
    const [uuid] = await linkIds(env, ws);
    const calls = (await recorded(env)).filter(
      (r) => r.procedure === "linkhub.v1.LinkService/ArchiveLink",
    );
    expect(calls.map((r) => JSON.parse(r.requestJson) as unknown)).toEqual([
      { linkId: uuid },
    ]);
  });
});

describe("protoc-gen-ai-tools mcp --http 0.0.0.0 --allow-unauthenticated", () => {
  it("says on its start-up line that anyone reaching it calls every tool", async () => {
    const open = await startHttpGateway([
      ...api(),
      "--http",
      "0.0.0.0:0",
      "--allow-unauthenticated",
    ]);
    expect(open.line).toMatch(
      new RegExp(
        `; no authentication: anyone reaching 0\\.0\\.0\\.0:${String(open.port)} calls every tool$`,
      ),
    );
    const loopback = await startHttpGateway([
      ...api(),
      "--http",
      "127.0.0.1:0",
      "--allow-unauthenticated",
    ]);
    expect(loopback.line).not.toContain("no authentication");
  });
});

describe("protoc-gen-ai-tools mcp --http --redis", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it("serves one conversation handle from two gateways on one Redis", async () => {
    const flags = [
      "--http",
      "127.0.0.1:0",
      "--redis",
      redis.url,
      "--store-ttl",
      "600",
    ];
    const [one, two] = await Promise.all([
      startHttpGateway([...api(), ...flags]),
      startHttpGateway([...api(), ...flags]),
    ]);
    expect(one.line).toContain("conversations on Redis");
    const ws = newUUID();
    const created = await callOk(
      await connect(one.url),
      "links_create",
      newLinkArgs(ws, "shared"),
    );
    const handle = created._meta?.[handleKey] as string;
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The other gateway holds nothing in memory: link-1 comes from Redis.
    const got: ToolCallResult = await callOk(
      await connect(two.url),
      "links_get",
      { id: "link-1" },
      { [handleKey]: handle },
    );
    expect(linkIdOf(got)).toBe("link-1");
    const [uuid] = await linkIds(env, ws);
    expect(JSON.stringify(got.structuredContent)).not.toContain(uuid);
    // Kept under the runtime's key, with --store-ttl's expiry (600 s).
    const ttl = Number(await redis.cli("TTL", `ai-tools:conv:{${handle}}`));
    expect(ttl).toBeGreaterThan(500);
    expect(ttl).toBeLessThanOrEqual(600);
  });
});
