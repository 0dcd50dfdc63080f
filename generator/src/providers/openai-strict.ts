/**
 * An offline checker for OpenAI function calling with `strict: true`
 * (Structured Outputs). OpenAI validates every tool of a request before it
 * runs any, so one malformed schema fails the whole request; this checker
 * lets generation and tests find the problem first.
 *
 * The rules are OpenAI's (summed up in docs/compat.md, "What providers
 * accept"). Where OpenAI's
 * documentation is silent, the checker is conservative: a schema it accepts
 * should be accepted by OpenAI, not the other way round. The decisions:
 *
 * - Keywords: only those in {@link openAiStrictKeywords}. Keywords OpenAI
 *   documents as unsupported (and other standard JSON Schema keywords not on
 *   its supported list) are reported as "not supported"; anything else as
 *   "unknown".
 * - `title` and `description` are accepted anywhere but beside `$ref`, and
 *   no other keyword may sit beside `$ref` or `anyOf`. OpenAI's SDK lets a
 *   description sit beside `$ref`, but the API refuses it ("$ref cannot
 *   have keywords {'description'}", seen in public issue reports, e.g.
 *   vectorize-io/hindsight#3944): a described reference is written
 *   `{"anyOf": [{"$ref": …}], "description": …}` instead.
 * - `$defs` is accepted at the root only; `$ref` must be `#` or
 *   `#/$defs/<name>` naming an existing definition.
 * - Type-specific keywords (`pattern`, `minimum`, `items`, `properties`, …)
 *   need a matching `type` on the same node.
 * - An array needs `items`.
 * - Nesting is counted as OpenAI's SDK counts it (openai-java,
 *   `JsonSchemaValidator.kt`; see ../schema/schema-depth.ts): the root is
 *   depth 0, each property value, `items`, `anyOf` branch and `$defs` entry
 *   is one level deeper than its parent, and a `$ref` is not followed. No
 *   sub-schema may be deeper than 10 (OpenAI's documented limit), so an
 *   optional nested message (`anyOf [object, null]`) costs two levels.
 * - Characters are counted in Unicode code points; a non-string enum or const
 *   value counts as its JSON text.
 */

import {
  escapePointer,
  isPlainObject,
  quote,
  show,
  type JsonObject,
} from "./schema-walk.js";

// Schemas repeat the same few patterns (durations, field masks, base64):
// compile each once.
const patternValidity = new Map<string, boolean>();

function isValidPattern(pattern: string): boolean {
  let valid = patternValidity.get(pattern);
  if (valid === undefined) {
    try {
      new RegExp(pattern, "u");
      valid = true;
    } catch {
      valid = false;
    }
    patternValidity.set(pattern, valid);
  }
  return valid;
}

/** One rule of OpenAI strict mode that a schema breaks. */
export interface StrictViolation {
  /**
   * Where: a JSON Pointer written as a URI fragment, `#` for the root,
   * `#/properties/a/anyOf/0` below it (`~` and `/` in names escaped as
   * `~0` and `~1`).
   */
  readonly path: string;
  /** What is wrong, lower-case, with the offending input quoted. */
  readonly message: string;
}

/** Values of `format` that OpenAI strict mode accepts. */
export const openAiStrictFormats: readonly string[] = [
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
];

/** Values of `type` that OpenAI strict mode accepts. */
export const openAiStrictTypes: readonly string[] = [
  "string",
  "number",
  "boolean",
  "integer",
  "object",
  "array",
  "null",
];

/** Every keyword the checker accepts on a schema node. */
export const openAiStrictKeywords: readonly string[] = [
  "type",
  "title",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "$ref",
  "$defs",
];

/**
 * Standard JSON Schema keywords that OpenAI strict mode does not support;
 * reported as "not supported" rather than "unknown".
 */
export const openAiStrictUnsupportedKeywords: readonly string[] = [
  "allOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "prefixItems",
  "additionalItems",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "nullable",
  "definitions",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$comment",
];

/** The size limits of OpenAI strict mode. */
export const openAiStrictLimits = {
  /** Object properties in the whole schema, definitions included. */
  maxProperties: 5_000,
  /**
   * Sub-schema steps from the root to any sub-schema (property, `items`,
   * `anyOf` branch, `$defs` entry; `$ref` adds nothing), as OpenAI's SDK
   * counts them.
   */
  maxDepth: 10,
  /** Enum values in the whole schema. */
  maxEnumValues: 1_000,
  /** A string enum with more values than this is subject to `maxLargeEnumChars`. */
  largeStringEnumValues: 250,
  /** Characters across the values of one large string enum. */
  maxLargeEnumChars: 15_000,
  /** Characters across property names, definition names, enum and const values. */
  maxTotalChars: 120_000,
} as const;

/**
 * Checks a tool's `parameters` schema against OpenAI strict mode and returns
 * every violation found, in document order (root walk first, then `$defs`),
 * followed by the size-limit violations. An empty array means the schema
 * passes.
 */
export function checkOpenAiStrict(schema: unknown): StrictViolation[] {
  return createStrictChecker(schema).run();
}

/**
 * Renders violations as one readable message for `toolName`, one violation
 * per line, e.g. for an error thrown at generation time.
 */
export function formatViolations(
  toolName: string,
  violations: readonly StrictViolation[],
): string {
  if (violations.length === 0) {
    return `tool ${JSON.stringify(toolName)} passes the OpenAI strict mode checks`;
  }
  const count =
    violations.length === 1 ? "1 problem" : `${violations.length} problems`;
  const lines = violations.map((v) => `  ${v.path}: ${v.message}`);
  return [
    `tool ${JSON.stringify(toolName)} is not accepted by OpenAI strict mode (${count}):`,
    ...lines,
  ].join("\n");
}

const keywordSet = new Set(openAiStrictKeywords);
const unsupportedSet = new Set(openAiStrictUnsupportedKeywords);
const typeSet = new Set(openAiStrictTypes);
const formatSet = new Set(openAiStrictFormats);
const annotationKeywords = new Set(["title", "description"]);

/** Keywords that only apply to a node of the given types. */
const typedKeywords: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["pattern", ["string"]],
  ["format", ["string"]],
  ["minimum", ["number", "integer"]],
  ["maximum", ["number", "integer"]],
  ["exclusiveMinimum", ["number", "integer"]],
  ["exclusiveMaximum", ["number", "integer"]],
  ["multipleOf", ["number", "integer"]],
  ["items", ["array"]],
  ["minItems", ["array"]],
  ["maxItems", ["array"]],
  ["properties", ["object"]],
  ["required", ["object"]],
  ["additionalProperties", ["object"]],
];

interface NodeContext {
  readonly path: string;
  readonly isRoot: boolean;
  readonly inAnyOf: boolean;
  /** Sub-schema steps from the root (schema-depth.ts). */
  readonly depth: number;
}

interface StrictChecker {
  run(): StrictViolation[];
}

function createStrictChecker(root: unknown): StrictChecker {
  const violations: StrictViolation[] = [];
  let propertyCount = 0;
  let enumValueCount = 0;
  let charCount = 0;
  let depthReported = false;
  const defs: JsonObject | undefined =
    isPlainObject(root) && isPlainObject(root["$defs"])
      ? root["$defs"]
      : undefined;
  /** Definitions in the order they are first referred to. */
  const defQueue: string[] = [];
  const queued = new Set<string>();

  function report(path: string, message: string): void {
    violations.push({ path, message });
  }

  function walk(node: unknown, ctx: NodeContext): void {
    const { path } = ctx;
    if (ctx.depth > openAiStrictLimits.maxDepth && !depthReported) {
      depthReported = true;
      report(
        path,
        `nested ${ctx.depth} levels deep; the limit is ${openAiStrictLimits.maxDepth} ` +
          `(every property, "items", "anyOf" branch and "$defs" entry is one level, as OpenAI's SDK counts)`,
      );
    }
    if (!isPlainObject(node)) {
      report(path, `schema must be an object, got ${show(node)}`);
      return;
    }
    for (const key of Object.keys(node)) {
      if (unsupportedSet.has(key)) {
        report(path, `keyword ${quote(key)} is not supported in strict mode`);
      } else if (!keywordSet.has(key)) {
        report(path, `unknown keyword ${quote(key)}`);
      } else if (key === "$defs" && !ctx.isRoot) {
        report(path, `keyword "$defs" is only allowed at the root`);
      }
    }
    for (const key of annotationKeywords) {
      if (key in node && typeof node[key] !== "string") {
        report(path, `${quote(key)} must be a string, got ${show(node[key])}`);
      }
    }
    if ("$ref" in node) {
      checkRef(node, ctx);
      return;
    }
    if ("anyOf" in node) {
      checkAnyOf(node, ctx);
      return;
    }
    checkTyped(node, ctx);
  }

  function checkRef(node: JsonObject, ctx: NodeContext): void {
    const { path } = ctx;
    const ref = node["$ref"];
    if (ctx.isRoot) {
      report(path, `the root must have type "object", not a "$ref"`);
    }
    reportSiblings(node, "$ref", path);
    for (const key of annotationKeywords) {
      if (key in node) {
        report(
          path,
          `"$ref" cannot be combined with ${quote(key)}: wrap the reference, {"anyOf": [{"$ref": …}], ${quote(key)}: …}`,
        );
      }
    }
    if (typeof ref !== "string") {
      report(path, `"$ref" must be a string, got ${show(ref)}`);
      return;
    }
    if (ref === "#") {
      return;
    }
    const prefix = "#/$defs/";
    if (!ref.startsWith(prefix) || ref.slice(prefix.length).includes("/")) {
      report(path, `$ref ${quote(ref)} must be "#" or "#/$defs/<name>"`);
      return;
    }
    const name = unescapePointer(ref.slice(prefix.length));
    if (defs === undefined || !Object.hasOwn(defs, name)) {
      report(path, `$ref ${quote(ref)} names no definition in "$defs"`);
      return;
    }
    if (!queued.has(name)) {
      queued.add(name);
      defQueue.push(name);
    }
  }

  function checkAnyOf(node: JsonObject, ctx: NodeContext): void {
    const { path } = ctx;
    const branches = node["anyOf"];
    if (ctx.isRoot) {
      report(path, `the root must have type "object", not an "anyOf"`);
    }
    if (ctx.inAnyOf) {
      report(
        path,
        `nested "anyOf" is not supported: merge its branches into the enclosing "anyOf"`,
      );
    }
    reportSiblings(node, "anyOf", path);
    if (!Array.isArray(branches) || branches.length === 0) {
      report(path, `"anyOf" must be a non-empty array, got ${show(branches)}`);
      return;
    }
    branches.forEach((branch, i) => {
      walk(branch, {
        path: `${path}/anyOf/${i}`,
        isRoot: false,
        inAnyOf: true,
        depth: ctx.depth + 1,
      });
    });
  }

  function reportSiblings(
    node: JsonObject,
    keyword: string,
    path: string,
  ): void {
    const extra = Object.keys(node).filter(
      (k) =>
        k !== keyword &&
        !annotationKeywords.has(k) &&
        keywordSet.has(k) &&
        !(k === "$defs" && path === "#"),
    );
    if (extra.length > 0) {
      report(
        path,
        `${quote(keyword)} cannot be combined with ${extra.map(quote).join(", ")}`,
      );
    }
  }

  function checkTyped(node: JsonObject, ctx: NodeContext): void {
    const { path } = ctx;
    const types = readTypes(node, ctx);
    if (
      ctx.isRoot &&
      types !== undefined &&
      !(types.length === 1 && types[0] === "object")
    ) {
      report(
        path,
        `the root must have type "object", got ${show(node["type"])}`,
      );
    }
    if (types !== undefined && types.length > 0) {
      for (const [keyword, needs] of typedKeywords) {
        if (keyword in node && !needs.some((t) => types.includes(t))) {
          report(
            path,
            `keyword ${quote(keyword)} needs type ${needs.map(quote).join(" or ")}, got ${show(node["type"])}`,
          );
        }
      }
    }
    checkStringKeywords(node, path);
    checkNumberKeywords(node, path);
    checkValues(node, path, types);
    const isObject = types?.includes("object") ?? false;
    const isArray = types?.includes("array") ?? false;
    const depth = ctx.depth;
    if (isObject) {
      checkObject(node, ctx, depth);
    } else if (isPlainObject(node["properties"])) {
      walkProperties(node["properties"], path, depth);
    }
    if (isArray && !("items" in node)) {
      report(path, `an array needs "items"`);
    }
    checkArrayKeywords(node, path);
    if ("items" in node) {
      walk(node["items"], {
        path: `${path}/items`,
        isRoot: false,
        inAnyOf: false,
        depth: depth + 1,
      });
    }
  }

  function readTypes(node: JsonObject, ctx: NodeContext): string[] | undefined {
    const { path } = ctx;
    if (!("type" in node)) {
      report(path, `missing "type": every schema needs a "type" or an "anyOf"`);
      return undefined;
    }
    const type = node["type"];
    const list = typeof type === "string" ? [type] : type;
    if (!Array.isArray(list) || list.length === 0) {
      report(
        path,
        `"type" must be a string or a non-empty array of strings, got ${show(type)}`,
      );
      return undefined;
    }
    const types: string[] = [];
    for (const t of list) {
      if (typeof t !== "string" || !typeSet.has(t)) {
        report(
          path,
          `type ${show(t)} is not supported; use one of ${openAiStrictTypes.join(", ")}`,
        );
      } else if (types.includes(t)) {
        report(path, `type ${quote(t)} is listed twice`);
      } else {
        types.push(t);
      }
    }
    return types;
  }

  function checkStringKeywords(node: JsonObject, path: string): void {
    if ("format" in node) {
      const format = node["format"];
      if (typeof format !== "string" || !formatSet.has(format)) {
        report(
          path,
          `format ${show(format)} is not supported; use one of ${openAiStrictFormats.join(", ")}`,
        );
      }
    }
    if ("pattern" in node) {
      const pattern = node["pattern"];
      if (typeof pattern !== "string") {
        report(path, `"pattern" must be a string, got ${show(pattern)}`);
      } else if (!isValidPattern(pattern)) {
        report(
          path,
          `pattern ${quote(pattern)} is not a valid regular expression`,
        );
      }
    }
  }

  function checkNumberKeywords(node: JsonObject, path: string): void {
    for (const key of [
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
    ]) {
      if (key in node && !isFiniteNumber(node[key])) {
        report(path, `${quote(key)} must be a number, got ${show(node[key])}`);
      }
    }
    if ("multipleOf" in node) {
      const m = node["multipleOf"];
      if (!isFiniteNumber(m) || m <= 0) {
        report(
          path,
          `"multipleOf" must be a number greater than 0, got ${show(m)}`,
        );
      }
    }
  }

  function checkArrayKeywords(node: JsonObject, path: string): void {
    for (const key of ["minItems", "maxItems"]) {
      const v = node[key];
      if (key in node && !(Number.isInteger(v) && (v as number) >= 0)) {
        report(
          path,
          `${quote(key)} must be a non-negative integer, got ${show(v)}`,
        );
      }
    }
    const min = node["minItems"];
    const max = node["maxItems"];
    if (typeof min === "number" && typeof max === "number" && min > max) {
      report(path, `"minItems" ${min} is greater than "maxItems" ${max}`);
    }
  }

  function checkValues(
    node: JsonObject,
    path: string,
    types: string[] | undefined,
  ): void {
    if ("enum" in node) {
      const values = node["enum"];
      if (!Array.isArray(values) || values.length === 0) {
        report(path, `"enum" must be a non-empty array, got ${show(values)}`);
      } else {
        enumValueCount += values.length;
        let enumChars = 0;
        for (const v of values) {
          checkValue(v, "enum value", path, types);
          const n = valueChars(v);
          enumChars += n;
          charCount += n;
        }
        if (
          values.length > openAiStrictLimits.largeStringEnumValues &&
          values.every((v) => typeof v === "string") &&
          enumChars > openAiStrictLimits.maxLargeEnumChars
        ) {
          report(
            path,
            `string enum of ${values.length} values has ${enumChars} characters; ` +
              `an enum of more than ${openAiStrictLimits.largeStringEnumValues} values ` +
              `may have at most ${openAiStrictLimits.maxLargeEnumChars}`,
          );
        }
      }
    }
    if ("const" in node) {
      checkValue(node["const"], "const value", path, types);
      charCount += valueChars(node["const"]);
    }
  }

  function checkValue(
    value: unknown,
    what: string,
    path: string,
    types: string[] | undefined,
  ): void {
    const t = primitiveType(value);
    if (t === undefined) {
      report(
        path,
        `${what} ${show(value)} must be a string, number, boolean or null`,
      );
      return;
    }
    if (types === undefined || types.length === 0) {
      return;
    }
    const ok =
      types.includes(t) || (t === "integer" && types.includes("number"));
    if (!ok) {
      report(
        path,
        `${what} ${show(value)} does not match type ${show(types.length === 1 ? types[0] : types)}`,
      );
    }
  }

  function checkObject(
    node: JsonObject,
    ctx: NodeContext,
    depth: number,
  ): void {
    const { path } = ctx;
    const additional = node["additionalProperties"];
    if (!("additionalProperties" in node)) {
      report(path, `an object needs "additionalProperties": false`);
    } else if (additional !== false) {
      report(
        path,
        `"additionalProperties" must be false, got ${show(additional)}`,
      );
    }
    const properties = node["properties"];
    let names: string[] = [];
    if (!("properties" in node)) {
      report(path, `an object needs "properties"`);
    } else if (!isPlainObject(properties)) {
      report(path, `"properties" must be an object, got ${show(properties)}`);
    } else {
      names = Object.keys(properties);
    }
    const required = node["required"];
    if (!("required" in node)) {
      report(path, `an object needs "required" listing every property`);
    } else if (!Array.isArray(required)) {
      report(
        path,
        `"required" must be an array of property names, got ${show(required)}`,
      );
    } else {
      const listed = new Set<string>();
      for (const name of required) {
        if (typeof name !== "string") {
          report(
            path,
            `"required" holds ${show(name)}, which is not a property name`,
          );
        } else if (listed.has(name)) {
          report(path, `"required" lists ${quote(name)} twice`);
        } else {
          listed.add(name);
          if (isPlainObject(properties) && !Object.hasOwn(properties, name)) {
            report(
              path,
              `"required" lists ${quote(name)}, which is not a property`,
            );
          }
        }
      }
      for (const name of names) {
        if (!listed.has(name)) {
          report(path, `property ${quote(name)} is missing from "required"`);
        }
      }
    }
    if (isPlainObject(properties)) {
      walkProperties(properties, path, depth);
    }
  }

  function walkProperties(
    properties: JsonObject,
    path: string,
    depth: number,
  ): void {
    for (const [name, schema] of Object.entries(properties)) {
      propertyCount += 1;
      charCount += codePoints(name);
      walk(schema, {
        path: `${path}/properties/${escapePointer(name)}`,
        isRoot: false,
        inAnyOf: false,
        depth: depth + 1,
      });
    }
  }

  function run(): StrictViolation[] {
    walk(root, { path: "#", isRoot: true, inAnyOf: false, depth: 0 });
    if (
      isPlainObject(root) &&
      "$defs" in root &&
      !isPlainObject(root["$defs"])
    ) {
      report("#", `"$defs" must be an object, got ${show(root["$defs"])}`);
    }
    if (defs !== undefined) {
      const names = Object.keys(defs);
      for (const name of names) {
        charCount += codePoints(name);
      }
      // Definitions in first-reference order (references found while
      // walking a definition come after it); each is one level below the
      // root, wherever it is referred to from.
      for (let i = 0; i < defQueue.length; i++) {
        walkDef(defQueue[i] as string);
      }
      for (const name of names) {
        if (!queued.has(name)) {
          walkDef(name);
        }
      }
    }
    reportLimits();
    return violations;
  }

  function walkDef(name: string): void {
    walk(defs?.[name], {
      path: `#/$defs/${escapePointer(name)}`,
      isRoot: false,
      inAnyOf: false,
      depth: 1,
    });
  }

  function reportLimits(): void {
    const limits = openAiStrictLimits;
    if (propertyCount > limits.maxProperties) {
      report(
        "#",
        `schema has ${propertyCount} object properties; the limit is ${limits.maxProperties}`,
      );
    }
    if (enumValueCount > limits.maxEnumValues) {
      report(
        "#",
        `schema has ${enumValueCount} enum values; the limit is ${limits.maxEnumValues}`,
      );
    }
    if (charCount > limits.maxTotalChars) {
      report(
        "#",
        `property names, definition names, enum and const values have ${charCount} characters; ` +
          `the limit is ${limits.maxTotalChars}`,
      );
    }
  }

  return { run };
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** The JSON type of a primitive value ("integer" for whole numbers), else undefined. */
function primitiveType(v: unknown): string | undefined {
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(v)
        ? "integer"
        : Number.isFinite(v)
          ? "number"
          : undefined;
    default:
      return undefined;
  }
}

function valueChars(v: unknown): number {
  if (typeof v === "string") return codePoints(v);
  return codePoints(JSON.stringify(v) ?? "");
}

function codePoints(s: string): number {
  return Array.from(s).length;
}

function unescapePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
