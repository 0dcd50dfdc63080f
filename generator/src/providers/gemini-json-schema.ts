/**
 * An offline checker for a Gemini function declaration's
 * `parametersJsonSchema` (plain JSON Schema, the form the adapters send;
 * exclusive with the OpenAPI-subset `parameters` of gemini-openapi.ts).
 *
 * Sources of the rules: the `FunctionDeclaration.parametersJsonSchema`
 * field of the Gemini API ("Describes the parameters to the function in
 * JSON Schema format. The schema must describe an object …",
 * https://ai.google.dev/api/caching#FunctionDeclaration, and the same
 * field of `@google/genai`), and the JSON Schema subset `@google/genai`
 * documents for its JSON Schema fields: `$id`, `$defs`, `$ref`, `$anchor`,
 * `type`, `format`, `title`, `description`, `enum` (strings and numbers),
 * `items`, `prefixItems`, `minItems`/`maxItems`, `minimum`/`maximum`,
 * `anyOf`/`oneOf`, `properties`, `additionalProperties`, `required`,
 * `propertyOrdering`, with cycles only through properties that are not
 * required. Summed up in docs/compat.md, "What providers accept". The
 * rules:
 *
 * - `root-type-object`: the root is `type: "object"`.
 * - `schema-shape`, `ref-resolves`: as in anthropic-tools.ts; besides,
 *   sub-schemas are objects (`true`/`false` are not in the subset).
 * - `type`: `type` values are JSON Schema's seven.
 * - `unsupported-keyword`: keywords that change which values a schema
 *   admits and that are not in the subset (`allOf`, `not`, conditionals,
 *   `patternProperties`, …) are refused: Gemini would drop them and the
 *   model would send values the schema refuses. Narrowing keywords outside
 *   the subset ({@link geminiIgnoredKeywords}: `pattern`, string lengths,
 *   `propertyNames`, …) are accepted: the API ignores them, and the
 *   executors check what they say.
 * - `enum-values`: `enum` values are strings or numbers.
 * - `ref-siblings`: a sub-schema with `$ref` holds no other keyword but
 *   those starting with `$` ("If `$ref` is set on a sub-schema, no other
 *   properties, except for than those starting as a `$`, may be set", the
 *   same documentation): a described reference is written
 *   `{"anyOf": [{"$ref": …}], "description": …}` (schema-defs.ts,
 *   wrapDescribedRefs).
 * - `required-cycle`: a `$ref` cycle must pass through a property that is
 *   not required ("Cyclic references … may only be used within
 *   non-required properties. (Nullable properties are not sufficient.)").
 *
 * Per request: {@link geminiRequestLimits}.
 */

import {
  createViolations,
  checkShape,
  forEachSchema,
  isPlainObject,
  isRef,
  quote,
  refCyclesOf,
  show,
  type ProviderViolation,
  type Report,
  type SchemaVisit,
} from "./schema-walk.js";

/** The keywords of `@google/genai`'s documented JSON Schema subset. */
export const geminiJsonSchemaKeywords: readonly string[] = [
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
];

/**
 * Keywords outside the subset that only narrow or annotate a schema: Gemini
 * ignores them, so a schema holding them is still accepted.
 */
export const geminiIgnoredKeywords: readonly string[] = [
  "pattern",
  "minLength",
  "maxLength",
  "propertyNames",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "const",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
  "$schema",
  "$comment",
];

/** The limits of one Gemini request. */
export const geminiRequestLimits = {
  /**
   * Function declarations in one request: the API answers "At most 512
   * function declarations can be specified"
   * (https://github.com/google-gemini/gemini-cli/issues/19083).
   */
  maxFunctionDeclarations: 512,
} as const;

const jsonTypes = [
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
];

/**
 * Checks a `parametersJsonSchema` against Gemini's rules and returns every
 * violation found, in document order, then the `$ref` cycles. An empty
 * array means the schema passes.
 */
export function checkGeminiJsonSchema(schema: unknown): ProviderViolation[] {
  const { violations, report } = createViolations();
  checkGeminiRoot(schema, report);
  const refs: SchemaVisit[] = [];
  forEachSchema(schema, (v) => {
    checkGeminiNode(schema, v, report);
    if (isRef(v.node)) {
      refs.push(v);
    }
  });
  reportGeminiCycles(schema, refs, report);
  return violations;
}

/** The root rule of {@link checkGeminiJsonSchema}, reported first. */
export function checkGeminiRoot(schema: unknown, report: Report): void {
  if (!isPlainObject(schema) || schema["type"] !== "object") {
    report(
      "#",
      "root-type-object",
      `the schema must describe an object ("type": "object"), got ${show(isPlainObject(schema) ? schema["type"] : schema)}`,
    );
  }
}

const known = new Set([...geminiJsonSchemaKeywords, ...geminiIgnoredKeywords]);

/**
 * The rules of {@link checkGeminiJsonSchema} for one sub-schema of `root`
 * met by a walk (`forEachSchema`), in the order it reports them.
 */
export function checkGeminiNode(
  root: unknown,
  at: SchemaVisit,
  report: Report,
): void {
  const node = at.node;
  if (typeof node === "boolean") {
    report(
      at.path,
      "schema-shape",
      `boolean schema ${show(node)} is not supported; write an object schema`,
    );
    return;
  }
  checkShape(root, at, report);
  if (!isPlainObject(node)) {
    return;
  }
  // A schema inherits no enumerable key: `for…in` meets Object.keys's
  // keys, in its order, without its array.
  for (const key in node) {
    if (!known.has(key)) {
      report(
        at.path,
        "unsupported-keyword",
        `keyword ${quote(key)} is not supported by Gemini`,
      );
    }
  }
  if ("type" in node) {
    const t = node["type"];
    if (Array.isArray(t)) {
      for (let i = 0; i < t.length; i++) {
        const one: unknown = t[i];
        reportUnknownType(one, at, report);
      }
    } else {
      reportUnknownType(t, at, report);
    }
  }
  if (typeof node["$ref"] === "string") {
    const others = Object.keys(node).filter((k) => !k.startsWith("$"));
    if (others.length > 0) {
      report(
        at.path,
        "ref-siblings",
        `keywords beside "$ref" (${others.map(quote).join(", ")}) are not allowed by Gemini; wrap the reference: {"anyOf": [{"$ref": …}], …}`,
      );
    }
  }
  if ("enum" in node) {
    const values = node["enum"];
    if (
      !Array.isArray(values) ||
      !values.every((v) => typeof v === "string" || typeof v === "number")
    ) {
      report(
        at.path,
        "enum-values",
        `"enum" must be an array of strings or numbers, got ${show(values)}`,
      );
    }
  }
}

function reportUnknownType(t: unknown, at: SchemaVisit, report: Report): void {
  if (typeof t !== "string" || !jsonTypes.includes(t)) {
    report(
      at.path,
      "type",
      `type ${show(t)} is not supported; use one of ${jsonTypes.join(", ")}`,
    );
  }
}

/**
 * The `required-cycle` rule of {@link checkGeminiJsonSchema}, reported
 * after the others, for the `$ref` nodes a walk of `schema` met (`isRef`).
 */
export function reportGeminiCycles(
  schema: unknown,
  refs: readonly SchemaVisit[],
  report: Report,
): void {
  for (const cycle of refCyclesOf(schema, refs, true)) {
    report(
      cycle.path,
      "required-cycle",
      `$ref cycle (through ${cycle.targets.map(quote).join(", ")}) passes only through required properties; make one of them optional`,
    );
  }
}
