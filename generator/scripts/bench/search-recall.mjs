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
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { fromBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import { createRequestCapture } from "./buf-request.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const setsDir = join(generatorDir, "..", "e2e", "vectors", "tool-search");
const require = createRequire(import.meta.url);

const { values: opt } = parseArgs({
  options: {
    apis: { type: "string", default: "temporal,vertex-ai,compute" },
    "temporal-root": { type: "string" },
    misses: { type: "boolean", default: false },
    odd: { type: "boolean", default: false },
    dist: { type: "string", default: join(generatorDir, "dist") },
  },
});

const load = (file) => import(pathToFileURL(resolve(opt.dist, file)).href);
const gen = await load("index.js");
const { buildToolSearchIndex } = await load("search/tool-search-index.js");
const { rankTools } = await load("search/rank.js");

const googleRoot = dirname(
  require.resolve("google-proto-files/package.json", { paths: [generatorDir] }),
);
const sources = {
  compute: { root: googleRoot, dir: "google/cloud/compute/v1" },
  "vertex-ai": { root: googleRoot, dir: "google/cloud/aiplatform/v1" },
  temporal: { root: opt["temporal-root"], dir: "temporal/api" },
};
const capture = createRequestCapture();
let failed = false;

for (const api of opt.apis.split(",").map((a) => a.trim())) {
  const source = sources[api];
  if (source === undefined) {
    console.error(
      `--apis ${JSON.stringify(api)}: not one of ${Object.keys(sources).join(", ")}`,
    );
    process.exit(2);
  }
  if (source.root === undefined || !existsSync(join(source.root, source.dir))) {
    console.log(
      `${api}: skipped: no protos (pass --temporal-root, a directory holding temporal/, google/ and nexusannotations/ of temporalio/api without buf.yaml; see e2e/vectors/tool-search/README.md)`,
    );
    continue;
  }
  const set = JSON.parse(
    readFileSync(join(setsDir, "queries", `${api}.json`), "utf8"),
  );
  if (!Array.isArray(set.queries) || set.queries.length === 0) {
    console.error(`${api}: queries/${api}.json has no queries`);
    failed = true;
    continue;
  }
  const request = fromBinary(
    CodeGeneratorRequestSchema,
    capture(source.root, source.dir),
  );
  const options = gen.parseOptions(set.options);
  const { tools } = gen.buildModel(
    gen.resolveRequestFiles(request).files,
    undefined,
    gen.toolSelectionOf(options.common, options.lists),
  );
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
