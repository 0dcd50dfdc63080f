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
  isPlainObject,
  isPlainScalar,
  quote,
  SchemaPointer,
  show,
  type JsonObject,
} from "./schema-walk.js";
import { createStringMemo } from "../schema/string-memo.js";

// Schemas repeat the same few patterns (durations, field masks, base64):
// compile each once.
const isValidPattern = createStringMemo((pattern) => {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
});

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

const strictKeywords = [
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
] as const;

/** Every keyword the checker accepts on a schema node. */
export const openAiStrictKeywords: readonly string[] = strictKeywords;

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

const unsupportedSet = new Set(openAiStrictUnsupportedKeywords);
const typeSet = new Set(openAiStrictTypes);
const formatSet = new Set(openAiStrictFormats);

type StrictKeyword = (typeof strictKeywords)[number];

/**
 * One bit per keyword of {@link openAiStrictKeywords}: the walk notes the
 * keywords a node holds as one number (its first pass over the node's
 * keys), and the rules test bits instead of looking properties up.
 */
const keywordBits = new Map<string, number>(
  strictKeywords.map((k, i) => [k, 1 << i]),
);
const bit = Object.fromEntries(keywordBits) as Record<StrictKeyword, number>;

/** Keywords that only apply to a node of the given types. */
const typedKeywords: ReadonlyArray<
  readonly [StrictKeyword, readonly string[]]
> = [
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

/** The bits of {@link typedKeywords}. */
const typedBits = typedKeywords.reduce((m, [k]) => m | bit[k], 0);

/** Per type, the bits of the {@link typedKeywords} it allows. */
const typedBitsAllowed = new Map<string, number>(
  openAiStrictTypes.map((t) => [
    t,
    typedKeywords.reduce(
      (m, [k, needs]) => (needs.includes(t) ? m | bit[k] : m),
      0,
    ),
  ]),
);

const annotationKeywords = ["title", "description"] as const;
const numberKeywords = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
] as const;
const arrayCountKeywords = ["minItems", "maxItems"] as const;
const stringBits = bit.format | bit.pattern;
const numberBits =
  bit.minimum |
  bit.maximum |
  bit.exclusiveMinimum |
  bit.exclusiveMaximum |
  bit.multipleOf;
const valueBits = bit.enum | bit.const;
const arrayCountBits = bit.minItems | bit.maxItems;

/** The list {@link readTypes} returns for a valid `type` string, shared. */
const singleTypes = new Map<string, readonly string[]>(
  openAiStrictTypes.map((t) => [t, [t]]),
);

/** A node's place: its JSON Pointer (written when a violation needs it) and depth. */
class NodeContext extends SchemaPointer {
  readonly isRoot: boolean;
  readonly inAnyOf: boolean;
  /** Sub-schema steps from the root (schema-depth.ts). */
  readonly depth: number;

  constructor(
    parent: NodeContext | undefined,
    keyword: string | undefined,
    entry: number | string | undefined,
    inAnyOf: boolean,
    depth: number,
  ) {
    super(parent, keyword, entry);
    this.isRoot = parent === undefined;
    this.inAnyOf = inAnyOf;
    this.depth = depth;
  }
}

/**
 * A sub-schema below the root, without `$ref`, in which no rule is broken
 * when it sits in (or not in) an `anyOf` and its deepest node is within
 * the depth limit; and what it adds to the size totals.
 */
interface CleanSubSchema {
  readonly inAnyOf: boolean;
  /** Sub-schema steps from it to its deepest node. */
  readonly height: number;
  readonly properties: number;
  readonly enumValues: number;
  readonly chars: number;
}

/** A schema node with the bits of the strict keywords it holds. */
interface Held {
  readonly node: JsonObject;
  /** One bit per keyword held ({@link keywordBits}). */
  readonly keywords: number;
}

function holds(held: Held, keyword: StrictKeyword): boolean {
  return (held.keywords & bit[keyword]) !== 0;
}

interface StrictChecker {
  run(): StrictViolation[];
}

/**
 * Frozen sub-schemas found clean, across schemas: the schema builder
 * freezes what it shares between tools (a message's expansion sits in
 * every tool that uses the message), and a clean sub-schema holds no
 * `$ref`, so its outcome does not depend on the schema around it. Frozen
 * is taken to mean frozen all the way down, as the builder freezes.
 * Module-level, as the check is a function of one schema: a weak map, so
 * that it holds no node after its schema is gone.
 */
const frozenClean = new WeakMap<object, CleanSubSchema>();

function createStrictChecker(root: unknown): StrictChecker {
  const violations: StrictViolation[] = [];
  let propertyCount = 0;
  let enumValueCount = 0;
  let charCount = 0;
  let depthReported = false;
  /** The deepest node walked so far, and the `$ref`s met. */
  let deepest = 0;
  let refCount = 0;
  /**
   * A schema holds the same sub-schema object in several places (a message
   * type used by several fields): each is walked once (a frozen one once
   * across schemas, {@link frozenClean}).
   */
  const clean = new Map<object, CleanSubSchema>();
  const defs: JsonObject | undefined =
    isPlainObject(root) && isPlainObject(root["$defs"])
      ? root["$defs"]
      : undefined;
  /** Definitions in the order they are first referred to. */
  const defQueue: string[] = [];
  const queued = new Set<string>();
  const rootContext = new NodeContext(
    undefined,
    undefined,
    undefined,
    false,
    0,
  );

  function report(path: string, message: string): void {
    violations.push({ path, message });
  }

  function walk(value: unknown, ctx: NodeContext): void {
    if (ctx.isRoot || !isPlainObject(value)) {
      walkNode(value, ctx);
      return;
    }
    const memo = Object.isFrozen(value) ? frozenClean : clean;
    const known = memo.get(value);
    if (
      known !== undefined &&
      known.inAnyOf === ctx.inAnyOf &&
      ctx.depth + known.height <= openAiStrictLimits.maxDepth
    ) {
      propertyCount += known.properties;
      enumValueCount += known.enumValues;
      charCount += known.chars;
      deepest = Math.max(deepest, ctx.depth + known.height);
      return;
    }
    const violationsBefore = violations.length;
    const refsBefore = refCount;
    const deepestBefore = deepest;
    const propertiesBefore = propertyCount;
    const enumValuesBefore = enumValueCount;
    const charsBefore = charCount;
    deepest = ctx.depth;
    walkNode(value, ctx);
    if (
      violations.length === violationsBefore &&
      refCount === refsBefore &&
      deepest <= openAiStrictLimits.maxDepth
    ) {
      memo.set(value, {
        inAnyOf: ctx.inAnyOf,
        height: deepest - ctx.depth,
        properties: propertyCount - propertiesBefore,
        enumValues: enumValueCount - enumValuesBefore,
        chars: charCount - charsBefore,
      });
    }
    deepest = Math.max(deepest, deepestBefore);
  }

  /**
   * Walks the sub-schema of `parent` under `keyword` (and `entry`, for a
   * list or a map). A leaf {@link isPlainScalar} accepts breaks no rule
   * and adds nothing to the totals: within the depth limit, it only
   * deepens the schema.
   */
  function walkChild(
    value: unknown,
    parent: NodeContext,
    keyword: string,
    entry: number | string | undefined,
    inAnyOf: boolean,
  ): void {
    const depth = parent.depth + 1;
    if (depth <= openAiStrictLimits.maxDepth && isPlainScalar(value)) {
      deepest = Math.max(deepest, depth);
      return;
    }
    walk(value, new NodeContext(parent, keyword, entry, inAnyOf, depth));
  }

  function walkNode(value: unknown, ctx: NodeContext): void {
    deepest = Math.max(deepest, ctx.depth);
    if (ctx.depth > openAiStrictLimits.maxDepth && !depthReported) {
      depthReported = true;
      report(
        ctx.path,
        `nested ${ctx.depth} levels deep; the limit is ${openAiStrictLimits.maxDepth} ` +
          `(every property, "items", "anyOf" branch and "$defs" entry is one level, as OpenAI's SDK counts)`,
      );
    }
    if (!isPlainObject(value)) {
      report(ctx.path, `schema must be an object, got ${show(value)}`);
      return;
    }
    let keywords = 0;
    for (let i = 0, keys = Object.keys(value); i < keys.length; i++) {
      const key = keys[i]!;
      const b = keywordBits.get(key);
      if (b !== undefined) {
        keywords |= b;
        if (b === bit.$defs && !ctx.isRoot) {
          report(ctx.path, `keyword "$defs" is only allowed at the root`);
        }
      } else if (unsupportedSet.has(key)) {
        report(
          ctx.path,
          `keyword ${quote(key)} is not supported in strict mode`,
        );
      } else {
        report(ctx.path, `unknown keyword ${quote(key)}`);
      }
    }
    const node: Held = { node: value, keywords };
    for (let i = 0; i < annotationKeywords.length; i++) {
      const key = annotationKeywords[i]!;
      if (holds(node, key) && typeof value[key] !== "string") {
        report(
          ctx.path,
          `${quote(key)} must be a string, got ${show(value[key])}`,
        );
      }
    }
    if (holds(node, "$ref")) {
      checkRef(node, ctx);
    } else if (holds(node, "anyOf")) {
      checkAnyOf(node, ctx);
    } else {
      checkTyped(node, ctx);
    }
  }

  function checkRef(held: Held, ctx: NodeContext): void {
    refCount++;
    const ref = held.node["$ref"];
    if (ctx.isRoot) {
      report(ctx.path, `the root must have type "object", not a "$ref"`);
    }
    reportSiblings(held, "$ref", ctx);
    for (let i = 0; i < annotationKeywords.length; i++) {
      const key = annotationKeywords[i]!;
      if (holds(held, key)) {
        report(
          ctx.path,
          `"$ref" cannot be combined with ${quote(key)}: wrap the reference, {"anyOf": [{"$ref": …}], ${quote(key)}: …}`,
        );
      }
    }
    if (typeof ref !== "string") {
      report(ctx.path, `"$ref" must be a string, got ${show(ref)}`);
      return;
    }
    if (ref === "#") {
      return;
    }
    const prefix = "#/$defs/";
    if (!ref.startsWith(prefix) || ref.slice(prefix.length).includes("/")) {
      report(ctx.path, `$ref ${quote(ref)} must be "#" or "#/$defs/<name>"`);
      return;
    }
    const name = unescapePointer(ref.slice(prefix.length));
    if (defs === undefined || !Object.hasOwn(defs, name)) {
      report(ctx.path, `$ref ${quote(ref)} names no definition in "$defs"`);
      return;
    }
    if (!queued.has(name)) {
      queued.add(name);
      defQueue.push(name);
    }
  }

  function checkAnyOf(held: Held, ctx: NodeContext): void {
    const branches = held.node["anyOf"];
    if (ctx.isRoot) {
      report(ctx.path, `the root must have type "object", not an "anyOf"`);
    }
    if (ctx.inAnyOf) {
      report(
        ctx.path,
        `nested "anyOf" is not supported: merge its branches into the enclosing "anyOf"`,
      );
    }
    reportSiblings(held, "anyOf", ctx);
    if (!Array.isArray(branches) || branches.length === 0) {
      report(
        ctx.path,
        `"anyOf" must be a non-empty array, got ${show(branches)}`,
      );
      return;
    }
    branches.forEach((branch, i) => {
      walkChild(branch, ctx, "anyOf", i, true);
    });
  }

  /** Reports the keywords beside `keyword` but the annotations (and the root's `$defs`). */
  function reportSiblings(
    held: Held,
    keyword: "$ref" | "anyOf",
    ctx: NodeContext,
  ): void {
    const alone =
      bit[keyword] | bit.title | bit.description | (ctx.isRoot ? bit.$defs : 0);
    if ((held.keywords & ~alone) === 0) {
      return;
    }
    const extra = Object.keys(held.node).filter(
      (k) =>
        k !== keyword &&
        k !== "title" &&
        k !== "description" &&
        keywordBits.has(k) &&
        !(k === "$defs" && ctx.isRoot),
    );
    report(
      ctx.path,
      `${quote(keyword)} cannot be combined with ${extra.map(quote).join(", ")}`,
    );
  }

  function checkTyped(held: Held, ctx: NodeContext): void {
    const node = held.node;
    const types = readTypes(held, ctx);
    if (
      ctx.isRoot &&
      types !== undefined &&
      !(types.length === 1 && types[0] === "object")
    ) {
      report(
        ctx.path,
        `the root must have type "object", got ${show(node["type"])}`,
      );
    }
    if (types !== undefined && types.length > 0) {
      let allowed = 0;
      for (let i = 0; i < types.length; i++) {
        const t = types[i]!;
        allowed |= typedBitsAllowed.get(t) ?? 0;
      }
      if ((held.keywords & typedBits & ~allowed) !== 0) {
        for (let i = 0; i < typedKeywords.length; i++) {
          const [keyword, needs] = typedKeywords[i]!;
          if (holds(held, keyword) && !needs.some((t) => types.includes(t))) {
            report(
              ctx.path,
              `keyword ${quote(keyword)} needs type ${needs.map(quote).join(" or ")}, got ${show(node["type"])}`,
            );
          }
        }
      }
    }
    // Most nodes hold none of these keywords: skip their rules at once.
    if ((held.keywords & stringBits) !== 0) {
      checkStringKeywords(held, ctx);
    }
    if ((held.keywords & numberBits) !== 0) {
      checkNumberKeywords(held, ctx);
    }
    if ((held.keywords & valueBits) !== 0) {
      checkValues(held, ctx, types);
    }
    const isObject = types?.includes("object") ?? false;
    const isArray = types?.includes("array") ?? false;
    if (isObject) {
      checkObject(held, ctx);
    } else if (holds(held, "properties") && isPlainObject(node["properties"])) {
      walkProperties(node["properties"], ctx);
    }
    if (isArray && !holds(held, "items")) {
      report(ctx.path, `an array needs "items"`);
    }
    checkArrayKeywords(held, ctx);
    if (holds(held, "items")) {
      walkChild(node["items"], ctx, "items", undefined, false);
    }
  }

  function readTypes(
    held: Held,
    ctx: NodeContext,
  ): readonly string[] | undefined {
    if (!holds(held, "type")) {
      report(
        ctx.path,
        `missing "type": every schema needs a "type" or an "anyOf"`,
      );
      return undefined;
    }
    const type = held.node["type"];
    if (typeof type === "string") {
      const single = singleTypes.get(type);
      if (single !== undefined) {
        return single;
      }
    }
    const list = typeof type === "string" ? [type] : type;
    if (!Array.isArray(list) || list.length === 0) {
      report(
        ctx.path,
        `"type" must be a string or a non-empty array of strings, got ${show(type)}`,
      );
      return undefined;
    }
    const types: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const t: unknown = list[i];
      if (typeof t !== "string" || !typeSet.has(t)) {
        report(
          ctx.path,
          `type ${show(t)} is not supported; use one of ${openAiStrictTypes.join(", ")}`,
        );
      } else if (types.includes(t)) {
        report(ctx.path, `type ${quote(t)} is listed twice`);
      } else {
        types.push(t);
      }
    }
    return types;
  }

  function checkStringKeywords(held: Held, ctx: NodeContext): void {
    const node = held.node;
    if (holds(held, "format")) {
      const format = node["format"];
      if (typeof format !== "string" || !formatSet.has(format)) {
        report(
          ctx.path,
          `format ${show(format)} is not supported; use one of ${openAiStrictFormats.join(", ")}`,
        );
      }
    }
    if (holds(held, "pattern")) {
      const pattern = node["pattern"];
      if (typeof pattern !== "string") {
        report(ctx.path, `"pattern" must be a string, got ${show(pattern)}`);
      } else if (!isValidPattern(pattern)) {
        report(
          ctx.path,
          `pattern ${quote(pattern)} is not a valid regular expression`,
        );
      }
    }
  }

  function checkNumberKeywords(held: Held, ctx: NodeContext): void {
    const node = held.node;
    for (let i = 0; i < numberKeywords.length; i++) {
      const key = numberKeywords[i]!;
      if (holds(held, key) && !isFiniteNumber(node[key])) {
        report(
          ctx.path,
          `${quote(key)} must be a number, got ${show(node[key])}`,
        );
      }
    }
    if (holds(held, "multipleOf")) {
      const m = node["multipleOf"];
      if (!isFiniteNumber(m) || m <= 0) {
        report(
          ctx.path,
          `"multipleOf" must be a number greater than 0, got ${show(m)}`,
        );
      }
    }
  }

  function checkArrayKeywords(held: Held, ctx: NodeContext): void {
    if ((held.keywords & arrayCountBits) === 0) {
      return;
    }
    const node = held.node;
    for (let i = 0; i < arrayCountKeywords.length; i++) {
      const key = arrayCountKeywords[i]!;
      const v = node[key];
      if (holds(held, key) && !(Number.isInteger(v) && (v as number) >= 0)) {
        report(
          ctx.path,
          `${quote(key)} must be a non-negative integer, got ${show(v)}`,
        );
      }
    }
    const min = node["minItems"];
    const max = node["maxItems"];
    if (typeof min === "number" && typeof max === "number" && min > max) {
      report(ctx.path, `"minItems" ${min} is greater than "maxItems" ${max}`);
    }
  }

  function checkValues(
    held: Held,
    ctx: NodeContext,
    types: readonly string[] | undefined,
  ): void {
    const node = held.node;
    if (holds(held, "enum")) {
      const values = node["enum"];
      if (!Array.isArray(values) || values.length === 0) {
        report(
          ctx.path,
          `"enum" must be a non-empty array, got ${show(values)}`,
        );
      } else {
        enumValueCount += values.length;
        let enumChars = 0;
        for (let i = 0; i < values.length; i++) {
          const v: unknown = values[i];
          checkValue(v, "enum value", ctx, types);
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
            ctx.path,
            `string enum of ${values.length} values has ${enumChars} characters; ` +
              `an enum of more than ${openAiStrictLimits.largeStringEnumValues} values ` +
              `may have at most ${openAiStrictLimits.maxLargeEnumChars}`,
          );
        }
      }
    }
    if (holds(held, "const")) {
      checkValue(node["const"], "const value", ctx, types);
      charCount += valueChars(node["const"]);
    }
  }

  function checkValue(
    value: unknown,
    what: string,
    ctx: NodeContext,
    types: readonly string[] | undefined,
  ): void {
    const t = primitiveType(value);
    if (t === undefined) {
      report(
        ctx.path,
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
        ctx.path,
        `${what} ${show(value)} does not match type ${show(types.length === 1 ? types[0] : types)}`,
      );
    }
  }

  function checkObject(held: Held, ctx: NodeContext): void {
    const node = held.node;
    const additional = node["additionalProperties"];
    if (!holds(held, "additionalProperties")) {
      report(ctx.path, `an object needs "additionalProperties": false`);
    } else if (additional !== false) {
      report(
        ctx.path,
        `"additionalProperties" must be false, got ${show(additional)}`,
      );
    }
    const properties = node["properties"];
    let names: string[] = [];
    if (!holds(held, "properties")) {
      report(ctx.path, `an object needs "properties"`);
    } else if (!isPlainObject(properties)) {
      report(
        ctx.path,
        `"properties" must be an object, got ${show(properties)}`,
      );
    } else {
      names = Object.keys(properties);
    }
    const required = node["required"];
    if (!holds(held, "required")) {
      report(ctx.path, `an object needs "required" listing every property`);
    } else if (!Array.isArray(required)) {
      report(
        ctx.path,
        `"required" must be an array of property names, got ${show(required)}`,
      );
    } else if (!sameNames(required, names)) {
      checkRequired(required, names, properties, ctx);
    }
    if (isPlainObject(properties)) {
      walkProperties(properties, ctx);
    }
  }

  /** The rules on `required` when it does not list `names` in their order. */
  function checkRequired(
    required: readonly unknown[],
    names: readonly string[],
    properties: unknown,
    ctx: NodeContext,
  ): void {
    const listed = new Set<string>();
    for (let i = 0; i < required.length; i++) {
      const name: unknown = required[i];
      if (typeof name !== "string") {
        report(
          ctx.path,
          `"required" holds ${show(name)}, which is not a property name`,
        );
      } else if (listed.has(name)) {
        report(ctx.path, `"required" lists ${quote(name)} twice`);
      } else {
        listed.add(name);
        if (isPlainObject(properties) && !Object.hasOwn(properties, name)) {
          report(
            ctx.path,
            `"required" lists ${quote(name)}, which is not a property`,
          );
        }
      }
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (!listed.has(name)) {
        report(ctx.path, `property ${quote(name)} is missing from "required"`);
      }
    }
  }

  function walkProperties(properties: JsonObject, ctx: NodeContext): void {
    for (let i = 0, names = Object.keys(properties); i < names.length; i++) {
      const name = names[i]!;
      propertyCount += 1;
      charCount += codePoints(name);
      walkChild(properties[name], ctx, "properties", name, false);
    }
  }

  function run(): StrictViolation[] {
    walk(root, rootContext);
    if (
      isPlainObject(root) &&
      "$defs" in root &&
      !isPlainObject(root["$defs"])
    ) {
      report("#", `"$defs" must be an object, got ${show(root["$defs"])}`);
    }
    if (defs !== undefined) {
      const names = Object.keys(defs);
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        charCount += codePoints(name);
      }
      // Definitions in first-reference order (references found while
      // walking a definition come after it); each is one level below the
      // root, wherever it is referred to from.
      for (let i = 0; i < defQueue.length; i++) {
        walkDef(defQueue[i] as string);
      }
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        if (!queued.has(name)) {
          walkDef(name);
        }
      }
    }
    reportLimits();
    return violations;
  }

  function walkDef(name: string): void {
    walkChild(defs?.[name], rootContext, "$defs", name, false);
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

/**
 * True when `required` lists exactly `names` (an object's own property
 * names), in the same order: the usual case, which breaks no rule.
 */
function sameNames(
  required: readonly unknown[],
  names: readonly string[],
): boolean {
  if (required.length !== names.length) {
    return false;
  }
  for (let i = 0; i < names.length; i++) {
    if (required[i] !== names[i]) {
      return false;
    }
  }
  return true;
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

const highSurrogate = /[\uD800-\uDBFF]/;

/** The code points of `s` (a lone surrogate counts as one). */
function codePoints(s: string): number {
  // Without a high surrogate every code unit is a code point.
  return highSurrogate.test(s) ? Array.from(s).length : s.length;
}

function unescapePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
