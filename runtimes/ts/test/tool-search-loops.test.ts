// docs/tool-search.md "Use it": its TypeScript loops (support/tool-search-loops.ts)
// run with the official SDK clients against a local stub that answers each
// request with the next scripted provider response; the page's code blocks
// are those lines, in order.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDeferredTools,
  createMemoryConversationStore,
} from "../src/index.js";
import { fixtureSearch, fixtureTools } from "./support/deferred-fixture.js";
import {
  anthropicLoop,
  openAiChatLoop,
  openAiResponsesLoop,
  type LoopContext,
} from "./support/tool-search-loops.js";

interface Stub {
  readonly url: string;
  readonly bodies: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Answers the i-th request with `replies[i]` (200, JSON); records bodies. */
async function startStub(replies: readonly object[]): Promise<Stub> {
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push(
        JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<
          string,
          unknown
        >,
      );
      const reply = replies[bodies.length - 1];
      res.writeHead(reply === undefined ? 500 : 200, {
        "content-type": "application/json",
      });
      res.end(JSON.stringify(reply ?? { error: { message: "no more" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** The deferred tools of the fixture, a conversation and a recording executor. */
async function context(): Promise<LoopContext & { calls: string[][] }> {
  const store = createMemoryConversationStore();
  const calls: string[][] = [];
  return {
    deferred: createDeferredTools({
      tools: fixtureTools,
      search: fixtureSearch(),
      store,
      alwaysLoaded: ["users_get"],
    }),
    executor: {
      execute: (_handle, tool, args) => {
        calls.push([tool, args]);
        return Promise.resolve('{"link":{"id":"link-1"}}');
      },
    },
    handle: await store.create(),
    calls,
  };
}

const openAi = (url: string) =>
  new OpenAI({ apiKey: "test", baseURL: `${url}/v1`, maxRetries: 0 });

function response(output: object[], text = "") {
  return {
    id: "resp_1",
    object: "response",
    created_at: 0,
    status: "completed",
    model: "gpt-5.4",
    output,
    output_text: text,
  };
}

describe("docs/tool-search.md loops", () => {
  it("OpenAI Responses: tool_search_call, a namespaced call, the answer", async () => {
    const ctx = await context();
    stub = await startStub([
      response([
        {
          type: "tool_search_call",
          id: "ts_1",
          call_id: "call_s",
          execution: "client",
          status: "completed",
          arguments: { query: "get a link", limit: 1 },
        },
      ]),
      response([
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_f",
          namespace: "LinkService",
          name: "GetLink",
          arguments: '{"link_id":"link-1"}',
        },
        {
          type: "function_call",
          id: "fc_2",
          call_id: "call_g",
          namespace: "LinkService",
          name: "FetchLink",
          arguments: "{}",
        },
      ]),
      response(
        [
          {
            type: "message",
            id: "m_1",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "done", annotations: [] }],
          },
        ],
        "done",
      ),
    ]);
    const answer = await openAiResponsesLoop(
      ctx,
      openAi(stub.url),
      "get link-1",
    );
    expect(answer).toBe("done");
    expect(ctx.calls).toEqual([["links_get", '{"link_id":"link-1"}']]);
    const inputs = stub.bodies.map(
      (b) => b["input"] as Record<string, unknown>[],
    );
    expect(inputs[1]?.[2]).toMatchObject({
      type: "tool_search_output",
      call_id: "call_s",
      tools: [{ name: "LinkService", tools: [{ name: "GetLink" }] }],
    });
    const third = inputs[2] ?? [];
    expect(third.find((i) => i["call_id"] === "call_f")).toMatchObject({
      type: "function_call",
      namespace: "LinkService",
    });
    expect(
      third.find(
        (i) =>
          i["type"] === "function_call_output" && i["call_id"] === "call_g",
      ),
    ).toMatchObject({
      output: expect.stringContaining('no function "FetchLink"') as unknown,
    });
    expect(stub.bodies[0]?.["tools"]).toEqual(stub.bodies[2]?.["tools"]);
  });

  it("Anthropic: search_tools answered with tool_reference blocks, then the call", async () => {
    const ctx = await context();
    const message = (content: object[], stop: string) => ({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-5",
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    stub = await startStub([
      message(
        [
          {
            type: "tool_use",
            id: "tu_1",
            name: "search_tools",
            input: { query: "delete a link", limit: 1 },
          },
        ],
        "tool_use",
      ),
      message(
        [
          {
            type: "tool_use",
            id: "tu_2",
            name: "links_delete",
            input: { link_id: "link-1" },
          },
        ],
        "tool_use",
      ),
      message([{ type: "text", text: "deleted" }], "end_turn"),
    ]);
    const client = new Anthropic({
      apiKey: "test",
      baseURL: stub.url,
      maxRetries: 0,
    });
    const answer = await anthropicLoop(ctx, client, "delete link-1");
    expect(answer).toEqual([{ type: "text", text: "deleted" }]);
    expect(ctx.calls).toEqual([["links_delete", '{"link_id":"link-1"}']]);
    const second = stub.bodies[1]?.["messages"] as { content: unknown }[];
    expect(second[2]?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "tu_1",
        content: [{ type: "tool_reference", tool_name: "links_delete" }],
      },
    ]);
  });

  it("Chat Completions: search_tools, then the loaded tool in the next request", async () => {
    const ctx = await context();
    const completion = (message: object) => ({
      id: "c_1",
      object: "chat.completion",
      created: 0,
      model: "gpt-5.4",
      choices: [{ index: 0, finish_reason: "stop", logprobs: null, message }],
    });
    const call = (id: string, name: string, args: string) => ({
      id,
      type: "function",
      function: { name, arguments: args },
    });
    stub = await startStub([
      completion({
        role: "assistant",
        content: null,
        tool_calls: [
          call("c_s", "search_tools", '{"query":"get a link","limit":1}'),
        ],
      }),
      completion({
        role: "assistant",
        content: null,
        tool_calls: [
          call("c_f", "links_get", '{"link_id":"link-1"}'),
          call("c_g", "search_tools", '{"query":5}'),
        ],
      }),
      completion({ role: "assistant", content: "here" }),
    ]);
    const answer = await openAiChatLoop(ctx, openAi(stub.url), "get link-1");
    expect(answer).toBe("here");
    expect(ctx.calls).toEqual([["links_get", '{"link_id":"link-1"}']]);
    const names = stub.bodies.map((b) =>
      (b["tools"] as { function: { name: string } }[]).map(
        (t) => t.function.name,
      ),
    );
    expect(names[0]).toEqual(["users_get", "search_tools"]);
    expect(names[1]).toContain("links_get");
    const last = stub.bodies[2]?.["messages"] as Record<string, unknown>[];
    expect(
      last.find((m) => m["tool_call_id"] === "c_s")?.["content"],
    ).toContain('"name":"links_get"');
    expect(
      last.find((m) => m["tool_call_id"] === "c_g")?.["content"],
    ).toContain("invalid arguments, nothing was sent:");
  });

  it("the page's TypeScript blocks are the loops' lines, in order", () => {
    const page = readFileSync(
      new URL("../../../docs/tool-search.md", import.meta.url),
      "utf8",
    );
    const source = readFileSync(
      new URL("./support/tool-search-loops.ts", import.meta.url),
      "utf8",
    )
      .split("\n")
      .map((l) => l.trim());
    const blocks = [
      ...page.matchAll(/^<!-- loop: (\w+) -->\n+```ts\n([\s\S]*?)^```$/gm),
    ];
    expect(blocks.map((b) => b[1])).toEqual([
      "setup",
      "responses",
      "anthropic",
      "chat",
    ]);
    for (const [, name, code] of blocks) {
      const lines = code!
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "");
      // The setup's imports and objects, and each loop's header, are the page's own.
      const from =
        name === "setup" ? lines.findIndex((l) => l.startsWith("/**")) : 1;
      expect(from, name).toBeGreaterThan(0);
      let at = 0;
      for (const line of lines.slice(from)) {
        const found = source.indexOf(line, at);
        expect(found, `${name}: ${JSON.stringify(line)}`).toBeGreaterThan(-1);
        at = found + 1;
      }
    }
  });
});
