import { openAiStrictLimits } from "../providers/openai-strict-keywords.js";
import type { DefsPolicy } from "./schema-defs.js";
import type { JsonSchema } from "./json-schema.js";
import { exceedsDepth } from "./schema-depth.js";

/**
 * How the tools' schemas are written (option `schema`): `inline` (the
 * default) expands every message where it is used; `compact` writes a
 * message used more than once in a tool, or recursive, once under `$defs`.
 */
export type SchemaForm = "inline" | "compact";

/** The values of option `schema`, the default first. */
export const schemaForms: readonly SchemaForm[] = ["inline", "compact"];

/**
 * Builds a tool's schema in `form`, with `$defs` added where a strict tool
 * needs them to fit OpenAI's nesting limit (10 levels, counted as OpenAI's
 * SDK counts them: schema-depth.ts). Each `$defs` entry counts from level
 * 1 wherever it is used, so a deep tool is built again with its shared and
 * recursive messages as definitions, then, if still too deep, with every
 * message as one. `cycleDefs` (the recursive variant of an inline tool)
 * starts with the messages on a cycle as definitions. A schema still too deep is returned as it is: the strict
 * checker refuses it at generation, naming the tool, the path and the rule.
 */
export function buildInForm<T extends { readonly schema: JsonSchema }>(
  build: (policy: DefsPolicy) => T,
  strict: boolean,
  form: SchemaForm,
  cycleDefs = false,
): T {
  const first = build(
    form === "compact" ? "shared" : cycleDefs ? "cycles" : "inline",
  );
  if (!strict || fits(first)) {
    return first;
  }
  if (form === "inline") {
    const shared = build("shared");
    if (fits(shared)) {
      return shared;
    }
  }
  return build("every");
}

function fits(tool: { readonly schema: JsonSchema }): boolean {
  return !exceedsDepth(tool.schema, openAiStrictLimits.maxDepth);
}
