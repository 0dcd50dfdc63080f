import type { DescEnum, DescField } from "../read/descriptors.js";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { aliasPrefixOf } from "./alias-prefix.js";
import { anthropicStrictFormats } from "../providers/anthropic-strict.js";
import { openAiStrictFormats } from "../providers/openai-strict-keywords.js";
import type { JsonSchema } from "./json-schema.js";
import { translateRe2Pattern } from "./validate-pattern.js";
import {
  ignoreAlways,
  ignoreIfZeroValue,
  readFieldRules,
  readOneofRules,
  type EnumRules,
  type FieldRules,
  type NumberRules,
  type RepeatedRules,
  type RuleNumber,
  type StringRules,
} from "./validate-rules.js";
import { wellFormed } from "./well-formed.js";
import { noteBase64Pattern, patterns } from "./well-known.js";

/**
 * The validation keywords a schema dialect accepts. A `buf.validate` rule
 * becomes its keyword where the dialect has it, and a sentence of the
 * field's description where it does not.
 */
export interface KeywordDialect {
  /** `minLength` and `maxLength`. */
  readonly stringLength: boolean;
  readonly pattern: boolean;
  /** The `format` values accepted. */
  readonly formats: ReadonlySet<string>;
  /** `minimum` and `maximum`. */
  readonly bounds: boolean;
  /** `exclusiveMinimum` and `exclusiveMaximum`. */
  readonly exclusiveBounds: boolean;
  /** The largest `minItems` accepted (0 when the keyword is not). */
  readonly minItemsUpTo: number;
  readonly maxItems: boolean;
  /** `enum` beside `type` on strings and numbers. */
  readonly enum: boolean;
}

/**
 * OpenAI strict mode: its documented keywords (docs/compat.md "What
 * providers accept", generator/src/providers/openai-strict.ts): `pattern`,
 * `format` from a fixed set, the numeric bounds, `minItems`/`maxItems`,
 * `enum`; not `minLength`/`maxLength`.
 */
export const openAiStrictDialect: KeywordDialect = {
  stringLength: false,
  pattern: true,
  formats: new Set(openAiStrictFormats),
  bounds: true,
  exclusiveBounds: true,
  minItemsUpTo: Number.MAX_SAFE_INTEGER,
  maxItems: true,
  enum: true,
};

/**
 * Anthropic strict tool use (`strict: true`): formats including `uri`,
 * `minItems` only 0 or 1, no numeric bounds, no string lengths; regexes
 * without backreferences or lookaround (Anthropic's structured outputs
 * documentation, as summed up in the providers notes). Not used by the
 * generator: the schemas are built for OpenAI strict, and an Anthropic
 * strict request moves what it refuses into the description.
 */
export const anthropicStrictDialect: KeywordDialect = {
  stringLength: false,
  pattern: true,
  formats: new Set(anthropicStrictFormats),
  bounds: false,
  exclusiveBounds: false,
  minItemsUpTo: 1,
  maxItems: false,
  enum: true,
};

/**
 * Plain JSON Schema (draft 2020-12), the non-strict tools: OpenAI without
 * strict, Anthropic, Gemini `parametersJsonSchema`. Every keyword here is
 * standard; `format` is limited to `uuid`, `email` and `uri`.
 */
export const plainDialect: KeywordDialect = {
  stringLength: true,
  pattern: true,
  formats: new Set(["uuid", "email", "uri"]),
  bounds: true,
  exclusiveBounds: true,
  minItemsUpTo: Number.MAX_SAFE_INTEGER,
  maxItems: true,
  enum: true,
};

/** A dialect that takes no keyword: every rule is a sentence. */
const describeOnly: KeywordDialect = {
  stringLength: false,
  pattern: false,
  formats: new Set(),
  bounds: false,
  exclusiveBounds: false,
  minItemsUpTo: 0,
  maxItems: false,
  enum: false,
};

/** The dialect of a strict or non-strict tool's schema. */
export function schemaDialect(strict: boolean): KeywordDialect {
  return strict ? openAiStrictDialect : plainDialect;
}

/**
 * True when the field's `buf.validate` rules make a call send it: the
 * schema then requires it and does not make it nullable. Either
 * `(buf.validate.field).required` (a field with presence must be set, one
 * without must not be zero), or, on an enum field without presence, enum
 * rules that refuse its 0 value (`const` other than 0, `in` without 0,
 * `not_in` with 0, `defined_only` when the enum declares no 0), since
 * leaving the field unset sends 0 (a `*_UNSPECIFIED` zero is otherwise
 * left unset, build-schema.ts).
 */
export function isRequiredByRules(field: DescField): boolean {
  const rules = readFieldRules(field);
  if (rules === undefined || rules.ignore === ignoreAlways) {
    return false;
  }
  if (rules.required) {
    return true;
  }
  return (
    rules.enum !== undefined &&
    field.fieldKind === "enum" &&
    !hasPresence(field) &&
    rules.ignore !== ignoreIfZeroValue &&
    !enumAccepts(rules.enum, field.enum, 0)
  );
}

/** True when the enum rules `rules` accept the number `n` of `desc`. */
function enumAccepts(rules: EnumRules, desc: DescEnum, n: number): boolean {
  return (
    (rules.const === undefined || rules.const === n) &&
    (rules.in.length === 0 || rules.in.includes(n)) &&
    !rules.notIn.includes(n) &&
    (!rules.definedOnly || desc.values.some((v) => v.number === n))
  );
}

/**
 * Apply the field's `buf.validate` rules to its schema node `schema` (as
 * built, before it is made nullable): the keywords `dialect` (the tool's
 * is {@link schemaDialect}) accepts are added to it, and the rest are
 * sentences appended to `description` after a blank line. Returns the
 * description.
 */
export function applyValidateRules(
  field: DescField,
  schema: JsonSchema,
  dialect: KeywordDialect,
  description: string,
): string {
  const sentences: string[] = [];
  const rules = readFieldRules(field);
  if (rules !== undefined && rules.ignore !== ignoreAlways) {
    // IGNORE_IF_ZERO_VALUE: a zero value is accepted whatever the rules
    // say, so no keyword may refuse it.
    const ifSet = rules.ignore === ignoreIfZeroValue;
    const aliased = aliasPrefixOf(field) !== "";
    const own: string[] = [];
    applyRules(
      field,
      rules,
      schema,
      ifSet ? describeOnly : dialect,
      aliased,
      own,
    );
    if (ifSet && own.length > 0) {
      sentences.push(`Unless empty or zero: ${lowerFirst(own.join(" "))}`);
    } else {
      sentences.push(...own);
    }
  }
  const oneofRules = readOneofRules(field.parent);
  for (let i = 0; i < oneofRules.length; i++) {
    const rule = oneofRules[i]!;
    if (rule.fields.includes(field.name) && rule.fields.length > 0) {
      const names = rule.fields.join(", ");
      sentences.push(
        rule.required
          ? `Exactly one of ${names} must be set.`
          : `At most one of ${names} may be set.`,
      );
    }
  }
  if (sentences.length === 0) {
    return description;
  }
  const text = sentences.join(" ");
  return wellFormed(description === "" ? text : `${description}\n\n${text}`);
}

function applyRules(
  field: DescField,
  rules: FieldRules,
  schema: JsonSchema,
  dialect: KeywordDialect,
  aliased: boolean,
  out: string[],
): void {
  const isList = field.fieldKind === "list";
  const isMap = field.fieldKind === "map";
  if (rules.required) {
    requiredRule(field, schema, dialect, out);
  }
  if (isList && rules.repeated !== undefined) {
    repeatedRules(field, rules.repeated, schema, dialect, aliased, out);
    return;
  }
  if (isList || isMap || field.fieldKind === "message") {
    // Item rules of a list are RepeatedRules.items; wrappers, maps and
    // messages keep their values' rules out of the schema.
    valueRules(field, rules, undefined, describeOnly, aliased, out);
    return;
  }
  valueRules(field, rules, schema, dialect, aliased, out);
}

/**
 * `required` on a field without presence: a value other than the zero
 * value (fields with presence are made required by the schema builder).
 */
function requiredRule(
  field: DescField,
  schema: JsonSchema,
  dialect: KeywordDialect,
  out: string[],
): void {
  switch (field.fieldKind) {
    case "list":
      if (
        dialect.minItemsUpTo >= 1 &&
        schema["type"] === "array" &&
        schema["minItems"] === undefined
      ) {
        schema["minItems"] = 1;
      } else {
        out.push("Must have at least one item.");
      }
      return;
    case "map":
      out.push("Must have at least one entry.");
      return;
    case "message":
      return; // set when present; the schema already requires it
    case "enum":
      if (!hasPresence(field)) {
        requiredEnum(field.enum, schema, out);
      }
      return;
    case "scalar":
      if (hasPresence(field)) {
        return;
      }
      if (schema["type"] === "string" && dialect.stringLength) {
        schema["minLength"] = 1;
      } else if (schema["type"] === "boolean") {
        out.push("Must be true.");
      } else if (schema["type"] === "string") {
        out.push("Must not be empty.");
      } else {
        out.push("Must not be 0.");
      }
  }
}

/**
 * A field with presence is set when present: the schema builder requires
 * it (see isRequiredByRules), and any value, zero too, satisfies `required`.
 */
function hasPresence(field: DescField): boolean {
  return field.presence === FeatureSet_FieldPresence.EXPLICIT;
}

/** A required enum leaves out its zero value when another value remains. */
function requiredEnum(desc: DescEnum, schema: JsonSchema, out: string[]): void {
  const names = schema["enum"];
  if (!Array.isArray(names)) {
    return;
  }
  const zero = new Set(
    desc.values.filter((v) => v.number === 0).map((v) => v.name),
  );
  const kept = names.filter((n) => !zero.has(n as string));
  if (kept.length === names.length) {
    return;
  }
  if (kept.length > 0) {
    schema["enum"] = kept;
  } else {
    out.push("Must not be the zero value.");
  }
}

function repeatedRules(
  field: DescField,
  rules: RepeatedRules,
  schema: JsonSchema,
  dialect: KeywordDialect,
  aliased: boolean,
  out: string[],
): void {
  const { minItems, maxItems } = rules;
  if (minItems !== undefined && minItems > 0n) {
    const current = schema["minItems"];
    if (minItems <= BigInt(dialect.minItemsUpTo)) {
      if (typeof current !== "number" || BigInt(current) < minItems) {
        schema["minItems"] = Number(minItems);
      }
    } else {
      out.push(`At least ${minItems} ${plural(minItems, "item")}.`);
    }
  }
  if (maxItems !== undefined) {
    if (dialect.maxItems && maxItems <= BigInt(Number.MAX_SAFE_INTEGER)) {
      schema["maxItems"] = Number(maxItems);
    } else {
      out.push(`At most ${maxItems} ${plural(maxItems, "item")}.`);
    }
  }
  if (rules.items !== undefined && rules.items.ignore !== ignoreAlways) {
    const items = schema["items"];
    const itemSentences: string[] = [];
    const itemsNode =
      items !== null && typeof items === "object" && !Array.isArray(items)
        ? { ...items }
        : undefined;
    const itemDialect =
      rules.items.ignore === ignoreIfZeroValue ? describeOnly : dialect;
    valueRules(
      field,
      rules.items,
      itemsNode,
      itemDialect,
      aliased,
      itemSentences,
    );
    if (itemsNode !== undefined) {
      schema["items"] = itemsNode;
    }
    if (itemSentences.length > 0) {
      out.push(`Each item: ${lowerFirst(itemSentences.join(" "))}`);
    }
  }
}

/**
 * The rules on a value (a singular field, or a list's items): string,
 * number and enum rules. `schema` undefined: sentences only.
 */
function valueRules(
  field: DescField,
  rules: FieldRules,
  schema: JsonSchema | undefined,
  dialect: KeywordDialect,
  aliased: boolean,
  out: string[],
): void {
  const node = schema ?? {};
  const d = schema === undefined ? describeOnly : dialect;
  if (rules.string !== undefined) {
    stringRules(rules.string, node, d, aliased, out);
  }
  if (rules.number !== undefined) {
    numberRules(rules.number, node, d, out);
  }
  if (rules.enum !== undefined && field.enum !== undefined) {
    enumRules(field.enum, rules.enum, node, out);
  }
}

function stringRules(
  rules: StringRules,
  schema: JsonSchema,
  dialect: KeywordDialect,
  aliased: boolean,
  out: string[],
): void {
  // On an aliased field the model sends an alias (acct-1): rules about the
  // real id are described, never keywords.
  const d = aliased || schema["type"] !== "string" ? describeOnly : dialect;
  const sentences: string[] = [];
  lengthRules(rules, schema, d, sentences);
  if (rules.pattern !== undefined) {
    const translated = translateRe2Pattern(rules.pattern);
    if (d.pattern && translated.ok && schema["pattern"] === undefined) {
      schema["pattern"] = translated.pattern;
      if (translated.pattern === patterns.base64) {
        noteBase64Pattern();
      }
    } else {
      sentences.push(
        `Must match the RE2 regular expression ${JSON.stringify(rules.pattern)}.`,
      );
    }
  }
  const formats: [boolean, string, string][] = [
    [rules.uuid, "uuid", "Must be a UUID."],
    [rules.email, "email", "Must be an email address."],
    [rules.uri, "uri", "Must be an absolute URI."],
  ];
  for (let i = 0; i < formats.length; i++) {
    const [set, format, sentence] = formats[i]!;
    if (!set) {
      continue;
    }
    if (d.formats.has(format) && schema["format"] === undefined) {
      schema["format"] = format;
    } else {
      sentences.push(sentence);
    }
  }
  if (rules.in.length > 0) {
    if (d.enum && schema["enum"] === undefined) {
      schema["enum"] = [...rules.in];
    } else {
      sentences.push(
        `Must be one of ${rules.in.map((s) => JSON.stringify(s)).join(", ")}.`,
      );
    }
  }
  if (sentences.length > 0) {
    const text = sentences.join(" ");
    out.push(aliased ? `The id behind the alias: ${lowerFirst(text)}` : text);
  }
}

function lengthRules(
  rules: StringRules,
  schema: JsonSchema,
  dialect: KeywordDialect,
  out: string[],
): void {
  const keyword = (n: bigint | undefined): boolean =>
    n !== undefined &&
    dialect.stringLength &&
    n <= BigInt(Number.MAX_SAFE_INTEGER);
  const { minLen, maxLen } = rules;
  if (minLen !== undefined && minLen > 0n) {
    if (keyword(minLen)) {
      schema["minLength"] = Number(minLen);
    } else if (minLen === maxLen) {
      out.push(`Exactly ${minLen} ${plural(minLen, "character")}.`);
    } else {
      out.push(`At least ${minLen} ${plural(minLen, "character")}.`);
    }
  }
  if (maxLen !== undefined) {
    if (keyword(maxLen)) {
      schema["maxLength"] = Number(maxLen);
    } else if (minLen !== maxLen || keyword(minLen)) {
      out.push(`At most ${maxLen} ${plural(maxLen, "character")}.`);
    }
  }
}

/** `s` with its first letter in lower case ("Must be" → "must be"). */
function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function plural(n: bigint, word: string): string {
  return n === 1n ? word : `${word}s`;
}

/** The JSON number of a rule value, or undefined when it has none exact. */
function jsonNumber(
  v: RuleNumber,
  kind: NumberRules["kind"],
): number | undefined {
  if (typeof v === "bigint") {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    return v <= max && v >= -max ? Number(v) : undefined;
  }
  if (!Number.isFinite(v)) {
    return undefined;
  }
  return kind === "float" ? shortestFloat32(v) : v;
}

/** The float32 next to the float32 `v`, toward +∞ (`up`) or −∞. */
function nextFloat32(v: number, up: boolean): number {
  if (v === 0) {
    return up ? 2 ** -149 : -(2 ** -149);
  }
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, v);
  view.setInt32(0, view.getInt32(0) + (v > 0 === up ? 1 : -1));
  return view.getFloat32(0);
}

/** The shortest decimal that reads back as the float32 `v`. */
function shortestFloat32(v: number): number {
  for (let p = 1; p <= 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) {
      return s;
    }
  }
  return v;
}

function showNumber(v: RuleNumber, kind: NumberRules["kind"]): string {
  if (typeof v === "bigint") {
    return v.toString();
  }
  const n = kind === "float" && Number.isFinite(v) ? shortestFloat32(v) : v;
  return Number.isNaN(n) ? "NaN" : String(n);
}

function numberRules(
  rules: NumberRules,
  schema: JsonSchema,
  dialect: KeywordDialect,
  out: string[],
): void {
  const type = schema["type"];
  const numeric = type === "integer" || type === "number";
  const d = numeric ? dialect : describeOnly;
  const show = (v: RuleNumber): string => showNumber(v, rules.kind);
  const lower = rules.gt ?? rules.gte;
  const upper = rules.lt ?? rules.lte;
  if (lower !== undefined && upper !== undefined && lower > upper) {
    // protovalidate reads a lower bound above the upper one as a range
    // excluded: no single keyword says so.
    const low = rules.gt !== undefined ? "greater than" : "at least";
    const high = rules.lt !== undefined ? "less than" : "at most";
    out.push(`Must be ${low} ${show(lower)} or ${high} ${show(upper)}.`);
  } else {
    const bounds: JsonSchema = {};
    const sentences: string[] = [];
    bound(rules, "lower", schema, bounds, d, sentences);
    bound(rules, "upper", schema, bounds, d, sentences);
    const low = bounds["minimum"] ?? bounds["exclusiveMinimum"];
    const high = bounds["maximum"] ?? bounds["exclusiveMaximum"];
    if (typeof low === "number" && typeof high === "number" && low > high) {
      // Bounds no value meets (gt 5, lt 5): said as written, so that the
      // schema still admits values.
      bound(rules, "lower", schema, {}, describeOnly, out);
      bound(rules, "upper", schema, {}, describeOnly, out);
    } else {
      Object.assign(schema, bounds);
      out.push(...sentences);
    }
  }
  if (rules.in.length > 0) {
    const values = rules.in.map((v) => jsonNumber(v, rules.kind));
    if (
      d.enum &&
      schema["enum"] === undefined &&
      values.every((v) => v !== undefined)
    ) {
      schema["enum"] = values;
    } else {
      out.push(`Must be one of ${rules.in.map(show).join(", ")}.`);
    }
  }
}

/** One side's bound, a keyword written to `to`, or a sentence. */
function bound(
  rules: NumberRules,
  side: "lower" | "upper",
  schema: JsonSchema,
  to: JsonSchema,
  dialect: KeywordDialect,
  out: string[],
): void {
  const exclusive = side === "lower" ? rules.gt : rules.lt;
  const inclusive = side === "lower" ? rules.gte : rules.lte;
  const value = exclusive ?? inclusive;
  if (value === undefined) {
    return;
  }
  const integer = schema["type"] === "integer" && typeof value === "bigint";
  let keyword: string;
  let n: RuleNumber = value;
  if (typeof exclusive === "bigint" && integer) {
    // An exclusive integer bound is the next integer, inclusive.
    n = side === "lower" ? exclusive + 1n : exclusive - 1n;
    keyword = side === "lower" ? "minimum" : "maximum";
  } else if (
    rules.kind === "float" &&
    typeof exclusive === "number" &&
    Number.isFinite(exclusive)
  ) {
    // An exclusive float32 bound is the next float32, inclusive: a double
    // just past the bound (0.10000000000000002 > 0.1) is the bound itself
    // once the field holds it as a float32, which the rule refuses.
    n = nextFloat32(exclusive, side === "lower");
    keyword = side === "lower" ? "minimum" : "maximum";
  } else if (exclusive !== undefined) {
    keyword = side === "lower" ? "exclusiveMinimum" : "exclusiveMaximum";
  } else {
    keyword = side === "lower" ? "minimum" : "maximum";
  }
  const json = jsonNumber(n, rules.kind);
  const allowed = keyword.startsWith("exclusive")
    ? dialect.exclusiveBounds
    : dialect.bounds;
  if (allowed && json !== undefined) {
    to[keyword] = json;
    return;
  }
  const words =
    side === "lower"
      ? exclusive !== undefined
        ? "greater than"
        : "at least"
      : exclusive !== undefined
        ? "less than"
        : "at most";
  out.push(`Must be ${words} ${showNumber(value, rules.kind)}.`);
}

function enumRules(
  desc: DescEnum,
  rules: EnumRules,
  schema: JsonSchema,
  out: string[],
): void {
  // defined_only: the schema lists only defined names already.
  if (
    rules.in.length === 0 &&
    rules.notIn.length === 0 &&
    rules.const === undefined
  ) {
    return;
  }
  const names = schema["enum"];
  const allowed = new Set(
    desc.values
      .filter((v) => enumAccepts(rules, desc, v.number))
      .map((v) => v.name),
  );
  if (Array.isArray(names)) {
    const kept = names.filter((n) => allowed.has(n as string));
    if (kept.length > 0) {
      schema["enum"] = kept;
      return;
    }
  }
  if (allowed.size > 0) {
    out.push(`Must be one of ${[...allowed].join(", ")}.`);
  }
}
