/**
 * An offline checker for Anthropic strict tool use (`strict: true` on a
 * client tool: grammar-constrained sampling). A strict tool is first an
 * ordinary tool, so the rules of anthropic-tools.ts apply too; then the
 * JSON Schema subset of structured outputs.
 *
 * Sources of the rules: Anthropic, "Structured outputs", section "JSON
 * Schema limitations"
 * (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations),
 * and "Strict tool use"
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use);
 * the official SDK's strict transform (`@anthropic-ai/sdk`,
 * `lib/transform-json-schema`) keeps the same keywords and moves every
 * other constraint into the description. Summed up in docs/compat.md,
 * "What providers accept". The rules:
 *
 * - `unsupported-keyword`: only {@link anthropicStrictKeywords}; numeric
 *   bounds (`minimum`, `maximum`, `multipleOf`, …), string lengths, and
 *   array constraints other than `minItems` are not supported.
 * - `additional-properties-false`: every object has
 *   `additionalProperties: false`.
 * - `format`: one of {@link anthropicStrictFormats}.
 * - `min-items`: `minItems` is 0 or 1.
 * - `pattern`: a regular expression without backreferences or lookaround.
 * - `enum-primitive`: `enum` and `const` values are strings, numbers,
 *   booleans or null.
 * - `no-recursion`: `$ref`/`$defs` are local and never recursive.
 *
 * Per request (not per tool): {@link anthropicStrictRequestLimits}.
 */

import { checkAnthropicTool } from "./anthropic-tools.js";
import {
  forEachSchema,
  isPlainObject,
  isRef,
  quote,
  refCyclesOf,
  show,
  type JsonObject,
  type ProviderViolation,
  type Report,
  type SchemaVisit,
} from "./schema-walk.js";
import { createStringMemo } from "../schema/string-memo.js";

/** Every keyword a strict schema may use. */
export const anthropicStrictKeywords: readonly string[] = [
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
  "allOf",
  "format",
  "pattern",
  "minItems",
  "$ref",
  "$defs",
];

/** Values of `format` strict tool use accepts. */
export const anthropicStrictFormats: readonly string[] = [
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
];

/** The limits of one request with strict tools (same sources). */
export const anthropicStrictRequestLimits = {
  /** Strict tools in one request. */
  maxStrictTools: 20,
  /** Optional parameters (properties not in `required`) across the strict tools. */
  maxOptionalParameters: 24,
  /** Parameters whose schema is a union (`anyOf`, a type array) across the strict tools. */
  maxUnionParameters: 16,
} as const;

/**
 * Checks a strict tool's `input_schema` against Anthropic strict tool use
 * and returns every violation found: those of {@link checkAnthropicTool}
 * first, then the strict ones in document order, then recursion.
 */
export function checkAnthropicStrict(schema: unknown): ProviderViolation[] {
  const violations = checkAnthropicTool(schema);
  if (!isPlainObject(schema)) {
    return violations;
  }
  const report: Report = (path, rule, message) => {
    violations.push({ path, rule, message });
  };
  const refs: SchemaVisit[] = [];
  forEachSchema(schema, (v) => {
    checkAnthropicStrictNode(v, report);
    if (isRef(v.node)) {
      refs.push(v);
    }
  });
  reportAnthropicStrictRecursion(schema, refs, report);
  return violations;
}

const strictKeywords = new Set(anthropicStrictKeywords);

/**
 * The strict rules of {@link checkAnthropicStrict} for one sub-schema met
 * by a walk (`forEachSchema`), in the order it reports them.
 */
export function checkAnthropicStrictNode(
  at: SchemaVisit,
  report: Report,
): void {
  const node = at.node;
  if (!isPlainObject(node)) {
    return;
  }
  // A schema inherits no enumerable key: `for…in` meets Object.keys's
  // keys, in its order, without its array.
  for (const key in node) {
    if (!strictKeywords.has(key)) {
      report(
        at.path,
        "unsupported-keyword",
        `keyword ${quote(key)} is not supported in strict tool use`,
      );
    }
  }
  checkNode(node, at, report);
}

/**
 * The `no-recursion` rule of {@link checkAnthropicStrict}, reported after
 * the others, for the `$ref` nodes a walk of `schema` met (`isRef`).
 */
export function reportAnthropicStrictRecursion(
  schema: unknown,
  refs: readonly SchemaVisit[],
  report: Report,
): void {
  for (const cycle of refCyclesOf(schema, refs, false)) {
    report(
      cycle.path,
      "no-recursion",
      `recursive $ref (through ${cycle.targets.map(quote).join(", ")}) is not supported in strict tool use`,
    );
  }
}

/** True when `type` is `"object"` or a list holding it. */
function typedObject(node: JsonObject): boolean {
  const t = node["type"];
  return t === "object" || (Array.isArray(t) && t.includes("object"));
}

function checkNode(node: JsonObject, at: SchemaVisit, report: Report): void {
  if (typedObject(node) || "properties" in node) {
    if (node["additionalProperties"] !== false) {
      report(
        at.path,
        "additional-properties-false",
        `an object needs "additionalProperties": false, got ${show(node["additionalProperties"])}`,
      );
    }
  }
  if ("format" in node) {
    const format = node["format"];
    if (
      typeof format !== "string" ||
      !anthropicStrictFormats.includes(format)
    ) {
      report(
        at.path,
        "format",
        `format ${show(format)} is not supported; use one of ${anthropicStrictFormats.join(", ")}`,
      );
    }
  }
  if ("minItems" in node && node["minItems"] !== 0 && node["minItems"] !== 1) {
    report(
      at.path,
      "min-items",
      `"minItems" must be 0 or 1, got ${show(node["minItems"])}`,
    );
  }
  if ("pattern" in node) {
    const problem = patternProblem(node["pattern"]);
    if (problem !== undefined) {
      report(at.path, "pattern", problem);
    }
  }
  if ("enum" in node) {
    const values = node["enum"];
    if (Array.isArray(values)) {
      for (let i = 0; i < values.length; i++) {
        const v: unknown = values[i];
        reportNonPrimitive(v, at, report);
      }
    }
  }
  if ("const" in node) {
    reportNonPrimitive(node["const"], at, report);
  }
  if ("enum" in node && !Array.isArray(node["enum"])) {
    report(
      at.path,
      "enum-primitive",
      `"enum" must be an array, got ${show(node["enum"])}`,
    );
  }
}

function reportNonPrimitive(v: unknown, at: SchemaVisit, report: Report): void {
  if (typeof v === "object" && v !== null) {
    report(
      at.path,
      "enum-primitive",
      `enum or const value ${show(v)} must be a string, number, boolean or null`,
    );
  }
}

// Schemas repeat the same few patterns (durations, field masks, base64):
// judge each once.
const patternProblems = createStringMemo(stringPatternProblem);

/** Why a pattern is refused in strict tool use, or undefined. */
function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== "string") {
    return `"pattern" must be a string, got ${show(pattern)}`;
  }
  return patternProblems(pattern);
}

function stringPatternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
  } catch {
    return `pattern ${quote(pattern)} is not a valid regular expression`;
  }
  // Outside a character class: (?= (?! (?<= (?<! are lookaround, \1-\9
  // and \k<name> backreferences.
  const outside = pattern.replace(/\\.|\[(?:\\.|[^\]\\])*\]/g, (m) =>
    /^\\[1-9k]/.test(m) ? m : "_",
  );
  if (/\(\?<?[=!]/.test(outside)) {
    return `pattern ${quote(pattern)} uses lookaround, which strict tool use does not support`;
  }
  if (/\\[1-9]|\\k</.test(outside)) {
    return `pattern ${quote(pattern)} uses a backreference, which strict tool use does not support`;
  }
  return undefined;
}

/** What one strict tool adds to a request's totals. */
export interface AnthropicStrictCounts {
  /** Properties, at any depth, that their object does not require. */
  readonly optionalParameters: number;
  /** Properties, at any depth, whose schema is an `anyOf` or a type array. */
  readonly unionParameters: number;
}

/**
 * Counts a strict schema's optional and union parameters, for the
 * per-request limits ({@link anthropicStrictRequestLimits}). Every property
 * at every depth counts: Anthropic does not say whether nested ones do, and
 * counting them is the safe reading.
 */
export function countAnthropicStrictParameters(
  schema: unknown,
): AnthropicStrictCounts {
  const counts = { optionalParameters: 0, unionParameters: 0 };
  forEachSchema(schema, (v) => {
    countAnthropicStrictParameter(v, counts);
  });
  return counts;
}

/**
 * Adds one sub-schema met by a walk (`forEachSchema`) to the counts of
 * {@link countAnthropicStrictParameters}.
 */
function countAnthropicStrictParameter(
  at: SchemaVisit,
  counts: { optionalParameters: number; unionParameters: number },
): void {
  const node = at.node;
  if (at.keyword !== "properties" || !isPlainObject(node)) {
    return;
  }
  if (!at.required) {
    counts.optionalParameters++;
  }
  // `!== undefined` rather than `in`: the same answer for JSON, and for a
  // schema tree that holds an undefined value the text leaves out.
  if (node["anyOf"] !== undefined || Array.isArray(node["type"])) {
    counts.unionParameters++;
  }
}
