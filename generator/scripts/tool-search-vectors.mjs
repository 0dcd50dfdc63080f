#!/usr/bin/env node
// Write (or, with --check, verify) the shared tool-search ranking vectors,
// e2e/vectors/tool-search/ranking.json: tool-search indexes (format
// version 2, docs/tool-search.md "Search index") and queries with the names AND scores the
// reference ranking (src/search/rank.ts) gives. The Go, TypeScript and
// Python runtimes rank every query with the case's index and compare
// names and scores exactly (as parsed doubles). Needs the built generator
// (dist/) and buf (pnpm install).
//
//   node scripts/tool-search-vectors.mjs           # write ranking.json
//   node scripts/tool-search-vectors.mjs --check   # exit 1 when stale (CI)
//
// Cases: the e2e linkhub API (e2e/proto, default tool selection); a part
// of Vertex AI (google-proto-files, tools=all, the tools of a few
// services, to keep the file small) with queries of its query set; and a
// small hand-made index whose query tables exercise every pipeline step.
// An index is stored as its JSON text, as the generated files carry it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { fromBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import * as prettier from "prettier";
import { createRequestCapture } from "./bench/buf-request.mjs";
import { unifiedDiff } from "./lib/diff.mjs";

const generatorDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(generatorDir, "..");
const out = join(repoRoot, "e2e", "vectors", "tool-search", "ranking.json");
const { values: opt } = parseArgs({
  options: { check: { type: "boolean", default: false } },
});
const load = (file) =>
  import(pathToFileURL(join(generatorDir, "dist", file)).href);
if (!existsSync(join(generatorDir, "dist", "search", "rank.js"))) {
  console.error(
    "tool-search-vectors: generator/dist not built: run `npx -y pnpm@12.4.2 --filter protoc-gen-ai-tools build`",
  );
  process.exit(1);
}
const gen = await load("index.js");
const { buildBm25Index } = await load("search/bm25-index.js");
const { buildToolSearchIndex } = await load("search/tool-search-index.js");
const { rankTools } = await load("search/rank.js");
const { canonicalJson } = gen;

const capture = createRequestCapture();
function toolsOf(root, dir, parameter) {
  const request = fromBinary(CodeGeneratorRequestSchema, capture(root, dir));
  const options = gen.parseOptions(parameter);
  return gen.buildModel(
    gen.resolveRequestFiles(request).files,
    undefined,
    gen.toolSelectionOf(options.common, options.lists),
  ).tools;
}

// Queries every case runs: the edge cases of the pipeline's steps.
const edgeQueries = [
  { query: "" },
  { query: "  ,.;-_  " },
  { query: "the of a to" },
  { query: "zzzz qqqq unknownword" },
  { query: "constructor toString __proto__ hasOwnProperty" },
  {
    query:
      "\u00e9t\u00e9 \u00fcber na\u00efve \u2014 \u2603 \ud83d\ude80 \u65e5\u672c",
  },
];

/**
 * Two queries of the same three terms in opposite orders whose best score
 * differs (in the last bits: sums are taken in query-term order), the
 * first such triple of `index`'s terms; none when there is none.
 */
function orderSensitive(index) {
  const terms = Object.keys(index.postings)
    .filter((t) => index.postings[t].length > 1)
    .slice(0, 60);
  for (let i = 0; i < terms.length; i++) {
    for (let j = i + 1; j < terms.length; j++) {
      for (let k = j + 1; k < terms.length; k++) {
        const forth = `${terms[i]} ${terms[j]} ${terms[k]}`;
        const back = `${terms[k]} ${terms[j]} ${terms[i]}`;
        const [a] = rankTools(index, forth, 1);
        const [b] = rankTools(index, back, 1);
        if (a && b && a.name === b.name && a.score !== b.score) {
          return [{ query: forth }, { query: back }];
        }
      }
    }
  }
  return [];
}

/** The case's queries, each ranked by the reference: names and scores. */
function ranked(index, queries) {
  return queries.map(({ query, limit = 5 }) => {
    try {
      const hits = rankTools(index, query, limit);
      return { query, limit, expected: hits };
    } catch (e) {
      return { query, limit, error: e.message };
    }
  });
}

function linkhubCase() {
  const tools = toolsOf(repoRoot, "e2e/proto/linkhub", "target=ts");
  const index = buildToolSearchIndex(tools);
  return {
    name: "linkhub",
    description:
      "The e2e linkhub API (e2e/proto/linkhub, default tool selection): the index buildToolSearchIndex writes for it.",
    index,
    queries: [
      ...edgeQueries,
      { query: "delete a link" },
      { query: "deleteLink" },
      { query: "DELETE LINK" },
      { query: "link link link delete delete" },
      { query: "Supprimer le lien \u00ab links \u00bb, s'il vous pla\u00eet" },
      { query: "list the page themes of my workspace" },
      { query: "PageThemes_create" },
      { query: "echo a sample" },
      { query: "archive the link and export links", limit: 1 },
      { query: "link", limit: 3 },
      { query: "link", limit: 20 },
      { query: "workflow step email" },
      ...orderSensitive(index),
      { query: "long running operation state" },
      { query: "link", limit: 0 },
      { query: "link", limit: -1 },
    ],
  };
}

// The Vertex AI services whose tools the trimmed case indexes.
const vertexServices = new Set([
  "EndpointService",
  "IndexEndpointService",
  "IndexService",
  "ModelService",
  "PredictionService",
]);

function vertexCase() {
  const googleRoot = dirname(
    createRequire(import.meta.url).resolve("google-proto-files/package.json", {
      paths: [generatorDir],
    }),
  );
  const tools = toolsOf(
    googleRoot,
    "google/cloud/aiplatform/v1",
    "target=ts,tools=all",
  ).filter((t) => vertexServices.has(t.service.name));
  const index = buildToolSearchIndex(tools);
  const set = JSON.parse(
    readFileSync(
      join(
        repoRoot,
        "e2e",
        "vectors",
        "tool-search",
        "queries",
        "vertex-ai.json",
      ),
      "utf8",
    ),
  );
  const known = new Set(index.names);
  const queries = set.queries
    .filter((q) => q.relevant.every((name) => known.has(name)))
    .map((q) => ({ query: q.query }));
  return {
    name: "vertex-ai",
    description: `Vertex AI (google-proto-files, google/cloud/aiplatform/v1, tools=all), the ${index.names.length} tools of ${[...vertexServices].join(", ")} only; the queries of queries/vertex-ai.json whose relevant tools are among them.`,
    index,
    queries: [
      ...edgeQueries,
      ...queries,
      { query: queries[0].query, limit: 10 },
      ...orderSensitive(index),
    ],
  };
}

// A hand-made index: documents chosen so that every step of the pipeline
// shows (stop words that are also terms, tokens standing for two terms,
// for a term the postings lack, for nothing; exact ties).
function tablesCase() {
  const docs = [
    ["zeta_tool", "remove delete entry entry"],
    ["alpha_tool", "delete entry"],
    ["beta_tool", "delete entry"],
    ["Gamma_tool", "create entry"],
    ["delta_tool", "the list entries"],
  ];
  const index = buildBm25Index(
    docs.map(([name, text]) => ({ name, terms: text.split(" ") })),
    {
      stopWords: ["the", "a"],
      queryTerms: new Map([
        ["erase", ["delete", "remove"]],
        ["entries", ["entry", "entries"]],
        ["make", ["create"]],
        ["listing", ["list"]],
      ]),
    },
  );
  // Entries the builder would prune, which a runtime must still read right:
  // a term the postings lack is ignored; an empty list drops the token.
  const queryTerms = {
    ...index.queryTerms,
    ghost: ["phantom", "list"],
    nothing: [],
  };
  const sorted = Object.fromEntries(
    Object.keys(queryTerms)
      .sort()
      .map((k) => [k, queryTerms[k]]),
  );
  return {
    name: "tables",
    description:
      "A hand-made index: stop words that are also indexed terms (the query drops them), a token standing for two terms (erase), for itself and another (entries), for a term the postings lack and one they hold (ghost), for nothing (nothing); equal scores ordered by document index (names by bytes: Gamma_tool before alpha_tool).",
    index: { ...index, queryTerms: sorted },
    queries: [
      ...edgeQueries,
      { query: "delete" },
      { query: "erase" },
      { query: "erase the entry" },
      { query: "entries" },
      { query: "entry entries delete" },
      { query: "delete entry erase" },
      { query: "make" },
      { query: "ghost" },
      { query: "nothing" },
      { query: "nothing delete" },
      { query: "the" },
      { query: "phantom" },
      { query: "listing Listing LISTING" },
      { query: "entry" },
      { query: "delete", limit: 2 },
      { query: "delete", limit: 0 },
    ],
  };
}

const cases = [linkhubCase(), vertexCase(), tablesCase()].map((c) => ({
  name: c.name,
  description: c.description,
  index: canonicalJson(c.index),
  queries: ranked(c.index, c.queries),
}));
const vectors = {
  description:
    'Tool-search ranking (docs/tool-search.md, the six steps of "Search index"): for each case, parse `index` (a version 2 index, JSON text) and rank each query with its limit; the result must equal `expected` (names in order, scores compared exactly as parsed doubles), or the call must fail with `error`. Written by generator/scripts/tool-search-vectors.mjs; do not edit by hand.',
  cases,
};
const text = await prettier.format(JSON.stringify(vectors), {
  ...(await prettier.resolveConfig(out)),
  filepath: out,
});
if (opt.check) {
  const current = existsSync(out) ? readFileSync(out, "utf8") : "";
  if (current !== text) {
    console.error(
      unifiedDiff(current, text, out, "regenerated").slice(0, 4000),
    );
    console.error(
      `${out} is stale: run \`node scripts/tool-search-vectors.mjs\` in generator/ and commit it`,
    );
    process.exit(1);
  }
  console.log(`ranking.json: up to date (${cases.length} cases)`);
} else {
  writeFileSync(out, text);
  console.log(
    `wrote ${out}: ${cases.map((c) => `${c.name} ${c.queries.length} queries`).join(", ")}; ${text.length} bytes`,
  );
}
