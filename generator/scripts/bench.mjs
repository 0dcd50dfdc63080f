// `pnpm bench`: end-to-end benchmark of the protoc-gen-ai-tools executable.
//
// For each corpus size (25, 50, 100 files of 20 annotated RPCs: 500, 1,000,
// 2,000 tools) it generates a synthetic, seeded proto corpus in a temp dir,
// compiles it once with buf into a CodeGeneratorRequest, then runs the plugin
// executable as a whole process (request on stdin) a few times and prints
// wall time, CPU time and peak memory, for each target asked for (`--targets`,
// the same request with another `target=`) and, with `--baseline`, for a
// second plugin executable too: the runs of every target and plugin
// alternate, so a change in the machine's load hits them alike. A benchmark,
// not a test: no timing assertions. It fails only when the plugin fails
// (exit status, `error` in the response, or not the target's file in it).
//
//   node scripts/bench.mjs [--quick] [--runs N] [--warmup N] [--sizes 25,50,100]
//                          [--seed S] [--corpus 1|2] [--targets go,ts,py]
//                          [--plugin PATH] [--baseline PATH] [--keep]
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { create, fromBinary, isFieldSet, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponseSchema,
} from "@bufbuild/protobuf/wkt";
import {
  corpusVersionOf,
  generateCorpus,
  RPCS_PER_FILE,
} from "./bench/corpus.mjs";
import { compileCorpus, requestPerTarget } from "./bench/compile.mjs";
import { wholeNumber } from "./bench/whole-number.mjs";
import { runPlugin } from "./bench/measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..");
const repoRoot = join(generatorDir, "..");

const GO_BASELINE =
  "Go plugin it replaces: ~1.7 s median at 2,000 tools of corpus version 1 (figure measured earlier on this machine type)";

const { values: opt } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    runs: { type: "string" },
    warmup: { type: "string" },
    sizes: { type: "string", default: "25,50,100" },
    seed: { type: "string", default: "ai-tools-bench-1" },
    corpus: { type: "string", default: "2" },
    targets: { type: "string", default: "go" },
    plugin: { type: "string" },
    baseline: { type: "string" },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opt.help) {
  console.log(`usage: node scripts/bench.mjs [options]
  --quick          3 measured runs instead of 7 (for local use)
  --runs N         measured runs per size (default 7, 3 with --quick)
  --warmup N       warm-up runs per size, not counted (default 1)
  --sizes A,B,C    corpus sizes in files of ${RPCS_PER_FILE} RPCs (default 25,50,100)
  --seed S         corpus seed (default ai-tools-bench-1)
  --corpus V       corpus version: 2 (default) or 1, the corpus before the shared
                   value messages (the Go plugin's figure is on version 1)
  --targets T,U    targets to run on each request (default go; go,ts,py for all):
                   the same request, parameter target=T
  --plugin PATH    plugin executable (default node_modules/.bin/protoc-gen-ai-tools);
                   a .js/.mjs path is run with this node
  --baseline PATH  a second plugin executable (an older build) run alternately
                   with the first, for a before/after comparison on one machine
  --keep           keep the temp dir (corpus, buf image, request.binpb)`);
  process.exit(0);
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

const corpusVersion = corpusVersionOf(opt.corpus, fail);

const runs =
  opt.runs !== undefined
    ? wholeNumber("runs", opt.runs, 1, fail)
    : opt.quick
      ? 3
      : 7;
const warmup =
  opt.warmup !== undefined ? wholeNumber("warmup", opt.warmup, 0, fail) : 1;
const sizes = opt.sizes
  .split(",")
  .map((s) => wholeNumber("sizes", s.trim(), 1, fail));

// ---------------------------------------------------------------------------
// Plugin and tools.

/** The command of a plugin executable given as a path. */
function pluginCommand(flag, path) {
  const p = resolve(path);
  if (!existsSync(p)) fail(`--${flag} ${p} does not exist`);
  return /\.[cm]?js$/.test(p)
    ? { command: process.execPath, args: [p], label: p }
    : { command: p, args: [], label: p };
}

let plugin;
if (opt.plugin) {
  plugin = pluginCommand("plugin", opt.plugin);
} else {
  const command = join(repoRoot, "node_modules", ".bin", "protoc-gen-ai-tools");
  if (!existsSync(command)) fail(`${command} not found: run pnpm install`);
  if (!existsSync(join(generatorDir, "dist", "plugin.js"))) {
    fail(
      "generator/dist/plugin.js not found: build first (pnpm build), or run pnpm bench, which builds",
    );
  }
  plugin = { command, args: [], label: command };
}
// The plugins compared: "new" (--plugin or the built one) and "base".
const plugins = [{ ...plugin, name: "new" }];
if (opt.baseline) {
  plugins.push({ ...pluginCommand("baseline", opt.baseline), name: "base" });
}

/** The file each target writes: the response must hold it. */
const targetFiles = {
  go: "ai_tools.gen.go",
  ts: "ai_tools.gen.ts",
  py: "ai_tools_gen.py",
};
const targets = opt.targets.split(",").map((t) => t.trim());
for (const t of targets) {
  if (!(t in targetFiles))
    fail(
      `--targets takes ${Object.keys(targetFiles).join(", ")}, got ${JSON.stringify(t)}`,
    );
}
/** Every plugin and target, in the order their runs alternate. */
const combos = plugins.flatMap((p) =>
  targets.map((target) => ({ plugin: p, target })),
);
const comboLabel = (c) =>
  plugins.length > 1 ? `${c.target} (${c.plugin.name})` : c.target;

const buf = [
  join(repoRoot, "node_modules", ".bin", "buf"),
  join(generatorDir, "node_modules", ".bin", "buf"),
].find((p) => existsSync(p));
if (!buf) fail("buf not found in node_modules/.bin: run pnpm install");
const includeDir = join(repoRoot, "proto");

// ---------------------------------------------------------------------------
// Formatting.

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) =>
  x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`;
const bytes = (n) =>
  n >= 1 << 20
    ? `${(n / (1 << 20)).toFixed(1)} MiB`
    : n >= 1024
      ? `${(n / 1024).toFixed(0)} KiB`
      : `${n} B`;
const kb = (k) => `${(k / 1024).toFixed(0)} MiB`;
const int = (n) => n.toLocaleString("en-US");

function table(header, rows, alignLeft = new Set([0])) {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i].length)),
  );
  const fmt = (r) =>
    r
      .map((c, i) =>
        alignLeft.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]),
      )
      .join("  ");
  return [
    fmt(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(fmt),
  ].join("\n");
}

// ---------------------------------------------------------------------------
// Corpus: generate and compile every size once, before any timing.

const work = mkdtempSync(join(tmpdir(), "ai-tools-bench-"));
const cleanup = () => {
  if (!opt.keep) rmSync(work, { recursive: true, force: true });
};
process.on("exit", cleanup);

console.log(`protoc-gen-ai-tools benchmark`);
for (const p of plugins) {
  console.log(
    `  plugin   ${p.label}${plugins.length > 1 ? ` (${p.name})` : ""}`,
  );
}
console.log(`  targets  ${targets.join(", ")}`);
console.log(
  `  machine  ${cpus()[0]?.model ?? "?"} x ${cpus().length}, node ${process.version}, ` +
    `load average ${loadavg()[0].toFixed(2)}`,
);
console.log(
  `  corpus   version ${corpusVersion}, seed ${JSON.stringify(opt.seed)}, ${RPCS_PER_FILE} annotated RPCs per file, compiled by buf`,
);
console.log(
  `  runs     ${runs} measured + ${warmup} warm-up per size${opt.quick ? " (--quick)" : ""}`,
);
console.log(`  workdir  ${work}${opt.keep ? " (kept)" : ""}`);
console.log();

const corpora = [];
for (const files of sizes) {
  const dir = join(work, `files-${files}`);
  mkdirSync(dir);
  const corpus = generateCorpus(opt.seed, files, corpusVersion);
  let compiled;
  try {
    compiled = compileCorpus({
      dir,
      files: corpus,
      buf,
      includeDir,
      parameter: "target=go",
    });
  } catch (e) {
    fail(e.message);
  }
  const tools = corpus.reduce((n, f) => n + f.tools, 0);
  const services = corpus.reduce((n, f) => n + f.services, 0);
  const protoBytes = corpus.reduce(
    (n, f) => n + Buffer.byteLength(f.content),
    0,
  );
  console.log(
    `corpus ${files} files: ${int(tools)} tools, ${services} services, ${bytes(protoBytes)} of .proto, ` +
      `request ${bytes(compiled.request.length)} (${compiled.protoFiles} descriptors), buf build ${ms(compiled.bufMs)}`,
  );
  const requests = requestPerTarget(compiled.request, targets);
  corpora.push({ files, tools, dir, ...compiled, requests });
}
console.log();

// ---------------------------------------------------------------------------
// Runs.

function checkResponse(run, label, target) {
  if (run.signal || run.code !== 0) {
    fail(
      `${label}: plugin exited with ${run.signal ? `signal ${run.signal}` : `status ${run.code}`}` +
        (run.stderr ? `\n${run.stderr}` : ""),
    );
  }
  let res;
  try {
    res = fromBinary(CodeGeneratorResponseSchema, run.stdout);
  } catch (e) {
    fail(
      `${label}: stdout is not a CodeGeneratorResponse (${run.stdout.length} bytes): ${e.message}\n${run.stderr}`,
    );
  }
  if (isFieldSet(res, CodeGeneratorResponseSchema.field.error)) {
    fail(
      `${label}: plugin reported an error:\n${res.error || "(error field set, but empty)"}`,
    );
  }
  const names = res.file.map((f) => f.name);
  const want = targetFiles[target];
  if (!names.some((n) => n === want || n.endsWith(`/${want}`))) {
    fail(
      `${label}: response has no ${want}; files: ${names.slice(0, 10).join(", ") || "(none)"}`,
    );
  }
  return {
    outFiles: res.file.length,
    outBytes: res.file.reduce(
      (n, f) => n + Buffer.byteLength(f.content ?? ""),
      0,
    ),
  };
}

// The plugin's build (generator/dist) can be rebuilt by something else while
// the benchmark runs; its newest mtime tells a rebuild from nondeterminism.
const distDir = join(generatorDir, "dist");
function distStamp() {
  if (opt.plugin || !existsSync(distDir)) return 0;
  let newest = 0;
  for (const e of readdirSync(distDir, {
    recursive: true,
    withFileTypes: true,
  })) {
    if (e.isFile())
      newest = Math.max(
        newest,
        statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs,
      );
  }
  return newest;
}
const distAtStart = distStamp();

const results = [];
const oddities = [];
let maxLoad = loadavg()[0];
for (const c of corpora) {
  const rusageFile = join(c.dir, "rusage.json");
  const state = combos.map(() => ({
    measured: [],
    shape: undefined,
    digest: undefined,
  }));
  for (let i = 0; i < warmup + runs; i++) {
    const isWarmup = i < warmup;
    const round = isWarmup ? `warm-up ${i + 1}` : `run ${i - warmup + 1}`;
    const line = [];
    for (const [k, combo] of combos.entries()) {
      const st = state[k];
      const label = `${c.files} files, ${comboLabel(combo)}, ${round}`;
      maxLoad = Math.max(maxLoad, loadavg()[0]);
      const run = await runPlugin({
        command: combo.plugin.command,
        args: combo.plugin.args,
        request: c.requests.get(combo.target),
        rusageFile,
      });
      const d = createHash("sha256").update(run.stdout).digest("hex");
      if (st.digest === undefined) {
        st.shape = checkResponse(run, label, combo.target);
        st.digest = d;
      } else if (d !== st.digest) {
        checkResponse(run, label, combo.target);
        oddities.push(
          distStamp() !== distAtStart
            ? `${c.files} files: output differs between runs (${label}), but generator/dist was ` +
                "rebuilt during the benchmark: the runs mix two builds"
            : `${c.files} files: output differs between runs (${label}): not deterministic`,
        );
        st.digest = d;
      }
      if (run.stderr.trim() && i === 0 && k === 0)
        oddities.push(
          `${c.files} files: plugin wrote to stderr: ${run.stderr.trim().slice(0, 300)}`,
        );
      line.push(
        `${combos.length > 1 ? `${comboLabel(combo)} ` : ""}${ms(run.wallMs)}` +
          (run.cpuMs === undefined ? "" : ` (cpu ${ms(run.cpuMs)})`) +
          `, ${kb(run.peakRssKb)}`,
      );
      if (!isWarmup) st.measured.push(run);
    }
    process.stdout.write(`  ${c.files} files, ${round}: ${line.join("; ")}\n`);
  }
  for (const [k, combo] of combos.entries()) {
    const { measured, shape } = state[k];
    const walls = measured.map((r) => r.wallMs);
    const cpu = measured.every((r) => r.cpuMs !== undefined)
      ? median(measured.map((r) => r.cpuMs))
      : undefined;
    results.push({
      ...c,
      ...shape,
      combo,
      median: median(walls),
      min: Math.min(...walls),
      max: Math.max(...walls),
      cpu,
      peakKb: median(measured.map((r) => r.peakRssKb)),
      worstKb: Math.max(...measured.map((r) => r.peakRssKb)),
      rssExact: measured.every((r) => r.rssExact),
    });
  }
}

// Fixed cost: the same process with nothing to generate (an empty request,
// target=go), for each plugin. Only timed; its response is not checked.
const emptyRequest = toBinary(
  CodeGeneratorRequestSchema,
  create(CodeGeneratorRequestSchema, { parameter: "target=go" }),
);
const startups = plugins.map(() => []);
for (let i = 0; i < warmup + runs; i++) {
  for (const [k, p] of plugins.entries()) {
    const run = await runPlugin({
      command: p.command,
      args: p.args,
      request: emptyRequest,
      rusageFile: join(work, "rusage-empty.json"),
    });
    if (i >= warmup) startups[k].push(run);
  }
}
for (const startup of startups) {
  const failed = startup.find((r) => r.code !== 0);
  if (failed) {
    oddities.push(
      `empty request: plugin exited with status ${failed.code} (start-up figure still shown)`,
    );
  }
}

// ---------------------------------------------------------------------------
// Report.

console.log();
const header = [
  "tools",
  "files",
  "request",
  ...(combos.length > 1 ? ["target"] : []),
  "median",
  "min",
  "max",
  "cpu (med)",
  "peak RSS",
  "(max)",
  "output",
  "median/tool",
];
const rows = results.map((r) => [
  int(r.tools),
  String(r.files),
  bytes(r.request.length),
  ...(combos.length > 1 ? [comboLabel(r.combo)] : []),
  ms(r.median),
  ms(r.min),
  ms(r.max),
  r.cpu === undefined ? "n/a" : ms(r.cpu),
  (r.rssExact ? "" : "~") + kb(r.peakKb),
  kb(r.worstKb),
  `${bytes(r.outBytes)} / ${r.outFiles} files`,
  `${((r.median / r.tools) * 1000).toFixed(0)} µs`,
]);
console.log(table(header, rows, new Set(combos.length > 1 ? [3] : [])));
console.log();
console.log(
  `wall time: spawn to exit, request on stdin; median of ${runs} run${runs === 1 ? "" : "s"}` +
    ` after ${warmup} warm-up${combos.length > 1 ? ", the runs of every row of a size alternating" : ""}.` +
    " cpu: user+sys of the plugin process.",
);
console.log(
  results.every((r) => r.rssExact)
    ? "peak RSS: the plugin process's own high-water mark (VmHWM, read at its exit), median over runs (max: highest run)."
    : "peak RSS: ~ = VmHWM polled from /proc (not a Node process, or it did not report); median over runs (max: highest run).",
);
for (const [k, startup] of startups.entries()) {
  const cpuTimes = startup.map((r) => r.cpuMs);
  console.log(
    `start-up${plugins.length > 1 ? ` (${plugins[k].name})` : ""} (empty request, nothing to generate): ` +
      `${ms(median(startup.map((r) => r.wallMs)))} median` +
      (cpuTimes.every((x) => x !== undefined)
        ? `, cpu ${ms(median(cpuTimes))}`
        : "") +
      `, ${kb(median(startup.map((r) => r.peakRssKb)))} peak RSS.`,
  );
}

for (const combo of combos) {
  const series = results.filter((r) => r.combo === combo);
  const first = series[0];
  const last = series[series.length - 1];
  if (series.length < 2 || last.tools === first.tools) continue;
  const ratio = last.median / last.tools / (first.median / first.tools);
  const of = combos.length > 1 ? ` (${comboLabel(combo)})` : "";
  console.log();
  console.log(
    `growth${of}: time per tool at ${int(last.tools)} vs ${int(first.tools)} tools = ${ratio.toFixed(2)}` +
      ` (1.00 = linear; below 1 as fixed start-up cost is spread over more tools, above 1 = superlinear)`,
  );
  // Marginal cost per tool between consecutive sizes: free of the fixed
  // start-up cost, so equal steps mean linear growth.
  const steps = [];
  for (let i = 1; i < series.length; i++) {
    const a = series[i - 1];
    const b = series[i];
    if (b.tools === a.tools) continue;
    steps.push(
      `${int(a.tools)}→${int(b.tools)}: ${(((b.median - a.median) / (b.tools - a.tools)) * 1000).toFixed(0)} µs/tool`,
    );
  }
  console.log(`marginal cost${of}: ${steps.join(", ")}`);
  const perMiB = (r) => r.peakKb / 1024;
  console.log(
    `memory${of}: ${kb(first.peakKb)} at ${int(first.tools)} tools → ${kb(last.peakKb)} at ${int(last.tools)} ` +
      `(+${(((perMiB(last) - perMiB(first)) / (last.tools - first.tools)) * 1024).toFixed(0)} KiB per tool)`,
  );
}
console.log();
console.log(GO_BASELINE);
for (const r of results.filter((r) => r.tools === 2000)) {
  const of = combos.length > 1 ? `, ${comboLabel(r.combo)}` : "";
  console.log(
    `This plugin${of}: ${ms(r.median)} median (cpu ${r.cpu === undefined ? "n/a" : ms(r.cpu)}) at 2,000 tools of corpus version ${corpusVersion}.`,
  );
}
// The TypeScript target against the Go one on the same request (issue 13:
// at most 1.2 times).
if (targets.includes("go") && targets.includes("ts")) {
  for (const p of plugins) {
    for (const r of results.filter(
      (r) => r.combo.plugin === p && r.combo.target === "ts",
    )) {
      const go = results.find(
        (g) =>
          g.combo.plugin === p &&
          g.combo.target === "go" &&
          g.files === r.files,
      );
      if (go?.cpu === undefined || r.cpu === undefined) continue;
      console.log(
        `ts / go${plugins.length > 1 ? ` (${p.name})` : ""} at ${int(r.tools)} tools: ` +
          `cpu ${(r.cpu / go.cpu).toFixed(2)}, wall ${(r.median / go.median).toFixed(2)}`,
      );
    }
  }
}

if (distStamp() !== distAtStart) {
  oddities.push(
    "generator/dist changed while the benchmark ran (rebuilt by something else)",
  );
}
// Other work on the machine shows up as spread between runs: say so.
if (maxLoad > cpus().length * 0.75) {
  oddities.push(
    `the machine was busy (1-minute load average up to ${maxLoad.toFixed(2)} on ` +
      `${cpus().length} CPUs): timings are noisy, compare cpu and min rather than median`,
  );
}
for (const r of results) {
  if ((r.max - r.min) / r.median > 0.25) {
    oddities.push(
      `${int(r.tools)} tools${combos.length > 1 ? `, ${comboLabel(r.combo)}` : ""}: runs spread ${ms(r.min)}–${ms(r.max)} (over 25% of the median)`,
    );
  }
}
if (oddities.length) {
  console.log();
  console.log("notes:");
  for (const o of oddities) console.log(`  - ${o}`);
}
