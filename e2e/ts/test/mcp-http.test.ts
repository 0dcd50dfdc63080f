// The generated MCP server of the test API over streamable HTTP, driven by
// the official TypeScript SDK client: stateless 2026-07-28 clients carrying
// the conversation handle (as an argument and in _meta), 2025-11-25
// sessions, two clients at once with separate aliases.
import { beforeAll, describe, expect, it } from "vitest";
import {
  callOk,
  callTool,
  connectHttp,
  handleKey,
  linkIdOf,
  anyUuid,
  newLinkArgs,
  startHttp,
  type HttpServer,
} from "./mcp-support.js";
import { newUUID, useServer } from "./support.js";

const env = useServer();
let http: HttpServer;

beforeAll(async () => {
  http = await startHttp(env, ["--handle-argument"]);
});

describe("HTTP, 2026-07-28 (stateless, handles)", () => {
  it("lists the handle property in every input schema", async () => {
    const client = await connectHttp(http, "2026-07-28");
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const t of tools) {
      expect(t.inputSchema.properties?.["conversation"]).toEqual({
        anyOf: [{ type: "string" }, { type: "null" }],
        description:
          'The conversation handle of the previous result ("conversation: …"); leave it out on the first call.',
      });
    }
  });

  it("mints a handle; the client carries it as an argument or in _meta", async () => {
    const client = await connectHttp(http, "2026-07-28");
    const ws = newUUID();
    const first = await callOk(client, "links_create", newLinkArgs(ws, "one"));
    expect(linkIdOf(first)).toBe("link-1");
    const handle = first._meta?.[handleKey] as string;
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.content[1]).toEqual({
      type: "text",
      text: `conversation: ${handle}`,
    });
    // A generic host: the model passes the handle back as an argument.
    const second = await callOk(client, "links_create", {
      ...newLinkArgs(ws, "two"),
      conversation: handle,
    });
    expect(linkIdOf(second)).toBe("link-2");
    expect(second._meta?.[handleKey]).toBe(handle);
    // An application hosting the model: the handle in _meta.
    const got = await callOk(
      client,
      "links_get",
      { id: "link-1" },
      { [handleKey]: handle },
    );
    expect(got.structuredContent).toMatchObject({
      link: { id: "link-1", title: "one" },
    });
    // Without it, a new conversation: link-1 is unknown there.
    const fresh = await callTool(client, "links_get", { id: "link-1" });
    expect(fresh.isError).toBe(true);
    expect(fresh.content[0]!.text).toContain('unknown alias "link-1"');
  });

  it("answers an unknown handle with isError telling what to do", async () => {
    const client = await connectHttp(http, "2026-07-28");
    const r = await callTool(client, "ping", {
      conversation: "bm90LWEtaGFuZGxlLWF0LWFs",
    });
    expect(r.isError).toBe(true);
    expect(r.content).toEqual([
      {
        type: "text",
        text: 'unknown or expired conversation "bm90LWEtaGFuZGxlLWF0LWFs"; call again without "conversation" to start a new one',
      },
    ]);
  });

  it("takes _meta's handle over the argument; a handle not a string is isError", async () => {
    const client = await connectHttp(http, "2026-07-28");
    const ws = newUUID();
    const a = await callOk(client, "links_create", newLinkArgs(ws, "a"));
    const b = await callOk(client, "links_create", newLinkArgs(ws, "b"));
    const [ha, hb] = [a._meta?.[handleKey], b._meta?.[handleKey]];
    expect(ha).not.toBe(hb);
    const both = await callOk(
      client,
      "links_get",
      { id: "link-1", conversation: hb },
      { [handleKey]: ha },
    );
    expect(both._meta?.[handleKey]).toBe(ha);
    expect(both.structuredContent).toMatchObject({ link: { title: "a" } });
    const badArgument = await callTool(client, "ping", { conversation: 5 });
    expect(badArgument.isError).toBe(true);
    expect(badArgument.content).toEqual([
      {
        type: "text",
        text: 'invalid arguments, nothing was sent:\n- "conversation": must be a string',
      },
    ]);
    const badMeta = await callTool(client, "ping", {}, { [handleKey]: 5 });
    expect(badMeta.content).toEqual([
      {
        type: "text",
        text: 'invalid arguments, nothing was sent:\n- "ai-tools/conversation": must be a string',
      },
    ]);
  });

  it("answers an unknown tool with JSON-RPC -32602", async () => {
    const client = await connectHttp(http, "2026-07-28");
    await expect(callTool(client, "links_nope", {})).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("HTTP, 2025-11-25 (sessions)", () => {
  it("keeps one conversation per session; two sessions at once apart", async () => {
    const [a, b] = await Promise.all([
      connectHttp(http, "2025-11-25"),
      connectHttp(http, "2025-11-25"),
    ]);
    const ws = newUUID();
    const [ca, cb] = await Promise.all([
      callOk(a, "links_create", newLinkArgs(ws, "a")),
      callOk(b, "links_create", newLinkArgs(ws, "b")),
    ]);
    expect([linkIdOf(ca), linkIdOf(cb)]).toEqual(["link-1", "link-1"]);
    expect(ca._meta?.[handleKey]).toBeUndefined();
    expect(ca.content).toHaveLength(1);
    const [ra, rb] = await Promise.all([
      callOk(a, "links_get", { id: "link-1" }),
      callOk(b, "links_get", { id: "link-1" }),
    ]);
    expect(ra.structuredContent).toMatchObject({ link: { title: "a" } });
    expect(rb.structuredContent).toMatchObject({ link: { title: "b" } });
  });

  it("answers server errors as the executors word them, aliasified", async () => {
    const client = await connectHttp(http, "2025-11-25");
    await callOk(client, "links_create", newLinkArgs(newUUID(), "x"));
    await callOk(client, "links_delete", { id: "link-1" });
    const r = await callTool(client, "links_get", { id: "link-1" });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).not.toMatch(anyUuid);
    expect(r.content[0]!.text).toBe(
      'rpc error: code = NotFound desc = link "link-1" not found',
    );
  });
});
