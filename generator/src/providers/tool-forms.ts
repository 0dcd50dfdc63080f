/**
 * A tool's provider forms (provider-forms.ts) from its request message:
 * for a tool on a message cycle, the variant of its schema that the tool's
 * `parameters` is not (docs/compat.md, "$defs and $ref") is built here, and
 * each provider gets the one it takes:
 *
 * |                  | non-strict tool   | strict tool                          |
 * | ---------------- | ----------------- | ------------------------------------ |
 * | `parameters`     | recursive         | stop (recursive with OpenAI alone and `schema=compact`) |
 * | openai           | = parameters      | recursive, if OpenAI strict takes it |
 * | anthropic        | = parameters      | recursive                            |
 * | anthropicStrict  | —                 | the SDK's transform of stop (if not = parameters) |
 * | gemini           | recursive, no field closing a cycle required (if not = parameters) | stop |
 * | geminiParameters | from stop         | from stop                            |
 */

import type { DescMessage, DescMethod } from "../read/descriptors.js";
import { buildToolSchema, type Recursion } from "../schema/build-schema.js";
import { canonicalJson } from "../schema/canonical-json.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { reachesCycle } from "../schema/reaches-cycle.js";
import type { SchemaForm } from "../schema/schema-form.js";
import type { SchemaRules } from "../schema/schema-rules.js";
import { checkOpenAiStrict } from "./openai-strict.js";
import {
  providerForms,
  type FormTrees,
  type ProviderForms,
} from "./provider-forms.js";

/** What a tool's schema was built from, and the schema. */
export interface ToolSchemaSource {
  readonly message: DescMessage;
  readonly strict: boolean;
  readonly method: DescMethod;
  readonly form: SchemaForm;
  /** `strictCycles` of buildToolSchema: OpenAI is the one provider enforced. */
  readonly strictCycles: boolean;
  readonly rules: SchemaRules | undefined;
  /** The tool's `parameters` and its canonical text. */
  readonly parameters: JsonSchema;
  readonly parametersJson: string;
}

/** The provider forms of a tool (see the file's comment). */
export function toolForms(tool: ToolSchemaSource): ProviderForms {
  const { strict, parameters, parametersJson } = tool;
  if (!reachesCycle(tool.message)) {
    return providerForms({ strict, parameters, parametersJson });
  }
  const recursiveParameters =
    !strict || (tool.strictCycles && tool.form === "compact");
  const other = variant(tool, recursiveParameters ? "stop" : "refs");
  if (other === undefined) {
    return providerForms({ strict, parameters, parametersJson });
  }
  if (recursiveParameters) {
    // A non-strict tool's REQUIRED field that closes a cycle is required in
    // `parameters`; Gemini gets the variant where it is not.
    const gemini = strict ? undefined : variant(tool, "gemini");
    return providerForms({
      strict,
      parameters,
      parametersJson,
      stop: other,
      ...(gemini === undefined ? {} : { gemini }),
    });
  }
  return providerForms({
    strict,
    parameters,
    parametersJson,
    recursive: other,
    openai: checkOpenAiStrict(other).length === 0,
  });
}

/**
 * The recursive variant of a strict tool whose providers get two (see the
 * file's comment): its `anthropic` form, or its `parameters` when the
 * `gemini` form is the stop one; undefined for a tool sent in one.
 */
export function strictRecursiveVariant(
  forms: FormTrees,
  parameters: JsonSchema,
): JsonSchema | undefined {
  if (forms["anthropic"] !== undefined) {
    return forms["anthropic"] as JsonSchema;
  }
  return forms["gemini"] !== undefined ? parameters : undefined;
}

/** The tool's schema in the `recursion` variant, or undefined when it is `parameters`. */
function variant(
  tool: ToolSchemaSource,
  recursion: Recursion,
): JsonSchema | undefined {
  const built = buildToolSchema(
    tool.message,
    tool.strict,
    tool.method,
    tool.form,
    tool.strictCycles,
    tool.rules,
    recursion,
  ).schema;
  return canonicalJson(built) === tool.parametersJson ? undefined : built;
}
