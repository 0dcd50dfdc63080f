/**
 * The provider checks run at generation (option `providers=`): which
 * checker each provider's form of a tool goes through, and the warnings for
 * limits that hold per request rather than per tool.
 *
 * Per tool, for each enforced provider (docs/compat.md, "What providers
 * accept"):
 *
 * - `openai`: a strict tool passes openai-strict.ts (build-model.ts runs
 *   it, as before this option existed);
 * - `anthropic`: every tool passes anthropic-tools.ts (`input_schema`); a
 *   strict tool that Anthropic strict tool use would refuse
 *   (anthropic-strict.ts) even in the form the adapters derive for it is a
 *   warning, since the adapters send `strict` to Anthropic only when asked;
 * - `gemini`: every tool passes gemini-json-schema.ts
 *   (`parametersJsonSchema`, the form the adapters send).
 *
 * Per request, warnings (the adapters refuse a request over them):
 * Anthropic's strict-tool limits, Gemini's function declarations, OpenAI's
 * tools.
 */

import {
  anthropicStrictRequestLimits,
  checkAnthropicStrict,
  countAnthropicStrictParameters,
} from "./anthropic-strict.js";
import { checkAnthropicTool } from "./anthropic-tools.js";
import {
  checkGeminiJsonSchema,
  geminiRequestLimits,
} from "./gemini-json-schema.js";
import type { ProblemCollector } from "../errors.js";
import type { ProviderViolation } from "./schema-walk.js";

/**
 * Rules of Anthropic strict tool use that the adapters meet by deriving
 * the strict form (keywords moved into the description, objects closed:
 * TypeScript `toAnthropicStrictSchema`, Python `anthropic_strict_schema`,
 * Go `AnthropicStrictSchema`), so a strict tool breaking only these needs
 * no warning.
 */
export const anthropicStrictDerived: readonly string[] = [
  "unsupported-keyword",
  "format",
  "min-items",
  "additional-properties-false",
];

/** A provider whose rules the generator can enforce. */
export type Provider = "openai" | "anthropic" | "gemini";

/** Every provider, the default of `providers=`. */
export const allProviders: readonly Provider[] = [
  "openai",
  "anthropic",
  "gemini",
];

/**
 * True when a strict tool may hold real recursion (a `$ref` cycle) for the
 * enforced `providers`: a strict object requires every property, so its
 * cycles pass through required properties, and
 *
 * - OpenAI strict mode takes them: "Recursive schemas are supported" (with
 *   `$ref` to `#` or `#/$defs/…`), in OpenAI's Structured Outputs guide;
 * - Gemini does not: its JSON Schema fields take cyclic references "only
 *   within non-required properties. (Nullable properties are not
 *   sufficient.)" (`@google/genai`, the `responseJsonSchema` and
 *   `parametersJsonSchema` subset, genai.d.ts);
 * - Anthropic strict tool use takes `$ref`/`$defs` but no recursion
 *   (Anthropic, "Structured outputs", JSON Schema limitations), and a
 *   strict tool is held to it when `anthropic` is enforced.
 *
 * So only OpenAI alone (`providers=openai`); otherwise strict recursion
 * stops at a closed empty object (docs/compat.md, "$defs and $ref").
 */
export function strictRecursionAllowed(
  providers: readonly Provider[],
): boolean {
  return !providers.includes("gemini") && !providers.includes("anthropic");
}

/**
 * OpenAI's limit of tools in one request: seen in its errors and in its
 * API description (`maxItems: 128` on `tools`,
 * https://github.com/openai/openai-openapi/pull/76), not in its guides.
 */
export const openAiRequestLimits = { maxTools: 128 } as const;

/** Why a value of `providers=` is invalid, or undefined. */
export function providerProblem(value: string): string | undefined {
  return (allProviders as readonly string[]).includes(value)
    ? undefined
    : `valid values: ${allProviders.join(", ")} (repeat the option for several: providers=openai,providers=gemini)`;
}

/** The providers the option values name, or all of them when none is given. */
export function providersOf(values: readonly string[]): readonly Provider[] {
  return values.length === 0
    ? allProviders
    : allProviders.filter((p) => values.includes(p));
}

/** A tool as the checks see it. */
export interface CheckedTool {
  readonly name: string;
  readonly strict: boolean;
  readonly schema: unknown;
}

/** What the checks found in one tool. */
export interface ToolCheck {
  /** Why an enforced provider refuses the tool: generation fails. */
  readonly problems: readonly string[];
  /** What a provider might refuse depending on how the tool is sent. */
  readonly warnings: readonly string[];
}

function describe(violations: readonly ProviderViolation[]): string {
  return violations
    .map((v) => `${v.path}: ${v.message} [${v.rule}]`)
    .join("; ");
}

/**
 * Runs the per-tool checks of the enforced `providers` (OpenAI strict
 * aside: build-model.ts runs it) on one tool.
 */
export function checkToolForProviders(
  tool: CheckedTool,
  providers: readonly Provider[],
): ToolCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  const name = JSON.stringify(tool.name);
  if (providers.includes("anthropic")) {
    const plain = checkAnthropicTool(tool.schema);
    if (plain.length > 0) {
      problems.push(
        `tool ${name} would be refused by Anthropic (input_schema): ${describe(plain)}`,
      );
    } else if (tool.strict) {
      const strict = checkAnthropicStrict(tool.schema).filter(
        (v) => !anthropicStrictDerived.includes(v.rule),
      );
      if (strict.length > 0) {
        warnings.push(
          `tool ${name} is strict, and Anthropic strict tool use would refuse it: ${describe(strict)}; send it to Anthropic without strict`,
        );
      }
    }
  }
  if (providers.includes("gemini")) {
    const gemini = checkGeminiJsonSchema(tool.schema);
    if (gemini.length > 0) {
      problems.push(
        `tool ${name} would be refused by Gemini (parametersJsonSchema): ${describe(gemini)}`,
      );
    }
  }
  return { problems, warnings };
}

/**
 * The per-request limits that `tools`, sent together, would exceed for the
 * enforced `providers`: one warning per limit, naming the count, the limit
 * and what the adapters do.
 */
export function requestLimitWarnings(
  tools: readonly CheckedTool[],
  providers: readonly Provider[],
): string[] {
  const warnings: string[] = [];
  if (
    providers.includes("openai") &&
    tools.length > openAiRequestLimits.maxTools
  ) {
    warnings.push(
      `${tools.length} tools: an OpenAI request takes at most ${openAiRequestLimits.maxTools}; send a subset per request`,
    );
  }
  if (providers.includes("anthropic")) {
    const strict = tools.filter((t) => t.strict);
    const limits = anthropicStrictRequestLimits;
    let optional = 0;
    let unions = 0;
    for (const t of strict) {
      const counts = countAnthropicStrictParameters(t.schema);
      optional += counts.optionalParameters;
      unions += counts.unionParameters;
    }
    const over = (what: string, count: number, limit: number): void => {
      if (count > limit) {
        warnings.push(
          `${what}: an Anthropic request with strict tool use takes at most ${limit}; the Anthropic adapters refuse a request over it (send fewer tools with strict)`,
        );
      }
    };
    over(`${strict.length} strict tools`, strict.length, limits.maxStrictTools);
    over(
      `the strict tools have ${optional} optional parameters`,
      optional,
      limits.maxOptionalParameters,
    );
    over(
      `the strict tools have ${unions} parameters with a union type (anyOf, nullable)`,
      unions,
      limits.maxUnionParameters,
    );
  }
  if (
    providers.includes("gemini") &&
    tools.length > geminiRequestLimits.maxFunctionDeclarations
  ) {
    warnings.push(
      `${tools.length} tools: a Gemini request takes at most ${geminiRequestLimits.maxFunctionDeclarations} function declarations; the Gemini adapters refuse more`,
    );
  }
  return warnings;
}

/** A generated tool with where it comes from, as the model holds it. */
export interface LocatedTool {
  readonly name: string;
  readonly strict: boolean;
  /** The canonical JSON of its input schema. */
  readonly schemaJson: string;
  readonly file: string;
  readonly element: string;
}

/**
 * Runs every check of the enforced `providers` on the model's tools: a
 * refusal is a problem of the tool's method (thrown with the others), a
 * warning goes to `warn`, once each.
 */
export function checkModelTools(
  tools: readonly LocatedTool[],
  providers: readonly Provider[],
  problems: ProblemCollector,
  warn: (message: string) => void,
): void {
  const checked = tools.map((t) => ({
    name: t.name,
    strict: t.strict,
    schema: JSON.parse(t.schemaJson) as unknown,
  }));
  tools.forEach((t, i) => {
    const result = checkToolForProviders(checked[i]!, providers);
    for (const message of result.problems) {
      problems.add({ file: t.file, element: t.element, message });
    }
    result.warnings.forEach(warn);
  });
  requestLimitWarnings(checked, providers).forEach(warn);
}
