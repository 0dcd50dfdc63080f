#!/usr/bin/env node
// Write gen/values/<tool>.json: JSON arguments generated (by @ai-tools/testkit)
// from the schema of each samples_echo_* tool of e2e/proto, for the schema
// round trip of tests/test_samples.py. The schemas are recomputed with the
// plugin's model from a `buf build` of e2e/proto; the test checks that they
// are the ones gen/ai_tools_gen.py carries.
//
//   node scripts/values.mjs [--count N]

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { validateAgainst, valuesFor } from "@ai-tools/testkit";
import { buildModel, resolveRequestFiles } from "protoc-gen-ai-tools";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const repoRoot = path.resolve(pkgDir, "..", "..");

const argv = process.argv.slice(2);
let count = 200;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--count") count = Number(argv[++i]);
  else throw new Error(`values.mjs: unknown argument ${argv[i]}`);
}
if (!Number.isInteger(count) || count < 1)
  throw new Error("--count: a positive integer");

const buf = path.join(repoRoot, "node_modules", ".bin", "buf");
const image = execFileSync(
  buf,
  ["build", "e2e/proto", "--as-file-descriptor-set", "-o", "-"],
  {
    cwd: repoRoot,
    maxBuffer: 1 << 28,
  },
);
const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(image));
const request = create(CodeGeneratorRequestSchema, {
  fileToGenerate: set.file
    .map((f) => f.name)
    .filter((n) => n.startsWith("linkhub/")),
  parameter: "target=py",
  protoFile: set.file,
});
const model = buildModel(resolveRequestFiles(request).files);

const outDir = path.join(pkgDir, "gen", "values");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const tools = model.tools.filter((t) => t.name.startsWith("samples_echo_"));
if (tools.length === 0) throw new Error("no samples_echo_* tool in e2e/proto");
for (const [i, tool] of tools.entries()) {
  const schema = JSON.parse(tool.schemaJson);
  const generated = valuesFor(schema, {
    count: count * 2,
    seed: 9100 + i,
    oneofGroups: tool.oneofGroups.map((g) => ({
      path: g.path,
      members: g.members,
      name: g.oneof,
    })),
    // What every integer and float field accepts (docs/compat.md).
    integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
    numberLimit: 3.4e38,
  });
  // A map key "__proto__" (fast-check likes it) is lost by the test server,
  // which decodes with protobuf-es into plain objects: the Python executor
  // sends it, the recording cannot show it. Such values are left out here,
  // and counted.
  const hasProto = (v) => JSON.stringify(v).includes('"__proto__"');
  const values = generated.filter((v) => !hasProto(v)).slice(0, count);
  if (values.length < count)
    throw new Error(`${tool.name}: only ${values.length} usable values`);
  for (const v of values) {
    const problems = validateAgainst(schema, v, tool.oneofGroups);
    if (problems.length > 0)
      throw new Error(
        `${tool.name}: generated value not admitted: ${problems.join("; ")}`,
      );
  }
  const file = path.join(outDir, `${tool.name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      tool: tool.name,
      strict: tool.strict,
      requestType: tool.input.typeName,
      schemaJson: tool.schemaJson,
      values: values.map((v) => JSON.stringify(v)),
    }),
  );
  console.log(
    `  ${tool.name}: ${values.length} values → ${path.relative(repoRoot, file)} (${generated.slice(0, count).filter(hasProto).length} with a "__proto__" key replaced)`,
  );
}
