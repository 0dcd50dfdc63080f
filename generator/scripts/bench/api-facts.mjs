// What the tools of a real API ask of the model, counted from the built
// generator's model (dist/) with `tools=all`: the facts issue 31 is judged
// by, per API.
//
//   node scripts/bench/api-facts.mjs                     # Google APIs below
//   node scripts/bench/api-facts.mjs --apis google/pubsub/v1
//   node scripts/bench/api-facts.mjs --root /tmp/temporal-api --apis temporal/api
//   node scripts/bench/api-facts.mjs --opt output_only_comments=true --apis google/cloud/compute/v1
//
// Google's protos come from the npm package google-proto-files (pinned in
// package.json); `--root` takes any directory of protos instead (Temporal's
// API: its repository without buf.yaml, WKTs from buf). Each API is
// compiled by buf, the request captured as buf hands it to a plugin.
//
// Columns:
//   tools       tools of the API
//   tokens      o200k tokens of the tool list (OpenAI Chat Completions form)
//   enumStuck   enum fields whose enum has a `*_UNSPECIFIED` zero, not
//               REQUIRED and not path-bound, that a call cannot leave unset
//               (strict: not nullable; loose: in `required`); distinct
//               fields (message.field), and (tool, path) sites in brackets
//   createId    Create tools shaped as AIP-133 (the resource in a field of
//               the request) whose resource IDENTIFIER must be sent
//   boundNull   path-bound fields (google.api.http) that are nullable, not
//               required or missing from the schema
//   recursive   tools whose OpenAI form (forms.openai ?? parameters) keeps
//               recursion (a $ref cycle), strict ones in brackets
//   masks       top-level FieldMask fields whose schema example (snake_case
//               paths), through the TypeScript runtime's argument check
//               (runtimes/ts/dist) and protobuf-es fromJson, decodes to
//               exactly those paths: passing / all
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createFileRegistry, fromBinary, fromJson } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { create } from "@bufbuild/protobuf";
import { createRequestCapture } from "./buf-request.mjs";
import { countO200k, openAiToolList } from "./tool-tokens.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const repoRoot = join(generatorDir, "..");
const require = createRequire(import.meta.url);

const { values: opt } = parseArgs({
  options: {
    apis: {
      type: "string",
      default:
        "google/ai/generativelanguage/v1beta,google/cloud/aiplatform/v1,google/pubsub/v1",
    },
    root: { type: "string" },
    opt: { type: "string", multiple: true, default: [] },
    dist: { type: "string", default: join(generatorDir, "dist") },
    json: { type: "boolean", default: false },
  },
});

const load = (file) => import(pathToFileURL(resolve(opt.dist, file)).href);
const gen = await load("index.js");
const { httpBoundFields } = await load("schema/http-bound-fields.js");
const { isIdentifier, isRequired } = await load("read/annotations.js");
const { findRefCycles } = await load("providers/schema-walk.js");

const runtimeDist = join(repoRoot, "runtimes", "ts", "dist");
const { checkArguments } = await import(
  pathToFileURL(join(runtimeDist, "argument-check.js")).href
);
const { parseArgumentTable } = await import(
  pathToFileURL(join(runtimeDist, "argument-table.js")).href
);

const root =
  opt.root ??
  dirname(
    require.resolve("google-proto-files/package.json", {
      paths: [generatorDir],
    }),
  );
const capture = createRequestCapture();

function captureRequest(api) {
  return fromBinary(CodeGeneratorRequestSchema, capture(root, api));
}

/** The object node of a schema: through null wrappers, $refs and oneof branches. */
function objectNode(schema, defs) {
  if (schema === undefined) return undefined;
  if (typeof schema.$ref === "string") {
    return objectNode(defs?.[schema.$ref.replace("#/$defs/", "")], defs);
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf
      .map((b) => objectNode(b, defs))
      .filter(Boolean);
    if (branches.length === 0) return undefined;
    const properties = Object.assign(
      {},
      ...branches.map((b) => b.properties ?? {}),
    );
    const required = branches.every((b) => b.required)
      ? branches[0].required.filter((n) =>
          branches.every((b) => b.required.includes(n)),
        )
      : [];
    return { properties, required };
  }
  return schema.type === "object" ? schema : undefined;
}

function admitsNull(schema) {
  return (
    Array.isArray(schema?.anyOf) && schema.anyOf.some((b) => b.type === "null")
  );
}

/** Can a call leave the property `name` of `node` unset? */
function canLeaveUnset(node, name, strict) {
  const prop = node.properties?.[name];
  if (prop === undefined) return true;
  return strict ? admitsNull(prop) : !(node.required ?? []).includes(name);
}

/** The items schema of an array property, through a null wrapper. */
function arrayItems(prop) {
  const array = Array.isArray(prop.anyOf)
    ? prop.anyOf.find((b) => b.type === "array")
    : prop;
  return array?.items;
}

function hasUnspecifiedZero(field) {
  const e = field.fieldKind === "enum" ? field.enum : undefined;
  return (
    e?.values.some((v) => v.number === 0 && v.name.endsWith("UNSPECIFIED")) ===
    true
  );
}

function walk(tool, message, node, defs, path, seen, facts, bound) {
  if (node === undefined || seen.has(message.typeName)) return;
  seen.add(message.typeName);
  for (const field of message.fields) {
    const at = path === "" ? field.name : `${path}.${field.name}`;
    const prop = node.properties?.[field.name];
    if (prop === undefined) continue;
    if (
      field.fieldKind === "enum" &&
      field.oneof === undefined &&
      hasUnspecifiedZero(field) &&
      !isRequired(field) &&
      !bound.has(at) &&
      !canLeaveUnset(node, field.name, tool.strict)
    ) {
      facts.enumFields.add(`${message.typeName}.${field.name}`);
      facts.enumSites++;
    }
    const child =
      field.fieldKind === "message"
        ? field.message
        : field.fieldKind === "list" && field.listKind === "message"
          ? field.message
          : undefined;
    if (child !== undefined && !child.typeName.startsWith("google.protobuf.")) {
      const items = field.fieldKind === "list" ? arrayItems(prop) : prop;
      walk(tool, child, objectNode(items, defs), defs, at, seen, facts, bound);
    }
  }
  seen.delete(message.typeName);
}

function createIdRequired(tool, schema, defs) {
  if (!tool.method.name.startsWith("Create")) return false;
  for (const f of tool.input.fields) {
    if (
      f.fieldKind !== "message" ||
      f.message.typeName.startsWith("google.protobuf.")
    )
      continue;
    const id = f.message.fields.find((x) => isIdentifier(x));
    if (id === undefined || isRequired(id)) continue;
    const node = objectNode(schema.properties?.[f.name], defs);
    if (
      node !== undefined &&
      node.properties?.[id.name] !== undefined &&
      !canLeaveUnset(node, id.name, tool.strict)
    ) {
      return true;
    }
  }
  return false;
}

function boundNullable(tool, schema, defs) {
  const sites = [];
  for (const path of httpBoundFields(tool.method)) {
    let node = schema;
    for (const name of path.split(".")) {
      if (
        node === undefined ||
        node.properties?.[name] === undefined ||
        canLeaveUnset(node, name, tool.strict)
      ) {
        sites.push(`${tool.name}: ${path}`);
        break;
      }
      node = objectNode(node.properties[name], defs);
    }
  }
  return sites;
}

/**
 * The top-level FieldMask fields of `tool`: [passing, all]. A field passes
 * when its schema's example, in the schema's (snake_case) names, passes
 * the runtime's check and decodes, with protobuf-es, to those paths.
 */
function maskFacts(tool, schema, registry) {
  let pass = 0;
  let all = 0;
  if (!tool.argumentsJson.includes('"mask"')) return [0, 0];
  const table = parseArgumentTable(tool.name, tool.argumentsJson);
  const desc = registry.getMessage(tool.input.typeName);
  for (const field of tool.input.fields) {
    if (field.message?.typeName !== "google.protobuf.FieldMask") continue;
    if (field.fieldKind !== "message") continue;
    all++;
    const hint = /e\.g\. "([^"]*)"/.exec(
      schema.properties?.[field.name]?.description ?? "",
    );
    if (hint === null) continue;
    const args = { [field.name]: hint[1] };
    const problems = checkArguments(args, table).filter(
      (v) => v.field === field.name,
    );
    if (problems.length > 0) continue;
    try {
      const msg = fromJson(
        desc,
        { [field.jsonName]: args[field.name] },
        { ignoreUnknownFields: true },
      );
      const paths =
        msg[desc.fields.find((f) => f.name === field.name).localName]?.paths ??
        [];
      if (paths.join(",") === hint[1]) pass++;
    } catch {
      // not decodable: not passing
    }
  }
  return [pass, all];
}

const rows = [];
for (const api of opt.apis.split(",").map((a) => a.trim())) {
  if (!existsSync(join(root, api))) {
    console.error(`--apis ${JSON.stringify(api)}: not a directory of ${root}`);
    process.exit(2);
  }
  const request = captureRequest(api);
  const options = gen.parseOptions(
    ["target=go", "tools=all", ...opt.opt].join(","),
  );
  const { tools } = gen.buildModel(
    gen.resolveRequestFiles(request).files,
    undefined,
    gen.toolSelectionOf(options.common, options.lists),
  );
  const registry = createFileRegistry(
    create(FileDescriptorSetSchema, { file: request.protoFile }),
  );
  const masks = [0, 0];
  const facts = {
    enumFields: new Set(),
    enumSites: 0,
    createId: [],
    boundNull: [],
    recursive: [],
  };
  for (const tool of tools) {
    const forms =
      tool.formsJson === undefined ? {} : JSON.parse(tool.formsJson);
    if (
      findRefCycles(forms.openai ?? JSON.parse(tool.schemaJson), false).length >
      0
    ) {
      facts.recursive.push(tool);
    }
    const schema = JSON.parse(tool.schemaJson);
    const defs = schema.$defs;
    walk(
      tool,
      tool.input,
      objectNode(schema, defs),
      defs,
      "",
      new Set(),
      facts,
      httpBoundFields(tool.method),
    );
    const [pass, all] = maskFacts(tool, schema, registry);
    masks[0] += pass;
    masks[1] += all;
    if (createIdRequired(tool, schema, defs)) facts.createId.push(tool.name);
    facts.boundNull.push(...boundNullable(tool, schema, defs));
  }
  rows.push({
    api,
    tools: tools.length,
    tokens: countO200k(openAiToolList(tools)),
    enumStuck: `${facts.enumFields.size} [${facts.enumSites}]`,
    createId: facts.createId.length,
    boundNull: facts.boundNull.length,
    recursive: `${facts.recursive.length} [${facts.recursive.filter((t) => t.strict).length}]`,
    masks: `${masks[0]}/${masks[1]}`,
    recursiveTools: facts.recursive.map((t) => t.name),
    boundNullSites: facts.boundNull,
    createIdTools: facts.createId,
  });
}
if (opt.json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log(`options: tools=all${opt.opt.map((o) => `,${o}`).join("")}`);
  const columns = [
    "api",
    "tools",
    "tokens",
    "enumStuck",
    "createId",
    "boundNull",
    "recursive",
    "masks",
  ];
  console.table(rows, columns);
}
