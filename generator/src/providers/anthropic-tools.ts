/**
 * An offline checker for an Anthropic Messages API client tool's
 * `input_schema` (a tool sent without `strict`). Anthropic refuses the
 * whole request when one tool's schema is refused.
 *
 * Sources of the rules (docs/compat.md, "What providers accept"):
 *
 * - `root-type-object`: the tool definition's `input_schema` is "a JSON
 *   schema object" whose `type` is `"object"` (Anthropic, "Define tools",
 *   https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools;
 *   the SDK type `Tool.InputSchema` of `@anthropic-ai/sdk` has
 *   `type: 'object'`).
 * - `top-level-composition`: the API answers "input_schema does not support
 *   oneOf, allOf, or anyOf at the top level" (seen in
 *   https://github.com/anthropics/claude-code/issues/5319 and
 *   https://github.com/mobile-next/mobile-mcp/issues/344).
 * - `schema-shape` and `ref-resolves`: below the root the schema is JSON
 *   Schema (draft 2020-12), which Anthropic validates as such: every
 *   sub-schema is an object or a boolean, `properties` maps names to
 *   schemas, `required` lists strings, and a `$ref` is local and names an
 *   existing definition (the checker's reading: a schema it accepts should be
 *   accepted, so remote references are refused).
 */

import {
  createViolations,
  checkShape,
  forEachSchema,
  isPlainObject,
  quote,
  show,
  type JsonObject,
  type ProviderViolation,
  type Report,
} from "./schema-walk.js";

/** Keywords refused at the top level of `input_schema`. */
export const anthropicTopLevelRefused: readonly string[] = [
  "oneOf",
  "allOf",
  "anyOf",
];

/**
 * Checks a tool's `input_schema` against Anthropic's rules for client
 * tools and returns every violation found, in document order. An empty
 * array means the schema passes.
 */
export function checkAnthropicTool(schema: unknown): ProviderViolation[] {
  const { violations, report } = createViolations();
  if (checkAnthropicToolRoot(schema, report)) {
    forEachSchema(schema, (v) => {
      checkShape(schema, v, report);
    });
  }
  return violations;
}

/**
 * The rules of {@link checkAnthropicTool} for the root alone, reported
 * first; then each sub-schema goes through `checkShape` (schema-walk.ts),
 * only when this returns true: a root that is no object has no
 * sub-schemas to check.
 */
export function checkAnthropicToolRoot(
  schema: unknown,
  report: Report,
): schema is JsonObject {
  if (!isPlainObject(schema)) {
    report(
      "#",
      "root-type-object",
      `input_schema must be a JSON object, got ${show(schema)}`,
    );
    return false;
  }
  if (schema["type"] !== "object") {
    report(
      "#",
      "root-type-object",
      `input_schema must have type "object", got ${show(schema["type"])}`,
    );
  }
  for (const key of anthropicTopLevelRefused) {
    if (key in schema) {
      report(
        "#",
        "top-level-composition",
        `input_schema does not support ${quote(key)} at the top level`,
      );
    }
  }
  return true;
}
