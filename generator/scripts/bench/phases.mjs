// Where the plugin's time goes, per target, on one benchmark request
// (default: corpus version 1, 100 files, 2,000 tools):
//
// - start-up: the executable (the bundle) on an empty request, CPU time
//   (user+sys) of the whole process, median of 3;
// - each phase of a run, in process (bench/phase-run.mjs: the built
//   generator's modules called as generate() calls them), CPU time and wall
//   time, so the figures hold on a loaded machine;
// - inside the model build, the shares of schema build, schema
//   serialization and the OpenAI strict check, from a CPU profile of the
//   executable (`node --cpu-prof`; each sample goes to the innermost phase
//   function on its stack; sampled time is wall time, so only the shares
//   are used) applied to the model build's CPU time;
// - with `--warm N`, a second column per target: the in-process run
//   repeated N more times, the last one's phases (phase-run.mjs): what the
//   run costs once the engine has warmed up, against the first run;
// - with `--runs N`, each in-process figure is the median of N processes
//   (one process varies by 5-10% on a busy machine);
// - with `--baseline DIR`, a second column per target for another build:
//   DIR is a generator directory of an older checkout, built (its dist/,
//   bin/ and scripts/bench/phase-run.mjs are run), its runs alternating
//   with this build's.
//
// Not a test.
//
//   node scripts/bench/phases.mjs [--files 100] [--corpus 1|2] [--targets go,ts,py]
//                                 [--seed S] [--plugin PATH] [--warm N] [--runs N]
//                                 [--baseline DIR] [--keep]
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compileCorpus, requestPerTarget } from "./compile.mjs";
import { wholeNumber } from "./whole-number.mjs";
import { runPlugin } from "./measure.mjs";
import { corpusVersionOf, generateCorpus } from "./corpus.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const repoRoot = join(generatorDir, "..");

const { values: opt } = parseArgs({
  options: {
    files: { type: "string", default: "100" },
    corpus: { type: "string", default: "1" },
    targets: { type: "string", default: "go,ts,py" },
    seed: { type: "string", default: "ai-tools-bench-1" },
    plugin: { type: "string" },
    warm: { type: "string", default: "0" },
    runs: { type: "string", default: "1" },
    baseline: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

/**
 * The phases, in the order printed: a name and the functions whose samples
 * (with their callees, unless another phase function is deeper on the
 * stack) it counts.
 */
const phases = [
  ["request decode", ["readRequest"]],
  ["descriptors", ["resolveRequestFiles"]],
  ["model build (selection, aliases)", ["buildModel"]],
  ["schema build", ["buildToolSchema"]],
  ["schema serialization (canonical JSON)", ["canonicalJson"]],
  ["OpenAI strict check", ["checkOpenAiStrict"]],
  ["provider checks", ["checkTool", "finishChecks"]],
  [
    "view build (incl. TS layout)",
    [
      "buildGoView",
      "buildTsView",
      "buildPyView",
      "buildGoMcpView",
      "buildTsMcpView",
      "buildPyMcpView",
    ],
  ],
  ["render (templates)", ["render"]],
  ["format (prettier)", ["formatTs"]],
  ["response encode", ["writeResponse"]],
];
const phaseOf = new Map(
  phases.flatMap(([name, fns]) => fns.map((fn) => [fn, name])),
);

/** Phase name of a function name (a bundle may add `$1` to a name). */
function phaseOfFunction(name) {
  return phaseOf.get(name.replace(/\$\d+$/, ""));
}

/** Sampled milliseconds by phase, from a .cpuprofile. */
function split(profile) {
  const parent = new Map();
  for (const n of profile.nodes) {
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const out = new Map();
  for (const [id, us] of self) {
    const fn = byId.get(id).callFrame.functionName;
    let phase =
      fn === "(garbage collector)"
        ? "garbage collection"
        : fn === "(idle)"
          ? "idle (waiting for stdin, exit)"
          : undefined;
    if (phase === undefined) {
      // The innermost phase function on the stack.
      for (let at = id; at !== undefined && phase === undefined;) {
        phase = phaseOfFunction(byId.get(at).callFrame.functionName);
        at = parent.get(at);
      }
    }
    phase ??= "start-up, module load, other";
    out.set(phase, (out.get(phase) ?? 0) + us / 1000);
  }
  return out;
}

/**
 * Report and exit: 2 for an invalid option (the default), 1 for a run that
 * failed.
 */
function fail(message, code = 2) {
  console.error(`phases: ${message}`);
  process.exit(code);
}
const warmRuns = wholeNumber("warm", opt.warm, 0, fail);
const runs = wholeNumber("runs", opt.runs, 1, fail);
const files = wholeNumber("files", opt.files, 1, fail);
const corpusVersion = corpusVersionOf(opt.corpus, fail);

const plugin = resolve(
  opt.plugin ?? join(generatorDir, "bin", "protoc-gen-ai-tools"),
);
if (!existsSync(plugin)) {
  fail(`${plugin} not found (build first)`, 1);
}
/** The builds measured: this one, and the baseline's. */
const builds = [{ label: "", plugin, phaseRun: join(here, "phase-run.mjs") }];
if (opt.baseline !== undefined) {
  const base = resolve(opt.baseline);
  const baseBuild = {
    label: " (base)",
    plugin: join(base, "bin", "protoc-gen-ai-tools"),
    phaseRun: join(base, "scripts", "bench", "phase-run.mjs"),
  };
  // bin/ and phase-run.mjs are committed: dist/ says the checkout is built.
  for (const path of [
    baseBuild.plugin,
    baseBuild.phaseRun,
    join(base, "dist", "cli.js"),
  ]) {
    if (!existsSync(path)) {
      fail(
        `--baseline ${JSON.stringify(opt.baseline)}: ${path} not found (a generator directory of a built checkout)`,
      );
    }
  }
  builds.push(baseBuild);
}
const buf = join(repoRoot, "node_modules", ".bin", "buf");
const work = mkdtempSync(join(tmpdir(), "ai-tools-phases-"));
process.on("exit", () => {
  if (!opt.keep) rmSync(work, { recursive: true, force: true });
});
const corpus = generateCorpus(opt.seed, files, corpusVersion);
const dir = join(work, "corpus");
mkdirSync(dir);
const { request } = compileCorpus({
  dir,
  files: corpus,
  buf,
  includeDir: join(repoRoot, "proto"),
  parameter: "target=go",
});
const tools = corpus.reduce((n, f) => n + f.tools, 0);
console.log(
  `${builds.map((b) => `plugin${b.label} ${b.plugin}`).join("\n")}\ncorpus version ${opt.corpus}, ${files} files, ${tools} tools; ${runs} run${runs === 1 ? "" : "s"}; load average ${loadavg()[0].toFixed(2)}\n`,
);

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2
    ? v[v.length >> 1]
    : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
for (const build of builds) {
  build.startup = [];
}
for (let i = 0; i < 3; i++) {
  for (const build of builds) {
    const run = await runPlugin({
      command: process.execPath,
      args: [build.plugin],
      // parameter (field 2) "target=go", nothing else
      request: new Uint8Array([0x12, 0x09, ...Buffer.from("target=go")]),
      rusageFile: join(work, "rusage.json"),
    });
    if (run.code !== 0) {
      fail(
        `${build.plugin} on an empty request exited with ${run.code ?? run.signal}:\n${run.stderr}`,
        1,
      );
    }
    build.startup.push(run.cpuMs);
  }
}

/**
 * A phase's name as this build's phase-run.mjs writes it: a build before
 * the generator built its own descriptors (e10cafd) wrote "descriptors
 * (registry)".
 */
const phaseName = (name) =>
  name === "descriptors (registry)" ? "descriptors" : name;

/** Each phase's median CPU and wall time over `runs`' lists of phases. */
function medianPhases(runsPhases) {
  return runsPhases[0].map(({ name }, i) => ({
    name: phaseName(name),
    cpuMs: median(runsPhases.map((r) => r[i].cpuMs)),
    wallMs: median(runsPhases.map((r) => r[i].wallMs)),
  }));
}

/** The model build's parts, as shares of it, from a profile's phases. */
const modelParts = [
  "model build (selection, aliases)",
  "schema build",
  "schema serialization (canonical JSON)",
  "OpenAI strict check",
  "provider checks",
];
/** phase-run.mjs's name of the whole model build. */
const modelBuild = "model build (schemas, provider checks included)";
const requests = [];
for (const [target, bytes] of requestPerTarget(
  request,
  opt.targets.split(","),
)) {
  const requestFile = join(work, `request-${target}.binpb`);
  writeFileSync(requestFile, bytes);
  requests.push({ target, requestFile });
}
// The in-process runs, each target and build in turn, `runs` rounds.
const timedRuns = new Map();
for (let round = 0; round < runs; round++) {
  for (const { target, requestFile } of requests) {
    for (const build of builds) {
      const inProcess = spawnSync(
        process.execPath,
        [build.phaseRun, requestFile, String(warmRuns)],
        { maxBuffer: 1 << 20, encoding: "utf8" },
      );
      if (inProcess.status !== 0) {
        fail(
          `phase-run.mjs${build.label}, target=${target}:\n${inProcess.stderr}`,
          1,
        );
      }
      const key = `${target}${build.label}`;
      if (!timedRuns.has(key)) timedRuns.set(key, []);
      timedRuns.get(key).push(JSON.parse(inProcess.stdout));
    }
  }
}

const columns = [];
for (const { target, requestFile } of requests) {
  for (const build of builds) {
    const key = `${target}${build.label}`;
    const results = timedRuns.get(key);
    const timed = medianPhases(results.map((r) => r.phases));
    const warm =
      warmRuns > 0 ? medianPhases(results.map((r) => r.warm)) : undefined;
    const profDir = join(
      work,
      `prof-${target}${build.label === "" ? "" : "-base"}`,
    );
    const r = spawnSync(
      process.execPath,
      ["--cpu-prof", "--cpu-prof-dir", profDir, build.plugin],
      { input: readFileSync(requestFile), maxBuffer: 1 << 30 },
    );
    if (r.status !== 0) {
      fail(`target=${target}${build.label} failed:\n${r.stderr}`, 1);
    }
    const main = readdirSync(profDir).find((f) =>
      /^CPU\.\d+\.\d+\.\d+\.0\./.test(f),
    );
    const sampled = split(
      JSON.parse(readFileSync(join(profDir, main), "utf8")),
    );
    const modelSampled = modelParts.reduce(
      (n, k) => n + (sampled.get(k) ?? 0),
      0,
    );
    const rows = new Map([
      ["start-up (empty request, bundle)", { cpuMs: median(build.startup) }],
    ]);
    for (const t of timed) {
      if (t.name === modelBuild) {
        for (const k of modelParts) {
          rows.set(k, {
            cpuMs: (t.cpuMs * (sampled.get(k) ?? 0)) / modelSampled,
            wallMs: (t.wallMs * (sampled.get(k) ?? 0)) / modelSampled,
          });
        }
      } else {
        rows.set(t.name, t);
      }
    }
    columns.push({ target: key, rows });
    if (warm !== undefined) {
      // No profile of the warm run: its model build is one row.
      const warmRows = new Map(warm.map((t) => [t.name, t]));
      columns.push({ target: `${key} warm`, rows: warmRows });
    }
  }
}

const names = [...columns[0].rows.keys()];
if (warmRuns > 0) {
  // The warm runs' model build, after its parts.
  names.splice(names.indexOf(modelParts.at(-1)) + 1, 0, modelBuild);
}
const w = Math.max(...names.map((n) => n.length));
console.log(
  `${"CPU (wall) per phase, ms".padEnd(w)}  ${columns.map((c) => c.target.padStart(15)).join("  ")}`,
);
const cell = (r) =>
  r === undefined
    ? "".padStart(15)
    : `${r.cpuMs.toFixed(0).padStart(6)}${r.wallMs === undefined ? "".padEnd(9) : ` (${r.wallMs.toFixed(0).padStart(5)})`.padEnd(9)}`;
for (const name of names) {
  console.log(
    `${name.padEnd(w)}  ${columns.map((c) => cell(c.rows.get(name))).join("  ")}`,
  );
}
const total = (c) =>
  [...c.rows]
    .filter(([k]) => k !== "module load (unbundled)")
    .reduce((n, [, r]) => n + r.cpuMs, 0);
console.log(
  `${"sum (start-up + phases, CPU)".padEnd(w)}  ${columns.map((c) => `${total(c).toFixed(0).padStart(6)}         `).join("  ")}`,
);
console.log(
  "\nmodule load (unbundled): the dist/ modules imported one by one, as the in-process run does; the executable loads the bundle, counted in start-up.",
);
if (runs > 1) {
  console.log(
    `each in-process figure: the median of ${runs} processes, ${builds.length > 1 ? "the builds' and targets'" : "the targets'"} runs alternating; the model build's parts split it by the shares of one CPU profile.`,
  );
}
if (warmRuns > 0) {
  console.log(
    `warm: the last of ${warmRuns} more runs in the same process; its sum has no start-up, and the string memos of earlier runs are still filled (a floor).`,
  );
}
