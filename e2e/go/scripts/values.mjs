#!/usr/bin/env node
// Write gen/values/<tool>.json: JSON arguments generated from the schema of each
// samples_echo_* tool of e2e/proto, for the Go suite's schema round trip
// (gentools/samples_test.go). The tool schemas are recomputed with the
// plugin's own model (buildModel), from a `buf build` of e2e/proto, so they
// are the schemas the generated Go file carries; the Go test checks that.
//
//   node scripts/values.mjs [--count N]

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fromBinary, create } from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  CodeGeneratorRequestSchema,
} from "@bufbuild/protobuf/wkt";
import { valuesFor, validateAgainst } from "@ai-tools/testkit";
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
  { cwd: repoRoot, maxBuffer: 1 << 28 },
);
const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(image));
const request = create(CodeGeneratorRequestSchema, {
  fileToGenerate: set.file
    .map((f) => f.name)
    .filter((n) => n.startsWith("linkhub/")),
  parameter: "target=go",
  protoFile: set.file,
});
const model = buildModel(resolveRequestFiles(request).files);

const outDir = path.join(pkgDir, "gen", "values");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const tools = model.tools.filter((t) => t.name.startsWith("samples_echo_"));
if (tools.length === 0) throw new Error("no samples_echo_* tool in e2e/proto");
for (const [i, tool] of tools.entries()) {
  const oneofGroups = tool.oneofGroups.map((g) => ({
    path: g.path,
    members: g.members,
    name: g.oneof,
  }));
  const generated = valuesFor(JSON.parse(tool.schemaJson), {
    count: count * 2,
    seed: 7000 + i,
    oneofGroups,
    // What every integer and float field accepts (docs/compat.md).
    integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
    numberLimit: 3.4e38,
  });
  // The test server decodes with protobuf-es, which keeps maps in plain
  // objects: a map key "__proto__" (fast-check likes it) is lost on the
  // server side, not by the Go executor. Such values are left out here and
  // counted; the TypeScript runtime has to guard against that key itself.
  const values = generated
    .filter((v) => !JSON.stringify(v).includes('"__proto__"'))
    .slice(0, count);
  if (values.length < count) {
    throw new Error(`${tool.name}: only ${values.length} usable values`);
  }
  console.log(
    `  ${tool.name}: ${generated.slice(0, count).filter((v) => JSON.stringify(v).includes('"__proto__"')).length} of the first ${count} generated values had a "__proto__" key and were replaced`,
  );
  for (const v of values) {
    const problems = validateAgainst(
      JSON.parse(tool.schemaJson),
      v,
      tool.oneofGroups,
    );
    if (problems.length > 0) {
      throw new Error(
        `${tool.name}: generated value not admitted: ${problems.join("; ")}`,
      );
    }
  }
  const file = path.join(outDir, `${tool.name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      tool: tool.name,
      strict: tool.strict,
      requestType: tool.input.typeName,
      schemaJson: tool.schemaJson,
      // Each value as the argument string a model would send.
      values: values.map((v) => JSON.stringify(v)),
    }),
  );
  console.log(
    `  ${tool.name}: ${values.length} values → ${path.relative(repoRoot, file)}`,
  );
}
