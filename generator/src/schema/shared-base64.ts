import type { JsonSchema, JsonValue } from "./json-schema.js";
import { patterns } from "./well-known.js";

/**
 * The `$defs` key of the shared base64 string. It holds a `-`, which no
 * protobuf full name does, so it never collides with a message definition.
 */
export const base64DefKey = "base64-bytes";

const base64Ref = `#/$defs/${base64DefKey}`;

/** True for the strict bytes schema exactly, `{type, pattern}` and nothing else. */
function isBase64Node(node: JsonSchema): boolean {
  let keys = 0;
  for (const key in node) {
    if (key !== "type" && key !== "pattern") {
      return false;
    }
    keys++;
  }
  return (
    keys === 2 &&
    node["type"] === "string" &&
    node["pattern"] === patterns.base64
  );
}

function isObject(v: JsonValue | undefined): v is JsonSchema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** How many nodes of the tree are the strict bytes schema. */
function countBase64(v: JsonValue): number {
  if (Array.isArray(v)) {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const item = v[i] as JsonValue;
      n += countBase64(item);
    }
    return n;
  }
  if (!isObject(v)) {
    return 0;
  }
  if (isBase64Node(v)) {
    return 1;
  }
  let n = 0;
  for (const key in v) {
    n += countBase64(v[key]!);
  }
  return n;
}

/** A copy of the tree with every strict bytes schema replaced by a `$ref`. */
function replaceBase64(v: JsonValue): JsonValue {
  if (Array.isArray(v)) {
    return v.map(replaceBase64);
  }
  if (!isObject(v)) {
    return v;
  }
  if (isBase64Node(v)) {
    return { $ref: base64Ref };
  }
  // Without a prototype, as the schema builder makes `properties`: a
  // property named `__proto__` stays an ordinary key.
  const out = Object.create(null) as JsonSchema;
  for (const key in v) {
    out[key] = replaceBase64(v[key]!);
  }
  return out;
}

/**
 * Write the strict bytes schema (a string with the base64 pattern, about 41
 * tokens) once per tool: when the tool's schema holds it twice or more, it
 * becomes the definition `$defs/base64-bytes`, referred to by `$ref`
 * (docs/schemas.md). Only nodes without a description are shared: OpenAI strict
 * refuses any keyword beside `$ref` ("$ref cannot have keywords
 * {'description'}", seen in public issue reports, e.g.
 * vectorize-io/hindsight#3944). A `$ref` adds no nesting level (OpenAI's
 * count, openai-java JsonSchemaValidator.kt); the definition sits one level
 * below the root. Returns `schema` itself when nothing is shared.
 */
export function shareBase64(schema: JsonSchema): JsonSchema {
  if (countBase64(schema) < 2) {
    return schema;
  }
  const shared = replaceBase64(schema) as JsonSchema;
  const defs = isObject(shared["$defs"])
    ? shared["$defs"]
    : (Object.create(null) as JsonSchema);
  defs[base64DefKey] = { type: "string", pattern: patterns.base64 };
  shared["$defs"] = defs;
  return shared;
}
