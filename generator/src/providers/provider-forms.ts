/**
 * The provider forms of a tool (docs/compat.md, "What providers accept"):
 * what each provider's adapters send instead of the tool's `parameters`,
 * computed once by the generator and written by every target as one JSON
 * text (`ToolModel.formsJson`). The runtimes only select and wrap. Keys
 * (an absent key means "send `parameters`"):
 *
 * - `openai`: OpenAI's `parameters` (Chat Completions and Responses), when
 *   not the tool's `parameters`: a strict tool on a message cycle, whose
 *   recursion OpenAI strict mode takes;
 * - `anthropic`: Anthropic's `input_schema` without strict, likewise;
 * - `anthropicStrict`, `anthropicStrictCounts` (strict tools only): the
 *   `input_schema` sent with `strict: true` (anthropic-strict-form.ts),
 *   when not `parameters` (as parsed JSON), and its optional and union
 *   parameters (the per-request limits), always;
 * - `gemini`: Gemini's `parametersJsonSchema`, when not `parameters` (a
 *   strict tool's stop variant; a non-strict tool's recursive one with no
 *   field that closes a cycle required);
 * - `geminiParameters`: Gemini's OpenAPI-subset `parameters`
 *   (gemini-parameters-form.ts), `null` when none remains.
 *
 * Which variant of the schema each takes (the recursive one, with
 * messages on a cycle under `$defs`, or the stop one, recursion cut at a
 * closed empty object) is the table of docs/compat.md, "$defs and $ref".
 */

import { canonicalJson } from "../schema/canonical-json.js";
import type { JsonSchema, JsonValue } from "../schema/json-schema.js";
import {
  AnthropicStrictFormError,
  anthropicStrictForm,
} from "./anthropic-strict-form.js";
import { countAnthropicStrictParameters } from "./anthropic-strict.js";
import { geminiParametersForm } from "./gemini-parameters-form.js";

/**
 * The schemas of one tool the forms are made from. `parameters` is the
 * tool's own (its `schemaJson`); `stop` and `recursive` are given only
 * where they differ from it (a tool on a message cycle).
 */
export interface ToolSchemas {
  readonly strict: boolean;
  readonly parameters: unknown;
  /** The canonical text of `parameters`, when known. */
  readonly parametersJson?: string;
  /** The stop variant, when `parameters` is the recursive one. */
  readonly stop?: unknown;
  /** The recursive variant, when `parameters` is the stop one (a strict tool). */
  readonly recursive?: unknown;
  /** True when OpenAI strict mode takes `recursive`: then it is OpenAI's form too. */
  readonly openai?: boolean;
  /**
   * A non-strict tool's Gemini form, when not `parameters`: the recursive
   * variant with no field that closes a cycle required.
   */
  readonly gemini?: unknown;
}

/** The forms of one tool, as trees: what the checks judge. */
export interface FormTrees {
  /** Each key of the forms object but `anthropicStrictCounts`. */
  readonly [key: string]: JsonValue | undefined;
}

/** The provider forms of one tool, as canonical JSON text. */
export type ProviderForms =
  | { readonly formsJson: string; readonly forms: FormTrees }
  | {
      /** Why Anthropic's SDK would refuse the strict tool: a JSON Pointer and a message. */
      readonly problem: { readonly path: string; readonly message: string };
    };

/** The provider forms of a tool with these schemas (see the file's comment). */
export function providerForms(tool: ToolSchemas): ProviderForms {
  const forms: JsonSchema = {};
  const parameters = tool.parameters as JsonValue;
  const stop = tool.stop ?? parameters;
  if (tool.strict) {
    if (tool.recursive !== undefined) {
      if (tool.openai === true) {
        forms["openai"] = tool.recursive as JsonValue;
      }
      forms["anthropic"] = tool.recursive as JsonValue;
    }
    if (tool.stop !== undefined) {
      forms["gemini"] = tool.stop as JsonValue;
    }
    let strictForm: JsonSchema;
    try {
      strictForm = anthropicStrictForm(stop);
    } catch (e) {
      if (e instanceof AnthropicStrictFormError) {
        return { problem: { path: e.path, message: e.message } };
      }
      throw e;
    }
    const counts = countAnthropicStrictParameters(strictForm);
    const parametersJson = tool.parametersJson ?? canonicalJson(parameters);
    if (canonicalJson(strictForm) !== parametersJson) {
      forms["anthropicStrict"] = strictForm;
    }
    forms["anthropicStrictCounts"] = {
      optional: counts.optionalParameters,
      unions: counts.unionParameters,
    };
  }
  if (tool.gemini !== undefined) {
    forms["gemini"] = tool.gemini as JsonValue;
  }
  forms["geminiParameters"] = geminiParametersForm(stop) ?? null;
  return { formsJson: canonicalJson(forms), forms };
}
