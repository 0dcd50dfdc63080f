// What a deferred request puts in the model's context before any search,
// and what a conversation that has loaded three tools sends, per provider,
// for real APIs (issue 36, "Done when"). Needs the built generator (dist/)
// and the built TypeScript runtime (runtimes/ts/dist): the requests are the
// runtime's own (createDeferredTools), built from the generator's
// tool_search data, so what is counted is what an application sends.
//
//   node scripts/bench/deferred-tokens.mjs                       # every API
//   node scripts/bench/deferred-tokens.mjs --apis compute
//   node scripts/bench/deferred-tokens.mjs --temporal-root /tmp/temporal-protos
//   node scripts/bench/deferred-tokens.mjs --json               # one JSON object
//
// Tokens are o200k_base (gpt-tokenizer) of the JSON text, for every
// provider: Anthropic and Gemini tokenize differently and add their own
// framing, so their figures are comparable, not exact. What enters the
// context before a search:
//   openai-responses  the always-loaded functions, each namespace's name and
//                     description (its functions are deferred: the model
//                     does not see them), and the tool_search tool
//   anthropic-bm25    the non-deferred tools: the search tool (Anthropic
//                     adds its own instructions for it, not counted)
//   anthropic-client  the non-deferred tools: search_tools
//   openai-chat,      the whole request: search_tools (its description
//   gemini            names the searchable namespaces)
// The full list is the API's tools in the provider's ordinary form, all
// sent. "3 loaded" adds to the context before search the three tools a
// conversation loaded (the first relevant tool of the query set's first
// queries), as each provider shows them. Request bytes are the UTF-8 bytes
// of the whole `tools` value sent (deferred requests still carry every
// schema for OpenAI Responses and Anthropic).
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { generatorDir, querySetModels } from "./query-set-models.mjs";
import { countO200k } from "./tool-tokens.mjs";

const repoRoot = join(generatorDir, "..");

const { values: opt } = parseArgs({
  options: {
    apis: { type: "string", default: "temporal,vertex-ai,compute" },
    "temporal-root": { type: "string" },
    json: { type: "boolean", default: false },
    dist: { type: "string", default: join(generatorDir, "dist") },
  },
});

const load = (file) => import(pathToFileURL(resolve(opt.dist, file)).href);
const { toolSearchJson } = await load("model/tool-search-data.js");
const runtime = await import(
  pathToFileURL(join(repoRoot, "runtimes", "ts", "dist", "index.js")).href
);
const results = {};

for await (const { api, set, tools } of querySetModels({
  apis: opt.apis,
  temporalRoot: opt["temporal-root"],
  dist: opt.dist,
})) {
  results[api] = await measure(set, tools);
}

if (opt.json) {
  console.log(JSON.stringify(results, null, 2));
} else {
  for (const [api, r] of Object.entries(results)) {
    console.log(
      `${api}: ${r.tools} tools, ${r.namespaces} namespaces (largest ${r.largestNamespace} functions); loaded: ${r.loadedTools.join(", ")}`,
    );
    console.log(
      `  ${"provider".padEnd(24)} before search    share  full list  3 loaded  request bytes (deferred / full)`,
    );
    for (const [p, f] of Object.entries(r.providers)) {
      console.log(
        `  ${p.padEnd(24)} ${String(f.beforeSearch).padStart(13)} ${f.share.padStart(8)} ${String(f.fullList).padStart(10)} ${String(f.threeLoaded).padStart(9)}  ${f.requestBytes} / ${f.fullRequestBytes}`,
      );
    }
  }
}

async function measure(set, models) {
  const tools = models.map((t) =>
    runtime.defineTool(
      t.name,
      t.description,
      t.strict,
      t.schemaJson,
      t.formsJson,
    ),
  );
  const search = runtime.defineToolSearch(toolSearchJson(models));
  const store = runtime.createMemoryConversationStore();
  const deferred = runtime.createDeferredTools({ tools, search, store });
  const fresh = await store.create();
  const loadedTools = [];
  for (const q of set.queries) {
    if (loadedTools.length === 3) break;
    if (!loadedTools.includes(q.relevant[0])) loadedTools.push(q.relevant[0]);
  }
  const three = await store.create();
  const { epoch } = await store.load(three);
  await store.loadTools(three, epoch, loadedTools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const loaded = loadedTools.map((n) => byName.get(n));

  const tokens = (value) => countO200k(JSON.stringify(value));
  const bytes = (value) => Buffer.byteLength(JSON.stringify(value));
  const full = {
    "openai-responses": tools.map((t) => runtime.toOpenAiResponsesTool(t)),
    "openai-chat": tools.map((t) => runtime.toOpenAiChatTool(t)),
    gemini: {
      functionDeclarations: tools.map((t) =>
        runtime.toGeminiFunctionDeclaration(t),
      ),
    },
    anthropic: tools.map((t) => runtime.toAnthropicTool(t)),
  };
  const providers = {};
  const record = (name, fullForm, before, threeValue, requestValue) => {
    const fullList = tokens(fullForm);
    providers[name] = {
      beforeSearch: before,
      fullList,
      share: `${((100 * before) / fullList).toFixed(2)}%`,
      threeLoaded: threeValue,
      requestBytes: bytes(requestValue),
      fullRequestBytes: bytes(fullForm),
    };
  };

  for (const mode of ["hosted", "client"]) {
    const request = await deferred.openAiResponses(fresh, { search: mode });
    const visible = request.map((item) =>
      item.type === "namespace"
        ? { type: item.type, name: item.name, description: item.description }
        : item,
    );
    const before = tokens(visible);
    const added = tokens(loaded.map((t) => runtime.toOpenAiResponsesTool(t)));
    record(
      `openai-responses-${mode}`,
      full["openai-responses"],
      before,
      before + added,
      request,
    );
  }
  for (const mode of ["bm25", "client"]) {
    const request = await deferred.anthropic(fresh, { search: mode });
    const before = tokens(request.filter((t) => t.defer_loading !== true));
    const added = tokens(loaded.map((t) => runtime.toAnthropicTool(t)));
    record(
      `anthropic-${mode}`,
      full.anthropic,
      before,
      before + added,
      request,
    );
  }
  const chatBefore = await deferred.openAiChat(fresh);
  record(
    "openai-chat",
    full["openai-chat"],
    tokens(chatBefore),
    tokens(await deferred.openAiChat(three)),
    chatBefore,
  );
  const geminiBefore = await deferred.gemini(fresh);
  record(
    "gemini",
    full.gemini,
    tokens(geminiBefore),
    tokens(await deferred.gemini(three)),
    geminiBefore,
  );

  const sizes = search.namespaces.map((ns) => ns.tools.length);
  return {
    tools: tools.length,
    namespaces: search.namespaces.length,
    largestNamespace: Math.max(...sizes),
    namespacesOver10: sizes.filter((n) => n > 10).length,
    loadedTools,
    providers,
  };
}
