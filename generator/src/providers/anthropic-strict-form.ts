/**
 * The `input_schema` of a strict tool sent to Anthropic with `strict: true`
 * (strict tool use): exactly what Anthropic's Python SDK returns for the
 * tool's schema from `anthropic.transform_schema` (PyPI `anthropic`
 * 2.17.0, `anthropic/lib/_parse/_transform.py`), which the runtimes'
 * adapters send as generated (docs/compat.md, "What providers accept"). A
 * node keeps `type` (dropped beside a primitive `enum` or `const`, or
 * under a composition), `enum`, `const`, `anyOf` (`oneOf` becomes
 * `anyOf`), `allOf`, `description`, `title`, `$defs`; an object its
 * `properties` and `required` with `additionalProperties: false`; a
 * string a `format` of the SDK's list; an array `items` and a `minItems`
 * of 0 or 1; a `$ref` node only `$ref` and `description`. Every other
 * keyword goes into the description as `{key: value, …}` after a blank
 * line, in the order of the input's keys (canonical JSON's: byte order; a
 * `format` or `minItems` the SDK puts back comes last), each value as
 * Python's `str()` prints it (python-str.ts). The shared vectors
 * e2e/vectors/providers/anthropic-strict.json pin it.
 */

import { compareUtf8 } from "../schema/canonical-json.js";
import type { JsonSchema, JsonValue } from "../schema/json-schema.js";
import { anthropicStrictFormats } from "./anthropic-strict.js";
import { escapePointer, isPlainObject } from "./schema-walk.js";
import { pythonStr } from "./python-str.js";

/**
 * Thrown where the SDK's transform raises: a node with none of `type`,
 * `anyOf`, `oneOf`, `allOf`, a primitive `const` or a non-empty primitive
 * `enum`, or with a type the SDK does not know. `path` is a JSON Pointer
 * (`#/properties/a`).
 */
export class AnthropicStrictFormError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The Anthropic strict form of `schema` (see the file's comment), whose
 * keys are read in canonical order (byte order: the order Python reads
 * the generated text in), or as given with `keysAsGiven` (the order of a
 * parsed JSON text that is not canonical, such as the shared vectors').
 */
export function anthropicStrictForm(
  schema: unknown,
  keysAsGiven = false,
): JsonSchema {
  return transform(schema, "#", keysAsGiven);
}

const simpleTypes = new Set(["boolean", "integer", "number", "null"]);

/** A JSON value as Python's `json` reads it: null is None, as absent is. */
function isNone(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

function isPrimitive(v: unknown): boolean {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

/** Python's truthiness of a JSON value. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) {
    return v.length > 0;
  }
  if (isPlainObject(v)) {
    return Object.keys(v).some((k) => v[k] !== undefined);
  }
  return !isNone(v) && v !== false && v !== 0 && v !== "";
}

/** Python's `v == n` for a JSON value and an int (`True == 1`). */
function equalsInt(v: unknown, n: 0 | 1): boolean {
  return v === n || v === (n === 1);
}

/** A node's keys in canonical order, as an ordered map Python pops from. */
function keywordsOf(
  node: Record<string, unknown>,
  keysAsGiven: boolean,
): Map<string, unknown> {
  const keys = Object.keys(node).filter((k) => node[k] !== undefined);
  if (!keysAsGiven) {
    keys.sort(compareUtf8);
  }
  return new Map(keys.map((k) => [k, node[k]]));
}

function pop(rest: Map<string, unknown>, key: string): unknown {
  const v = rest.get(key);
  rest.delete(key);
  return v;
}

/** An object without a prototype, so that `__proto__` is a plain key. */
function record(): JsonSchema {
  return Object.create(null) as JsonSchema;
}

function transform(
  node: unknown,
  path: string,
  keysAsGiven: boolean,
): JsonSchema {
  if (!isPlainObject(node)) {
    throw new AnthropicStrictFormError(
      path,
      `a schema must be an object, got ${JSON.stringify(node)}`,
    );
  }
  const rest = keywordsOf(node, keysAsGiven);
  // Only keywords are set on a node: a plain object.
  const out: JsonSchema = {};
  const defs = pop(rest, "$defs");
  if (!isNone(defs)) {
    out["$defs"] = transformMap(defs, `${path}/$defs`, keysAsGiven);
  }
  const ref = pop(rest, "$ref");
  if (!isNone(ref)) {
    out["$ref"] = ref as JsonValue;
    const description = pop(rest, "description");
    if (!isNone(description)) {
      out["description"] = description as JsonValue;
    }
    return out;
  }
  const type = composeAndLiterals(rest, out, path, keysAsGiven);
  const description = pop(rest, "description");
  if (!isNone(description)) {
    out["description"] = description as JsonValue;
  }
  const title = pop(rest, "title");
  if (!isNone(title)) {
    out["title"] = title as JsonValue;
  }
  typedKeywords(type, rest, out, path, keysAsGiven);
  if (rest.size > 0) {
    const left = [...rest].map(
      ([k, v]) => `${k}: ${pythonStr(v, keysAsGiven)}`,
    );
    const description = out["description"];
    if (!isNone(description) && typeof description !== "string") {
      throw new AnthropicStrictFormError(
        path,
        `a description must be a string, got ${JSON.stringify(description)}`,
      );
    }
    const before = isNone(description) ? "" : `${description}\n\n`;
    out["description"] = `${before}{${left.join(", ")}}`;
  }
  return out;
}

function transformMap(
  value: unknown,
  path: string,
  keysAsGiven: boolean,
): JsonSchema {
  if (!isPlainObject(value)) {
    throw new AnthropicStrictFormError(
      path,
      `must map names to schemas, got ${JSON.stringify(value)}`,
    );
  }
  const out = record();
  for (const [name, sub] of keywordsOf(value, keysAsGiven)) {
    out[name] = transform(sub, `${path}/${escapePointer(name)}`, keysAsGiven);
  }
  return out;
}

/**
 * The SDK's handling of `type`, `enum`, `const` and the compositions:
 * writes what it keeps into `out` and returns the type that selects the
 * typed keywords (undefined beside a literal).
 */
function composeAndLiterals(
  rest: Map<string, unknown>,
  out: JsonSchema,
  path: string,
  keysAsGiven: boolean,
): unknown {
  let type = pop(rest, "type");
  const anyOf = pop(rest, "anyOf");
  const oneOf = pop(rest, "oneOf");
  const allOf = pop(rest, "allOf");
  const values = rest.get("enum");
  if (Array.isArray(values) && values.length > 0 && values.every(isPrimitive)) {
    out["enum"] = [...(values as JsonValue[])];
    rest.delete("enum");
  }
  if (rest.has("const") && isPrimitive(rest.get("const"))) {
    out["const"] = pop(rest, "const") as JsonValue;
  }
  const literal = "enum" in out || "const" in out;
  if (literal) {
    type = undefined;
  }
  const branches = (list: unknown[], key: string): JsonSchema[] =>
    list.map((b, i) => transform(b, `${path}/${key}/${i}`, keysAsGiven));
  if (Array.isArray(anyOf)) {
    out["anyOf"] = branches(anyOf, "anyOf");
  } else if (Array.isArray(oneOf)) {
    out["anyOf"] = branches(oneOf, "oneOf");
  } else if (Array.isArray(allOf)) {
    out["allOf"] = branches(allOf, "allOf");
  } else if (!literal) {
    if (isNone(type)) {
      throw new AnthropicStrictFormError(
        path,
        "a schema needs a type, anyOf, oneOf or allOf, or a const or non-empty enum of strings, numbers, booleans or null",
      );
    }
    out["type"] = type as JsonValue;
  }
  return type;
}

/** The keywords the SDK keeps for one type. */
function typedKeywords(
  type: unknown,
  rest: Map<string, unknown>,
  out: JsonSchema,
  path: string,
  keysAsGiven: boolean,
): void {
  if (type === "object") {
    const properties = pop(rest, "properties");
    out["properties"] =
      properties === undefined
        ? record()
        : transformMap(properties, `${path}/properties`, keysAsGiven);
    rest.delete("additionalProperties");
    out["additionalProperties"] = false;
    const required = pop(rest, "required");
    if (!isNone(required)) {
      out["required"] = Array.isArray(required)
        ? [...(required as JsonValue[])]
        : (required as JsonValue);
    }
  } else if (type === "string") {
    const format = pop(rest, "format");
    if (truthy(format) && anthropicStrictFormats.includes(format as string)) {
      out["format"] = format as JsonValue;
    } else if (truthy(format)) {
      rest.set("format", format);
    }
  } else if (type === "array") {
    const items = pop(rest, "items");
    if (!isNone(items)) {
      out["items"] = transform(items, `${path}/items`, keysAsGiven);
    }
    const minItems = pop(rest, "minItems");
    if (
      (!isNone(minItems) && equalsInt(minItems, 0)) ||
      equalsInt(minItems, 1)
    ) {
      out["minItems"] = minItems as JsonValue;
    } else if (!isNone(minItems)) {
      rest.set("minItems", minItems);
    }
  } else if (!isNone(type) && !simpleTypes.has(type as string)) {
    throw new AnthropicStrictFormError(
      path,
      `type ${JSON.stringify(type)} is not one the SDK's transform knows (object, array, string, integer, number, boolean, null)`,
    );
  }
}
