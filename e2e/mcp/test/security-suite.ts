// The security suite of one language's HTTP server (issue 33): every case
// of e2e/vectors/security/security.json, then approvals, limits and audit,
// identity to the backend (over TLS too), keys and concurrency, the
// start-up refusal and a graceful shutdown (a body that stops coming:
// security-slow-body.test.ts, the three languages at once). Each language's file has its own gRPC test server, so
// that the request log (the evidence that nothing reached the backend)
// holds only its calls; the tests of a file run one after the other.
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  startServerProcess,
  testTlsFiles,
  TestControlService,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import {
  createTestIssuer,
  type TestIssuer,
} from "@protoc-gen-ai-tools/testkit";
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  languages,
  startHttp,
  type HttpServer,
  type LanguageName,
} from "./languages.js";
import { callParams, envelope, rpcAnswer, type Revision } from "./raw-http.js";
import {
  authFlags,
  connectWithToken,
  idleConnections,
  runToExit,
  type User,
} from "./security-servers.js";
import {
  authorizationOf,
  postRpc,
  runCase,
  securityVector,
  tokenDefaults,
  vectorFlags,
} from "./security-vector.js";
import { newLinkArgs } from "./steps.js";

const archive = "linkhub.v1.LinkService/ArchiveLink";
const listLinks = "linkhub.v1.LinkService/ListLinks";
const deniedText =
  'the call of "links_archive" was not approved; nothing was sent';
const noWayText =
  'the call of "links_archive" needs an approval and none could be asked (no approval hook, and the client does not support elicitation); nothing was sent';
const handleKey = "ai-tools/conversation";
const tooManyAtOnce =
  /^too many calls at once .*\(limit 1\); retry when one finishes$/;
const capabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
/** How long a poll waits for what another process does (a loaded CI machine). */
const patience = { timeout: 15_000, interval: 50 };

/** A gRPC test server and its control client. */
interface Backend {
  readonly process: ServerProcess;
  readonly control: Client<typeof TestControlService>;
}

async function startBackend(tls: boolean): Promise<Backend> {
  const process = await startServerProcess(tls ? { tls: testTlsFiles } : {});
  const control = createClient(
    TestControlService,
    createGrpcTransport(
      tls
        ? {
            baseUrl: `https://${process.address}`,
            nodeOptions: { ca: readFileSync(testTlsFiles.ca) },
          }
        : { baseUrl: `http://${process.address}` },
    ),
  );
  return { process, control };
}

/** The requests a backend recorded, of a procedure (all when none). */
async function recorded(b: Backend, procedure?: string) {
  const { requests } = await b.control.getRecorded({});
  return requests.filter(
    (r) => procedure === undefined || r.procedure === procedure,
  );
}

/** A tools/call over raw HTTP (2026-07-28): its answer's result. */
async function call(
  server: HttpServer,
  authorization: string | undefined,
  tool: string,
  args: unknown,
  handle?: string,
): Promise<Record<string, unknown>> {
  return await callWith(
    server,
    authorization,
    callParams(tool, args, handle === undefined ? {} : { [handleKey]: handle }),
  );
}

/** A tools/call of these params over raw HTTP (2026-07-28): its result. */
async function callWith(
  server: HttpServer,
  authorization: string | undefined,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const id = Math.floor(Math.random() * 1e9);
  const res = await postRpc(
    Number(server.url.port),
    { id, method: "tools/call", params },
    authorization === undefined ? {} : { authorization },
  );
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  const { result, error } = rpcAnswer(res, id);
  expect(error).toBeUndefined();
  return result ?? {};
}

/** A result that is not an error (isError false or left out). */
function expectOk(result: Record<string, unknown>): void {
  expect(result["isError"] ?? false, JSON.stringify(result)).toBe(false);
}

/** The one text block of an isError result. */
function toolError(result: Record<string, unknown>): string {
  expect(result["isError"], JSON.stringify(result)).toBe(true);
  const content = result["content"] as { text: string }[];
  expect(content).toHaveLength(1);
  return content[0]!.text;
}

/** A link made by the bearer of authorization: the conversation's handle. */
async function linkConversation(
  server: HttpServer,
  authorization: string,
): Promise<string> {
  const result = await call(
    server,
    authorization,
    "links_create",
    newLinkArgs("ws-security", 1),
  );
  const handle = (result["_meta"] as Record<string, unknown>)[handleKey];
  expect(typeof handle, JSON.stringify(result)).toBe("string");
  return handle as string;
}

/**
 * A tools/call of links_archive (link-1) in a conversation by a client that
 * can answer a form elicitation, raw: with no state, the server's
 * `input_required` result (its requestState returned); with one, the
 * retry carrying the user's yes, its result.
 */
async function archiveWithState(
  server: HttpServer,
  authorization: string,
  handle: string,
  requestState?: string,
): Promise<Record<string, unknown>> {
  const elicitation = {
    ...envelope[capabilitiesKey],
    elicitation: { form: {} },
  };
  const retry =
    requestState === undefined
      ? {}
      : {
          requestState,
          inputResponses: {
            approval: { action: "accept", content: { approve: true } },
          },
        };
  return await callWith(server, authorization, {
    ...callParams(
      "links_archive",
      { link_id: "link-1" },
      { [capabilitiesKey]: elicitation, [handleKey]: handle },
    ),
    ...retry,
  });
}

/** The requestState of an input_required result. */
function stateOf(result: Record<string, unknown>): string {
  expect(result["resultType"], JSON.stringify(result)).toBe("input_required");
  expect(typeof result["requestState"]).toBe("string");
  return result["requestState"] as string;
}

/** A token of the vector's defaults for another subject and claims. */
function tokenFor(
  issuer: TestIssuer,
  set: Record<string, unknown>,
): Promise<string> {
  return issuer.authorization({ set }, tokenDefaults);
}

/** Define the security suite of one language. */
export function describeSecurity(name: LanguageName): void {
  const language = languages[name];
  let issuer: TestIssuer;
  let backend: Backend;
  const started: HttpServer[] = [];
  const backends: Backend[] = [];
  const starts: (() => Promise<unknown>)[] = [];
  /**
   * A server of the tests below: all start at once, in parallel, when the
   * file begins, and each test awaits its own. One that cannot start (a flag
   * not there yet) fails each of its tests; none is skipped.
   */
  const once = <T>(begin: () => Promise<T>): (() => Promise<T>) => {
    let promise: Promise<T> | undefined;
    const get = () => (promise ??= begin());
    starts.push(get);
    return get;
  };
  const start = async (flags: string[], grpc?: string) => {
    const s = await startHttp(
      language,
      grpc ?? backend.process.address,
      flags,
      { captureStderr: true },
    );
    started.push(s);
    return s;
  };

  beforeAll(async () => {
    issuer = await createTestIssuer({ issuer: securityVector.server.issuer });
    limitsIssuer = await createTestIssuer({
      issuer: securityVector.server.issuer,
    });
    backend = await startBackend(false);
    // Failures are reported by the tests that await them.
    for (const get of starts) get().catch(() => undefined);
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
    await Promise.all(backends.map((b) => b.process.close()));
    await backend?.process.close();
    await issuer?.close();
    await limitsIssuer?.close();
  });

  /** The vector's server. */
  const server = once(() => start(vectorFlags(issuer)));
  /** A server of its own issuer (its JWKS fetches counted apart), one call at once. */
  let limitsIssuer: TestIssuer;
  const limits = once(() =>
    start([...vectorFlags(limitsIssuer), "--max-concurrent-calls", "1"]),
  );

  describe(`${name}: e2e/vectors/security/security.json`, () => {
    it.each(securityVector.cases)("$name", async (c) => {
      await runCase(c, {
        port: Number((await server()).url.port),
        issuer,
        recorded: async () => (await recorded(backend)).length,
      });
    });

    it("200 idle connections (half of them a request's first line only), then a call still succeeds", async () => {
      const sockets: Socket[] = await idleConnections(
        Number((await server()).url.port),
        200,
      );
      try {
        const result = await call(
          await server(),
          await authorizationOf(issuer, "valid"),
          "links_list",
          { workspace_id: "ws-idle", page_theme_id: null },
        );
        expectOk(result);
      } finally {
        for (const s of sockets) s.destroy();
      }
    });
  });

  describe(`${name}: approvals, limits, audit`, () => {
    describe("no approval hook", () => {
      const started = once(() =>
        start([
          ...authFlags(issuer),
          "--approval-secret",
          "e2e-security-approval-secret-0123456789",
        ]),
      );

      it("a client that cannot answer an elicitation is refused, nothing sent", async () => {
        const server = await started();
        const auth = (await authorizationOf(issuer, "valid"))!;
        const handle = await linkConversation(server, auth);
        const before = (await recorded(backend, archive)).length;
        const result = await call(
          server,
          auth,
          "links_archive",
          { link_id: "link-1" },
          handle,
        );
        expect(toolError(result)).toBe(noWayText);
        expect(await recorded(backend, archive)).toHaveLength(before);
      });

      it.each<[Revision, "accept" | "decline"]>([
        ["2026-07-28", "accept"],
        ["2025-11-25", "accept"],
        ["2026-07-28", "decline"],
        ["2025-11-25", "decline"],
      ])(
        "approval by elicitation, %s: the user answers %s",
        async (revision, action) => {
          const server = await started();
          const auth = (await authorizationOf(issuer, "valid"))!;
          const user: User = {
            answer:
              action === "accept"
                ? { action, content: { approve: true } }
                : { action },
            asked: [],
          };
          const client = await connectWithToken(
            server.url,
            revision,
            auth,
            user,
          );
          try {
            const created = await client.callTool({
              name: "links_create",
              arguments: newLinkArgs("ws-approval", 1),
            });
            expect(created.isError, JSON.stringify(created)).toBeFalsy();
            const handle = created._meta?.[handleKey];
            const before = (await recorded(backend, archive)).length;
            const result = await client.callTool({
              name: "links_archive",
              arguments: { link_id: "link-1" },
              ...(typeof handle === "string"
                ? { _meta: { [handleKey]: handle } }
                : {}),
            });
            expect(user.asked).toHaveLength(1);
            const prefix = 'Allow the call of "links_archive"? Arguments: ';
            expect(user.asked[0]!.startsWith(prefix), user.asked[0]).toBe(true);
            expect(JSON.parse(user.asked[0]!.slice(prefix.length))).toEqual({
              link_id: "link-1",
            });
            const sent = await recorded(backend, archive);
            if (action === "accept") {
              expect(result.isError, JSON.stringify(result)).toBeFalsy();
              expect(result.structuredContent).toMatchObject({
                link: { id: "link-1", status: "LINK_STATUS_PAUSED" },
              });
              expect(sent).toHaveLength(before + 1);
            } else {
              expect(toolError(result as Record<string, unknown>)).toBe(
                deniedText,
              );
              expect(sent).toHaveLength(before);
            }
          } finally {
            await client.close();
          }
        },
      );

      it("a replayed approval state: the call runs once, the replay gets the denied result, nothing sent", async () => {
        const server = await started();
        const auth = (await authorizationOf(issuer, "valid"))!;
        const handle = await linkConversation(server, auth);
        const state = stateOf(await archiveWithState(server, auth, handle));
        const before = (await recorded(backend, archive)).length;
        expectOk(await archiveWithState(server, auth, handle, state));
        expect(await recorded(backend, archive)).toHaveLength(before + 1);
        const replayed = await archiveWithState(server, auth, handle, state);
        expect(toolError(replayed)).toBe(deniedText);
        expect(await recorded(backend, archive)).toHaveLength(before + 1);
      });

      it("a state asked in one conversation is denied in another (same subject, same arguments), nothing sent", async () => {
        const server = await started();
        const auth = (await authorizationOf(issuer, "valid"))!;
        const first = await linkConversation(server, auth);
        const second = await linkConversation(server, auth);
        const state = stateOf(await archiveWithState(server, auth, first));
        const before = (await recorded(backend, archive)).length;
        const other = await archiveWithState(server, auth, second, state);
        expect(toolError(other)).toBe(deniedText);
        expect(await recorded(backend, archive)).toHaveLength(before);
      });
    });

    describe("--approve deny --rate-limit 3 --audit", () => {
      const started = once(() =>
        start([
          ...authFlags(issuer),
          "--approve",
          "deny",
          "--rate-limit",
          "3",
          "--audit",
        ]),
      );
      let aliceAuth: string;
      let carolAuth: string;
      beforeAll(async () => {
        aliceAuth = (await authorizationOf(issuer, "valid"))!;
        carolAuth = await tokenFor(issuer, { sub: "carol" });
      });

      it("a denied approval: the denied result, nothing sent", async () => {
        const server = await started();
        const handle = await linkConversation(server, aliceAuth);
        const before = (await recorded(backend, archive)).length;
        const result = await call(
          server,
          aliceAuth,
          "links_archive",
          { link_id: "link-1" },
          handle,
        );
        expect(toolError(result)).toBe(deniedText);
        expect(await recorded(backend, archive)).toHaveLength(before);
      });

      it("the rate limit: the 4th call of a subject within a minute is refused, nothing sent", async () => {
        const server = await started();
        const args = { workspace_id: "ws-rate-secret", page_theme_id: null };
        for (let i = 0; i < 3; i++) {
          const ok = await call(server, carolAuth, "links_list", args);
          expectOk(ok);
        }
        const before = (await recorded(backend, listLinks)).length;
        const limited = await call(server, carolAuth, "links_list", args);
        expect(toolError(limited)).toMatch(
          /^too many calls: the limit is 3 per minute for this user; retry in [1-9]\d* s$/,
        );
        expect(await recorded(backend, listLinks)).toHaveLength(before);
        // Another subject has a bucket of its own.
        const other = await call(
          server,
          await tokenFor(issuer, { sub: "dave" }),
          "links_list",
          args,
        );
        expectOk(other);
      });

      it("the rate limit counts every call: 3 calls refused for their arguments, then the 4th is limited, nothing sent", async () => {
        const server = await started();
        const erin = await tokenFor(issuer, { sub: "erin" });
        for (let i = 0; i < 3; i++) {
          const bad = await call(server, erin, "links_list", {
            workspace_id: 5,
            page_theme_id: null,
          });
          expect(toolError(bad)).not.toMatch(/^too many calls/);
        }
        const before = (await recorded(backend, listLinks)).length;
        const limited = await call(server, erin, "links_list", {
          workspace_id: "ws-rate-every",
          page_theme_id: null,
        });
        expect(toolError(limited)).toMatch(
          /^too many calls: the limit is 3 per minute for this user; retry in [1-9]\d* s$/,
        );
        expect(await recorded(backend, listLinks)).toHaveLength(before);
      });

      it("an audit record per call on stderr: subject, tool, method, outcome, duration; no arguments, ids or tokens", async () => {
        const server = await started();
        const records = () =>
          server
            .stderrLines()
            .filter((l) => l.startsWith("{"))
            .map((l) => JSON.parse(l) as Record<string, unknown>);
        await expect
          .poll(
            () => records().filter((r) => r["subject"] === "carol").length,
            patience,
          )
          .toBe(4);
        const outcomes = (subject: string, tool: string) =>
          records()
            .filter((r) => r["subject"] === subject && r["tool"] === tool)
            .map((r) => r["outcome"]);
        expect(outcomes("carol", "links_list")).toEqual([
          "ok",
          "ok",
          "ok",
          "limited",
        ]);
        expect(outcomes("alice", "links_archive")).toEqual(["denied"]);
        const denied = records().find((r) => r["outcome"] === "denied")!;
        expect(denied).toMatchObject({
          subject: "alice",
          tool: "links_archive",
          method: "/linkhub.v1.LinkService/ArchiveLink",
        });
        for (const r of records()) {
          expect(
            Object.keys(r).every((k) =>
              [
                "time",
                "subject",
                "tool",
                "method",
                "outcome",
                "code",
                "durationMs",
              ].includes(k),
            ),
            JSON.stringify(r),
          ).toBe(true);
          expect(r["time"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          expect(typeof r["durationMs"]).toBe("number");
        }
        const lines = server.stderrLines().join("\n");
        for (const secret of [
          "ws-rate-secret",
          aliceAuth.slice(7),
          carolAuth.slice(7),
        ])
          expect(lines).not.toContain(secret);
        expect(lines).not.toMatch(
          /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
        );
      });
    });
  });

  describe(`${name}: identity to the backend`, () => {
    const forward = ["--forward-claims", "x-user-id=sub,x-tenant=tenant"];

    /** Call links_list with a tenant's token; check what the backend got. */
    async function checkForwarded(server: HttpServer, b: Backend) {
      const auth = await tokenFor(issuer, { tenant: "acme" });
      const token = auth.slice("Bearer ".length);
      const result = await call(server, auth, "links_list", {
        workspace_id: "ws-forward",
        page_theme_id: null,
      });
      expectOk(result);
      expect(JSON.stringify(result)).not.toContain(token);
      const all = await recorded(b);
      const last = all.filter((r) => r.procedure === listLinks).at(-1);
      expect(last?.metadata).toMatchObject({
        "x-user-id": "alice",
        "x-tenant": "acme",
      });
      const signature = token.split(".")[2]!;
      for (const r of all) {
        for (const value of Object.values(r.metadata)) {
          expect(value).not.toContain(token);
          expect(value).not.toContain(signature);
        }
      }
    }

    const forwarding = once(() => start([...vectorFlags(issuer), ...forward]));
    const tls = once(async () => {
      const b = await startBackend(true);
      backends.push(b);
      const server = await start(
        [...vectorFlags(issuer), ...forward, "--grpc-tls-ca", testTlsFiles.ca],
        b.process.address,
      );
      return { backend: b, server };
    });

    it("--forward-claims: the subject and a claim arrive as metadata, the client's token nowhere", async () => {
      await checkForwarded(await forwarding(), backend);
    });

    it("over TLS to the gRPC server (--grpc-tls-ca, the test CA): the call and its metadata arrive", async () => {
      const { backend: b, server } = await tls();
      await checkForwarded(server, b);
    });
  });

  describe(`${name}: keys and concurrency (--max-concurrent-calls 1, an issuer of its own)`, () => {
    it("20 tokens of distinct unknown kids: 401 each, the JWKS fetched at most twice more", async () => {
      const s = await limits();
      const port = Number(s.url.port);
      const valid = await limitsIssuer.authorization({}, tokenDefaults);
      const list = { id: 1, method: "tools/list" };
      expect((await postRpc(port, list, { authorization: valid })).status).toBe(
        200,
      );
      const fetched = limitsIssuer.jwksFetches();
      for (let i = 0; i < 20; i++) {
        const kid = `unknown-${String(i)}-${Math.random().toString(36).slice(2)}`;
        const auth = await limitsIssuer.authorization(
          { kid, key: "wrong" },
          tokenDefaults,
        );
        const res = await postRpc(port, list, { authorization: auth });
        expect(res.status, res.text).toBe(401);
        expect(JSON.parse(res.text)).toEqual({
          error: "invalid_token",
          error_description: "unknown signing key",
        });
      }
      expect(limitsIssuer.jwksFetches() - fetched).toBeLessThanOrEqual(2);
      expect((await postRpc(port, list, { authorization: valid })).status).toBe(
        200,
      );
    });

    it("calls without a conversation count per subject: a 2nd of the same subject while one is held gets the concurrency text, nothing sent; another subject's runs", async () => {
      const s = await limits();
      const alice = await limitsIssuer.authorization({}, tokenDefaults);
      const bob = await limitsIssuer.authorization(
        { set: { sub: "bob" } },
        tokenDefaults,
      );
      const args = { workspace_id: "ws-concurrency", page_theme_id: null };
      await backend.control.holdNext({ procedure: listLinks });
      const held = call(s, alice, "links_list", args);
      try {
        await expect
          .poll(
            async () => (await backend.control.getHeld({})).holding,
            patience,
          )
          .toBe(1);
        const before = (await recorded(backend, listLinks)).length;
        const second = await call(s, alice, "links_list", args);
        expect(toolError(second)).toMatch(tooManyAtOnce);
        expect(await recorded(backend, listLinks)).toHaveLength(before);
        expectOk(await call(s, bob, "links_list", args));
      } finally {
        await backend.control.releaseHeld({});
      }
      expectOk(await held);
    });
  });

  describe(`${name}: start-up and shutdown`, () => {
    it("refuses to start on 0.0.0.0 without authorization (exit 1, the contract's text)", async () => {
      const ended = await runToExit(language, backend.process.address, [
        "--host",
        "0.0.0.0",
      ]);
      expect(ended.code, ended.stderr).toBe(1);
      expect(ended.stderr).toContain(
        'refusing to serve MCP over HTTP on "0.0.0.0" without authorization: set auth, or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) to serve anyone who can reach the port',
      );
    });

    it("refuses to start with auth but no public URL (exit 1, the contract's text)", async () => {
      const ended = await runToExit(language, backend.process.address, [
        "--auth-issuer",
        issuer.issuer,
        "--auth-jwks-url",
        issuer.jwksUrl,
      ]);
      expect(ended.code, ended.stderr).toBe(1);
      expect(ended.stderr).toContain(
        'auth needs publicUrl (public_url / PublicURL): the URL clients use, e.g. "https://tools.example.com/mcp"',
      );
    });

    const draining = once(() => start(["--shutdown-grace-ms", "20000"]));

    it("SIGTERM: a held call finishes, a new one is refused, exit 0", async () => {
      const server = await draining();
      await backend.control.holdNext({ procedure: listLinks });
      const held = call(server, undefined, "links_list", {
        workspace_id: "ws-drain",
        page_theme_id: null,
      });
      await expect
        .poll(async () => (await backend.control.getHeld({})).holding, patience)
        .toBe(1);
      server.kill("SIGTERM");
      const refused = async () => {
        try {
          const res = await postRpc(Number(server.url.port), {
            id: 1,
            method: "tools/list",
          });
          if (res.status === 503) return JSON.parse(res.text) as unknown;
          return res.status;
        } catch {
          return "connection refused";
        }
      };
      await expect
        .poll(refused, patience)
        .toSatisfy(
          (r) =>
            r === "connection refused" ||
            (typeof r === "object" &&
              (r as { error?: string }).error === "shutting_down"),
        );
      expect((await backend.control.releaseHeld({})).released).toBe(1);
      const result = await held;
      expectOk(result);
      expect(await server.exited).toBe(0);
    });
  });
}
