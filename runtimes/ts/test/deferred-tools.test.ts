// createDeferredTools over a fixture of five tools in two namespaces, with
// the memory store: the loaded list, each provider's request (compared as
// parsed JSON), the answers to search calls, the limits and the model's
// mistakes. The official SDKs' types are assigned in the test, so
// `tsc -p tsconfig.test.json` checks the shapes against them.
import type Anthropic from "@anthropic-ai/sdk";
import { Code } from "@connectrpc/connect";
import type { FunctionDeclaration } from "@google/genai";
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import {
  ToolError,
  createDeferredTools,
  createMemoryConversationStore,
  parseSearchArguments,
  type AgentTool,
  type ConversationStore,
  type DeferredToolsOptions,
} from "../src/index.js";
import {
  fixtureNamespaces,
  fixtureSearch,
  fixtureTools,
  tool,
} from "./support/deferred-fixture.js";

function setup(options: Partial<DeferredToolsOptions> = {}) {
  const store = createMemoryConversationStore();
  const deferred = createDeferredTools({
    tools: fixtureTools,
    search: fixtureSearch(),
    store,
    ...options,
  });
  return { store, deferred };
}

const openAiFunction = (t: AgentTool) => ({
  type: "function",
  name: t.name,
  description: t.description,
  parameters: t.parameters,
  strict: true,
});

const byName = (name: string) => fixtureTools.find((t) => t.name === name)!;

const searchParameters = {
  type: "object",
  properties: {
    query: {
      type: "string",
      description: "What you want to do, in a few words.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 20,
      description: "The most tools to find; 5 by default.",
    },
  },
  required: ["query"],
  additionalProperties: false,
};

const searchToolsDescription =
  "Search this API's tools by what they do and load the best matches: a loaded tool can be called from the next turn on. Searchable: LinkService (Short links: create, read, list, delete.); UserService (Users.).";

describe("search and the loaded list", () => {
  it("appends the found tools in load order and never reorders them", async () => {
    const { store, deferred } = setup();
    const handle = await store.create();
    const first = await deferred.search(handle, "remove a link", 1);
    expect(first).toEqual({
      found: ["links_delete"],
      loaded: ["links_delete"],
    });
    const second = await deferred.search(handle, "get user", 2);
    expect(second.found).toEqual(["users_get", "links_get"]);
    expect(second.loaded).toEqual(["links_delete", "users_get", "links_get"]);
    // Found again, in another order: the list stays as it was.
    const third = await deferred.search(handle, "get link delete", 3);
    expect(third.found).toContain("links_delete");
    expect(third.loaded.slice(0, 3)).toEqual([
      "links_delete",
      "users_get",
      "links_get",
    ]);
    expect(await deferred.loaded(handle)).toEqual(third.loaded);
  });

  it("keeps always-loaded tools out of the list", async () => {
    const { store, deferred } = setup({ alwaysLoaded: ["users_get"] });
    const handle = await store.create();
    const out = await deferred.search(handle, "get user", 1);
    expect(out).toEqual({ found: ["users_get"], loaded: [] });
  });

  it("finds nothing for words the index does not hold", async () => {
    const { store, deferred } = setup();
    const handle = await store.create();
    expect(await deferred.search(handle, "zebra", 5)).toEqual({
      found: [],
      loaded: [],
    });
  });

  it("loads nothing past maxLoaded and tells the model", async () => {
    const { store, deferred } = setup({ maxLoaded: 2 });
    const handle = await store.create();
    await deferred.search(handle, "remove a link", 1);
    const err = await deferred.search(handle, "get user", 2).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    expect(err).toMatchObject({
      reason: "conversation-full",
      code: Code.ResourceExhausted,
      message:
        "3 tools would be loaded, at most 2: call one of the loaded tools, or start a new conversation",
    });
    expect(await deferred.loaded(handle)).toEqual(["links_delete"]);
    // Tools already loaded count once: the list may reach maxLoaded.
    const out = await deferred.search(handle, "get link delete", 2);
    expect(out.loaded).toEqual(["links_delete", "links_get"]);
    // Only tools already loaded found: nothing to refuse.
    expect(
      (await deferred.search(handle, "remove a link", 1)).loaded,
    ).toHaveLength(2);
  });

  it("takes by default what Chat Completions takes, and refuses below 1", () => {
    expect(() => setup({ maxLoaded: 0 })).toThrow(
      'maxLoaded "0": give a whole number of at least 1',
    );
    expect(() => setup({ maxLoaded: 1.5 })).toThrow('maxLoaded "1.5"');
    expect(() => setup({ maxLoaded: 1 })).not.toThrow();
  });

  it("uses the options' limit when the model gives none", async () => {
    const { store, deferred } = setup({ limit: 1 });
    const handle = await store.create();
    expect((await deferred.search(handle, "link")).found).toHaveLength(1);
  });

  it("says the conversation expired for an unknown handle", async () => {
    const { deferred } = setup();
    await expect(deferred.search("nope", "remove a link")).rejects.toThrow(
      ToolError,
    );
    await expect(
      deferred.search("nope", "remove a link"),
    ).rejects.toMatchObject({ reason: "conversation-expired" });
  });
});

describe("the model's mistakes go back as ToolErrors", () => {
  it.each([
    [42, "- expected a JSON object, got a number"],
    ["{", "- invalid JSON; send the arguments as one JSON object"],
    [{ limit: 2 }, '- "query": missing required field'],
    [
      { query: "x", limit: 0 },
      '- "limit": must be a whole number from 1 to 20',
    ],
    [
      { query: "x", namespace: "N" },
      '- "namespace": unknown field; valid fields: query, limit',
    ],
  ])("search arguments %j: %s", (args, line) => {
    let error: unknown;
    try {
      parseSearchArguments(args);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ reason: "invalid-arguments" });
    expect((error as Error).message).toBe(
      `invalid arguments, nothing was sent:\n${line}`,
    );
  });

  it("refuses a bad limit in search()", async () => {
    const { store, deferred } = setup();
    const handle = await store.create();
    await expect(deferred.search(handle, "link", 0)).rejects.toMatchObject({
      reason: "invalid-arguments",
    });
    expect(await deferred.loaded(handle)).toEqual([]);
  });

  it("toOf names both parts of an unknown OpenAI call", () => {
    const { deferred } = setup();
    expect(deferred.toolOf("LinkService", "GetLink")).toBe("links_get");
    expect(() => deferred.toolOf("LinkService", "GetLinks")).toThrow(
      'no function "GetLinks" in namespace "LinkService": call a function a tool search loaded',
    );
    expect(() => deferred.toolOf("Links", "GetLink")).toThrow(
      'unknown namespace "Links" (function "GetLink")',
    );
    try {
      deferred.toolOf("Links", "GetLink");
    } catch (e) {
      expect(e).toMatchObject({ reason: "unknown-tool" });
    }
  });
});

describe("OpenAI Responses", () => {
  it("hosted: always-loaded, the namespaces deferred, tool_search", async () => {
    const { store, deferred } = setup({ alwaysLoaded: ["users_get"] });
    const handle = await store.create();
    const tools: OpenAI.Responses.Tool[] = await deferred.openAiResponses(
      handle,
      { search: "hosted" },
    );
    expect(JSON.parse(JSON.stringify(tools))).toEqual([
      openAiFunction(byName("users_get")),
      {
        type: "namespace",
        name: "LinkService",
        description: fixtureNamespaces[0]!.description,
        tools: fixtureNamespaces[0]!.tools.map((f) => ({
          ...openAiFunction(byName(f.tool)),
          name: f.function,
          defer_loading: true,
        })),
      },
      { type: "tool_search" },
    ]);
  });

  it("client: the same namespaces, then the client tool_search", async () => {
    const { store, deferred } = setup();
    const handle = await store.create();
    const tools = await deferred.openAiResponses(handle, { search: "client" });
    expect(tools.map((t) => [t.type, "name" in t ? t.name : ""])).toEqual([
      ["namespace", "LinkService"],
      ["namespace", "UserService"],
      ["tool_search", ""],
    ]);
    expect(tools.at(-1)).toEqual({
      type: "tool_search",
      execution: "client",
      description:
        "Search the functions of the namespaces above by what they do; the best matches are loaded.",
      parameters: searchParameters,
    });
  });

  it("answers a client search with the found functions in their namespaces", () => {
    const { deferred } = setup({ alwaysLoaded: ["links_list"] });
    const item: OpenAI.Responses.ResponseInputItem =
      deferred.openAiToolSearchOutput("call_1", [
        "links_get",
        "users_get",
        "links_list",
        "links_delete",
      ]);
    expect(JSON.parse(JSON.stringify(item))).toEqual({
      type: "tool_search_output",
      call_id: "call_1",
      execution: "client",
      status: "completed",
      tools: [
        {
          type: "namespace",
          name: "LinkService",
          description: fixtureNamespaces[0]!.description,
          tools: [
            {
              ...openAiFunction(byName("links_get")),
              name: "GetLink",
              defer_loading: true,
            },
            {
              ...openAiFunction(byName("links_delete")),
              name: "DeleteLink",
              defer_loading: true,
            },
          ],
        },
        {
          type: "namespace",
          name: "UserService",
          description: fixtureNamespaces[1]!.description,
          tools: [
            {
              ...openAiFunction(byName("users_get")),
              name: "GetUser",
              defer_loading: true,
            },
          ],
        },
      ],
    });
  });

  it("refuses a namespace named as an always-loaded tool", async () => {
    const tools = [...fixtureTools, extraTool("LinkService")];
    const { store, deferred } = setup({
      tools,
      search: fixtureSearch(fixtureNamespaces, tools),
      alwaysLoaded: ["LinkService"],
    });
    await expect(
      deferred.openAiResponses(await store.create(), { search: "hosted" }),
    ).rejects.toThrow(
      'namespace "LinkService" has the name of an always-loaded tool',
    );
  });
});

describe("Chat Completions and Gemini: search_tools", () => {
  it("always-loaded, search_tools, then loaded in load order", async () => {
    const { store, deferred } = setup({ alwaysLoaded: ["links_create"] });
    const handle = await store.create();
    await deferred.search(handle, "remove a link", 1);
    await deferred.search(handle, "get user", 1);
    const chat = await deferred.openAiChat(handle);
    const sdkTools: OpenAI.Chat.ChatCompletionTool[] = chat;
    expect(sdkTools).toHaveLength(4);
    expect(chat.map((t) => t.function.name)).toEqual([
      "links_create",
      "search_tools",
      "links_delete",
      "users_get",
    ]);
    expect(JSON.parse(JSON.stringify(chat[1]))).toEqual({
      type: "function",
      function: {
        name: "search_tools",
        description: searchToolsDescription,
        parameters: searchParameters,
        strict: false,
      },
    });
    const gemini = await deferred.gemini(handle);
    const declarations: FunctionDeclaration[] = gemini.functionDeclarations;
    expect(declarations.map((d) => d.name)).toEqual([
      "links_create",
      "search_tools",
      "links_delete",
      "users_get",
    ]);
    expect(declarations[1]).toEqual({
      name: "search_tools",
      description: searchToolsDescription,
      parametersJsonSchema: searchParameters,
    });
    const openApi = await deferred.gemini(handle, { form: "parameters" });
    const { additionalProperties, ...subset } = searchParameters;
    void additionalProperties;
    expect(openApi.functionDeclarations[1]?.parameters).toEqual(subset);
  });

  it("answers a search with the found tools' names and descriptions", () => {
    const { deferred } = setup();
    expect(
      JSON.parse(deferred.searchToolsResult(["users_get", "links_get"])),
    ).toEqual({
      tools: [
        { name: "users_get", description: "Get a user by id." },
        { name: "links_get", description: "Get a short link by its id." },
      ],
    });
  });
});

describe("Anthropic", () => {
  it.each([
    [
      "bm25",
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ],
    [
      "regex",
      {
        type: "tool_search_tool_regex_20251119",
        name: "tool_search_tool_regex",
      },
    ],
  ] as const)(
    "%s: every tool deferred but the always-loaded",
    async (search, server) => {
      const { store, deferred } = setup({ alwaysLoaded: ["users_get"] });
      const tools: Anthropic.Messages.ToolUnion[] = await deferred.anthropic(
        await store.create(),
        { search },
      );
      const plain = (t: AgentTool) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters,
      });
      expect(JSON.parse(JSON.stringify(tools))).toEqual([
        plain(byName("users_get")),
        ...fixtureTools
          .filter((t) => t.name !== "users_get")
          .map((t) => ({ ...plain(t), defer_loading: true })),
        server,
      ]);
    },
  );

  it("client: search_tools not deferred, answered with tool_reference blocks", async () => {
    const { store, deferred } = setup({ alwaysLoaded: ["users_get"] });
    const tools = await deferred.anthropic(await store.create(), {
      search: "client",
    });
    expect(tools.at(-1)).toEqual({
      name: "search_tools",
      description: searchToolsDescription,
      input_schema: searchParameters,
    });
    expect(tools.filter((t) => "defer_loading" in t)).toHaveLength(4);
    const content: Anthropic.Messages.ToolResultBlockParam["content"] =
      deferred.anthropicToolReferences(["links_get", "users_get"]);
    expect(content).toEqual([
      { type: "tool_reference", tool_name: "links_get" },
    ]);
    expect(deferred.anthropicToolReferences([])).toEqual([
      { type: "text", text: "no tool found; search again with other words" },
    ]);
  });

  it("counts every strict tool, deferred too, with strict", async () => {
    const many = Array.from({ length: 21 }, (_, i) => extraTool(`t${i}`));
    const tools = [...fixtureTools, ...many];
    const { store, deferred } = setup({
      tools,
      search: fixtureSearch(fixtureNamespaces, tools),
      alwaysLoaded: many.map((t) => t.name),
    });
    const handle = await store.create();
    await expect(
      deferred.anthropic(handle, { search: "bm25", strict: true }),
    ).rejects.toThrow("strict tools in one request");
    expect(await deferred.anthropic(handle, { search: "bm25" })).toHaveLength(
      tools.length + 1,
    );
  });
});

describe("limits, refused before sending", () => {
  function wide(count: number) {
    const many = Array.from({ length: count }, (_, i) => extraTool(`t${i}`));
    const tools = [...fixtureTools, ...many];
    return setup({
      tools,
      search: fixtureSearch(fixtureNamespaces, tools),
      alwaysLoaded: many.map((t) => t.name),
    });
  }

  it("loads by default what Chat takes beside the always-loaded tools, at least 1", async () => {
    for (const [count, max] of [
      [125, 2],
      [200, 1],
    ] as const) {
      const { store, deferred } = wide(count);
      const handle = await store.create();
      const first = await deferred.search(handle, "remove a link", max);
      expect(first.loaded).toHaveLength(max);
      await expect(deferred.search(handle, "get user", 5)).rejects.toThrow(
        `tools would be loaded, at most ${String(max)}: call one of the loaded tools`,
      );
    }
  });

  it("OpenAI Responses counts top-level items: 125 + 2 namespaces + tool_search", async () => {
    const ok = wide(125);
    const handle = await ok.store.create();
    expect(
      await ok.deferred.openAiResponses(handle, { search: "hosted" }),
    ).toHaveLength(128);
    const over = wide(126);
    await expect(
      over.deferred.openAiResponses(await over.store.create(), {
        search: "client",
      }),
    ).rejects.toThrow(
      "129 top-level tools in one request (126 always loaded, 2 namespaces, the tool_search tool): OpenAI takes at most 128; load fewer tools always, or split the API into several tool sets (fewer services per generated file)",
    );
  });

  it("OpenAI Responses: 127 namespaces + tool_search fit, 128 do not", async () => {
    for (const [count, sent] of [
      [127, true],
      [128, false],
    ] as const) {
      const tools = Array.from({ length: count }, (_, i) =>
        extraTool(`n${String(i).padStart(3, "0")}`),
      );
      const namespaces = tools.map((t) => ({
        name: `N_${t.name}`,
        description: "One.",
        tools: [{ tool: t.name, function: "F" }],
      }));
      const { store, deferred } = setup({
        tools,
        search: fixtureSearch(namespaces, tools),
      });
      const request = deferred.openAiResponses(await store.create(), {
        search: "hosted",
      });
      if (sent) {
        expect(await request).toHaveLength(128);
      } else {
        await expect(request).rejects.toThrow(
          "129 top-level tools in one request (0 always loaded, 128 namespaces, the tool_search tool): OpenAI takes at most 128; load fewer tools always, or split the API into several tool sets (fewer services per generated file)",
        );
      }
    }
  });

  it("Chat Completions counts every function; Gemini every declaration", async () => {
    const chat = wide(127);
    const handle = await chat.store.create();
    expect(await chat.deferred.openAiChat(handle)).toHaveLength(128);
    await chat.deferred.search(handle, "remove a link", 1);
    await expect(chat.deferred.openAiChat(handle)).rejects.toThrow(
      "129 tools in one request: OpenAI takes at most 128; send a subset of the tools, or lower maxLoaded",
    );
    const gemini = wide(511);
    const h2 = await gemini.store.create();
    expect(
      (await gemini.deferred.gemini(h2)).functionDeclarations,
    ).toHaveLength(512);
    await gemini.deferred.search(h2, "remove a link", 1);
    await expect(gemini.deferred.gemini(h2)).rejects.toThrow(
      "513 function declarations in one request: Gemini takes at most 512; send a subset of the tools, or lower maxLoaded",
    );
  });

  it("Anthropic takes at most 10,000 tools", async () => {
    const over = wide(9999);
    await expect(
      over.deferred.anthropic(await over.store.create(), { search: "regex" }),
    ).rejects.toThrow(
      "10005 tools in one request: Anthropic tool search takes at most 10000",
    );
  });
});

describe("options that cannot work", () => {
  it("refuses a store without the loaded-tools operations", () => {
    const full = createMemoryConversationStore();
    const old: ConversationStore = {
      create: (s) => full.create(s),
      load: (h) => full.load(h),
      register: (h, e, p) => full.register(h, e, p),
      delete: (h) => full.delete(h),
    };
    expect(() =>
      createDeferredTools({
        tools: fixtureTools,
        search: fixtureSearch(),
        store: old,
      }),
    ).toThrow(
      "the conversation store cannot keep loaded tools: give it loadTools(handle, epoch, names) and loadedTools(handle)",
    );
  });

  it("refuses unknown always-loaded tools, stray tools and bad limits", () => {
    expect(() => setup({ alwaysLoaded: ["links_gett"] })).toThrow(
      'alwaysLoaded: unknown tool "links_gett": name tools of the generated file',
    );
    expect(() =>
      setup({ tools: [...fixtureTools, extraTool("stray")] }),
    ).toThrow(
      `tool "stray" is served but not in the tool-search data: generate its file with tool_search=true and pass that file's data, or list it in alwaysLoaded`,
    );
    expect(() => setup({ tools: fixtureTools.slice(1) })).toThrow(
      'namespace "LinkService" names the tool "links_create", which is not given',
    );
    const [links, users] = fixtureNamespaces;
    expect(() =>
      setup({ search: fixtureSearch([links!, users!, users!]) }),
    ).toThrow('tool search data: namespace "UserService" is listed twice');
    expect(() =>
      setup({
        search: fixtureSearch([
          links!,
          { ...users!, tools: [...users!.tools, links!.tools[0]!] },
        ]),
      }),
    ).toThrow(
      'namespace "UserService" lists the tool "links_create" (function "CreateLink") a second time',
    );
    expect(() => setup({ limit: 21 })).toThrow(
      'limit "21": give a whole number from 1 to 20',
    );
    expect(() => setup({ limit: 0 })).toThrow('limit "0"');
  });
});

function extraTool(name: string): AgentTool {
  return tool(name, `Tool ${name}.`);
}
