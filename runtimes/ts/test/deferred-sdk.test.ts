// The deferred requests and the answers to search calls, sent by the
// official SDK clients to a local stub: each request body carries them
// exactly (the SDKs neither drop nor rename a field of ours).
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDeferredTools,
  createMemoryConversationStore,
  type DeferredTools,
} from "../src/index.js";
import {
  startCaptureServer,
  type CaptureServer,
} from "./support/capture-server.js";
import { fixtureSearch, fixtureTools } from "./support/deferred-fixture.js";

let stub: CaptureServer;
let deferred: DeferredTools;
let handle: string;

beforeAll(async () => {
  stub = await startCaptureServer();
  const store = createMemoryConversationStore();
  deferred = createDeferredTools({
    tools: fixtureTools,
    search: fixtureSearch(),
    store,
    alwaysLoaded: ["users_get"],
  });
  handle = await store.create();
  await deferred.search(handle, "remove a link", 1);
});

afterAll(async () => {
  await stub.close();
});

/** Send with the client, expect the stub's 400, return the body it received. */
async function bodyOf(
  send: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  const before = stub.requests.length;
  await expect(send()).rejects.toThrow();
  expect(stub.requests.length).toBe(before + 1);
  return stub.requests.at(-1)?.body as Record<string, unknown>;
}

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe("openai SDK", () => {
  const client = () =>
    new OpenAI({ apiKey: "test", baseURL: `${stub.url}/v1`, maxRetries: 0 });

  it.each(["hosted", "client"] as const)(
    "Responses, %s search, with a tool_search_output item",
    async (search) => {
      const tools = await deferred.openAiResponses(handle, { search });
      const answer = deferred.openAiToolSearchOutput("call_1", [
        "links_get",
        "users_get",
      ]);
      const body = await bodyOf(() =>
        client().responses.create({
          model: "gpt-test",
          input: [
            { role: "user", content: "get link-1" },
            {
              type: "tool_search_call",
              call_id: "call_1",
              execution: "client",
              arguments: { query: "get a link" },
            },
            answer,
          ],
          tools,
        }),
      );
      expect(body["tools"]).toEqual(plain(tools));
      expect((body["input"] as unknown[])[2]).toEqual(plain(answer));
    },
  );

  it("Chat Completions", async () => {
    const tools = await deferred.openAiChat(handle);
    const body = await bodyOf(() =>
      client().chat.completions.create({
        model: "gpt-test",
        messages: [{ role: "user", content: "hi" }],
        tools,
      }),
    );
    expect(body["tools"]).toEqual(plain(tools));
  });
});

describe("@anthropic-ai/sdk", () => {
  const client = () =>
    new Anthropic({ apiKey: "test", baseURL: stub.url, maxRetries: 0 });

  it.each(["bm25", "regex", "client"] as const)(
    "%s search, with a tool_result of tool_reference blocks",
    async (search) => {
      const tools = await deferred.anthropic(handle, { search });
      const content = deferred.anthropicToolReferences(["links_get"]);
      const body = await bodyOf(() =>
        client().messages.create({
          model: "claude-test",
          max_tokens: 16,
          messages: [
            { role: "user", content: "get link-1" },
            {
              role: "assistant",
              content: [
                {
                  type: "tool_use",
                  id: "toolu_1",
                  name: "search_tools",
                  input: { query: "get a link" },
                },
              ],
            },
            {
              role: "user",
              content: [
                { type: "tool_result", tool_use_id: "toolu_1", content },
              ],
            },
          ],
          tools,
        }),
      );
      expect(body["tools"]).toEqual(plain(tools));
      expect(JSON.stringify(body["messages"])).toContain(
        '{"type":"tool_reference","tool_name":"links_get"}',
      );
    },
  );
});

describe("@google/genai", () => {
  it("the declarations of the loaded tools and search_tools", async () => {
    const ai = new GoogleGenAI({
      apiKey: "test",
      httpOptions: { baseUrl: stub.url },
    });
    const tool = await deferred.gemini(handle);
    const body = await bodyOf(() =>
      ai.models.generateContent({
        model: "gemini-test",
        contents: "hi",
        config: { tools: [tool] },
      }),
    );
    expect(body["tools"]).toEqual([plain(tool)]);
  });
});
