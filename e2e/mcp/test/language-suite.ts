// The suite of one language's generated MCP server: started over stdio and
// over streamable HTTP, driven by the TypeScript client on both revisions,
// the Python client on both revisions (its runs start with the file and go
// on in the background) and the MCP Inspector CLI (2025-11-25).
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  comparable,
  expectOk,
  expectToolError,
  handleOf,
  outputSchemas,
  type Expect,
} from "./checks.js";
import {
  connectTs,
  listTs,
  runInspector,
  runPython,
  runTs,
  type PythonOutput,
  type Revision,
} from "./clients.js";
import {
  checkConversation,
  checkConversationThenStranger,
  conversationLength,
  conversationSteps,
} from "./conversation.js";
import {
  languages,
  startHttp,
  type HttpServer,
  type LanguageName,
} from "./languages.js";
import {
  call,
  newLinkArgs,
  type CallResult,
  type ListedTool,
} from "./steps.js";

/** The handle property's description (docs/mcp.md). */
const handleDescription =
  'The conversation handle of the previous result ("conversation: …"); leave it out on the first call.';

/**
 * A listing with the handle property taken out of every input schema
 * (and out of `required`): what the same server lists without
 * `--handle-argument`.
 */
function withoutHandle(tools: readonly ListedTool[]): ListedTool[] {
  return tools.map((t) => {
    const schema = t.inputSchema as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const { conversation: _, ...properties } = schema.properties ?? {};
    const inputSchema: Record<string, unknown> = { ...schema, properties };
    const required = schema.required?.filter((r) => r !== "conversation");
    if (required !== undefined && required.length === 0)
      delete inputSchema["required"];
    else if (required !== undefined) inputSchema["required"] = required;
    return { ...t, inputSchema };
  });
}

/** Define the suite of one language. */
export function describeLanguage(name: LanguageName): void {
  const language = languages[name];
  const grpc = inject("grpc");
  const stdio = language.stdio(grpc);
  const clients: Client[] = [];
  let http: HttpServer | undefined;
  let python: Promise<PythonOutput[]>;
  /** The listing over stdio (TypeScript client, 2025-11-25): the reference. */
  let listed: ListedTool[] = [];
  /** The listing over HTTP (--handle-argument), TypeScript client. */
  let listedHttp: ListedTool[] = [];
  const pyWs = [
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
  ];

  async function connect(
    target: Parameters<typeof connectTs>[0],
    revision: Revision,
  ): Promise<Client> {
    const client = await connectTs(target, revision);
    clients.push(client);
    expect(
      client.getNegotiatedProtocolVersion(),
      `${name}: the negotiated revision`,
    ).toBe(revision);
    return client;
  }

  beforeAll(async () => {
    http = await startHttp(language, grpc, ["--handle-argument"]);
    python = runPython([
      {
        target: stdio,
        mode: "auto",
        steps: [{ op: "list" }, ...conversationSteps(pyWs[0]!)],
      },
      {
        target: stdio,
        mode: "legacy",
        steps: [{ op: "list" }, ...conversationSteps(pyWs[1]!)],
      },
      {
        target: http.url,
        mode: "legacy",
        clients: 2,
        steps: [
          { op: "list" },
          ...conversationSteps(pyWs[2]!),
          call("links_get", { id: "link-1" }, { client: 1 }),
        ],
      },
      {
        target: http.url,
        mode: "auto",
        clients: 2,
        steps: [
          { op: "list" },
          ...conversationSteps(pyWs[3]!, { handle: "meta" }),
          ...conversationSteps(pyWs[4]!, { handle: "argument", client: 1 }),
          call("links_get", { id: "link-1" }, { client: 1 }),
        ],
      },
    ]);
    // Awaited by the Python tests; a failure is theirs, not unhandled.
    python.catch(() => undefined);
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await http?.close();
  });

  const ts = (label: string, handles = false): Expect => ({
    label: `${name}, ${label}, TypeScript client`,
    handles,
  });

  /** Run the conversation with a TypeScript client (stdio) and check it. */
  async function converse(client: Client, e: Expect): Promise<void> {
    const ws = randomUUID();
    const outcomes = await runTs([client], conversationSteps(ws));
    checkConversation(outcomes, ws, outputSchemas(listed), e);
  }

  describe(`${name}: TypeScript client`, () => {
    it("stdio, 2025-11-25: tools as listed (twice the same), the conversation", async () => {
      const client = await connect(stdio, "2025-11-25");
      listed = await listTs(client);
      expect(listed.length).toBeGreaterThan(0);
      expect(await listTs(client)).toEqual(listed);
      await converse(client, ts("stdio 2025-11-25"));
    });

    it("stdio, 2026-07-28: the same tools, the conversation", async () => {
      const client = await connect(stdio, "2026-07-28");
      expect(comparable(await listTs(client))).toEqual(comparable(listed));
      await converse(client, ts("stdio 2026-07-28"));
    });

    it("stdio: two clients at once keep separate aliases", async () => {
      const [a, b] = await Promise.all([
        connect(stdio, "2026-07-28"),
        connect(stdio, "2025-11-25"),
      ]);
      const ws = randomUUID();
      const [ra, rb] = await Promise.all([
        runTs(
          [a],
          [
            call("links_create", { ...newLinkArgs(ws, 1), title: "a" }),
            call("links_get", { id: "link-1" }),
          ],
        ),
        runTs(
          [b],
          [
            call("links_create", { ...newLinkArgs(ws, 2), title: "b" }),
            call("links_get", { id: "link-1" }),
          ],
        ),
      ]);
      const schemas = outputSchemas(listed);
      expect(
        expectOk(ra[1], "links_get", schemas, ts("stdio a")),
      ).toMatchObject({ link: { id: "link-1", title: "a" } });
      expect(
        expectOk(rb[1], "links_get", schemas, ts("stdio b")),
      ).toMatchObject({ link: { id: "link-1", title: "b" } });
    });

    it("HTTP, 2025-11-25: the handle property listed; one conversation per session, two sessions apart", async () => {
      const [a, b] = await Promise.all([
        connect(http!.url, "2025-11-25"),
        connect(http!.url, "2025-11-25"),
      ]);
      listedHttp = await listTs(a);
      for (const t of listedHttp) {
        expect(
          (t.inputSchema["properties"] as Record<string, unknown>)[
            "conversation"
          ],
          `${name}: ${t.name}`,
        ).toEqual({
          anyOf: [{ type: "string" }, { type: "null" }],
          description: handleDescription,
        });
      }
      expect(comparable(withoutHandle(listedHttp))).toEqual(comparable(listed));
      const ws = randomUUID();
      const outcomes = await runTs(
        [a, b],
        [
          ...conversationSteps(ws),
          call("links_get", { id: "link-1" }, { client: 1 }),
        ],
      );
      checkConversationThenStranger(
        outcomes,
        ws,
        outputSchemas(listedHttp),
        ts("HTTP 2025-11-25"),
      );
    });

    it("HTTP, 2026-07-28: the handle in _meta; without it a new conversation; an unknown handle", async () => {
      const client = await connect(http!.url, "2026-07-28");
      expect(comparable(await listTs(client))).toEqual(comparable(listedHttp));
      const ws = randomUUID();
      const outcomes = await runTs(
        [client],
        [
          ...conversationSteps(ws, { handle: "meta" }),
          call("links_get", { id: "link-1" }),
          call(
            "links_get",
            { id: "link-1" },
            { meta: { "ai-tools/conversation": "bm90LWEtaGFuZGxlLWF0LWFs" } },
          ),
        ],
      );
      const e = ts("HTTP 2026-07-28, handle in _meta", true);
      checkConversationThenStranger(outcomes, ws, outputSchemas(listedHttp), e);
      expect(
        expectToolError(outcomes[conversationLength + 1], "links_get", e),
      ).toBe(
        'unknown or expired conversation "bm90LWEtaGFuZGxlLWF0LWFs"; call again without "conversation" to start a new one',
      );
    });

    it("HTTP, 2026-07-28: the handle as the argument conversation; two clients apart", async () => {
      const [a, b] = await Promise.all([
        connect(http!.url, "2026-07-28"),
        connect(http!.url, "2026-07-28"),
      ]);
      const ws = randomUUID();
      const outcomes = await runTs(
        [a, b],
        [
          ...conversationSteps(ws, { handle: "argument" }),
          call(
            "links_get",
            { id: "link-1", conversation: null },
            { client: 1 },
          ),
        ],
      );
      checkConversationThenStranger(
        outcomes,
        ws,
        outputSchemas(listedHttp),
        ts("HTTP 2026-07-28, handle as argument", true),
      );
    });
  });

  describe(`${name}: Python client`, () => {
    const py = (label: string, handles = false): Expect => ({
      label: `${name}, ${label}, Python client`,
      handles,
    });

    it("stdio, 2026-07-28 (auto) and 2025-11-25: the same tools, the conversation", async () => {
      const [auto, legacy] = await python;
      for (const [out, revision, ws] of [
        [auto!, "2026-07-28", pyWs[0]!],
        [legacy!, "2025-11-25", pyWs[1]!],
      ] as const) {
        expect(out.protocolVersions, name).toEqual([revision]);
        expect(comparable(out.results[0]!.tools!)).toEqual(comparable(listed));
        checkConversation(
          out.results.slice(1),
          ws,
          outputSchemas(listed),
          py(`stdio ${revision}`),
        );
      }
    });

    it("HTTP, 2025-11-25: one conversation per session, two sessions apart", async () => {
      const out = (await python)[2]!;
      expect(out.protocolVersions).toEqual(["2025-11-25", "2025-11-25"]);
      expect(comparable(out.results[0]!.tools!)).toEqual(
        comparable(listedHttp),
      );
      checkConversationThenStranger(
        out.results.slice(1),
        pyWs[2]!,
        outputSchemas(listedHttp),
        py("HTTP 2025-11-25"),
      );
    });

    it("HTTP, 2026-07-28: handles in _meta and as the argument, two clients apart", async () => {
      const out = (await python)[3]!;
      expect(out.protocolVersions).toEqual(["2026-07-28", "2026-07-28"]);
      expect(comparable(out.results[0]!.tools!)).toEqual(
        comparable(listedHttp),
      );
      const schemas = outputSchemas(listedHttp);
      const meta = out.results.slice(1, 1 + conversationLength);
      const arg = out.results.slice(1 + conversationLength);
      checkConversation(
        meta,
        pyWs[3]!,
        schemas,
        py("HTTP 2026-07-28, handle in _meta", true),
      );
      checkConversationThenStranger(
        arg,
        pyWs[4]!,
        schemas,
        py("HTTP 2026-07-28, handle as argument", true),
      );
      expect(handleOf(meta[0])).not.toBe(handleOf(arg[0]));
    });
  });

  describe(`${name}: MCP Inspector CLI (2025-11-25)`, () => {
    it("stdio: tools/list, tools/call", async () => {
      const [tools, created] = await Promise.all([
        runInspector(stdio, "tools/list"),
        runInspector(stdio, "tools/call", {
          name: "links_create",
          args: newLinkArgs(randomUUID(), 1),
        }),
      ]);
      expect(comparable((tools as { tools: ListedTool[] }).tools)).toEqual(
        comparable(listed),
      );
      const link = expectOk(
        { result: created as CallResult },
        "links_create",
        outputSchemas(listed),
        {
          label: `${name}, stdio, Inspector`,
          handles: false,
        },
      );
      expect(link).toMatchObject({ link: { id: "link-1", title: "link 1" } });
    });

    it("HTTP: tools/list, tools/call of an unknown alias", async () => {
      const [tools, failed] = await Promise.all([
        runInspector(http!.url, "tools/list"),
        runInspector(http!.url, "tools/call", {
          name: "links_get",
          args: { id: "link-1" },
        }),
      ]);
      expect(comparable((tools as { tools: ListedTool[] }).tools)).toEqual(
        comparable(listedHttp),
      );
      const text = expectToolError(
        { result: failed as CallResult },
        "links_get",
        {
          label: `${name}, HTTP, Inspector`,
          handles: false,
        },
      );
      expect(text).toBe(
        'invalid arguments, nothing was sent:\n- "id": unknown alias "link-1"; no link aliases exist yet: call a tool that returns links first',
      );
    });
  });
}
