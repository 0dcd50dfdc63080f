/**
 * An offline checker for a Gemini function declaration's `parameters`: the
 * Gemini API's `Schema` message, "a select subset of an OpenAPI 3.0 schema
 * object". The generator writes this form as each tool's
 * `geminiParameters` (gemini-parameters-form.ts) for users who need
 * `parameters` (docs/compat.md, "What providers accept"); its tests hold
 * the forms of the test APIs and the shared vectors
 * (e2e/vectors/providers) to this checker.
 *
 * Sources of the rules: the `Schema` reference of the Gemini API
 * (https://ai.google.dev/api/caching#Schema: fields `type`, `format`,
 * `title`, `description`, `nullable`, `enum`, `maxItems`, `minItems`,
 * `properties`, `required`, `minProperties`, `maxProperties`, `minLength`,
 * `maxLength`, `pattern`, `example`, `anyOf`, `propertyOrdering`,
 * `default`, `items`, `minimum`, `maximum`), its `Type` enum, and the
 * errors the API answers (seen in
 * https://github.com/prism-php/prism/issues/974: `Unknown name
 * "additionalProperties" … Cannot find field`, and `type` as an array:
 * "Proto field is not repeating"). The rules:
 *
 * - `unknown-field`: only {@link geminiOpenApiFields} (no
 *   `additionalProperties`, `$ref`, `$defs`, `oneOf`, `allOf`, `const`).
 * - `type`: one string, one of {@link geminiOpenApiTypes} (any case); null
 *   is written `nullable: true`.
 * - `root-type-object`: the root is an object.
 * - `items`: an array has `items`, and only an array has them.
 * - `enum-strings`: `enum` lists strings (`Schema.enum` is a string list).
 * - `field-shape`: `properties` maps names to schemas, `required` and
 *   `propertyOrdering` list names, `nullable` is a boolean.
 *
 * Per request: the same as `parametersJsonSchema` (gemini-json-schema.ts).
 */

import {
  createViolations,
  escapePointer,
  isPlainObject,
  quote,
  show,
  type JsonObject,
  type ProviderViolation,
  type Report,
} from "./schema-walk.js";

/** The fields of the Gemini API's `Schema`, in JSON. */
export const geminiOpenApiFields: readonly string[] = [
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
];

/** The values of the Gemini API's `Type` (lower-case; any case is accepted). */
export const geminiOpenApiTypes: readonly string[] = [
  "string",
  "number",
  "integer",
  "boolean",
  "array",
  "object",
];

/**
 * Checks a `parameters` schema against the Gemini API's `Schema` and
 * returns every violation found, in document order. An empty array means
 * the schema passes.
 */
export function checkGeminiOpenApi(schema: unknown): ProviderViolation[] {
  const { violations, report } = createViolations();
  const fields = new Set(geminiOpenApiFields);

  const walk = (node: unknown, path: string): void => {
    if (!isPlainObject(node)) {
      report(
        path,
        "field-shape",
        `a schema must be an object, got ${show(node)}`,
      );
      return;
    }
    for (let i = 0, keys = Object.keys(node); i < keys.length; i++) {
      const key = keys[i]!;
      if (!fields.has(key)) {
        report(
          path,
          "unknown-field",
          `unknown name ${quote(key)}: Gemini's Schema has no such field`,
        );
      }
    }
    const type = readType(node, path, report);
    if (path === "#" && type !== "object") {
      report(
        path,
        "root-type-object",
        `the root must have type "object", got ${show(node["type"])}`,
      );
    }
    if (type === "array" && !("items" in node)) {
      report(path, "items", `an array needs "items"`);
    }
    if ("items" in node && type !== "array") {
      report(
        path,
        "items",
        `"items" needs type "array", got ${show(node["type"])}`,
      );
    }
    if ("enum" in node) {
      const values = node["enum"];
      if (
        !Array.isArray(values) ||
        !values.every((v) => typeof v === "string")
      ) {
        report(
          path,
          "enum-strings",
          `"enum" must be an array of strings, got ${show(values)}`,
        );
      }
    }
    if ("nullable" in node && typeof node["nullable"] !== "boolean") {
      report(
        path,
        "field-shape",
        `"nullable" must be a boolean, got ${show(node["nullable"])}`,
      );
    }
    for (const key of ["required", "propertyOrdering"]) {
      const list = node[key];
      if (
        key in node &&
        !(Array.isArray(list) && list.every((n) => typeof n === "string"))
      ) {
        report(
          path,
          "field-shape",
          `${quote(key)} must be an array of property names, got ${show(list)}`,
        );
      }
    }
    const properties = node["properties"];
    if ("properties" in node) {
      if (!isPlainObject(properties)) {
        report(
          path,
          "field-shape",
          `"properties" must be an object, got ${show(properties)}`,
        );
      } else {
        const list = Object.entries(properties);
        for (let i = 0; i < list.length; i++) {
          const [name, sub] = list[i]!;
          walk(sub, `${path}/properties/${escapePointer(name)}`);
        }
      }
    }
    if ("items" in node) {
      walk(node["items"], `${path}/items`);
    }
    if ("anyOf" in node) {
      const branches = node["anyOf"];
      if (!Array.isArray(branches) || branches.length === 0) {
        report(
          path,
          "field-shape",
          `"anyOf" must be a non-empty array, got ${show(branches)}`,
        );
      } else {
        branches.forEach((b, i) => walk(b, `${path}/anyOf/${i}`));
      }
    }
  };
  walk(schema, "#");
  return violations;
}

/** The node's type, lower-cased, after checking it; undefined when absent or bad. */
function readType(
  node: JsonObject,
  path: string,
  report: Report,
): string | undefined {
  if (!("type" in node)) {
    return undefined;
  }
  const type = node["type"];
  if (typeof type !== "string") {
    report(
      path,
      "type",
      `"type" must be one string (write null as "nullable": true), got ${show(type)}`,
    );
    return undefined;
  }
  const lower = type.toLowerCase();
  if (!geminiOpenApiTypes.includes(lower)) {
    report(
      path,
      "type",
      `type ${quote(type)} is not supported; use one of ${geminiOpenApiTypes.join(", ")}`,
    );
    return undefined;
  }
  return lower;
}
