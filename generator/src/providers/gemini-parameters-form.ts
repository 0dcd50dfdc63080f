/**
 * Gemini's OpenAPI-subset `parameters` of a tool, for callers that cannot
 * send `parametersJsonSchema` (the two are exclusive), derived from the
 * tool's schema once by the generator and written as data
 * (provider-forms.ts). The rules (docs/compat.md, "What providers
 * accept"; the shared vectors e2e/vectors/providers/gemini-parameters.json
 * pin them, and gemini-openapi.ts checks the result):
 *
 * - types are written as the API's `Type` enum names (`STRING`, `OBJECT`,
 *   …), as `@google/genai` sends them;
 * - `$ref`s are inlined (a referring `description` wins); a reference back
 *   to a schema being inlined (recursion) is left out;
 * - `anyOf` loses its `{"type": "null"}` branch, which becomes
 *   `nullable: true`; one branch left replaces the `anyOf`;
 * - a type list `[t, "null"]` becomes `t` with `nullable: true`;
 * - objects keep `properties` and `required` (no `additionalProperties`,
 *   `propertyNames`); strings `format`, `pattern`, `minLength`,
 *   `maxLength`, `enum` (a string `const` becomes a one-value `enum`);
 *   numbers `format`, `minimum`, `maximum`; arrays `items`, `minItems`,
 *   `maxItems`; every node `title` and `description`;
 * - what the subset cannot express is left out, and its name taken out of
 *   `required`: a free-form value (`{}`), an object without properties (a
 *   map, `Struct`, `Empty`), an array of such, a lone `null`, a list of
 *   several types.
 */

import type { JsonSchema, JsonValue } from "../schema/json-schema.js";
import { isPlainObject } from "./schema-walk.js";

type Node = Record<string, unknown>;

/**
 * The `parameters` form of `schema`, or undefined when no parameter
 * remains: the declaration then has none.
 */
export function geminiParametersForm(schema: unknown): JsonSchema | undefined {
  return isPlainObject(schema) ? convert(schema, schema, ["#"]) : undefined;
}

/** An object without a prototype, so that `__proto__` is a plain key. */
function record(): JsonSchema {
  return Object.create(null) as JsonSchema;
}

function resolve(root: Node, ref: string): Node | undefined {
  if (ref === "#") {
    return root;
  }
  const prefix = "#/$defs/";
  const defs = root["$defs"];
  if (!ref.startsWith(prefix) || !isPlainObject(defs)) {
    return undefined;
  }
  const name = ref
    .slice(prefix.length)
    .replaceAll("~1", "/")
    .replaceAll("~0", "~");
  const target = Object.hasOwn(defs, name) ? defs[name] : undefined;
  return isPlainObject(target) ? target : undefined;
}

function convert(
  node: unknown,
  root: Node,
  stack: readonly string[],
): JsonSchema | undefined {
  if (!isPlainObject(node)) {
    return undefined;
  }
  const ref = node["$ref"];
  if (typeof ref === "string") {
    const target = resolve(root, ref);
    if (target === undefined || stack.includes(ref)) {
      return undefined;
    }
    const out = convert(target, root, [...stack, ref]);
    return out === undefined ? undefined : annotate(out, node, false);
  }
  const anyOf = node["anyOf"];
  if (Array.isArray(anyOf)) {
    const isNull = (b: unknown): boolean =>
      isPlainObject(b) && b["type"] === "null";
    const branches = anyOf
      .filter((b) => !isNull(b))
      .map((b) => convert(b, root, stack))
      .filter((b): b is JsonSchema => b !== undefined);
    if (branches.length === 0) {
      return undefined;
    }
    const out = branches.length === 1 ? branches[0]! : { anyOf: branches };
    return annotate(out, node, anyOf.some(isNull));
  }
  const type = node["type"];
  const types: unknown[] = Array.isArray(type) ? type : [type];
  const nonNull = types.filter((t) => t !== "null");
  if (nonNull.length !== 1 || typeof nonNull[0] !== "string") {
    return undefined;
  }
  const out = convertTyped(nonNull[0], node, root, stack);
  return out === undefined
    ? undefined
    : annotate(out, node, types.includes("null"));
}

/** Copies `title` and `description` from `from`, and adds `nullable`. */
function annotate(out: JsonSchema, from: Node, nullable: boolean): JsonSchema {
  const result = { ...out };
  for (const key of ["title", "description"]) {
    const v = from[key];
    if (typeof v === "string") {
      result[key] = v;
    }
  }
  if (nullable) {
    result["nullable"] = true;
  }
  return result;
}

function copy(
  out: JsonSchema,
  from: Node,
  keys: readonly string[],
): JsonSchema {
  for (const key of keys) {
    const v = from[key];
    if (v !== undefined) {
      out[key] = v as JsonValue;
    }
  }
  return out;
}

function convertObject(
  node: Node,
  root: Node,
  stack: readonly string[],
): JsonSchema | undefined {
  const properties = record();
  const from = isPlainObject(node["properties"]) ? node["properties"] : {};
  for (const name of Object.keys(from)) {
    const out = convert(from[name], root, stack);
    if (out !== undefined) {
      properties[name] = out;
    }
  }
  if (Object.keys(properties).length === 0) {
    return undefined;
  }
  const out: JsonSchema = { type: "OBJECT", properties };
  const required = node["required"];
  if (Array.isArray(required)) {
    out["required"] = required.filter(
      (n): n is string => typeof n === "string" && Object.hasOwn(properties, n),
    );
  }
  return out;
}

function convertTyped(
  type: string,
  node: Node,
  root: Node,
  stack: readonly string[],
): JsonSchema | undefined {
  switch (type) {
    case "object":
      return convertObject(node, root, stack);
    case "array": {
      const items = convert(node["items"], root, stack);
      return items === undefined
        ? undefined
        : copy({ type: "ARRAY", items }, node, ["minItems", "maxItems"]);
    }
    case "string": {
      const out = copy({ type: "STRING" }, node, [
        "format",
        "pattern",
        "minLength",
        "maxLength",
      ]);
      const values = node["enum"];
      if (
        Array.isArray(values) &&
        values.every((v): v is string => typeof v === "string")
      ) {
        out["enum"] = values;
      } else if (typeof node["const"] === "string") {
        out["enum"] = [node["const"]];
      }
      return out;
    }
    case "integer":
    case "number":
      return copy({ type: type.toUpperCase() }, node, [
        "format",
        "minimum",
        "maximum",
      ]);
    case "boolean":
      return { type: "BOOLEAN" };
    default:
      return undefined;
  }
}
