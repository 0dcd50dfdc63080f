// The tool-search data (option tool_search=true, docs/tool-search.md) of
// real APIs, from the built generator (dist/) with `tools=all`: how many
// namespaces, the most functions in one and those over 10 (with the service
// and resource), the o200k tokens of the namespace descriptions (what the
// model reads before any search), the data's size, and what the option adds
// to each target's file. One run each: the times are indications on a
// shared machine, not a benchmark.
//
//   node scripts/bench/tool-search-facts.mjs            # Compute, Vertex AI
//   node scripts/bench/tool-search-facts.mjs --apis google/pubsub/v1
//   node scripts/bench/tool-search-facts.mjs --root /tmp/temporal-api --apis temporal/api
//   node scripts/bench/tool-search-facts.mjs --list     # every namespace too
//
// Google's protos come from google-proto-files (pinned in package.json);
// `--root` takes another directory of protos (Temporal's: see
// e2e/vectors/tool-search/README.md), compiled by buf as api-facts.mjs does.
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { create, fromBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import { createRequestCapture } from "./buf-request.mjs";
import { countO200k } from "./tool-tokens.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const require = createRequire(import.meta.url);

const { values: opt } = parseArgs({
  options: {
    apis: {
      type: "string",
      default: "google/cloud/compute/v1,google/cloud/aiplatform/v1",
    },
    root: { type: "string" },
    dist: { type: "string", default: join(generatorDir, "dist") },
    list: { type: "boolean", default: false },
  },
});

const load = (file) => import(pathToFileURL(resolve(opt.dist, file)).href);
const { buildRequestModel, generate } = await load("plugin.js");
const { toolNamespaces, maxNamespaceFunctions } = await load(
  "model/tool-namespaces.js",
);

const root =
  opt.root ??
  dirname(
    require.resolve("google-proto-files/package.json", {
      paths: [generatorDir],
    }),
  );
const capture = createRequestCapture();
const quiet = () => {};

for (const api of opt.apis.split(",")) {
  const captured = fromBinary(CodeGeneratorRequestSchema, capture(root, api));
  const request = (parameter) =>
    create(CodeGeneratorRequestSchema, { ...captured, parameter });
  const { model } = buildRequestModel(request("target=ts,tools=all"), quiet);
  const namespaces = toolNamespaces(model.tools);
  const sizes = namespaces.map((ns) => ns.tools.length);
  const over = namespaces.filter(
    (ns) => ns.tools.length > maxNamespaceFunctions,
  );
  const tokens = namespaces.map((ns) => countO200k(ns.description));
  const services = new Set(model.tools.map((t) => t.service.typeName)).size;
  const started = performance.now();
  const json = model.toolSearchJson;
  const buildMs = performance.now() - started;
  const namespaceBytes = JSON.stringify(JSON.parse(json).namespaces).length;
  console.log(
    `${api}: ${model.tools.length} tools, ${services} services, ${namespaces.length} namespaces, ` +
      `most functions ${Math.max(...sizes)}, over ${maxNamespaceFunctions}: ${over.length}`,
  );
  for (const ns of over) {
    console.log(
      `  over ${maxNamespaceFunctions}: ${ns.name} ${ns.tools.length} (${ns.resource || "one resource"})`,
    );
  }
  console.log(
    `  descriptions: ${tokens.reduce((a, b) => a + b, 0)} o200k tokens, ` +
      `${Math.round(tokens.reduce((a, b) => a + b, 0) / tokens.length)} a namespace, most ${Math.max(...tokens)}`,
  );
  console.log(
    `  data: ${json.length} bytes (namespaces ${namespaceBytes}), built in ${buildMs.toFixed(0)} ms`,
  );
  for (const target of ["ts", "go", "py"]) {
    const row = [false, true].map((on) => {
      const t0 = performance.now();
      const [file] = generate(
        request(`target=${target},tools=all${on ? ",tool_search=true" : ""}`),
        quiet,
      );
      return {
        bytes: Buffer.byteLength(file.content),
        ms: performance.now() - t0,
      };
    });
    console.log(
      `  ${target}: file ${row[0].bytes} -> ${row[1].bytes} bytes (+${row[1].bytes - row[0].bytes}), ` +
        `generation ${row[0].ms.toFixed(0)} -> ${row[1].ms.toFixed(0)} ms`,
    );
  }
  if (opt.list) {
    for (const ns of namespaces) {
      console.log(`  ${ns.tools.length}\t${ns.name}\t${ns.description}`);
    }
  }
}
