// The generated MCP server of the test API with its search-first tool set
// (--search-first over the generated toolSearch; docs/mcp.md, "Search-first
// tool sets"), driven by the official TypeScript SDK client: the list
// before and after a search over stdio and a 2025-11-25 HTTP session (the
// list_changed notification received), and call_tool over 2026-07-28
// reaching the test server with link-1 sent as its UUID.
import type { Client } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import {
  callOk,
  callTool,
  connectHttp,
  connectStdio,
  handleKey,
  linkIdOf,
  newLinkArgs,
  startHttp,
  type HttpServer,
  type Revision,
} from "./mcp-support.js";
import { GetLinkRequestSchema } from "../src/gen/linkhub/v1/links_pb.js";
import {
  expectRecordedFrom,
  linkIds,
  newUUID,
  recorded,
  useServer,
  want,
} from "./support.js";

const env = useServer();
const flags = ["--search-first", "--always-loaded", "ping"];

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name);
}

/**
 * Counts `notifications/tools/list_changed`: `changed(n)` resolves once the
 * n-th has arrived (vitest's test timeout is the cap).
 */
function changeCounter() {
  let count = 0;
  const waiting = new Map<number, () => void>();
  return {
    onChanged: () => {
      count++;
      waiting.get(count)?.();
    },
    count: () => count,
    changed: (n: number) =>
      n <= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.set(n, resolve)),
  };
}

interface Found {
  tools: { name: string; description: string; inputSchema?: object }[];
}

/**
 * Search for getting a link: links_get is among the tools found; the list
 * then holds them after search_tools and ping, in the order found, and one
 * notification was received.
 */
async function expectSearchGrowsList(
  client: Client,
  changes: ReturnType<typeof changeCounter>,
): Promise<void> {
  expect(await names(client)).toEqual(["search_tools", "ping"]);
  expect(changes.count()).toBe(0);
  const r = await callTool(client, "search_tools", {
    query: "get a short link by its id",
  });
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  const found = r.structuredContent as unknown as Found;
  expect(JSON.parse(r.content[0]!.text!)).toEqual(found);
  const got = found.tools.map((t) => t.name);
  expect(got).toContain("links_get");
  expect(got.length).toBeLessThanOrEqual(5);
  for (const t of found.tools) {
    expect(Object.keys(t)).toEqual(["name", "description"]);
  }
  await changes.changed(1);
  expect(changes.count()).toBe(1);
  expect(await names(client)).toEqual([
    "search_tools",
    "ping",
    ...got.filter((n) => n !== "ping"),
  ]);
}

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "stdio, %s",
  (revision: Revision) => {
    it("lists search_tools and ping, then what a search found (list_changed)", async () => {
      const changes = changeCounter();
      const client = await connectStdio(
        env,
        revision,
        flags,
        changes.onChanged,
      );
      expect(client.getServerCapabilities()?.tools).toEqual({
        listChanged: true,
      });
      await expectSearchGrowsList(client, changes);
      // A found tool is called as any other, with its aliases.
      const ws = newUUID();
      const created = await callOk(
        client,
        "links_create",
        newLinkArgs(ws, "one"),
      );
      expect(linkIdOf(created)).toBe("link-1");
      const got = await callOk(client, "links_get", { id: "link-1" });
      expect(got.structuredContent).toMatchObject({
        link: { id: "link-1", title: "one" },
      });
    });
  },
);

describe("streamable HTTP", () => {
  let http: HttpServer;
  beforeAll(async () => {
    http = await startHttp(env, flags);
  });

  it("2025-11-25 session: the list grows, list_changed is received", async () => {
    const changes = changeCounter();
    const client = await connectHttp(http, "2025-11-25", changes.onChanged);
    await expectSearchGrowsList(client, changes);
  });

  it("2026-07-28: call_tool reaches the server, link-1 sent as its UUID", async () => {
    const client = await connectHttp(http, "2026-07-28");
    expect(await names(client)).toEqual(["search_tools", "call_tool", "ping"]);
    const r = await callTool(client, "search_tools", {
      query: "get a short link by its id",
    });
    const found = (r.structuredContent as unknown as Found).tools;
    const get = found.find((t) => t.name === "links_get");
    // The schema comes with the tool: the model cannot see it listed.
    expect(get?.inputSchema).toMatchObject({
      type: "object",
      properties: { id: { type: "string" } },
    });
    const ws = newUUID();
    const created = await callTool(client, "call_tool", {
      name: "links_create",
      arguments: newLinkArgs(ws, "via call_tool"),
    });
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    expect(linkIdOf(created)).toBe("link-1");
    const handle = created._meta?.[handleKey];
    expect(typeof handle).toBe("string");
    const [uuid] = await linkIds(env, ws);
    const before = (await recorded(env)).length;
    const got = await callTool(
      client,
      "call_tool",
      { name: "links_get", arguments: { id: "link-1" } },
      { [handleKey]: handle },
    );
    expect(got.isError, got.content[0]?.text).toBeFalsy();
    expect(got.structuredContent).toMatchObject({
      link: { id: "link-1", title: "via call_tool" },
    });
    await expectRecordedFrom(env, before, [
      want("linkhub.v1.LinkService/GetLink", GetLinkRequestSchema, {
        id: uuid!,
      }),
    ]);
    const unknown = await callTool(client, "call_tool", {
      name: "links_fetch",
      arguments: {},
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([
      {
        type: "text",
        text: 'unknown tool "links_fetch": call search_tools to find a tool, then call_tool with one of the names it gives',
      },
    ]);
  });

  it("lists every tool without --search-first", async () => {
    const plain = await startHttp(env);
    const client = await connectHttp(plain, "2026-07-28");
    const listed = await names(client);
    expect(listed).toContain("links_get");
    expect(listed).not.toContain("search_tools");
    expect(listed).toEqual([...listed].sort());
  });
});
