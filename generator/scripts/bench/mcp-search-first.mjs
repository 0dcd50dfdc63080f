// What an MCP server's search-first tool set (docs/mcp.md, "Search-first
// tool sets") shows a model, for real APIs: the tools/list before any
// search (search_tools, and call_tool where there is no session), and the
// size of a search_tools result without a session, which carries the found
// tools' input schemas, over every query of the API's query set. Needs the
// built generator (dist/) and the built TypeScript runtime
// (runtimes/ts/dist): the listing and the results are the runtime's own,
// over the generator's tool_search data.
//
//   node scripts/bench/mcp-search-first.mjs                    # vertex-ai, compute
//   node scripts/bench/mcp-search-first.mjs --apis compute --limits 5,3
//   node scripts/bench/mcp-search-first.mjs --options schema=compact
//
// Tokens are o200k_base (gpt-tokenizer) of the tools/list result's JSON.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { generatorDir, querySetModels } from "./query-set-models.mjs";
import { countO200k } from "./tool-tokens.mjs";

const repoRoot = join(generatorDir, "..");

const { values: opt } = parseArgs({
  options: {
    apis: { type: "string", default: "vertex-ai,compute" },
    limits: { type: "string", default: "5,3" },
    options: { type: "string", default: "" },
    dist: { type: "string", default: join(generatorDir, "dist") },
  },
});

const load = (file) => import(pathToFileURL(resolve(opt.dist, file)).href);
const { toolSearchJson } = await load("model/tool-search-data.js");
const runtimeDist = join(repoRoot, "runtimes", "ts", "dist");
const runtime = await import(pathToFileURL(join(runtimeDist, "index.js")).href);
const searchFirst = await import(
  pathToFileURL(join(runtimeDist, "mcp", "search-first.js")).href
);
const limits = opt.limits.split(",").map(Number);
const maxResultBytes = 100_000;

for await (const { api, set, tools: models } of querySetModels({
  apis: opt.apis,
  dist: opt.dist,
  extraOptions: opt.options,
})) {
  const search = runtime.defineToolSearch(toolSearchJson(models));
  // What the catalog reads of a served tool: its name, description and
  // input schema (the listing's other parts do not enter these figures).
  const catalog = searchFirst.createSearchCatalog(
    { search },
    models.map((t) => ({
      tool: t.name,
      listed: {
        name: t.name,
        description: t.description,
        inputSchema: JSON.parse(t.schemaJson),
      },
    })),
  );
  const listing = (tools) => JSON.stringify({ tools });
  const list = listing([catalog.searchTool("list")]);
  const call = listing([
    catalog.searchTool("call"),
    searchFirst.callToolListing,
  ]);
  console.log(
    `${api}${opt.options === "" ? "" : ` (${opt.options})`}: ${models.length} tools, ${search.namespaces.length} namespaces; tools/list before any search: ${countO200k(list)} tokens, ${Buffer.byteLength(list)} bytes (with call_tool: ${countO200k(call)} tokens, ${Buffer.byteLength(call)} bytes)`,
  );
  for (const limit of limits) {
    const sizes = set.queries
      .map((q) =>
        Buffer.byteLength(
          searchFirst.searchResult(catalog.find(q.query, limit), "call")
            .content[0].text,
        ),
      )
      .sort((a, b) => a - b);
    const over = sizes.filter((s) => s > maxResultBytes).length;
    console.log(
      `  search_tools results without a session, limit ${limit}: median ${sizes[sizes.length >> 1]} bytes, largest ${sizes.at(-1)}, ${over} of ${sizes.length} over ${maxResultBytes}`,
    );
  }
}
