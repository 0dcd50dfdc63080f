// Child of phases.mjs: runs the built generator (dist/) in this process on
// the request in file argv[2], phase by phase as plugin.ts's generate() and
// run-node.ts do, and prints the CPU time (user+sys) and wall time of each
// phase as JSON. Module loading is timed too (the dynamic imports).
//
// With a count in argv[3], the whole run is repeated that many more times
// in this process and the last run's phases are printed too (`warm`): the
// engine has then compiled and optimized the hot code, and the heap has
// its full size, so the difference from the first run is what warming up
// costs a plugin process. The warm figure is a floor, if anything too low:
// the memos keyed by strings (quoted JSON strings and keys, checked
// patterns) are still filled; the descriptors, schemas, descriptions and
// texts are built again (their memos are keyed by descriptor or node).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// The V8 flags the executable runs under, before the generator is loaded.
createRequire(import.meta.url)("../../bin/tune-v8.cjs");

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let phases = [];
let lastCpu = cpu();
let lastWall = performance.now();
const mark = (name) => {
  const c = cpu();
  const w = performance.now();
  phases.push({ name, cpuMs: c - lastCpu, wallMs: w - lastWall });
  lastCpu = c;
  lastWall = w;
};

const dist = new URL("../../dist/", import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const [
  { readRequest },
  { writeResponse },
  { parseOptions },
  { buildModel, resolveRequestFiles },
  { toolSelectionOf },
  { createProblemCollector },
  { createToolChecker, providersOf },
  { targets },
  { createRenderer },
] = await Promise.all([
  load("read/read-request.js"),
  load("render/write-response.js"),
  load("options.js"),
  load("model/build-model.js"),
  load("model/tool-selection.js"),
  load("errors.js"),
  load("providers/provider-checks.js"),
  load("targets/registry.js"),
  load("render/render.js"),
]);
const { create } = await import("@bufbuild/protobuf");
const { CodeGeneratorResponseSchema } = await import("@bufbuild/protobuf/wkt");
const bytes = readFileSync(process.argv[2]);
mark("module load (unbundled)");

/** One run of the plugin's phases on `bytes`; returns the response size. */
const run = () => {
  const request = readRequest(bytes);
  mark("request decode");
  const options = parseOptions(request.parameter);
  const { files } = resolveRequestFiles(request);
  mark("descriptors");
  const problems = createProblemCollector();
  const providers = providersOf(options.lists["providers"] ?? []);
  const checker = createToolChecker(providers, problems, () => {});
  const model = buildModel(
    files,
    problems,
    toolSelectionOf(options.common, options.lists),
    providers.includes("openai"),
    () => {},
    (tool, schema) => checker.check(tool, schema),
  );
  checker.finish(model.tools);
  mark("model build (schemas, provider checks included)");
  const entry = targets[options.target];
  const view = entry.buildView(model, options.values, problems);
  mark("view build");
  const text = createRenderer(options.target).render(view, "file");
  mark("render (templates)");
  const content =
    entry.postProcess === undefined ? text : entry.postProcess(text, view);
  mark("format");
  const response = create(CodeGeneratorResponseSchema, {
    file: [{ name: view.fileName, content }],
  });
  const out = writeResponse(response);
  mark("response encode");
  return out.length;
};

const outputBytes = run();
const cold = phases;
const repeat = Number(process.argv[3] ?? "0");
for (let i = 0; i < repeat; i++) {
  phases = [];
  lastCpu = cpu();
  lastWall = performance.now();
  run();
}
process.stdout.write(
  JSON.stringify({
    phases: cold,
    warm: repeat > 0 ? phases : undefined,
    outputBytes,
  }),
);
