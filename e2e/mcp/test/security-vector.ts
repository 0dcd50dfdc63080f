// e2e/vectors/security/security.json (its format: e2e/vectors/README.md), and
// how one of its cases is sent to a running server and checked.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestIssuer, TokenRecipe } from "@protoc-gen-ai-tools/testkit";
import { expect } from "vitest";
import { repoRoot } from "./languages.js";
import {
  callParams,
  parseChallenge,
  rawRequest,
  rpcAnswer,
  rpcMessage,
  type RawResponse,
  type Revision,
  type Rpc,
} from "./raw-http.js";
import { newLinkArgs } from "./steps.js";

/** The request of a case. */
export interface VectorRequest {
  rpc?: "tools/list" | "tools/call";
  tool?: string;
  arguments?: unknown;
  /** The whole `params` of the tools/call, sent as written (`_meta` added). */
  params?: Record<string, unknown>;
  /** The whole body, sent as written (duplicate keys a JSON value cannot hold). */
  rawBody?: string;
  /** The conversation handle sent; `$handle` is the one of `setup: "link"`. */
  handle?: string;
  revision?: Revision;
  batch?: boolean;
  method?: string;
  path?: string;
}

/** What a case expects. */
export interface VectorExpect {
  status: number;
  wwwAuthenticate?: { scheme: string; params: Record<string, string> };
  error?: string;
  description?: string;
  result?: "tools" | "ok" | "toolError";
  text?: string;
  json?: unknown;
  cacheControl?: string;
  /** Response headers (lower-case names) and their exact values. */
  headers?: Record<string, string>;
  reachedServer?: boolean;
}

/** One case. */
export interface VectorCase {
  name: string;
  token: string | null;
  headers?: Record<string, string>;
  setup?: "link" | "session";
  request: VectorRequest;
  bodyBytes?: number;
  chunked?: boolean;
  expect: VectorExpect;
}

/** The vector file. */
export interface SecurityVector {
  server: {
    publicUrl: string;
    issuer: string;
    resourceMetadata: string;
    scopes: string[];
    maxBodyBytes: number;
    flags: string[];
    toolScopes: Record<string, string[]>;
  };
  tokens: Record<string, TokenRecipe>;
  cases: VectorCase[];
  conversationKey: { handle: string; subject: string; key: string }[];
}

/** The vector, read. */
export const securityVector = JSON.parse(
  readFileSync(
    path.join(repoRoot, "e2e", "vectors", "security", "security.json"),
    "utf8",
  ),
) as SecurityVector;

/** The MCP path every server serves. */
export const mcpPath = "/mcp";

/** The claims every vector token starts from, but iss, iat and exp. */
export const tokenDefaults = {
  audience: securityVector.server.publicUrl,
  subject: "alice",
  scope: "links.archive links.read",
};

/** The vector's server flags, the issuer's JWKS URL put in. */
export function vectorFlags(issuer: TestIssuer): string[] {
  return securityVector.server.flags.map((f) =>
    f === "$jwksUrl" ? issuer.jwksUrl : f,
  );
}

/** The Authorization header of a named recipe (undefined for null). */
export async function authorizationOf(
  issuer: TestIssuer,
  token: string | null,
): Promise<string | undefined> {
  if (token === null) return undefined;
  const recipe = securityVector.tokens[token];
  if (recipe === undefined) throw new Error(`no token recipe "${token}"`);
  return await issuer.authorization(recipe, tokenDefaults);
}

/** Where a case runs. */
export interface CaseTarget {
  readonly port: number;
  readonly issuer: TestIssuer;
  /** How many requests the gRPC server has recorded. */
  recorded(): Promise<number>;
}

let nextId = 1;

/** POST one JSON-RPC request; the body padded or batched as asked. */
export async function postRpc(
  port: number,
  rpc: Rpc,
  o: {
    revision?: Revision;
    session?: string;
    authorization?: string;
    headers?: Record<string, string>;
    batch?: boolean;
    bodyBytes?: number;
    chunked?: boolean;
    rawBody?: string;
  } = {},
): Promise<RawResponse> {
  const { headers, body } = rpcMessage(
    rpc,
    o.revision ?? "2026-07-28",
    o.session,
  );
  let text = o.rawBody ?? JSON.stringify(o.batch === true ? [body] : body);
  if (o.bodyBytes !== undefined) {
    const have = Buffer.byteLength(text);
    if (have > o.bodyBytes)
      throw new Error(`the request is already ${String(have)} bytes`);
    text += " ".repeat(o.bodyBytes - have);
  }
  return await rawRequest({
    port,
    path: mcpPath,
    headers: {
      ...headers,
      ...(o.authorization === undefined
        ? {}
        : { authorization: o.authorization }),
      ...o.headers,
    },
    body: text,
    ...(o.chunked === true ? { chunked: true } : {}),
  });
}

/** A conversation with one link (link-1) made by alice: its handle. */
async function setupLink(t: CaseTarget): Promise<string> {
  const res = await postRpc(
    t.port,
    {
      id: nextId++,
      method: "tools/call",
      params: callParams("links_create", newLinkArgs("ws-security", 1)),
    },
    { authorization: (await authorizationOf(t.issuer, "valid"))! },
  );
  const { result } = rpcAnswer(res, nextId - 1);
  const handle = (result?.["_meta"] as Record<string, unknown> | undefined)?.[
    "ai-tools/conversation"
  ];
  if (res.status !== 200 || typeof handle !== "string")
    throw new Error(
      `setup "link": links_create answered ${String(res.status)} ${res.text.slice(0, 300)}`,
    );
  return handle;
}

/** A 2025-11-25 session initialized by alice: its id. */
export async function setupSession(
  port: number,
  authorization: string | undefined,
): Promise<string> {
  const auth = authorization === undefined ? {} : { authorization };
  const init = await postRpc(
    port,
    {
      id: nextId++,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "e2e-security", version: "1" },
      },
    },
    { revision: "2025-11-25", ...auth },
  );
  const session = init.headers["mcp-session-id"];
  if (init.status !== 200 || session === undefined)
    throw new Error(
      `setup "session": initialize answered ${String(init.status)} ${init.text.slice(0, 300)}`,
    );
  const { headers } = rpcMessage({ id: 0, method: "x" }, "2025-11-25", session);
  await rawRequest({
    port,
    path: mcpPath,
    headers: { ...headers, ...auth },
    body: JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/initialized",
    }),
  });
  return session;
}

/** Send a case and check what came back. */
export async function runCase(c: VectorCase, t: CaseTarget): Promise<void> {
  const authorization = await authorizationOf(t.issuer, c.token);
  let handle: string | undefined;
  let session: string | undefined;
  if (c.setup === "link") handle = await setupLink(t);
  if (c.setup === "session")
    session = await setupSession(
      t.port,
      await authorizationOf(t.issuer, "valid"),
    );
  const before = await t.recorded();
  const r = c.request;
  const id = nextId++;
  let res: RawResponse;
  if (r.rpc === undefined) {
    res = await rawRequest({
      port: t.port,
      method: r.method ?? "GET",
      path: r.path ?? "/",
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...c.headers,
      },
    });
  } else {
    if (r.handle !== undefined)
      handle = r.handle.replace("$handle", handle ?? "");
    const meta =
      handle === undefined ? {} : { "ai-tools/conversation": handle };
    res = await postRpc(
      t.port,
      {
        id,
        method: r.rpc,
        params:
          r.rpc !== "tools/call"
            ? {}
            : r.params !== undefined
              ? {
                  ...r.params,
                  ...(handle === undefined ? {} : { _meta: meta }),
                }
              : callParams(r.tool ?? "", r.arguments ?? {}, meta),
      },
      {
        revision: r.revision ?? "2026-07-28",
        ...(session === undefined ? {} : { session }),
        ...(authorization === undefined ? {} : { authorization }),
        ...(c.headers === undefined ? {} : { headers: c.headers }),
        ...(r.batch === undefined ? {} : { batch: r.batch }),
        ...(r.rawBody === undefined ? {} : { rawBody: r.rawBody }),
        ...(c.bodyBytes === undefined ? {} : { bodyBytes: c.bodyBytes }),
        ...(c.chunked === undefined ? {} : { chunked: c.chunked }),
      },
    );
  }
  checkResponse(c, res, id, handle, authorization);
  if (c.expect.reachedServer !== undefined) {
    const grew = (await t.recorded()) > before;
    expect(grew, "the gRPC server received a request").toBe(
      c.expect.reachedServer,
    );
  }
}

/** Check a response against the case's expect. */
function checkResponse(
  c: VectorCase,
  res: RawResponse,
  id: number,
  handle: string | undefined,
  authorization: string | undefined,
): void {
  const e = c.expect;
  const shown = `${String(res.status)} ${JSON.stringify(res.headers)} ${res.text.slice(0, 400)}`;
  expect(res.status, shown).toBe(e.status);
  let description: string | undefined;
  if (e.error !== undefined) {
    expect(res.headers["content-type"] ?? "", shown).toMatch(
      /^application\/json\b/,
    );
    const body = JSON.parse(res.text) as Record<string, unknown>;
    expect(Object.keys(body).sort(), shown).toEqual([
      "error",
      "error_description",
    ]);
    expect(body["error"], shown).toBe(e.error);
    description = String(body["error_description"]);
    if (e.description !== undefined)
      expect(description, shown).toMatch(new RegExp(e.description, "i"));
  }
  if (e.wwwAuthenticate !== undefined) {
    const header = res.headers["www-authenticate"];
    expect(header, shown).toBeDefined();
    const params = Object.fromEntries(
      Object.entries(e.wwwAuthenticate.params).map(([k, v]) => [
        k,
        v === "$description" ? (description ?? "") : v,
      ]),
    );
    expect(parseChallenge(header ?? "")).toEqual({
      scheme: e.wwwAuthenticate.scheme,
      params,
    });
  }
  // The token is never echoed.
  const token = authorization?.replace(/^Bearer /, "") ?? "";
  if (token.length > 16) {
    expect(res.text).not.toContain(token);
    expect(JSON.stringify(res.headers)).not.toContain(token);
  }
  for (const [name, value] of Object.entries(e.headers ?? {}))
    expect(res.headers[name], shown).toBe(value);
  if (e.cacheControl !== undefined)
    expect(res.headers["cache-control"], shown).toBe(e.cacheControl);
  if (e.json !== undefined) expect(JSON.parse(res.text), shown).toEqual(e.json);
  if (e.result !== undefined) {
    const answer = rpcAnswer(res, id);
    expect(answer.error, shown).toBeUndefined();
    const result = answer.result ?? {};
    if (e.result === "tools") {
      const names = (result["tools"] as { name: string }[]).map((t) => t.name);
      expect(names, shown).toContain("links_archive");
      return;
    }
    expect(result["isError"] === true, shown).toBe(e.result === "toolError");
    if (e.text !== undefined) {
      const content = result["content"] as { type: string; text: string }[];
      expect(content.map((b) => b.text)).toEqual([
        e.text.replace("$handle", handle ?? ""),
      ]);
    }
  }
}
