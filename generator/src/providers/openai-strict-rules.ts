/**
 * The rules of OpenAI strict mode that one schema node breaks by itself
 * (keywords, types, values, object and array keywords, a `$ref`'s target),
 * and the size limits: what openai-strict.ts's walk applies to each node
 * it reaches. The keyword lists and limits are in openai-strict-keywords.ts
 * (exported from openai-strict.ts).
 */

import {
  isPlainObject,
  quote,
  show,
  unescapePointer,
  type JsonObject,
} from "./schema-walk.js";
import {
  bit,
  holds,
  keywordBits,
  openAiStrictFormats,
  openAiStrictLimits,
  openAiStrictTypes,
  openAiStrictUnsupportedKeywords,
  type Held,
  type StrictKeyword,
} from "./openai-strict-keywords.js";
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

const unsupportedSet = new Set(openAiStrictUnsupportedKeywords);
const typeSet = new Set(openAiStrictTypes);
const formatSet = new Set(openAiStrictFormats);

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

/** Where a node sits, as the rules need it: its JSON Pointer, and whether it is the root. */
export interface NodePlace {
  readonly path: string;
  readonly isRoot: boolean;
}

/** Records one violation at `path`. */
export type StrictReport = (path: string, message: string) => void;

/** What a schema adds to OpenAI's size limits, summed over the walk. */
export interface StrictTotals {
  properties: number;
  enumValues: number;
  chars: number;
}

/**
 * The strict keywords `value` holds, as bits; reports every other key
 * (unsupported or unknown), a `$defs` below the root, and a title or
 * description that is not a string.
 */
export function readKeywords(
  value: JsonObject,
  at: NodePlace,
  report: StrictReport,
): Held {
  let keywords = 0;
  for (let i = 0, keys = Object.keys(value); i < keys.length; i++) {
    const key = keys[i]!;
    const b = keywordBits.get(key);
    if (b !== undefined) {
      keywords |= b;
      if (b === bit.$defs && !at.isRoot) {
        report(at.path, `keyword "$defs" is only allowed at the root`);
      }
    } else if (unsupportedSet.has(key)) {
      report(at.path, `keyword ${quote(key)} is not supported in strict mode`);
    } else {
      report(at.path, `unknown keyword ${quote(key)}`);
    }
  }
  const node: Held = { node: value, keywords };
  for (let i = 0; i < annotationKeywords.length; i++) {
    const key = annotationKeywords[i]!;
    if (holds(node, key) && typeof value[key] !== "string") {
      report(
        at.path,
        `${quote(key)} must be a string, got ${show(value[key])}`,
      );
    }
  }
  return node;
}

/**
 * The rules of a `$ref` node: not the root, alone (not even a title or a
 * description: the API refuses them), and `#` or `#/$defs/<name>` naming
 * one of `defs`. Returns that name, or undefined (`#`, or a
 * reference reported).
 */
export function checkRefNode(
  held: Held,
  at: NodePlace,
  defs: JsonObject | undefined,
  report: StrictReport,
): string | undefined {
  const ref = held.node["$ref"];
  if (at.isRoot) {
    report(at.path, `the root must have type "object", not a "$ref"`);
  }
  reportSiblings(held, "$ref", at, report);
  for (let i = 0; i < annotationKeywords.length; i++) {
    const key = annotationKeywords[i]!;
    if (holds(held, key)) {
      report(
        at.path,
        `"$ref" cannot be combined with ${quote(key)}: wrap the reference, {"anyOf": [{"$ref": …}], ${quote(key)}: …}`,
      );
    }
  }
  if (typeof ref !== "string") {
    report(at.path, `"$ref" must be a string, got ${show(ref)}`);
    return undefined;
  }
  if (ref === "#") {
    return undefined;
  }
  const prefix = "#/$defs/";
  if (!ref.startsWith(prefix) || ref.slice(prefix.length).includes("/")) {
    report(at.path, `$ref ${quote(ref)} must be "#" or "#/$defs/<name>"`);
    return undefined;
  }
  const name = unescapePointer(ref.slice(prefix.length));
  if (defs === undefined || !Object.hasOwn(defs, name)) {
    report(at.path, `$ref ${quote(ref)} names no definition in "$defs"`);
    return undefined;
  }
  return name;
}

/**
 * The rules of an `anyOf` node: not the root, not in another `anyOf`,
 * alone but for its annotations, a non-empty list. Returns the branches
 * to walk, or undefined.
 */
export function checkAnyOfNode(
  held: Held,
  at: NodePlace,
  inAnyOf: boolean,
  report: StrictReport,
): readonly unknown[] | undefined {
  const branches = held.node["anyOf"];
  if (at.isRoot) {
    report(at.path, `the root must have type "object", not an "anyOf"`);
  }
  if (inAnyOf) {
    report(
      at.path,
      `nested "anyOf" is not supported: merge its branches into the enclosing "anyOf"`,
    );
  }
  reportSiblings(held, "anyOf", at, report);
  if (!Array.isArray(branches) || branches.length === 0) {
    report(at.path, `"anyOf" must be a non-empty array, got ${show(branches)}`);
    return undefined;
  }
  return branches as readonly unknown[];
}

/** Reports the keywords beside `keyword` but the annotations (and the root's `$defs`). */
function reportSiblings(
  held: Held,
  keyword: "$ref" | "anyOf",
  at: NodePlace,
  report: StrictReport,
): void {
  const alone =
    bit[keyword] | bit.title | bit.description | (at.isRoot ? bit.$defs : 0);
  if ((held.keywords & ~alone) === 0) {
    return;
  }
  const extra = Object.keys(held.node).filter(
    (k) =>
      k !== keyword &&
      k !== "title" &&
      k !== "description" &&
      keywordBits.has(k) &&
      !(k === "$defs" && at.isRoot),
  );
  report(
    at.path,
    `${quote(keyword)} cannot be combined with ${extra.map(quote).join(", ")}`,
  );
}

/**
 * The rules of a typed node met before its properties are walked: its
 * `type`, the root's being "object", each keyword's type, the string,
 * number, value and object keywords. Returns its types (undefined when
 * `type` is missing or malformed); enum and const values go to `totals`.
 */
export function checkTypedNode(
  held: Held,
  at: NodePlace,
  totals: StrictTotals,
  report: StrictReport,
): readonly string[] | undefined {
  const node = held.node;
  const types = readTypes(held, at, report);
  if (
    at.isRoot &&
    types !== undefined &&
    !(types.length === 1 && types[0] === "object")
  ) {
    report(
      at.path,
      `the root must have type "object", got ${show(node["type"])}`,
    );
  }
  if (types !== undefined && types.length > 0) {
    checkKeywordTypes(held, at, types, report);
  }
  // Most nodes hold none of these keywords: skip their rules at once.
  if ((held.keywords & stringBits) !== 0) {
    checkStringKeywords(held, at, report);
  }
  if ((held.keywords & numberBits) !== 0) {
    checkNumberKeywords(held, at, report);
  }
  if ((held.keywords & valueBits) !== 0) {
    checkValues(held, at, types, totals, report);
  }
  if (types?.includes("object") ?? false) {
    checkObjectKeywords(held, at, report);
  }
  return types;
}

/**
 * The array rules of a typed node, met after its properties are walked
 * and before its `items`: an array needs `items`, and its item counts.
 */
export function checkArrayNode(
  held: Held,
  at: NodePlace,
  types: readonly string[] | undefined,
  report: StrictReport,
): void {
  if ((types?.includes("array") ?? false) && !holds(held, "items")) {
    report(at.path, `an array needs "items"`);
  }
  checkArrayKeywords(held, at, report);
}

/** Reports each type-specific keyword that none of `types` takes. */
function checkKeywordTypes(
  held: Held,
  at: NodePlace,
  types: readonly string[],
  report: StrictReport,
): void {
  let allowed = 0;
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    allowed |= typedBitsAllowed.get(t) ?? 0;
  }
  if ((held.keywords & typedBits & ~allowed) === 0) {
    return;
  }
  for (let i = 0; i < typedKeywords.length; i++) {
    const [keyword, needs] = typedKeywords[i]!;
    if (holds(held, keyword) && !needs.some((t) => types.includes(t))) {
      report(
        at.path,
        `keyword ${quote(keyword)} needs type ${needs.map(quote).join(" or ")}, got ${show(held.node["type"])}`,
      );
    }
  }
}

function readTypes(
  held: Held,
  at: NodePlace,
  report: StrictReport,
): readonly string[] | undefined {
  if (!holds(held, "type")) {
    report(
      at.path,
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
      at.path,
      `"type" must be a string or a non-empty array of strings, got ${show(type)}`,
    );
    return undefined;
  }
  const types: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const t: unknown = list[i];
    if (typeof t !== "string" || !typeSet.has(t)) {
      report(
        at.path,
        `type ${show(t)} is not supported; use one of ${openAiStrictTypes.join(", ")}`,
      );
    } else if (types.includes(t)) {
      report(at.path, `type ${quote(t)} is listed twice`);
    } else {
      types.push(t);
    }
  }
  return types;
}

function checkStringKeywords(
  held: Held,
  at: NodePlace,
  report: StrictReport,
): void {
  const node = held.node;
  if (holds(held, "format")) {
    const format = node["format"];
    if (typeof format !== "string" || !formatSet.has(format)) {
      report(
        at.path,
        `format ${show(format)} is not supported; use one of ${openAiStrictFormats.join(", ")}`,
      );
    }
  }
  if (holds(held, "pattern")) {
    const pattern = node["pattern"];
    if (typeof pattern !== "string") {
      report(at.path, `"pattern" must be a string, got ${show(pattern)}`);
    } else if (!isValidPattern(pattern)) {
      report(
        at.path,
        `pattern ${quote(pattern)} is not a valid regular expression`,
      );
    }
  }
}

function checkNumberKeywords(
  held: Held,
  at: NodePlace,
  report: StrictReport,
): void {
  const node = held.node;
  for (let i = 0; i < numberKeywords.length; i++) {
    const key = numberKeywords[i]!;
    if (holds(held, key) && !isFiniteNumber(node[key])) {
      report(at.path, `${quote(key)} must be a number, got ${show(node[key])}`);
    }
  }
  if (holds(held, "multipleOf")) {
    const m = node["multipleOf"];
    if (!isFiniteNumber(m) || m <= 0) {
      report(
        at.path,
        `"multipleOf" must be a number greater than 0, got ${show(m)}`,
      );
    }
  }
}

function checkArrayKeywords(
  held: Held,
  at: NodePlace,
  report: StrictReport,
): void {
  if ((held.keywords & arrayCountBits) === 0) {
    return;
  }
  const node = held.node;
  for (let i = 0; i < arrayCountKeywords.length; i++) {
    const key = arrayCountKeywords[i]!;
    const v = node[key];
    if (holds(held, key) && !(Number.isInteger(v) && (v as number) >= 0)) {
      report(
        at.path,
        `${quote(key)} must be a non-negative integer, got ${show(v)}`,
      );
    }
  }
  const min = node["minItems"];
  const max = node["maxItems"];
  if (typeof min === "number" && typeof max === "number" && min > max) {
    report(at.path, `"minItems" ${min} is greater than "maxItems" ${max}`);
  }
}

function checkValues(
  held: Held,
  at: NodePlace,
  types: readonly string[] | undefined,
  totals: StrictTotals,
  report: StrictReport,
): void {
  const node = held.node;
  if (holds(held, "enum")) {
    const values = node["enum"];
    if (!Array.isArray(values) || values.length === 0) {
      report(at.path, `"enum" must be a non-empty array, got ${show(values)}`);
    } else {
      totals.enumValues += values.length;
      let enumChars = 0;
      for (let i = 0; i < values.length; i++) {
        const v: unknown = values[i];
        checkValue(v, "enum value", at, types, report);
        const n = valueChars(v);
        enumChars += n;
        totals.chars += n;
      }
      if (
        values.length > openAiStrictLimits.largeStringEnumValues &&
        values.every((v) => typeof v === "string") &&
        enumChars > openAiStrictLimits.maxLargeEnumChars
      ) {
        report(
          at.path,
          `string enum of ${values.length} values has ${enumChars} characters; ` +
            `an enum of more than ${openAiStrictLimits.largeStringEnumValues} values ` +
            `may have at most ${openAiStrictLimits.maxLargeEnumChars}`,
        );
      }
    }
  }
  if (holds(held, "const")) {
    checkValue(node["const"], "const value", at, types, report);
    totals.chars += valueChars(node["const"]);
  }
}

function checkValue(
  value: unknown,
  what: string,
  at: NodePlace,
  types: readonly string[] | undefined,
  report: StrictReport,
): void {
  const t = primitiveType(value);
  if (t === undefined) {
    report(
      at.path,
      `${what} ${show(value)} must be a string, number, boolean or null`,
    );
    return;
  }
  if (types === undefined || types.length === 0) {
    return;
  }
  const ok = types.includes(t) || (t === "integer" && types.includes("number"));
  if (!ok) {
    report(
      at.path,
      `${what} ${show(value)} does not match type ${show(types.length === 1 ? types[0] : types)}`,
    );
  }
}

/** The rules on `required` when it does not list `names` in their order. */
function checkRequired(
  required: readonly unknown[],
  names: readonly string[],
  properties: unknown,
  at: NodePlace,
  report: StrictReport,
): void {
  const listed = new Set<string>();
  for (let i = 0; i < required.length; i++) {
    const name: unknown = required[i];
    if (typeof name !== "string") {
      report(
        at.path,
        `"required" holds ${show(name)}, which is not a property name`,
      );
    } else if (listed.has(name)) {
      report(at.path, `"required" lists ${quote(name)} twice`);
    } else {
      listed.add(name);
      if (isPlainObject(properties) && !Object.hasOwn(properties, name)) {
        report(
          at.path,
          `"required" lists ${quote(name)}, which is not a property`,
        );
      }
    }
  }
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!listed.has(name)) {
      report(at.path, `property ${quote(name)} is missing from "required"`);
    }
  }
}

/**
 * The object rules of a node: `additionalProperties` false, `properties`
 * an object, `required` listing every property.
 */
function checkObjectKeywords(
  held: Held,
  at: NodePlace,
  report: StrictReport,
): void {
  const node = held.node;
  const additional = node["additionalProperties"];
  if (!holds(held, "additionalProperties")) {
    report(at.path, `an object needs "additionalProperties": false`);
  } else if (additional !== false) {
    report(
      at.path,
      `"additionalProperties" must be false, got ${show(additional)}`,
    );
  }
  const properties = node["properties"];
  let names: string[] = [];
  if (!holds(held, "properties")) {
    report(at.path, `an object needs "properties"`);
  } else if (!isPlainObject(properties)) {
    report(at.path, `"properties" must be an object, got ${show(properties)}`);
  } else {
    names = Object.keys(properties);
  }
  const required = node["required"];
  if (!holds(held, "required")) {
    report(at.path, `an object needs "required" listing every property`);
  } else if (!Array.isArray(required)) {
    report(
      at.path,
      `"required" must be an array of property names, got ${show(required)}`,
    );
  } else if (!sameNames(required, names)) {
    checkRequired(required, names, properties, at, report);
  }
}

/** Reports the size limits `totals` exceed, at the root. */
export function reportLimits(totals: StrictTotals, report: StrictReport): void {
  const limits = openAiStrictLimits;
  if (totals.properties > limits.maxProperties) {
    report(
      "#",
      `schema has ${totals.properties} object properties; the limit is ${limits.maxProperties}`,
    );
  }
  if (totals.enumValues > limits.maxEnumValues) {
    report(
      "#",
      `schema has ${totals.enumValues} enum values; the limit is ${limits.maxEnumValues}`,
    );
  }
  if (totals.chars > limits.maxTotalChars) {
    report(
      "#",
      `property names, definition names, enum and const values have ${totals.chars} characters; ` +
        `the limit is ${limits.maxTotalChars}`,
    );
  }
}

/**
 * True when `required` lists exactly `names` (an object's own property
 * names), in the same order: the usual case, which breaks no rule.
 */
export function sameNames(
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
export function codePoints(s: string): number {
  // Without a high surrogate every code unit is a code point.
  return highSurrogate.test(s) ? Array.from(s).length : s.length;
}
