// How long TypeScript takes to type-check the generated ai_tools.gen.ts
// (`tools=all`) together with its protoc-gen-es output, against that
// output alone, on real APIs: Google's from the npm package
// google-proto-files and, given a buf workspace, Temporal's. Each API is
// generated once by buf (protoc-gen-es and the built plugin), then
// `tsc --noEmit --extendedDiagnostics` runs on each program once,
// sequentially (a big API takes minutes and gigabytes: tsc runs with
// NODE_OPTIONS=--max-old-space-size=4096 unless NODE_OPTIONS is set). See
// docs/benchmarks.md, "Type-checking the generated code".
//
//   node scripts/bench/type-check.mjs
//   node scripts/bench/type-check.mjs --apis google/cloud/aiplatform/v1
//   node scripts/bench/type-check.mjs --temporal /tmp/temporal-ws
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const repoRoot = join(generatorDir, "..");
const runtimeDir = join(repoRoot, "runtimes", "ts");
const require = createRequire(import.meta.url);

/** The default APIs: Vertex AI (a usual large API) and Compute (the largest). */
const defaultApis = ["google/cloud/aiplatform/v1", "google/cloud/compute/v1"];

const { values: opt } = parseArgs({
  options: {
    apis: { type: "string", default: defaultApis.join(",") },
    temporal: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opt.help) {
  console.log(`usage: node scripts/bench/type-check.mjs [options]
  --apis A,B       API directories of google-proto-files (default ${defaultApis.join(",")}; "" for none)
  --temporal DIR   a buf workspace holding temporal/api (temporalio/api with its
                   google/api and nexusannotations imports and a "version: v2" buf.yaml)`);
  process.exit(0);
}

function fail(message) {
  console.error(`type-check: ${message}`);
  process.exit(2);
}

const bin = (name) => {
  const p = join(generatorDir, "node_modules", ".bin", name);
  if (!existsSync(p)) fail(`${p} not found: run pnpm install`);
  return p;
};
const buf = bin("buf");
const protocGenEs = bin("protoc-gen-es");
const tsc = bin("tsc");
const plugin = join(generatorDir, "bin", "protoc-gen-ai-tools");
if (!existsSync(join(generatorDir, "dist"))) {
  fail("the plugin is not built: run pnpm run build");
}
if (!existsSync(join(runtimeDir, "dist", "index.d.ts"))) {
  fail("runtimes/ts is not built: run pnpm run build");
}

const work = mkdtempSync(join(tmpdir(), "ai-tools-type-check-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

/** The packages the generated files import, linked into `dir`/node_modules. */
function linkPackages(dir) {
  const modules = join(dir, "node_modules");
  const link = (name, target) => {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(target, join(modules, name), "dir");
  };
  link("@protoc-gen-ai-tools/runtime", runtimeDir);
  for (const name of ["@bufbuild/protobuf", "@connectrpc/connect"]) {
    link(name, join(runtimeDir, "node_modules", name));
  }
}

/** tsconfig of the repository's settings over `include`. */
function tsconfig(include) {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022"],
      types: [],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include,
  });
}

/** Generate `api` of the buf workspace `root` into a new directory. */
function generate(root, api) {
  const dir = join(work, api.replace(/\//g, "_"));
  mkdirSync(dir, { recursive: true });
  const template = join(dir, "buf.gen.yaml");
  writeFileSync(
    template,
    [
      "version: v2",
      "plugins:",
      `  - local: ${protocGenEs}`,
      `    out: ${dir}`,
      "    opt: [target=ts, import_extension=js]",
      `  - local: ${plugin}`,
      `    out: ${dir}`,
      "    strategy: all",
      "    opt: [target=ts, tools=all]",
      "",
    ].join("\n"),
  );
  const r = spawnSync(
    buf,
    [
      "generate",
      root,
      "--include-imports",
      "--template",
      template,
      "--path",
      join(root, api),
    ],
    { cwd: dir, encoding: "utf8", maxBuffer: 1 << 26 },
  );
  if (r.status !== 0) fail(`buf generate on ${api} failed:\n${r.stderr}`);
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  writeFileSync(join(dir, "tsconfig.es.json"), tsconfig(["**/*_pb.ts"]));
  writeFileSync(
    join(dir, "tsconfig.all.json"),
    tsconfig(["**/*_pb.ts", "ai_tools.gen.ts"]),
  );
  linkPackages(dir);
  return dir;
}

/**
 * One `tsc --extendedDiagnostics` run: its figures, or a failure. CPU time
 * and peak memory come from rusage-preload.cjs: on this shared machine the
 * load moves wall time far more than CPU time.
 */
function typeCheck(dir, config) {
  const rusageFile = join(dir, "rusage.json");
  rmSync(rusageFile, { force: true });
  const r = spawnSync(tsc, ["-p", config, "--extendedDiagnostics"], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 1 << 26,
    env: {
      ...process.env,
      // Compute's program needs more than Node's default heap.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? "--max-old-space-size=4096"} --require ${join(here, "rusage-preload.cjs")}`,
      BENCH_RUSAGE_FILE: rusageFile,
    },
  });
  const figure = (name) => {
    const m = new RegExp(`^${name}:\\s+([0-9.]+)([sK]?)$`, "m").exec(r.stdout);
    return m === null ? undefined : Number(m[1]);
  };
  if (r.status !== 0) {
    fail(`tsc -p ${config} in ${dir} failed:\n${r.stdout.slice(0, 4000)}`);
  }
  const usage = JSON.parse(readFileSync(rusageFile, "utf8"));
  return {
    cpuS: (usage.userUs + usage.sysUs) / 1e6,
    totalS: figure("Total time"),
    types: figure("Types"),
    peakMiB: Math.round(usage.maxRssKb / 1024),
  };
}

const apis = [];
if (opt.temporal !== undefined) {
  const root = resolve(opt.temporal);
  if (!existsSync(join(root, "temporal", "api"))) {
    fail(`--temporal ${root}: no temporal/api in it`);
  }
  apis.push({ root, api: "temporal/api" });
}
const protos = dirname(require.resolve("google-proto-files/package.json"));
for (const api of opt.apis.split(",").map((a) => a.trim())) {
  if (api === "") continue;
  if (!existsSync(join(protos, api))) fail(`--apis: no ${api} in ${protos}`);
  apis.push({ root: protos, api });
}

const rows = [];
const loads = [];
for (const { root, api } of apis) {
  const dir = generate(root, api);
  const source = readFileSync(join(dir, "ai_tools.gen.ts"), "utf8");
  const tools = source.match(/^export const \w+: AgentTool =/gm)?.length ?? 0;
  loads.push(loadavg()[0]);
  const es = typeCheck(dir, "tsconfig.es.json");
  loads.push(loadavg()[0]);
  const all = typeCheck(dir, "tsconfig.all.json");
  rows.push({
    api,
    tools,
    fileMiB: (Buffer.byteLength(source) / 2 ** 20).toFixed(1),
    esCpuS: es.cpuS.toFixed(1),
    allCpuS: all.cpuS.toFixed(1),
    ratio: (all.cpuS / es.cpuS).toFixed(2),
    msPerTool: ((1000 * (all.cpuS - es.cpuS)) / tools).toFixed(1),
    esWallS: es.totalS,
    allWallS: all.totalS,
    esTypes: es.types,
    allTypes: all.types,
    esPeakMiB: es.peakMiB,
    allPeakMiB: all.peakMiB,
  });
}

console.log(
  `CPU time (user + system) and peak RSS of tsc; wall: tsc's Total time. tsc ${JSON.parse(readFileSync(join(dirname(dirname(require.resolve("typescript"))), "package.json"), "utf8")).version}, one run each, sequential; load average ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
);
console.table(rows);
