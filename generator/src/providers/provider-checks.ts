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
 * - `anthropic`: every tool's `anthropic` form (provider-forms.ts; else
 *   its `parameters`) passes anthropic-tools.ts (`input_schema`); a strict
 *   tool whose `anthropicStrict` form Anthropic strict tool use would
 *   refuse (anthropic-strict.ts) is a warning, since the adapters send
 *   `strict` to Anthropic only when asked;
 * - `gemini`: every tool's `gemini` form (else `parameters`) passes
 *   gemini-json-schema.ts (`parametersJsonSchema`, the form the adapters
 *   send by default).
 *
 * Per request, warnings (the adapters refuse a request over them):
 * Anthropic's strict-tool limits, Gemini's function declarations, OpenAI's
 * tools.
 */

import {
  anthropicStrictRequestLimits,
  checkAnthropicStrictNode,
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
import { providerForms, type FormTrees } from "./provider-forms.js";
import {
  checkShape,
  createViolations,
  forEachSchema,
  isPlainObject,
  isRef,
  type BelowHooks,
  type ProviderViolation,
  type SchemaVisit,
} from "./schema-walk.js";

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
 * So with OpenAI alone (`providers=openai`) and `schema=compact`, a strict
 * tool's `parameters` is recursive; otherwise its recursion stops at a
 * closed empty object, and the recursive variant is its `openai` and
 * `anthropic` forms (tool-forms.ts; docs/compat.md, "$defs and $ref").
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
   * Anthropic strict tool use's refusal of the `anthropicStrict` form;
   * empty when `anthropic` is not enforced or refuses the tool.
   */
  readonly anthropicStrict: readonly ProviderViolation[];
  /** Gemini's refusal of `parametersJsonSchema`. */
  readonly gemini: readonly ProviderViolation[];
  /** What a strict tool adds to an Anthropic request's totals. */
  readonly counts: AnthropicStrictCounts;
}

const noCounts: AnthropicStrictCounts = {
  optionalParameters: 0,
  unionParameters: 0,
};

/**
 * The checks of the enforced `providers`, each on the form its provider
 * gets (provider-forms.ts; `parameters` where the tool has no form of its
 * own for it): anthropic-tools.ts on `anthropic`, anthropic-strict.ts on
 * `anthropicStrict` (a strict tool; judged only when Anthropic takes the
 * tool without strict), gemini-json-schema.ts on `gemini`; each checker's
 * violations in the order it reports them alone. `forms` undefined: made
 * from `schema` (a tool on no cycle). `clean` is what earlier walks found
 * clean, and gains what these find.
 */
function checkSchemaForProviders(
  schema: unknown,
  strict: boolean,
  providers: readonly Provider[],
  clean: CleanBelowFrozen,
  forms?: FormTrees,
): SchemaCheck {
  const enforceAnthropic = providers.includes("anthropic");
  const enforceGemini = providers.includes("gemini");
  const anthropicOwn = forms?.["anthropic"];
  const geminiOwn = forms?.["gemini"];
  const own = walkChecks(
    schema,
    enforceAnthropic && anthropicOwn === undefined,
    false,
    enforceGemini && geminiOwn === undefined,
    clean,
  );
  const anthropic =
    enforceAnthropic && anthropicOwn !== undefined
      ? walkChecks(anthropicOwn, true, false, false, clean).anthropic
      : own.anthropic;
  const gemini =
    enforceGemini && geminiOwn !== undefined
      ? walkChecks(geminiOwn, false, false, true, clean).gemini
      : own.gemini;
  if (!enforceAnthropic || !strict) {
    return { anthropic, anthropicStrict: [], gemini, counts: noCounts };
  }
  const strictForm = strictFormOf(schema, forms);
  if ("problem" in strictForm) {
    return {
      anthropic,
      anthropicStrict: [strictForm.problem],
      gemini,
      counts: countAnthropicStrictParameters(schema),
    };
  }
  const counts = strictForm.counts;
  if (anthropic.length > 0) {
    return { anthropic, anthropicStrict: [], gemini, counts };
  }
  const judged = walkChecks(strictForm.schema, true, true, false, clean);
  return {
    anthropic,
    anthropicStrict: [...judged.anthropic, ...judged.anthropicStrict],
    gemini,
    counts,
  };
}

/** A strict tool's `anthropicStrict` form and counts, or why there is none. */
function strictFormOf(
  schema: unknown,
  forms: FormTrees | undefined,
):
  | { readonly schema: unknown; readonly counts: AnthropicStrictCounts }
  | { readonly problem: ProviderViolation } {
  let trees = forms;
  if (trees === undefined) {
    const made = providerForms({ strict: true, parameters: schema });
    if ("problem" in made) {
      return {
        problem: {
          path: made.problem.path,
          rule: "sdk-transform",
          message: `Anthropic's SDK (transform_schema) refuses the schema: ${made.problem.message}`,
        },
      };
    }
    trees = made.forms;
  }
  const counts = trees["anthropicStrictCounts"] as {
    readonly optional: number;
    readonly unions: number;
  };
  return {
    // Absent when it is the schema itself.
    schema: trees["anthropicStrict"] ?? schema,
    counts: {
      optionalParameters: counts.optional,
      unionParameters: counts.unions,
    },
  };
}

/** The violations of one walk (walkChecks), by checker. */
interface WalkFound {
  readonly anthropic: readonly ProviderViolation[];
  readonly anthropicStrict: readonly ProviderViolation[];
  readonly gemini: readonly ProviderViolation[];
}

/**
 * Runs the checks asked for (anthropic-tools.ts, the strict rules of
 * anthropic-strict.ts without those of anthropic-tools.ts,
 * gemini-json-schema.ts) in one walk of `schema`, skipping what `clean`
 * knows below a frozen sub-schema.
 */
function walkChecks(
  schema: unknown,
  anthropicChecks: boolean,
  strictChecks: boolean,
  geminiChecks: boolean,
  clean: CleanBelowFrozen,
): WalkFound {
  const anthropic = createViolations();
  const anthropicStrict = createViolations();
  const gemini = createViolations();
  const refs: SchemaVisit[] = [];
  const anthropicWalk =
    anthropicChecks && checkAnthropicToolRoot(schema, anthropic.report);
  const strictWalk = strictChecks && isPlainObject(schema);
  if (geminiChecks) {
    checkGeminiRoot(schema, gemini.report);
  }
  if (anthropicWalk || strictWalk || geminiChecks) {
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
          checkAnthropicStrictNode(v, anthropicStrict.report);
        }
        if (geminiChecks) {
          checkGeminiNode(schema, v, gemini.report);
        }
        if (isPlainObject(v.node) && "$ref" in v.node) {
          refKeys++;
          if ((strictWalk || geminiChecks) && isRef(v.node)) {
            refs.push(v);
          }
        }
      },
      {
        ...cleanBelow(
          clean,
          (anthropicWalk ? 1 : 0) |
            (strictWalk ? 2 : 0) |
            (geminiChecks ? 8 : 0),
          found,
        ),
        // No check of this walk refuses a plain scalar leaf
        // (schema-walk.ts).
        plainScalar: () => {},
      },
    );
  }
  if (strictWalk) {
    reportAnthropicStrictRecursion(schema, refs, anthropicStrict.report);
  }
  if (geminiChecks) {
    reportGeminiCycles(schema, refs, gemini.report);
  }
  return {
    anthropic: anthropic.violations,
    anthropicStrict: anthropicStrict.violations,
    gemini: gemini.violations,
  };
}

/**
 * The frozen sub-schemas below which the checks found nothing (no
 * violation, no `$ref`): by the checks that ran (a bit set), then by
 * frozen node. Kept by a {@link ToolChecker} for its run, which the nodes
 * do not outlive: a plain map, and no state left in the module between the
 * runs of a library caller. A frozen node met inside another is recorded
 * too: a message's expansion is shared by every tool using it, and sits
 * inside the frozen expansion of each message holding it (as a field's
 * copy of its top, with the field's description); recording only the
 * outermost frozen nodes skipped almost nothing (at 2,000 tools, below 561
 * of the 75,351 frozen nodes the walk met; now below 25,092 of 50,809).
 */
type CleanBelowFrozen = Map<number, WeakSet<object>>;

/**
 * Walk hooks that skip what lies below a frozen sub-schema (a message
 * shared by many tools, build-schema.ts, or its Anthropic strict form,
 * anthropic-strict-form.ts) when the same `checks` found nothing there
 * before. Only a `$ref` or a violation depends on where a sub-schema sits
 * (its path, the definitions of the schema), and with neither the outcome
 * below a node depends on the node alone. Frozen is taken to mean frozen
 * all the way down, as the schema builder freezes (the only one that
 * does).
 */
function cleanBelow(
  cleanByChecks: CleanBelowFrozen,
  checks: number,
  found: () => number,
): BelowHooks {
  let clean = cleanByChecks.get(checks);
  if (clean === undefined) {
    clean = new WeakSet();
    cleanByChecks.set(checks, clean);
  }
  const known = clean;
  // What had been found when each frozen node being walked was entered,
  // outermost first.
  const started: number[] = [];
  return {
    enter(v) {
      const node = v.node as object;
      if (!Object.isFrozen(node)) {
        return false;
      }
      if (known.has(node)) {
        return true;
      }
      started.push(found());
      return false;
    },
    leave(v) {
      const node = v.node as object;
      if (!Object.isFrozen(node)) {
        return;
      }
      if (found() === started.pop()) {
        known.add(node);
      }
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
      ? tools.filter((t) => t.strict).map((t) => strictCounts(t.schema))
      : [],
    providers,
  );
}

/**
 * What a strict tool of this schema adds to an Anthropic request's totals:
 * counted on its Anthropic strict form, or on the schema when the SDK's
 * transform refuses it.
 */
function strictCounts(schema: unknown): AnthropicStrictCounts {
  const form = strictFormOf(schema, undefined);
  return "problem" in form
    ? countAnthropicStrictParameters(schema)
    : form.counts;
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
  /**
   * The canonical JSON of its provider forms (provider-forms.ts); when
   * absent, they are made from the schema (a tool on no message cycle).
   */
  readonly formsJson?: string;
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
   * from (canonicalJson), or undefined to read the text; `forms` likewise
   * the trees of `tool.formsJson`.
   */
  check(tool: LocatedTool, schema?: unknown, forms?: FormTrees): void;
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
  function checkTool(
    t: LocatedTool,
    schema?: unknown,
    forms?: FormTrees,
  ): void {
    const trees =
      forms ??
      (t.formsJson === undefined
        ? undefined
        : (JSON.parse(t.formsJson) as FormTrees));
    // A tool's forms follow from its text, except the variants of a tool
    // on a message cycle (tool-forms.ts): those are checked each time.
    const cache = hasOwnVariants(trees)
      ? new Map<number, CheckedText[]>()
      : checked[t.strict ? 1 : 0]!;
    const key = t.schemaJson.length;
    let texts = cache.get(key);
    let check = texts?.find((c) => c.text === t.schemaJson)?.check;
    if (check === undefined) {
      check =
        schema === undefined
          ? undefined
          : checkSchemaForProviders(schema, t.strict, providers, clean, trees);
      // A refusal names paths in the order of the text's keys (sorted),
      // and a tree may hold what the text leaves out (an undefined
      // value): what the tree fails is judged again on the text.
      if (check === undefined || refuses(check)) {
        check = checkSchemaForProviders(
          JSON.parse(t.schemaJson) as unknown,
          t.strict,
          providers,
          clean,
          t.formsJson === undefined
            ? undefined
            : (JSON.parse(t.formsJson) as FormTrees),
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

/** True when `forms` hold a variant of the schema (tool-forms.ts). */
function hasOwnVariants(forms: FormTrees | undefined): boolean {
  return (
    forms !== undefined &&
    (forms["openai"] !== undefined ||
      forms["anthropic"] !== undefined ||
      forms["gemini"] !== undefined)
  );
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
