// `pnpm bench`, second part: what the generated tool list costs in tokens.
//
// For every test API (each case of testdata/protos, e2e/proto, the large
// Temporal-shaped API of test/support/large-api.ts and the first files of
// the benchmark corpus, versions 2 and 1: scripts/bench/corpus.mjs) it builds the tools the way the plugin does (the
// built generator in dist/: options, tool selection, model) twice, with the
// default schemas (`schema=inline`) and with `schema=compact`, and counts
// the o200k_base tokens of the tool list a provider request carries. A
// generator without the `schema` option gets "n/a" in the compact column,
// never a made-up figure.
//
// The tokenizer is gpt-tokenizer (pinned in package.json): its o200k ranks
// are part of the npm package, so nothing is downloaded when this runs.
//
//   node scripts/tokens.mjs [--files N] [--seed S] [--dist DIR] [--anthropic]
//                           [--breakdown] [--json]
//
// --breakdown also prints where the tokens go (bench/token-breakdown.mjs:
// descriptions, property names, keywords, $defs, patterns, …) for the
// Temporal-shaped API and corpus version 2, in both forms.
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import ts from "typescript";
import { generateCorpus, RPCS_PER_FILE } from "./bench/corpus.mjs";
import {
  buildRequest,
  listCases,
  protosDir,
  repoRoot,
} from "./lib/request.mjs";
import { toolListTokens } from "./bench/tool-tokens.mjs";
import { categories, tokenBreakdown } from "./bench/token-breakdown.mjs";
import { wholeNumber } from "./bench/whole-number.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..");

const { values: opt } = parseArgs({
  options: {
    files: { type: "string", default: "5" },
    seed: { type: "string", default: "ai-tools-bench-1" },
    dist: { type: "string", default: join(generatorDir, "dist") },
    anthropic: { type: "boolean", default: false },
    breakdown: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opt.help) {
  console.log(`usage: node scripts/tokens.mjs [options]
  --files N     benchmark corpus files to count (${RPCS_PER_FILE} tools each; default 5)
  --seed S      corpus seed (default ai-tools-bench-1, as scripts/bench.mjs)
  --dist DIR    built generator to use (default dist/; run \`pnpm build\` first)
  --anthropic   also count the Anthropic form ({name, description, input_schema})
  --breakdown   also print where the tokens go, by category (large API, corpus v2)
  --json        print the rows as JSON instead of tables`);
  process.exit(0);
}
const corpusFiles = wholeNumber("files", opt.files, 1, (message) => {
  console.error(`tokens: ${message}`);
  process.exit(2);
});

/** The built generator's modules (dist/), or an error naming the fix. */
async function loadGenerator(distDir) {
  const load = (file) => import(pathToFileURL(resolve(distDir, file)).href);
  try {
    const index = await load("index.js");
    const selection = await load("model/tool-selection.js");
    return {
      parseOptions: index.parseOptions,
      buildModel: index.buildModel,
      resolveRequestFiles: index.resolveRequestFiles,
      toolSelectionOf: selection.toolSelectionOf,
    };
  } catch (e) {
    console.error(
      `cannot load the generator from ${JSON.stringify(distDir)} (${e.message}); run \`pnpm build\` in generator/ first`,
    );
    process.exit(1);
  }
}

const gen = await loadGenerator(opt.dist);

/** Newest modification time of the files under dir, in ms. */
function newest(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce(
      (t, e) => Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs),
      0,
    );
}

const staleDist =
  newest(join(generatorDir, "src")) >
  statSync(resolve(opt.dist, "index.js")).mtimeMs;

/**
 * The tools of a request built with the given extra plugin parameter, or a
 * string saying why there are none: "n/a: ..." when the generator does not
 * know the option.
 */
function toolsOf(request, extra) {
  // A case's own schema= option (testdata/protos/compact has one) gives way
  // to the form measured.
  const parameter = [
    ...request.parameter
      .split(",")
      .filter((p) => p.trim() !== "" && !p.trim().startsWith("schema=")),
    extra,
  ]
    .filter((p) => p)
    .join(",");
  let options;
  try {
    options = gen.parseOptions(parameter);
  } catch (e) {
    return /unknown option|invalid value/.test(e.message)
      ? `n/a: option not available (${e.message})`
      : `error: ${e.message}`;
  }
  try {
    return gen.buildModel(
      gen.resolveRequestFiles(request).files,
      undefined,
      gen.toolSelectionOf(options.common, options.lists),
    ).tools;
  } catch (e) {
    return `error: ${e.message}`;
  }
}

/** test/support/large-api.ts, transpiled (it is a test helper, in TypeScript). */
async function largeApiProtos(work) {
  const source = readFileSync(
    join(generatorDir, "test", "support", "large-api.ts"),
    "utf8",
  );
  const js = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
    },
  }).outputText;
  const file = join(work, "large-api.mjs");
  writeFileSync(file, js);
  const mod = await import(pathToFileURL(file).href);
  return mod.largeApiProtos("example.com/aitools/testgo/pb");
}

/** Writes proto sources (by path) under dir. */
async function writeProtos(dir, sources) {
  for (const [path, content] of Object.entries(sources)) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

const work = mkdtempSync(join(tmpdir(), "ai-tools-tokens-"));
const rows = [];
try {
  const cases = [
    ...listCases(protosDir).map((c) => [`testdata/protos/${c}`, () => c]),
    ["e2e/proto", () => join(repoRoot, "e2e", "proto")],
    [
      "large API (Temporal-shaped)",
      async () => writeProtos(join(work, "large"), await largeApiProtos(work)),
    ],
    ...[2, 1].map((version) => [
      `bench corpus v${version} (${corpusFiles} ${corpusFiles === 1 ? "file" : "files"})`,
      () =>
        writeProtos(
          join(work, `corpus-v${version}`),
          Object.fromEntries(
            generateCorpus(opt.seed, corpusFiles, version).map((f) => [
              f.path,
              f.content,
            ]),
          ),
        ),
    ]),
  ];
  for (const [name, dirOf] of cases) {
    const request = await buildRequest(await dirOf());
    const inline = toolsOf(request, "");
    const compact = toolsOf(request, "schema=compact");
    rows.push({
      case: name,
      tools: typeof inline === "string" ? inline : inline.length,
      inline: typeof inline === "string" ? inline : toolListTokens(inline),
      compact: typeof compact === "string" ? compact : toolListTokens(compact),
      breakdown:
        opt.breakdown &&
        /^(large API|bench corpus v2)/.test(name) &&
        typeof inline !== "string" &&
        typeof compact !== "string"
          ? {
              inline: tokenBreakdown(inline).byCategory,
              compact: tokenBreakdown(compact).byCategory,
            }
          : undefined,
      defs: [inline, compact].map((tools) =>
        typeof tools === "string"
          ? "n/a"
          : tools.filter((t) => t.schemaJson.includes('"$defs"')).length,
      ),
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// One row for all of testdata/protos, when every case has both figures.
const golden = rows.filter((r) => r.case.startsWith("testdata/protos/"));
if (
  golden.every(
    (r) => typeof r.inline !== "string" && typeof r.compact !== "string",
  )
) {
  const sum = (pick) => golden.reduce((n, r) => n + pick(r), 0);
  rows.splice(rows.indexOf(golden[golden.length - 1]) + 1, 0, {
    case: `testdata/protos (all ${golden.length} cases)`,
    tools: sum((r) => r.tools),
    inline: {
      openai: sum((r) => r.inline.openai),
      anthropic: sum((r) => r.inline.anthropic),
    },
    compact: {
      openai: sum((r) => r.compact.openai),
      anthropic: sum((r) => r.compact.anthropic),
    },
    defs: [0, 1].map((i) => sum((r) => r.defs[i])),
  });
}

if (opt.json) {
  console.log(JSON.stringify(rows, null, 2));
  process.exit(0);
}

const pct = (a, b) =>
  typeof a === "number" && typeof b === "number" && b > 0
    ? `${((100 * a) / b).toFixed(0)}%`
    : "n/a";
const cell = (v) => (typeof v === "number" ? v.toLocaleString("en-US") : v);

function table(title, form) {
  const lines = [
    title,
    "",
    "| case | tools | inlined | compact | compact / inlined | tools with $defs (inlined / compact) |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  const notes = new Set();
  for (const r of rows) {
    const i = typeof r.inline === "string" ? r.inline : r.inline[form];
    const c = typeof r.compact === "string" ? r.compact : r.compact[form];
    for (const v of [i, c]) if (typeof v === "string") notes.add(v);
    const short = (v) =>
      typeof v === "string" ? v.replace(/ \(.*\)$/s, "") : cell(v);
    lines.push(
      `| ${r.case} | ${cell(r.tools)} | ${short(i)} | ${short(c)} | ${pct(c, i)} | ${r.defs.join(" / ")} |`,
    );
  }
  for (const n of notes) lines.push("", n);
  return lines.join("\n");
}

console.log(
  table(
    "o200k_base tokens of the tool list, OpenAI form: " +
      '[{"type":"function","function":{"name","description","parameters","strict"}}, …]',
    "openai",
  ),
);
if (opt.anthropic) {
  console.log();
  console.log(
    table(
      "o200k_base tokens of the tool list, Anthropic form: " +
        '[{"name","description","input_schema"}, …] (o200k is OpenAI\'s encoding; Claude tokenizes differently)',
      "anthropic",
    ),
  );
}
for (const r of rows.filter((r) => r.breakdown !== undefined)) {
  const { inline, compact } = r.breakdown;
  const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  const [ti, tc] = [total(inline), total(compact)];
  const share = (n, t) => `${((100 * n) / t).toFixed(1)}%`;
  console.log();
  console.log(`Where the tokens go: ${r.case}, OpenAI form`);
  console.log();
  console.log(
    "| category | inlined | share | compact | share | compact / inlined |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const c of categories) {
    const [i, k] = [inline.get(c) ?? 0, compact.get(c) ?? 0];
    if (i === 0 && k === 0) continue;
    console.log(
      `| ${c} | ${cell(i)} | ${share(i, ti)} | ${cell(k)} | ${share(k, tc)} | ${pct(k, i)} |`,
    );
  }
  console.log(
    `| all | ${cell(ti)} | 100% | ${cell(tc)} | 100% | ${pct(tc, ti)} |`,
  );
}
if (staleDist) {
  console.log();
  console.log(
    `note: ${opt.dist} is older than src/: these are the figures of the built generator; run \`pnpm build\` to measure the sources`,
  );
}
