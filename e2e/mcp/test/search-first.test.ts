// The search-first tool set (docs/mcp.md, "Search-first tool sets") of the
// three generated servers, `--search-first --always-loaded ping`, with the
// TypeScript client: over stdio at 2025-11-25 (the list view: what a search
// finds joins the list), over stdio at 2026-07-28 (the call view until the
// client listens for tool list changes, the list view while it listens)
// and over HTTP at 2026-07-28 (the call view: search_tools gives schemas,
// call_tool runs them), every language lists, finds and refuses alike
// (parsed values; texts byte for byte).
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, inject, it } from "vitest";
import { connectTs, listTs } from "./clients.js";
import { differences } from "./compare.js";
import { languages, startHttp, type LanguageName } from "./languages.js";

const names: LanguageName[] = ["go", "py", "ts"];
const grpc = inject("grpc");
const flags = ["--search-first", "--always-loaded", "ping"];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.allSettled(closers.map((close) => close()));
});

/** What one language answered to the same requests, parsed. */
type Answers = Record<string, unknown>;

/** The differences of each language's answers from Go's. */
function acrossLanguages(answers: Map<LanguageName, Answers>): string[] {
  const [first, ...rest] = names;
  return rest.flatMap((name) =>
    differences(answers.get(first!), answers.get(name), first!, name),
  );
}

/** A tools/call's result as the wire carries it, its text blocks parsed when JSON. */
async function callOf(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  return {
    isError: r.isError === true,
    content: r.content.map((c) => {
      try {
        return JSON.parse(c.text) as unknown;
      } catch {
        return c.text;
      }
    }),
    structuredContent: r.structuredContent,
  };
}

/** The refusals every language words alike. */
async function refusals(client: Client): Promise<Answers> {
  return {
    unknown: await callOf(client, "call_tool", {
      name: "links_fetch",
      arguments: {},
    }),
    noName: await callOf(client, "call_tool", { arguments: [], id: "x" }),
    badSearch: await callOf(client, "search_tools", { limit: 21 }),
    nothingFound: await callOf(client, "search_tools", { query: "zebra" }),
  };
}

describe("search-first, every language alike", () => {
  it("stdio 2025-11-25: lists, finds and lists again alike", async () => {
    const answers = new Map<LanguageName, Answers>();
    await Promise.all(
      names.map(async (name) => {
        const client = await connectTs(
          languages[name].stdio(grpc, flags),
          "2025-11-25",
        );
        closers.push(() => client.close());
        const before = await listTs(client);
        const found = await callOf(client, "search_tools", {
          query: "archive a link",
          limit: 3,
        });
        const again = await callOf(client, "search_tools", {
          query: "list the steps of a workflow",
        });
        answers.set(name, {
          capabilities: client.getServerCapabilities()?.tools,
          before,
          found,
          again,
          after: await listTs(client),
          ...(await refusals(client)),
        });
      }),
    );
    const ts = answers.get("ts")!;
    expect((ts["before"] as { name: string }[]).map((t) => t.name)).toEqual([
      "search_tools",
      "ping",
    ]);
    expect(
      (ts["after"] as { name: string }[]).map((t) => t.name).length,
    ).toBeGreaterThan(2);
    expect(acrossLanguages(answers)).toEqual([]);
  });

  it("stdio 2026-07-28: the call view until the client listens, the list view while it listens, alike", async () => {
    const answers = new Map<LanguageName, Answers>();
    await Promise.all(
      names.map(async (name) => {
        const client = await connectTs(
          languages[name].stdio(grpc, flags),
          "2026-07-28",
        );
        closers.push(() => client.close());
        // A client without the listChanged option opens no listen.
        const deaf = {
          listed: await listTs(client),
          found: await callOf(client, "search_tools", {
            query: "archive a link",
            limit: 2,
          }),
          after: await listTs(client),
        };
        let told: () => void = () => undefined;
        const change = new Promise<void>((resolve) => {
          told = resolve;
        });
        client.setNotificationHandler(
          "notifications/tools/list_changed",
          () => {
            told();
          },
        );
        const listen = await client.listen({ toolsListChanged: true });
        const listening = {
          honored: listen.honoredFilter,
          listed: await listTs(client),
          found: await callOf(client, "search_tools", {
            query: "archive a link",
            limit: 2,
          }),
        };
        await change;
        answers.set(name, {
          deaf,
          listening: { ...listening, after: await listTs(client) },
        });
        await listen.close();
      }),
    );
    const ts = answers.get("ts")!;
    const namesOf = (key: string, list: string) =>
      ((ts[key] as Record<string, { name: string }[]>)[list] ?? []).map(
        (t) => t.name,
      );
    expect(namesOf("deaf", "listed")).toEqual([
      "search_tools",
      "call_tool",
      "ping",
    ]);
    expect(namesOf("deaf", "after")).toEqual(namesOf("deaf", "listed"));
    expect(namesOf("listening", "listed")).toEqual(["search_tools", "ping"]);
    expect(namesOf("listening", "after")).toHaveLength(4);
    expect(acrossLanguages(answers)).toEqual([]);
  });

  it("HTTP 2026-07-28: lists search_tools, call_tool and ping; finds with schemas alike", async () => {
    const answers = new Map<LanguageName, Answers>();
    await Promise.all(
      names.map(async (name) => {
        const http = await startHttp(languages[name], grpc, flags);
        closers.push(() => http.close());
        const client = await connectTs(http.url, "2026-07-28");
        closers.push(() => client.close());
        answers.set(name, {
          listed: await listTs(client),
          found: await callOf(client, "search_tools", {
            query: "get a short link by its id",
          }),
          // The called tool's own checks: an alias never given, nothing sent.
          unknownAlias: await callOf(client, "call_tool", {
            name: "links_get",
            arguments: { id: "link-9" },
          }),
          ...(await refusals(client)),
        });
      }),
    );
    const ts = answers.get("ts")!;
    expect((ts["listed"] as { name: string }[]).map((t) => t.name)).toEqual([
      "search_tools",
      "call_tool",
      "ping",
    ]);
    expect(acrossLanguages(answers)).toEqual([]);
  });
});
