// The plugin on real public APIs: Google's protos from the npm package
// google-proto-files (pinned in package.json), each API compiled by buf
// and handed to the plugin exactly as `buf generate` hands it (the request
// is captured from buf once, then replayed), with `tools=all` (Google's
// protos have no rpc_tool annotations). Times the whole process per API and
// target, runs alternating, medians printed; `--baseline` runs an older
// build too. See bench/README.md, "Real APIs".
//
//   node scripts/bench/real-apis.mjs
//   node scripts/bench/real-apis.mjs --apis google/pubsub/v1 --targets go,ts
//   node scripts/bench/real-apis.mjs --baseline /path/to/old/bin/protoc-gen-ai-tools
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import { createRequestCapture } from "./buf-request.mjs";
import { runPlugin } from "./measure.mjs";
import { wholeNumber } from "./whole-number.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const require = createRequire(import.meta.url);

/** The default APIs: the largest of Google's, and two of a usual size. */
const defaultApis = [
  "google/cloud/compute/v1",
  "google/cloud/aiplatform/v1",
  "google/pubsub/v1",
];

const { values: opt } = parseArgs({
  options: {
    apis: { type: "string", default: defaultApis.join(",") },
    targets: { type: "string", default: "go,ts,py" },
    runs: { type: "string", default: "5" },
    plugin: { type: "string" },
    baseline: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opt.help) {
  console.log(`usage: node scripts/bench/real-apis.mjs [options]
  --apis A,B       API directories of google-proto-files (default ${defaultApis.join(",")})
  --targets T,U    targets (default go,ts,py)
  --runs N         measured runs per API, target and plugin, after one warm-up (default 5)
  --plugin PATH    plugin executable (default the built one)
  --baseline PATH  an older plugin executable too, runs alternating`);
  process.exit(0);
}

function fail(message) {
  console.error(`real-apis: ${message}`);
  process.exit(2);
}

const runs = wholeNumber("runs", opt.runs, 1, fail);
const targets = opt.targets.split(",").map((t) => t.trim());
for (const t of targets) {
  if (!["go", "ts", "py"].includes(t)) {
    fail(`--targets ${JSON.stringify(t)}: valid targets: go, ts, py`);
  }
}

/** The command of a plugin executable given as a path. */
function pluginCommand(flag, path) {
  const p = resolve(path);
  if (!existsSync(p)) fail(`--${flag} ${p} does not exist`);
  return /\.[cm]?js$/.test(p)
    ? { command: process.execPath, args: [p] }
    : { command: p, args: [] };
}

const plugins = [
  {
    name: "new",
    ...(opt.plugin
      ? pluginCommand("plugin", opt.plugin)
      : pluginCommand(
          "plugin",
          join(generatorDir, "bin", "protoc-gen-ai-tools"),
        )),
  },
];
if (opt.baseline) {
  plugins.push({ name: "base", ...pluginCommand("baseline", opt.baseline) });
}

const protos = dirname(require.resolve("google-proto-files/package.json"));
const work = mkdtempSync(join(tmpdir(), "ai-tools-real-apis-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

let capture;
try {
  capture = createRequestCapture();
} catch (e) {
  fail(e.message);
}

/** The request buf sends for `api`, with `tools=all`. */
function captureRequest(api) {
  try {
    return capture(protos, api, "tools=all");
  } catch (e) {
    fail(`--apis: ${e.message}`);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const rows = [];
const loads = [];
for (const api of opt.apis.split(",").map((a) => a.trim())) {
  const captured = captureRequest(api);
  const request = fromBinary(CodeGeneratorRequestSchema, captured);
  const cases = [];
  for (const target of targets) {
    request.parameter = `target=${target},tools=all`;
    const bytes = toBinary(CodeGeneratorRequestSchema, request);
    for (const plugin of plugins) {
      cases.push({ target, plugin, bytes, wall: [], cpu: [], rss: [] });
    }
  }
  for (let i = 0; i <= runs; i++) {
    for (const c of cases) {
      loads.push(loadavg()[0]);
      const r = await runPlugin({
        command: c.plugin.command,
        args: c.plugin.args,
        request: c.bytes,
        rusageFile: join(work, "rusage.json"),
      });
      if (r.code !== 0) {
        fail(`${c.plugin.name} on ${api} (${c.target}) failed:\n${r.stderr}`);
      }
      c.outputBytes = r.stdout.length;
      if (i > 0) {
        c.wall.push(r.wallMs);
        if (r.cpuMs !== undefined) c.cpu.push(r.cpuMs);
        c.rss.push(r.peakRssKb);
      }
    }
  }
  const tools = (() => {
    let n = 0;
    for (const f of request.protoFile) {
      if (!request.fileToGenerate.includes(f.name)) continue;
      for (const s of f.service) n += s.method.length;
    }
    return n;
  })();
  for (const c of cases) {
    rows.push({
      api,
      methods: tools,
      requestMiB: (c.bytes.length / 2 ** 20).toFixed(1),
      target: c.target,
      plugin: c.plugin.name,
      wallMs: Math.round(median(c.wall)),
      cpuMs: c.cpu.length ? Math.round(median(c.cpu)) : undefined,
      peakRssMiB: Math.round(median(c.rss) / 1024),
      outputMiB: (c.outputBytes / 2 ** 20).toFixed(1),
    });
  }
}

console.log(
  `google-proto-files ${JSON.parse(readFileSync(join(protos, "package.json"), "utf8")).version}, ${runs} runs + 1 warm-up, medians; load average ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
);
console.table(rows);
