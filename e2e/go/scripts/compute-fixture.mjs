#!/usr/bin/env node
// Compute Engine's tools and tool-search data, for the deferred requests of
// the Go runtime (gentools/compute_deferred_test.go): google/cloud/compute/v1
// of google-proto-files (the generator's pinned devDependency), compiled by
// buf, and the generator's model under target=go,tools=all
// (tool_search=true's data: model.toolSearchJson). Written to
// gen/compute/deferred.json (gitignored):
//
//   {"toolSearch": "<the ToolSearchData JSON text>",
//    "tools": [{"name", "description", "strict", "parameters": <schema>,
//               "forms": "<the provider forms JSON text>"}]}
//
// The generated Go file of Compute needs Compute's Go messages to compile;
// its tools, forms and search data are the same text, so the test puts them
// in the generated linkhub package's tables instead.
//
//   node scripts/compute-fixture.mjs     (needs the built generator)

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const generatorDir = path.resolve(pkgDir, "..", "..", "generator");
const fromGenerator = createRequire(path.join(generatorDir, "package.json"));
const api = "google/cloud/compute/v1";

const lib = await import(
  pathToFileURL(path.join(generatorDir, "scripts", "lib", "request.mjs")).href
);
const gen = await import(
  pathToFileURL(path.join(generatorDir, "dist", "index.js")).href
);
const { create, fromBinary } = await import(
  pathToFileURL(fromGenerator.resolve("@bufbuild/protobuf")).href
);
const { CodeGeneratorRequestSchema, FileDescriptorSetSchema } = await import(
  pathToFileURL(fromGenerator.resolve("@bufbuild/protobuf/wkt")).href
);

const protos = path.dirname(
  fromGenerator.resolve("google-proto-files/package.json"),
);
const bytes = execFileSync(
  lib.bufBin(),
  [
    "build",
    protos,
    "--path",
    path.join(protos, api),
    "--as-file-descriptor-set",
    "-o",
    "-",
  ],
  { maxBuffer: 1 << 28 },
);
const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(bytes));
const request = create(CodeGeneratorRequestSchema, {
  fileToGenerate: set.file
    .map((f) => f.name)
    .filter((n) => n.startsWith(`${api}/`)),
  parameter: "target=go,tools=all,tool_search=true",
  protoFile: lib.topoSort(set.file),
});
const options = gen.parseOptions(request.parameter);
const model = gen.buildModel(
  gen.resolveRequestFiles(request).files,
  undefined,
  gen.toolSelectionOf(options.common, options.lists),
);

const out = path.join(pkgDir, "gen", "compute");
mkdirSync(out, { recursive: true });
const tools = model.tools.map(
  (t) =>
    `{"name":${JSON.stringify(t.name)},"description":${JSON.stringify(t.description)},` +
    `"strict":${t.strict},"parameters":${t.schemaJson},"forms":${JSON.stringify(t.formsJson)}}`,
);
writeFileSync(
  path.join(out, "deferred.json"),
  `{"toolSearch":${JSON.stringify(model.toolSearchJson)},"tools":[\n${tools.join(",\n")}\n]}\n`,
);
console.log(
  `  gen/compute/deferred.json: ${model.tools.length} tools, ${JSON.parse(model.toolSearchJson).namespaces.length} namespaces`,
);
