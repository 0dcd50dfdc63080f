// Search quality of the tool-search index (generator/src/search, issue 36
// part 2) over the query sets of e2e/vectors/tool-search: recall@5 per API.
// Needs the built generator (dist/).
//
//   node scripts/bench/search-recall.mjs                       # every set
//   node scripts/bench/search-recall.mjs --apis compute
//   node scripts/bench/search-recall.mjs --temporal-root /tmp/temporal-protos
//   node scripts/bench/search-recall.mjs --misses              # list misses
//                                     (even-indexed queries only: tuning
//                                      looks at those; --odd lists all)
//
// Each API's tools are built as the set's README says: google-proto-files
// (generator's pin) for compute and vertex-ai; for temporal, a directory of
// temporalio/api's protos without buf.yaml (--temporal-root), skipped with
// a message when not given. Options: the set's own ("target=ts,tools=all").
// Exits 1 when a set does not load or names a tool the index lacks; the
// recall itself is reported, not asserted.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { generatorDir, querySetModels } from "./query-set-models.mjs";

const { values: opt } = parseArgs({
  options: {
    apis: { type: "string", default: "temporal,vertex-ai,compute" },
    "temporal-root": { type: "string" },
    misses: { type: "boolean", default: false },
    odd: { type: "boolean", default: false },
    dist: { type: "string", default: resolve(generatorDir, "dist") },
  },
});

const load = (file) => import(pathToFileURL(resolve(opt.dist, file)).href);
const { buildToolSearchIndex } = await load("search/tool-search-index.js");
const { rankTools } = await load("search/rank.js");

let failed = false;

for await (const { api, set, tools } of querySetModels({
  apis: opt.apis,
  temporalRoot: opt["temporal-root"],
  dist: opt.dist,
})) {
  if (!Array.isArray(set.queries) || set.queries.length === 0) {
    console.error(`${api}: queries/${api}.json has no queries`);
    failed = true;
    continue;
  }
  const index = buildToolSearchIndex(tools);
  const known = new Set(index.names);
  const absent = [...new Set(set.queries.flatMap((q) => q.relevant))].filter(
    (name) => !known.has(name),
  );
  if (absent.length > 0) {
    console.error(
      `${api}: relevant tools not in the index: ${absent.join(", ")}`,
    );
    failed = true;
  }
  // Tuning looks at the even-indexed queries only; the odd ones check that
  // what was tuned holds on queries it never saw.
  const sums = { even: 0, odd: 0 };
  const counts = { even: 0, odd: 0 };
  const misses = [];
  set.queries.forEach((q, i) => {
    const half = i % 2 === 0 ? "even" : "odd";
    const top = rankTools(index, q.query, 5).map((r) => r.name);
    const found = q.relevant.filter((name) => top.includes(name)).length;
    sums[half] += found / q.relevant.length;
    counts[half]++;
    if (found !== q.relevant.length) {
      misses.push({ i, query: q.query, relevant: q.relevant, top });
    }
  });
  const pct = (sum, n) => `${((100 * sum) / n).toFixed(1)}%`;
  const terms = Object.keys(index.postings).length;
  const bytes = JSON.stringify(index).length;
  console.log(
    `${api}: ${tools.length} tools, ${set.queries.length} queries, recall@5 even ${pct(sums.even, counts.even)} odd ${pct(sums.odd, counts.odd)} all ${pct(sums.even + sums.odd, set.queries.length)}; index ${terms} terms, ${Object.keys(index.queryTerms).length} query terms, ${bytes} bytes of JSON`,
  );
  if (opt.misses) {
    for (const m of misses.filter((m) => opt.odd || m.i % 2 === 0)) {
      console.log(
        `  miss #${m.i} ${JSON.stringify(m.query)}: want ${m.relevant.join(" ")}; top ${m.top.join(" ")}`,
      );
    }
  }
}
process.exit(failed ? 1 : 0);
