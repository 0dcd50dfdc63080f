#!/usr/bin/env node
// Arguments generated from the schema of each samples_echo_* tool of
// e2e/proto (by @ai-tools/testkit), the way the plugin computes the schema
// (its own model, from a `buf build` of e2e/proto), for the schema round
// trip of every end-to-end suite. Each suite checks that the schema recorded
// here is the one its generated file carries.
//
//   e2e-sample-values --target go|ts|py --seed N --out DIR [--count N]
//
// writes DIR/<tool>.json: {tool, strict, requestType, schemaJson, values},
// each value the argument text a model would send.

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

const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
);

/** The plugin's model of e2e/proto for a target. */
export function modelOfTestApi(target) {
  const image = execFileSync(
    path.join(repoRoot, "node_modules", ".bin", "buf"),
    ["build", "e2e/proto", "--as-file-descriptor-set", "-o", "-"],
    { cwd: repoRoot, maxBuffer: 1 << 28 },
  );
  const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(image));
  const request = create(CodeGeneratorRequestSchema, {
    fileToGenerate: set.file
      .map((f) => f.name)
      .filter((n) => n.startsWith("linkhub/")),
    parameter: `target=${target}`,
    protoFile: set.file,
  });
  return buildModel(resolveRequestFiles(request).files);
}

const hasProtoKey = (v) => JSON.stringify(v).includes('"__proto__"');

/**
 * `count` admitted values for each samples_echo_* tool. A map key
 * "__proto__" (fast-check likes it) is lost by the test server, which
 * decodes with protobuf-es into plain objects, whatever the executor sent:
 * such values are replaced, and counted.
 */
export function sampleValues({ target, seed, count = 200 }) {
  const tools = modelOfTestApi(target).tools.filter((t) =>
    t.name.startsWith("samples_echo_"),
  );
  if (tools.length === 0) {
    throw new Error("no samples_echo_* tool in e2e/proto");
  }
  return tools.map((tool, i) => {
    const schema = JSON.parse(tool.schemaJson);
    const generated = valuesFor(schema, {
      count: count * 2,
      seed: seed + i,
      oneofGroups: tool.oneofGroups.map((g) => ({
        path: g.path,
        members: g.members,
        name: g.oneof,
      })),
      // What every integer and float field accepts (docs/compat.md).
      integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
      numberLimit: 3.4e38,
    });
    const values = generated.filter((v) => !hasProtoKey(v)).slice(0, count);
    if (values.length < count) {
      throw new Error(`${tool.name}: only ${values.length} usable values`);
    }
    for (const v of values) {
      const problems = validateAgainst(schema, v, tool.oneofGroups);
      if (problems.length > 0) {
        throw new Error(
          `${tool.name}: generated value not admitted: ${problems.join("; ")}`,
        );
      }
    }
    return {
      tool,
      values,
      replaced: generated.slice(0, count).filter(hasProtoKey).length,
    };
  });
}

/** Write `<out>/<tool>.json` for each samples_echo_* tool. */
export function writeSampleValues({ target, seed, out, count = 200 }) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const { tool, values, replaced } of sampleValues({
    target,
    seed,
    count,
  })) {
    const file = path.join(out, `${tool.name}.json`);
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
      `  ${tool.name}: ${values.length} values → ${path.relative(repoRoot, file)} (${replaced} with a "__proto__" key replaced)`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = new Map();
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    if (!["--target", "--seed", "--out", "--count"].includes(argv[i])) {
      throw new Error(`e2e-sample-values: unknown argument ${argv[i]}`);
    }
    args.set(argv[i], argv[i + 1]);
  }
  const count = Number(args.get("--count") ?? 200);
  const seed = Number(args.get("--seed"));
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    throw new Error("e2e-sample-values: --seed and --count take integers");
  }
  writeSampleValues({
    target: args.get("--target"),
    seed,
    out: path.resolve(args.get("--out")),
    count,
  });
}
