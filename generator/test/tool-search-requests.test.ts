import {
  createDeferredTools,
  createMemoryConversationStore,
  defineTool,
  defineToolSearch,
  type DeferredTools,
} from "@protoc-gen-ai-tools/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import type { GeneratorModel } from "../src/model/model.js";
import { modelOf } from "./support/model.js";
import { realApiRequest } from "./support/real-apis.js";

// Compute Engine's whole deferred request builds for every provider
// (issue 36 §1, "the adapters' per-request limits count what each provider
// counts"): the tools and tool-search data the TS target writes, given to
// the runtime's createDeferredTools as a generated file gives them.

let model: GeneratorModel;
let deferred: DeferredTools;
let handle: string;

beforeAll(async () => {
  model = modelOf(
    realApiRequest(
      "google/cloud/compute/v1",
      "target=ts,tools=all,tool_search=true",
    ),
  );
  const tools = model.tools.map((t) =>
    defineTool(t.name, t.description, t.strict, t.schemaJson, t.formsJson),
  );
  const store = createMemoryConversationStore();
  deferred = createDeferredTools({
    tools,
    search: defineToolSearch(model.toolSearchJson),
    store,
  });
  handle = await store.create();
}, 300_000);

describe("Compute Engine (988 tools), deferred", () => {
  it("OpenAI Responses: 124 namespaces and tool_search, hosted and client", async () => {
    for (const search of ["hosted", "client"] as const) {
      const tools = await deferred.openAiResponses(handle, { search });
      expect(tools).toHaveLength(125);
      const functions = tools.flatMap((t) =>
        t.type === "namespace" ? t.tools : [],
      );
      expect(functions).toHaveLength(988);
      expect(functions.every((f) => f.defer_loading)).toBe(true);
    }
  });

  it("Anthropic: 988 deferred tools and the search tool; strict refused", async () => {
    for (const search of ["bm25", "regex", "client"] as const) {
      const tools = await deferred.anthropic(handle, { search });
      expect(tools).toHaveLength(989);
      expect(tools.filter((t) => !("defer_loading" in t))).toHaveLength(1);
    }
    // 988 strict tools are far over Anthropic's 20: sent without strict.
    await expect(
      deferred.anthropic(handle, { search: "bm25", strict: true }),
    ).rejects.toThrow("strict tools in one request");
  });

  it("Chat Completions and Gemini: search_tools, then what searches loaded", async () => {
    expect(await deferred.openAiChat(handle)).toHaveLength(1);
    const out = await deferred.search(handle, "stop a virtual machine", 3);
    expect(out.loaded).toHaveLength(3);
    const chat = await deferred.openAiChat(handle);
    expect(chat.map((t) => t.function.name)).toEqual([
      ...out.loaded,
      "search_tools",
    ]);
    const gemini = await deferred.gemini(handle, { form: "parameters" });
    expect(gemini.functionDeclarations).toHaveLength(4);
  });
});
