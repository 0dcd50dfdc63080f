#!/usr/bin/env node
// Arguments generated from the schema of each samples_echo_* tool of
// e2e/proto (by @protoc-gen-ai-tools/testkit), the way the plugin computes the schema
// (its own model, from a `buf build` of e2e/proto), for the schema round
// trip of every end-to-end suite. Each suite checks that the schema recorded
// here is the one its generated file carries.
//
//   e2e-sample-values --target go|ts|py --seed N --out DIR [--count N]
//
// writes DIR/<tool>.json: {tool, strict, requestType, schemaJson, values},
// each value the argument text a model would send.
//
// Also the same for every tool of a generator golden case (caseValues,
// writeCaseValues): `compact` (schema=compact: $defs, recursion),
// `validate` (buf.validate keywords) and `recursion` (strict cycles), which
// each suite generates code for beside e2e/proto.

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { validateAgainst, valuesFor } from "@protoc-gen-ai-tools/testkit";
import { ScalarType } from "@bufbuild/protobuf";
import {
  buildModel,
  parseOptions,
  resolveRequestFiles,
  toolSelectionOf,
} from "protoc-gen-ai-tools";
import { buildRequest } from "../../generator/scripts/lib/request.mjs";

const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
);

/**
 * How many schema-generated values each tool gets in the suites' round
 * trips: 200 in the nightly run (AI_TOOLS_NIGHTLY=1, bash scripts/nightly.sh
 * load), 40 in .ci/run. The Go and Python tests read the same variable.
 */
export const valuesPerTool = process.env.AI_TOOLS_NIGHTLY === "1" ? 200 : 40;

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

/** The plugin's model of a generator golden case (with its options.txt). */
export async function modelOfCase(caseName, target) {
  const request = await buildRequest(caseName, {
    parameter: `target=${target}`,
  });
  // The case's options (schema=compact) as the plugin reads them.
  const options = parseOptions(request.parameter);
  return buildModel(
    resolveRequestFiles(request).files,
    undefined,
    toolSelectionOf(options.common, options.lists),
  );
}

const hasProtoKey = (v) => JSON.stringify(v).includes('"__proto__"');

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const uint32 = { min: 0, max: 2 ** 32 - 1 };
// 64-bit kinds: what a JSON number holds exactly.
const int64 = { min: -(2 ** 53 - 1), max: 2 ** 53 - 1 };
const uint64 = { min: 0, max: 2 ** 53 - 1 };
const rangeOf = {
  [ScalarType.INT32]: int32,
  [ScalarType.SINT32]: int32,
  [ScalarType.SFIXED32]: int32,
  [ScalarType.UINT32]: uint32,
  [ScalarType.FIXED32]: uint32,
  [ScalarType.INT64]: int64,
  [ScalarType.SINT64]: int64,
  [ScalarType.SFIXED64]: int64,
  [ScalarType.UINT64]: uint64,
  [ScalarType.FIXED64]: uint64,
};

/**
 * The range of the integer field at a value path of `input` (segments as in
 * @protoc-gen-ai-tools/testkit's OneofGroup: field names, "[]", "{}", "key"/"value" of
 * map entries), from its protobuf type: a signed field gets negative values
 * too, an unsigned one none. Undefined where the path ends elsewhere (an
 * enum, a well-known type): the testkit's int32.
 */
export function integerRangeIn(input) {
  return (path) => {
    let message = input;
    let field;
    let entry; // "key" or "value" of a map reached by "[]" or "{}"
    for (const segment of path) {
      if (field === undefined) {
        field = message?.fields.find(
          (f) => f.name === segment || f.jsonName === segment,
        );
        if (field === undefined) return undefined;
        continue;
      }
      if (field.fieldKind === "list" && segment === "[]") {
        if (field.listKind !== "message") return undefined;
        message = field.message;
        field = undefined;
      } else if (field.fieldKind === "map" && segment === "{}") {
        entry = "value";
      } else if (field.fieldKind === "map" && segment === "[]") {
        entry = "entry";
      } else if (field.fieldKind === "map" && entry === "entry") {
        entry = segment;
      } else if (field.fieldKind === "message") {
        message = field.message;
        field = message.fields.find(
          (f) => f.name === segment || f.jsonName === segment,
        );
        if (field === undefined) return undefined;
      } else if (
        field.fieldKind === "map" &&
        entry === "value" &&
        field.mapKind === "message"
      ) {
        message = field.message;
        entry = undefined;
        field = message.fields.find(
          (f) => f.name === segment || f.jsonName === segment,
        );
        if (field === undefined) return undefined;
      } else {
        return undefined;
      }
    }
    if (field === undefined) return undefined;
    if (field.fieldKind === "scalar" || field.fieldKind === "list") {
      return rangeOf[field.scalar];
    }
    if (field.fieldKind === "map") {
      if (entry === "key") return rangeOf[field.mapKey];
      if (entry === "value") return rangeOf[field.scalar];
    }
    return undefined;
  };
}

/** protobuf's JSONCamelCase (the FieldMask JSON form): `_x` → `X`. */
function jsonCamel(name) {
  return name.replace(/_+([a-z])?/g, (_, c) =>
    c === undefined ? "" : c.toUpperCase(),
  );
}

/**
 * The schema with each FieldMask (a string whose hint says
 * "Comma-separated field paths of T, e.g. \"a,b\"", docs/schemas.md)
 * narrowed, for generating values only, to masks the argument check takes
 * and every decoder reads: empty, or the hint's example paths in their
 * lowerCamel form (a path naming no field of T is refused before sending).
 */
export function withKnownMasks(node) {
  if (Array.isArray(node)) return node.map(withKnownMasks);
  if (typeof node !== "object" || node === null) return node;
  const out = Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, withKnownMasks(v)]),
  );
  const hint =
    out.type === "string" && typeof out.description === "string"
      ? /Comma-separated field paths(?: of \w+, e\.g\. "([^"]*)")?; "\*" for all fields\./.exec(
          out.description,
        )
      : null;
  if (hint !== null) {
    const paths = (hint[1] ?? "")
      .split(",")
      .filter((p) => p !== "")
      .map(jsonCamel);
    out.enum = [...new Set(["", paths.join(","), paths[0] ?? ""])];
  }
  return out;
}

/**
 * `count` values for one tool, each admitted by its schema (checked here);
 * values with a "__proto__" key are dropped (see sampleValues).
 */
function toolValues(tool, { seed, count, integerRange }) {
  const schema = JSON.parse(tool.schemaJson);
  const generated = valuesFor(withKnownMasks(schema), {
    count: count * 2,
    seed,
    oneofGroups: tool.oneofGroups.map((g) => ({
      path: g.path,
      members: g.members,
      name: g.oneof,
    })),
    integerRange,
    numberLimit: 3.4e38,
    // Keys the schema does not declare are refused before sending
    // (docs/runtime.md, "Argument checks"): a model that keeps to the
    // schema sends none.
    unknownKeys: false,
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
}

/**
 * `count` admitted values for each tool of a generator golden case
 * (`compact`, `validate`, `recursion`), integers in their field's range.
 */
export async function caseValues({ caseName, target, seed, count = 200 }) {
  const { tools } = await modelOfCase(caseName, target);
  if (tools.length === 0) throw new Error(`case ${caseName} has no tool`);
  return tools.map((tool, i) =>
    toolValues(tool, {
      seed: seed + i,
      count,
      integerRange: integerRangeIn(tool.input),
    }),
  );
}

/**
 * Write `<out>/<case>.json`: {case, tools: [{tool, strict, method (its
 * gRPC path), requestType, schemaJson, values}]}, each value the argument
 * text a model would send.
 */
export async function writeCaseValues({
  caseName,
  target,
  seed,
  out,
  count = 200,
}) {
  mkdirSync(out, { recursive: true });
  const tools = await caseValues({ caseName, target, seed, count });
  const file = path.join(out, `${caseName}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      case: caseName,
      tools: tools.map(({ tool, values }) => ({
        tool: tool.name,
        strict: tool.strict,
        method: `/${tool.service.typeName}/${tool.method.name}`,
        requestType: tool.input.typeName,
        schemaJson: tool.schemaJson,
        values: values.map((v) => JSON.stringify(v)),
      })),
    }),
  );
  console.log(
    `  case ${caseName}: ${tools.length} tools × ${count} values → ${path.relative(repoRoot, file)}`,
  );
}

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
  // What every integer and float field accepts (docs/compat.md).
  const integerRange = () => ({ min: 0, max: 2 ** 31 - 1 });
  return tools.map((tool, i) =>
    toolValues(tool, { seed: seed + i, count, integerRange }),
  );
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

/**
 * Write what a suite's value tests read into `out`: `<tool>.json` for each
 * samples_echo_* tool (seed `seed`), and `<case>.json` for the golden cases
 * compact, validate and recursion (seeds `seed + 100`, `+ 200`, `+ 300`).
 */
export async function writeSuiteValues({ target, seed, out, count = 200 }) {
  writeSampleValues({ target, seed, out, count });
  for (const [i, caseName] of ["compact", "validate", "recursion"].entries()) {
    await writeCaseValues({
      caseName,
      target,
      seed: seed + 100 * (i + 1),
      out,
      count,
    });
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
