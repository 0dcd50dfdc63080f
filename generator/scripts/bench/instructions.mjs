// How many instructions the plugin executable runs on one benchmark
// request (default: corpus version 1, 100 files, 2,000 tools), counted by
// valgrind (`--tool=cachegrind --cache-sim=no`: every thread of the
// process, the garbage collector's and the compiler's included), for each
// target and, with `--baseline`, for an older build too.
//
// Wall time on a shared machine moves by 10% from run to run with the
// load; an instruction count moves by about 3% (garbage collection and
// compilation run when they run), so a change of a few percent shows
// here first. Counts are not times: a change that moves memory rather
// than instructions (a copy the kernel makes, cache misses) shows less.
// Each run takes about 40 times as long as the plain run; runs alternate
// and two run at once on a machine with two cores or more.
//
// With `--single-threaded`, node runs under V8's flag of that name: the
// garbage collector and the compiler work on the main thread, when the
// main thread reaches them, so the count of a build repeats to within
// 0.1–0.6% (6.91 and 6.92 G in two runs, against 7.68 to 7.96 G in three
// runs without, 2 December 2026) and tells apart changes of 1%. It is
// another run than the plain one, about 10% fewer instructions (no helper
// threads). Compare builds counted the same way; what a change does to
// wall time is a question for `bench.mjs`.
//
// Not a test, and not part of `pnpm bench` (valgrind is not a package of
// this repository: `apt-get install valgrind`).
//
//   node scripts/bench/instructions.mjs [--files 100] [--corpus 1|2]
//        [--targets go,ts,py] [--runs 2] [--plugin PATH] [--baseline PATH]
//        [--single-threaded]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compileCorpus, requestPerTarget } from "./compile.mjs";
import { wholeNumber } from "./whole-number.mjs";
import { corpusVersionOf, generateCorpus } from "./corpus.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const repoRoot = join(generatorDir, "..");

const { values: opt } = parseArgs({
  options: {
    files: { type: "string", default: "100" },
    corpus: { type: "string", default: "1" },
    targets: { type: "string", default: "go,ts,py" },
    runs: { type: "string", default: "2" },
    seed: { type: "string", default: "ai-tools-bench-1" },
    plugin: { type: "string" },
    baseline: { type: "string" },
    "single-threaded": { type: "boolean", default: false },
  },
});
const nodeFlags = opt["single-threaded"] ? "--single-threaded " : "";

function fail(message) {
  console.error(`instructions: ${message}`);
  process.exit(1);
}

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  fail("valgrind not found: apt-get install valgrind");
}
const runs = wholeNumber("runs", opt.runs, 1, fail);
const files = wholeNumber("files", opt.files, 1, fail);
const corpusVersion = corpusVersionOf(opt.corpus, fail);
const plugins = [
  {
    name: "new",
    path: resolve(
      opt.plugin ?? join(generatorDir, "bin", "protoc-gen-ai-tools"),
    ),
  },
];
if (opt.baseline !== undefined) {
  plugins.push({ name: "base", path: resolve(opt.baseline) });
}

const work = mkdtempSync(join(tmpdir(), "ai-tools-instructions-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const corpus = generateCorpus(opt.seed, files, corpusVersion);
const dir = join(work, "corpus");
mkdirSync(dir);
const { request } = compileCorpus({
  dir,
  files: corpus,
  buf: join(repoRoot, "node_modules", ".bin", "buf"),
  includeDir: join(repoRoot, "proto"),
  parameter: "target=go",
});
const targets = opt.targets.split(",");
const requests = new Map(
  [...requestPerTarget(request, targets)].map(([target, bytes]) => {
    const file = join(work, `request-${target}.binpb`);
    writeFileSync(file, bytes);
    return [target, file];
  }),
);

/** Instructions of one run of `plugin` on the request of `target`. */
function count(plugin, target) {
  return new Promise((done, failed) => {
    const child = spawn(
      "sh",
      [
        "-c",
        `exec valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "${process.execPath}" ${nodeFlags}"$0" < "$1" > /dev/null`,
        plugin.path,
        requests.get(target),
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", failed);
    child.on("close", (code) => {
      const m = /I\s+refs:\s+([\d,]+)/.exec(err);
      if (code !== 0 || m === null) {
        failed(new Error(`${plugin.name}, target=${target}:\n${err}`));
      } else {
        done(Number(m[1].replaceAll(",", "")));
      }
    });
  });
}

const tools = corpus.reduce((n, f) => n + f.tools, 0);
console.log(
  `corpus version ${opt.corpus}, ${opt.files} files, ${tools} tools; ${runs} runs each${nodeFlags === "" ? "" : "; node --single-threaded"}`,
);
for (const plugin of plugins) {
  console.log(`${plugin.name}: ${plugin.path}`);
}
console.log("\ntarget plugin  instructions (fewest – most)");
const jobs = [];
for (let i = 0; i < runs; i++) {
  for (const target of targets) {
    for (const plugin of plugins) {
      jobs.push({ plugin, target });
    }
  }
}
const results = new Map();
const parallel = Math.max(1, Math.min(2, availableParallelism()));
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const n = await count(job.plugin, job.target).catch((e) =>
        fail(e.message),
      );
      const key = `${job.target} ${job.plugin.name}`;
      results.set(key, [...(results.get(key) ?? []), n]);
    }
  }),
);
const g = (n) => `${(n / 1e9).toFixed(nodeFlags === "" ? 2 : 3)} G`;
for (const target of targets) {
  for (const plugin of plugins) {
    const ns = results.get(`${target} ${plugin.name}`);
    console.log(
      `${target.padEnd(6)} ${plugin.name.padEnd(6)}  ${g(Math.min(...ns))} – ${g(Math.max(...ns))}`,
    );
  }
}
