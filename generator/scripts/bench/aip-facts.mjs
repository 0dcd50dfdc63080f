// Facts of issue 31 on a real API, with the built generator (dist/): the
// tool list's o200k tokens (OpenAI and Anthropic forms), and the counts the
// issue aims at 0: strict enum fields whose enum has a `*_UNSPECIFIED` zero,
// not required (REQUIRED, buf.validate, proto2), that cannot be left unset
// (no null); AIP-133 Create tools (a `parent` field) that require their
// resource's IDENTIFIER field; and fields bound by a `google.api.http` path
// (or a message on the way to one) that a schema lets be null or leave out.
//
//   node scripts/bench/aip-facts.mjs --api google/cloud/aiplatform/v1
//   node scripts/bench/aip-facts.mjs --root /tmp/temporal-api --generate temporal/api/
//   node scripts/bench/aip-facts.mjs --api google/cloud/compute/v1 --parameter tools=all,output_only_comments=true
//
// --api names a directory of google-proto-files; --root a directory of
// protos (its google/protobuf files and buf.yaml ignored: buf has its own),
// --generate the prefix of the files to generate (default all but google/).
// --dist DIR measures another build (an older one, for a before/after).
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { bufBin, topoSort } from "../lib/request.mjs";
import { toolListTokens } from "./tool-tokens.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");

const { values: opt } = parseArgs({
  options: {
    api: { type: "string" },
    root: { type: "string" },
    generate: { type: "string" },
    parameter: { type: "string", default: "tools=all" },
    dist: { type: "string", default: join(generatorDir, "dist") },
    list: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opt.help || (opt.api === undefined) === (opt.root === undefined)) {
  console.log(`usage: node scripts/bench/aip-facts.mjs (--api DIR | --root DIR [--generate PREFIX]) [options]
  --api DIR          an API directory of google-proto-files (google/pubsub/v1)
  --root DIR         a directory of protos (Temporal's API checkout)
  --generate PREFIX  with --root: files to generate (default all but google/)
  --parameter P      plugin parameter (default tools=all)
  --dist DIR         built generator (default generator/dist)
  --list             print each counted field
  --json             one JSON object instead of text`);
  process.exit(opt.help ? 0 : 2);
}

const load = (file) =>
  import(pathToFileURL(resolve(opt.dist, file)).href).catch((e) => {
    console.error(
      `aip-facts: cannot load ${file} from ${opt.dist} (${e.message}); run \`pnpm build\` in generator/`,
    );
    process.exit(2);
  });
const index = await load("index.js");
const annotations = await load("annotations.js");
const { httpBoundFields } = await load("schema/http-bound-fields.js");
// A build from before issue 31 has no field-behavior helper for required.
const { isRequiredField = () => false } = await load(
  "schema/field-behavior.js",
);

/** A FileDescriptorSet of the protos, compiled by buf (source info kept). */
function compile() {
  if (opt.api !== undefined) {
    const protos = dirname(
      createRequire(import.meta.url).resolve("google-proto-files/package.json"),
    );
    const set = bufBuild(protos, join(protos, opt.api));
    return { set, generate: (name) => name.startsWith(`${opt.api}/`) };
  }
  const work = mkdtempSync(join(tmpdir(), "aip-facts-"));
  process.on("exit", () => rmSync(work, { recursive: true, force: true }));
  const root = resolve(opt.root);
  const copy = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      const rel = relative(root, path);
      if (statSync(path).isDirectory()) {
        if (rel !== join("google", "protobuf")) copy(path);
      } else if (entry.endsWith(".proto")) {
        cpSync(path, join(work, rel));
      }
    }
  };
  copy(root);
  writeFileSync(join(work, "buf.yaml"), "version: v2\n");
  const prefix = opt.generate;
  return {
    set: bufBuild(work, undefined),
    generate: (name) =>
      prefix === undefined
        ? !name.startsWith("google/")
        : name.startsWith(prefix),
  };
}

function bufBuild(input, path) {
  const bytes = execFileSync(
    bufBin(),
    [
      "build",
      input,
      ...(path === undefined ? [] : ["--path", path]),
      "--as-file-descriptor-set",
      "-o",
      "-",
    ],
    { maxBuffer: 1 << 29 },
  );
  return fromBinary(FileDescriptorSetSchema, new Uint8Array(bytes));
}

const { set, generate } = compile();
const request = create(CodeGeneratorRequestSchema, {
  fileToGenerate: set.file.map((f) => f.name).filter(generate),
  parameter: opt.parameter,
  protoFile: topoSort(set.file),
});
const options = index.parseOptions(request.parameter);
const tools = index.buildModel(
  index.resolveRequestFiles(request).files,
  undefined,
  index.toolSelectionOf(options.common, options.lists),
  false,
).tools;

// --- schema walking, by descriptor ---------------------------------------

function deref(root, schema) {
  const ref = schema["$ref"];
  if (typeof ref !== "string") return schema;
  const key = ref
    .slice("#/$defs/".length)
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
  return deref(root, root["$defs"][key]);
}

/** The non-null branches of a schema, `$ref`s followed. */
function branches(root, schema) {
  const s = deref(root, schema);
  if (Array.isArray(s["anyOf"])) {
    return s["anyOf"]
      .filter((b) => b["type"] !== "null")
      .flatMap((b) => branches(root, b));
  }
  return [s];
}

function admitsNull(root, schema) {
  const s = deref(root, schema);
  return (
    s["type"] === "null" ||
    (Array.isArray(s["anyOf"]) && s["anyOf"].some((b) => admitsNull(root, b)))
  );
}

/** Each object branch's property `name`, and whether the branch requires it. */
function propertyUses(root, schema, name) {
  const out = [];
  for (const b of branches(root, schema)) {
    const props = b["properties"];
    if (props !== undefined && Object.hasOwn(props, name)) {
      out.push({
        schema: props[name],
        required: (b["required"] ?? []).includes(name),
      });
    }
  }
  return out;
}

/** True when a schema property can be left unset: null, or not required. */
function canBeUnset(root, uses) {
  return uses.some((u) => !u.required || admitsNull(root, u.schema));
}

const hasUnspecifiedZero = (e) =>
  e.values.some((v) => v.number === 0 && v.name.endsWith("UNSPECIFIED"));

/**
 * Walk a tool's schema with its messages: `visit(field, uses, path)` for
 * each field the schema shows, each (schema, message) pair once.
 */
function walkFields(root, visit) {
  const seen = new Set();
  const walk = (schema, message, path) => {
    const s = deref(root, schema);
    if (seen.has(s)) return;
    seen.add(s);
    for (const field of message.fields) {
      const uses = propertyUses(root, s, field.name);
      if (uses.length === 0) continue;
      const at = path === "" ? field.name : `${path}.${field.name}`;
      visit(field, uses, at);
      for (const u of uses) {
        for (const b of branches(root, u.schema)) {
          if (field.fieldKind === "message" && b["properties"]) {
            walk(b, field.message, at);
          } else if (
            field.fieldKind === "list" &&
            field.listKind === "message"
          ) {
            const items = b["items"];
            if (items) walk(items, field.message, `${at}[]`);
          } else if (field.fieldKind === "map" && field.mapKind === "message") {
            const value =
              b["items"]?.["properties"]?.["value"] ??
              b["additionalProperties"];
            if (value && typeof value === "object")
              walk(value, field.message, `${at}{}`);
          }
        }
      }
    }
  };
  return walk;
}

const facts = {
  enumsNotUnsettable: [],
  createsRequiringIdentifier: [],
  boundNullable: [],
};
for (const tool of tools) {
  const root = JSON.parse(tool.schemaJson);
  const creates =
    /^Create([A-Z]|$)/.test(tool.method.name) &&
    tool.input.fields.some((f) => f.name === "parent");
  let createHit;
  walkFields(root, (field, uses, path) => {
    if (
      tool.strict &&
      field.fieldKind === "enum" &&
      field.oneof === undefined &&
      hasUnspecifiedZero(field.enum) &&
      !isRequiredField(field) &&
      !annotations.isRequired(field) &&
      !canBeUnset(root, uses)
    ) {
      facts.enumsNotUnsettable.push(`${tool.name}: ${path}`);
    }
    if (
      creates &&
      createHit === undefined &&
      !path.includes("[") &&
      !path.includes("{") &&
      annotations.isIdentifier(field) &&
      !canBeUnset(root, uses)
    ) {
      createHit = `${tool.name}: ${path}`;
    }
  })(root, tool.input, "");
  if (createHit !== undefined) facts.createsRequiringIdentifier.push(createHit);
  for (const bound of httpBoundFields(tool.method)) {
    let schema = root;
    let message = tool.input;
    const names = bound.split(".");
    for (let i = 0; i < names.length && message !== undefined; i++) {
      const field = message.fields.find((f) => f.name === names[i]);
      const uses = field && propertyUses(root, schema, field.name);
      if (!uses || uses.length === 0) break;
      if (canBeUnset(root, uses)) {
        facts.boundNullable.push(
          `${tool.name}: ${names.slice(0, i + 1).join(".")}`,
        );
        break;
      }
      schema = uses[0].schema;
      message = field.fieldKind === "message" ? field.message : undefined;
    }
  }
}

const tokens = toolListTokens(tools);
const result = {
  input: opt.api ?? opt.root,
  parameter: opt.parameter,
  tools: tools.length,
  strictTools: tools.filter((t) => t.strict).length,
  tokensOpenAi: tokens.openai,
  tokensAnthropic: tokens.anthropic,
  strictEnumFieldsNotUnsettable: facts.enumsNotUnsettable.length,
  createToolsRequiringIdentifier: facts.createsRequiringIdentifier.length,
  pathBoundFieldsNullableOrOptional: facts.boundNullable.length,
};
if (opt.json) {
  console.log(JSON.stringify(opt.list ? { ...result, facts } : result));
} else {
  for (const [k, v] of Object.entries(result)) console.log(`${k}: ${v}`);
  if (opt.list) {
    for (const [k, list] of Object.entries(facts)) {
      console.log(`\n${k}:`);
      for (const line of list) console.log(`  ${line}`);
    }
  }
}
