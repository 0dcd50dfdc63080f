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
  checkAnthropicStrictNode,
  countAnthropicStrictParameter,
  countAnthropicStrictParameters,
  reportAnthropicStrictRecursion,
  type AnthropicStrictCounts,
} from "./anthropic-strict.js";
import { checkAnthropicToolRoot } from "./anthropic-tools.js";
import {
  checkGeminiNode,
  checkGeminiRoot,
  geminiRequestLimits,
  reportGeminiCycles,
} from "./gemini-json-schema.js";
import type { Problem, ProblemCollector } from "../errors.js";
import {
  checkShape,
  createViolations,
  forEachSchema,
  isPlainObject,
  isRef,
  type BelowHooks,
  type ProviderViolation,
  type Report,
  type SchemaVisit,
} from "./schema-walk.js";

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
  return toolCheckOf(
    tool.name,
    checkSchemaForProviders(tool.schema, tool.strict, providers, new Map()),
  );
}

/** What the checks of the enforced providers found in one schema. */
interface SchemaCheck {
  /** Anthropic's refusal of `input_schema`. */
  readonly anthropic: readonly ProviderViolation[];
  /**
   * Anthropic strict tool use's refusal, the rules the adapters meet
   * aside; empty when `anthropic` is not.
   */
  readonly anthropicStrict: readonly ProviderViolation[];
  /** Gemini's refusal of `parametersJsonSchema`. */
  readonly gemini: readonly ProviderViolation[];
  /** What a strict tool adds to an Anthropic request's totals. */
  readonly counts: AnthropicStrictCounts;
}

/**
 * The checks of anthropic-tools.ts, anthropic-strict.ts (for a strict
 * tool) and gemini-json-schema.ts that the enforced `providers` call for,
 * with the strict parameter counts, in one walk of `schema`: each
 * checker's violations in the order it reports them alone. `clean` is
 * what earlier walks found clean, and gains what this one finds.
 */
function checkSchemaForProviders(
  schema: unknown,
  strict: boolean,
  providers: readonly Provider[],
  clean: CleanBelowFrozen,
): SchemaCheck {
  const anthropic = createViolations();
  const anthropicStrict = createViolations();
  const gemini = createViolations();
  const counts = { optionalParameters: 0, unionParameters: 0 };
  const refs: SchemaVisit[] = [];
  const enforceAnthropic = providers.includes("anthropic");
  const enforceGemini = providers.includes("gemini");
  const anthropicWalk =
    enforceAnthropic && checkAnthropicToolRoot(schema, anthropic.report);
  const strictWalk = anthropicWalk && strict;
  const countWalk = enforceAnthropic && strict;
  if (enforceGemini) {
    checkGeminiRoot(schema, gemini.report);
  }
  if (anthropicWalk || countWalk || enforceGemini) {
    // What the adapters' strict form meets never comes out (below): not
    // recorded, it leaves a frozen sub-schema "clean".
    const reportStrict: Report = (path, rule, message) => {
      if (!anthropicStrictDerived.includes(rule)) {
        anthropicStrict.report(path, rule, message);
      }
    };
    // A `$ref` is judged against the root whichever checks run: one below
    // a frozen node keeps it from being memoised.
    let refKeys = 0;
    const found = (): number =>
      anthropic.violations.length +
      anthropicStrict.violations.length +
      gemini.violations.length +
      refKeys;
    forEachSchema(
      schema,
      (v) => {
        if (anthropicWalk) {
          checkShape(schema, v, anthropic.report);
        }
        if (strictWalk) {
          checkAnthropicStrictNode(v, reportStrict);
        }
        if (countWalk) {
          countAnthropicStrictParameter(v, counts);
        }
        if (enforceGemini) {
          checkGeminiNode(schema, v, gemini.report);
        }
        if (isPlainObject(v.node) && "$ref" in v.node) {
          refKeys++;
          if ((strictWalk || enforceGemini) && isRef(v.node)) {
            refs.push(v);
          }
        }
      },
      {
        ...cleanBelow(
          clean,
          (anthropicWalk ? 1 : 0) |
            (strictWalk ? 2 : 0) |
            (countWalk ? 4 : 0) |
            (enforceGemini ? 8 : 0),
          counts,
          found,
        ),
        // No check of this walk refuses a plain scalar leaf
        // (schema-walk.ts): a property counts as a strict parameter, as
        // countAnthropicStrictParameter counts it, and that is all.
        plainScalar: (keyword, required) => {
          if (countWalk && keyword === "properties" && !required) {
            counts.optionalParameters++;
          }
        },
      },
    );
  }
  // Anthropic strict tool use is judged only for a schema Anthropic
  // accepts without strict.
  const judgeStrict = strictWalk && anthropic.violations.length === 0;
  if (judgeStrict) {
    reportAnthropicStrictRecursion(schema, refs, anthropicStrict.report);
  }
  if (enforceGemini) {
    reportGeminiCycles(schema, refs, gemini.report);
  }
  return {
    anthropic: anthropic.violations,
    anthropicStrict: judgeStrict ? anthropicStrict.violations : [],
    gemini: gemini.violations,
    counts,
  };
}

/**
 * The frozen sub-schemas below which the checks found nothing (no
 * violation, no `$ref`), with what each adds to the strict parameter
 * counts: by the checks that ran (a bit set), then by frozen node. Kept by
 * a {@link ToolChecker} for its run, which the nodes do not outlive: a
 * plain map, and no state left in the module between the runs of a
 * library caller. A frozen node met inside another is recorded too: a
 * message's expansion is shared by every tool using it, and sits inside
 * the frozen expansion of each message holding it (as a field's copy of
 * its top, with the field's description); recording only the outermost
 * frozen nodes skipped almost nothing (at 2,000 tools, below 561 of the
 * 75,351 frozen nodes the walk met; now below 25,092 of 50,809).
 */
type CleanBelowFrozen = Map<number, Map<object, AnthropicStrictCounts>>;

/**
 * Walk hooks that skip what lies below a frozen sub-schema (a message
 * shared by many tools, build-schema.ts) when the same `checks` found
 * nothing there before, adding what it added to `counts`. Only a `$ref`
 * or a violation depends on where a sub-schema sits (its path, the
 * definitions of the schema), and with neither the outcome below a node
 * depends on the node alone. Frozen is taken to mean frozen all the way
 * down, as the schema builder freezes (the only one that does).
 */
function cleanBelow(
  cleanByChecks: CleanBelowFrozen,
  checks: number,
  counts: { optionalParameters: number; unionParameters: number },
  found: () => number,
): BelowHooks {
  let clean = cleanByChecks.get(checks);
  if (clean === undefined) {
    clean = new Map();
    cleanByChecks.set(checks, clean);
  }
  // The frozen nodes being walked, outermost first.
  const started: {
    readonly found: number;
    readonly optional: number;
    readonly unions: number;
  }[] = [];
  return {
    enter(v) {
      const node = v.node as object;
      if (!Object.isFrozen(node)) {
        return false;
      }
      const below = clean.get(node);
      if (below !== undefined) {
        counts.optionalParameters += below.optionalParameters;
        counts.unionParameters += below.unionParameters;
        return true;
      }
      started.push({
        found: found(),
        optional: counts.optionalParameters,
        unions: counts.unionParameters,
      });
      return false;
    },
    leave(v) {
      const node = v.node as object;
      if (!Object.isFrozen(node)) {
        return;
      }
      const start = started.pop()!;
      if (found() !== start.found) {
        return;
      }
      clean.set(node, {
        optionalParameters: counts.optionalParameters - start.optional,
        unionParameters: counts.unionParameters - start.unions,
      });
    },
  };
}

function toolCheckOf(toolName: string, check: SchemaCheck): ToolCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  const name = JSON.stringify(toolName);
  if (check.anthropic.length > 0) {
    problems.push(
      `tool ${name} would be refused by Anthropic (input_schema): ${describe(check.anthropic)}`,
    );
  } else if (check.anthropicStrict.length > 0) {
    warnings.push(
      `tool ${name} is strict, and Anthropic strict tool use would refuse it: ${describe(check.anthropicStrict)}; send it to Anthropic without strict`,
    );
  }
  if (check.gemini.length > 0) {
    problems.push(
      `tool ${name} would be refused by Gemini (parametersJsonSchema): ${describe(check.gemini)}`,
    );
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
  return limitWarnings(
    tools.length,
    providers.includes("anthropic")
      ? tools
          .filter((t) => t.strict)
          .map((t) => countAnthropicStrictParameters(t.schema))
      : [],
    providers,
  );
}

/**
 * {@link requestLimitWarnings} for `toolCount` tools whose strict ones
 * have the parameter counts `strictCounts` (none when `anthropic` is not
 * enforced).
 */
function limitWarnings(
  toolCount: number,
  strictCounts: readonly AnthropicStrictCounts[],
  providers: readonly Provider[],
): string[] {
  const warnings: string[] = [];
  if (
    providers.includes("openai") &&
    toolCount > openAiRequestLimits.maxTools
  ) {
    warnings.push(
      `${toolCount} tools: an OpenAI request takes at most ${openAiRequestLimits.maxTools}; send a subset per request`,
    );
  }
  if (providers.includes("anthropic")) {
    const limits = anthropicStrictRequestLimits;
    let optional = 0;
    let unions = 0;
    for (const counts of strictCounts) {
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
    over(
      `${strictCounts.length} strict tools`,
      strictCounts.length,
      limits.maxStrictTools,
    );
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
    toolCount > geminiRequestLimits.maxFunctionDeclarations
  ) {
    warnings.push(
      `${toolCount} tools: a Gemini request takes at most ${geminiRequestLimits.maxFunctionDeclarations} function declarations; the Gemini adapters refuse more`,
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

/** A schema text checked, and what the checks found. */
interface CheckedText {
  readonly text: string;
  readonly check: SchemaCheck;
}

/**
 * Runs the checks of the enforced `providers` on tools one at a time, as
 * the model builds them, on the schema tree the text was written from (no
 * parse of the text). What it finds is held back until {@link
 * ToolChecker.finish}, so it comes out as if every tool had been checked
 * after the model was built.
 */
export interface ToolChecker {
  /**
   * Checks one tool: `schema` is the tree `tool.schemaJson` was written
   * from (canonicalJson), or undefined to read the text.
   */
  check(tool: LocatedTool, schema?: unknown): void;
  /**
   * Adds what the checks refused to the problems and passes every warning
   * on, in the order of `tools` (the model's), the request's limits last.
   */
  finish(tools: readonly { readonly name: string }[]): void;
}

/**
 * A {@link ToolChecker} for the enforced `providers`: a refusal becomes a
 * problem of the tool's method, a warning goes to `warn`, once each.
 */
export function createToolChecker(
  providers: readonly Provider[],
  problems: ProblemCollector,
  warn: (message: string) => void,
): ToolChecker {
  // Tools of the same shape share their schema text: check each text once
  // (strict or not). By the text's length, then by text: hashing each
  // text as a key would read all of it (megabytes at 2,000 tools), where
  // comparing two texts of one length stops at their first difference.
  const checked = [
    new Map<number, CheckedText[]>(),
    new Map<number, CheckedText[]>(),
  ];
  const strictCounts: AnthropicStrictCounts[] = [];
  const found: Problem[] = [];
  const warnings = new Map<string, readonly string[]>();
  const clean: CleanBelowFrozen = new Map();
  // Named, so that a profile (scripts/bench/phases.mjs) finds them.
  function checkTool(t: LocatedTool, schema?: unknown): void {
    const cache = checked[t.strict ? 1 : 0]!;
    const key = t.schemaJson.length;
    let texts = cache.get(key);
    let check = texts?.find((c) => c.text === t.schemaJson)?.check;
    if (check === undefined) {
      check =
        schema === undefined
          ? undefined
          : checkSchemaForProviders(schema, t.strict, providers, clean);
      // A refusal names paths in the order of the text's keys (sorted),
      // and a tree may hold what the text leaves out (an undefined
      // value): what the tree fails is judged again on the text.
      if (check === undefined || refuses(check)) {
        check = checkSchemaForProviders(
          JSON.parse(t.schemaJson) as unknown,
          t.strict,
          providers,
          clean,
        );
      }
      if (texts === undefined) {
        texts = [];
        cache.set(key, texts);
      }
      texts.push({ text: t.schemaJson, check });
    }
    const result = toolCheckOf(t.name, check);
    for (const message of result.problems) {
      found.push({ file: t.file, element: t.element, message });
    }
    if (result.warnings.length > 0) {
      warnings.set(t.name, result.warnings);
    }
    if (t.strict && providers.includes("anthropic")) {
      strictCounts.push(check.counts);
    }
  }
  function finishChecks(tools: readonly { readonly name: string }[]): void {
    found.forEach((p) => problems.add(p));
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i]!;
      warnings.get(t.name)?.forEach(warn);
    }
    limitWarnings(tools.length, strictCounts, providers).forEach(warn);
  }
  return { check: checkTool, finish: finishChecks };
}

function refuses(check: SchemaCheck): boolean {
  return (
    check.anthropic.length > 0 ||
    check.anthropicStrict.length > 0 ||
    check.gemini.length > 0
  );
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
  const checker = createToolChecker(providers, problems, warn);
  tools.forEach((t) => checker.check(t));
  checker.finish(tools);
}
