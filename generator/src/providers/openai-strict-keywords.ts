/**
 * What OpenAI strict mode accepts, as lists: the keywords (and those it
 * documents as unsupported), the types and formats, the size limits, and
 * one bit per keyword for the checker's walk (openai-strict.ts) and node
 * rules (openai-strict-rules.ts).
 */

import type { JsonObject } from "./schema-walk.js";

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

/** A keyword of {@link openAiStrictKeywords}, as a type. */
export type StrictKeyword = (typeof strictKeywords)[number];

/**
 * One bit per keyword of {@link openAiStrictKeywords}: the walk notes the
 * keywords a node holds as one number (its first pass over the node's
 * keys), and the rules test bits instead of looking properties up.
 */
export const keywordBits = new Map<string, number>(
  strictKeywords.map((k, i) => [k, 1 << i]),
);

/** {@link keywordBits} by keyword name: `bit.pattern | bit.format`. */
export const bit = Object.fromEntries(keywordBits) as Record<
  StrictKeyword,
  number
>;

/** A schema node with the bits of the strict keywords it holds. */
export interface Held {
  readonly node: JsonObject;
  /** One bit per keyword held ({@link keywordBits}). */
  readonly keywords: number;
}

/** True when the node `held` has `keyword` (its bit is set). */
export function holds(held: Held, keyword: StrictKeyword): boolean {
  return (held.keywords & bit[keyword]) !== 0;
}
