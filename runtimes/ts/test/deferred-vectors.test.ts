// The shared deferred-tools vectors, e2e/vectors/tool-search/requests.json:
// for the fixture's five tools and two namespaces, each case's searches
// (found and loaded lists) and then every provider's request and every
// answer to a search call, which the Go and Python runtimes must equal as
// parsed JSON. Written by this test with UPDATE_VECTORS=1
// (`UPDATE_VECTORS=1 npx vitest run test/deferred-vectors.test.ts`);
// without it the test fails on any difference.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { expect, it } from "vitest";
import {
  createDeferredTools,
  createMemoryConversationStore,
  parseSearchArguments,
} from "../src/index.js";
import {
  fixtureNamespaces,
  fixtureSearch,
  fixtureTools,
  fixtureIndex,
} from "./support/deferred-fixture.js";

const file = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/tool-search/requests.json",
);

const cases = [
  {
    name: "nothing always loaded",
    alwaysLoaded: [] as string[],
    searches: [
      { query: "remove a link", limit: 1 },
      { query: "get user", limit: 2 },
      { query: "get link delete", limit: 3 },
    ],
    found: ["links_get", "users_get", "links_delete"],
  },
  {
    name: "users_get and links_list always loaded",
    alwaysLoaded: ["users_get", "links_list"],
    searches: [
      { query: "short links of a user", limit: 5 },
      { query: "zebra", limit: 5 },
    ],
    found: ["links_list", "links_create", "users_get"],
  },
  {
    name: "at most 2 loaded",
    alwaysLoaded: [] as string[],
    maxLoaded: 2,
    searches: [
      { query: "remove a link", limit: 1 },
      { query: "get user", limit: 2 },
      { query: "get link delete", limit: 2 },
    ],
    found: ["links_get"],
  },
];

// Objects, as OpenAI's tool_search_call sends them, and strings holding
// the wire text of a function call's arguments (decoded once: the
// double-encoded one is refused). Go is given a string's content, the wire
// text itself, and an object's JSON text.
const searchArguments: unknown[] = [
  { query: "get a link", limit: 3 },
  { query: "x", namespace: "LinkService" },
  { limit: 21, query: 3, extra: true },
  null,
  '{"query":"x","namespace":"LinkService"}',
  '"hello"',
  JSON.stringify('{"query":"get a link"}'),
  '{"query":"get a link"}',
  '{"query":"get a link","limit":null}',
  "42",
  "{",
  "[]",
  '{"limit":2}',
  '{"query":"x","limit":0}',
  '{"query":"x","limit":21}',
  '{"query":"x","limit":1.5}',
  '{"query":"x","limit":"3"}',
  '{"query":"x","limit":NaN}',
  '{"query":"x","limit":Infinity}',
  '{"query":"x","limit":1e400}',
  ' \n{"query":"get a link"}\t',
  '{"query":"x"} {}',
];

const toolOfCalls = [
  ["LinkService", "GetLink"],
  ["UserService", "GetUser"],
  ["LinkService", "GetLinks"],
  ["Links", "GetLink"],
] as const;

/** JSON round trip: what a provider's SDK would send. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

function caught(f: () => unknown): { expected: unknown } | { error: string } {
  try {
    return { expected: plain(f()) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

async function build(): Promise<unknown> {
  const out = [];
  for (const c of cases) {
    const store = createMemoryConversationStore();
    const deferred = createDeferredTools({
      tools: fixtureTools,
      search: fixtureSearch(),
      store,
      alwaysLoaded: c.alwaysLoaded,
      maxLoaded: c.maxLoaded,
    });
    const handle = await store.create();
    const searches = [];
    for (const s of c.searches) {
      searches.push({
        ...s,
        ...(await deferred.search(handle, s.query, s.limit).then(
          (outcome) => outcome,
          (e: unknown) => ({ error: (e as Error).message }),
        )),
      });
    }
    out.push({
      name: c.name,
      alwaysLoaded: c.alwaysLoaded,
      ...(c.maxLoaded === undefined ? {} : { maxLoaded: c.maxLoaded }),
      searches,
      requests: plain({
        openAiResponsesHosted: await deferred.openAiResponses(handle, {
          search: "hosted",
        }),
        openAiResponsesClient: await deferred.openAiResponses(handle, {
          search: "client",
        }),
        openAiChat: await deferred.openAiChat(handle),
        gemini: await deferred.gemini(handle),
        geminiParameters: await deferred.gemini(handle, { form: "parameters" }),
        anthropicBm25: await deferred.anthropic(handle, { search: "bm25" }),
        anthropicRegex: await deferred.anthropic(handle, { search: "regex" }),
        anthropicClient: await deferred.anthropic(handle, { search: "client" }),
      }),
      found: c.found,
      answers: plain({
        openAiToolSearchOutput: deferred.openAiToolSearchOutput(
          "call_1",
          c.found,
        ),
        anthropicToolReferences: deferred.anthropicToolReferences(c.found),
        anthropicToolReferencesNone: deferred.anthropicToolReferences([]),
        anthropicToolReferencesAlwaysLoaded: deferred.anthropicToolReferences(
          c.alwaysLoaded,
        ),
        searchToolsResult: JSON.parse(
          deferred.searchToolsResult(c.found),
        ) as unknown,
      }),
      toolOf: toolOfCalls.map(([namespace, fn]) => ({
        namespace,
        function: fn,
        ...caught(() => deferred.toolOf(namespace, fn)),
      })),
    });
  }
  return {
    description:
      "Deferred tools and the search tool (docs/tool-search.md, 'Provider requests', 'The search tool' and 'Limits'; e2e/vectors/tool-search/README.md): build `tools` (each {name, description, strict, parameters, forms}) and `toolSearch` (the data's JSON text) as a generated file declares them; per case, a memory store, one conversation, DeferredTools with `alwaysLoaded`, `maxLoaded` when given and the default limit; run `searches` in order (each result's found and loaded must equal, or the search fails with `error`, the text exactly, and loads nothing); then each request (openAiResponses hosted and client, openAiChat, gemini with the JSON Schema form and with the OpenAPI form `parameters`, anthropic bm25, regex and client), the answers for `found` (tool_search_output of call_1, tool_reference blocks, tool_reference blocks for nothing found and for the always-loaded tools alone, the search_tools result text parsed) and toolOf must equal `expected` or fail with `error`, compared as parsed JSON. `searchArguments`: parseSearchArguments of each `args` equals `expected` or fails with `error`, the error's text exactly; TypeScript and Python take the value (an object, or a string holding the wire text, decoded once); Go takes the text a provider sent: a string's content, or an object's JSON text. Written by runtimes/ts/test/deferred-vectors.test.ts with UPDATE_VECTORS=1; do not edit by hand.",
    tools: plain(fixtureTools),
    toolSearch: JSON.stringify({
      version: 1,
      namespaces: fixtureNamespaces,
      index: fixtureIndex(fixtureTools),
    }),
    cases: out,
    searchArguments: searchArguments.map((args) => ({
      args,
      ...caught(() => parseSearchArguments(args)),
    })),
  };
}

it("equals e2e/vectors/tool-search/requests.json", async () => {
  const vectors = await build();
  if (process.env["UPDATE_VECTORS"] === "1") {
    const text = await prettier.format(JSON.stringify(vectors), {
      ...(await prettier.resolveConfig(file)),
      filepath: file,
    });
    writeFileSync(file, text);
  }
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(vectors);
});
