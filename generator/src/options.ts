import { GeneratorError } from "./errors.js";
import {
  methodPatternProblem,
  namePrefixProblem,
  trimPrefixProblem,
} from "./model/tool-selection.js";
import { providerProblem } from "./providers/provider-checks.js";
import { unannotatedToolsProblem } from "./model/tool-approval.js";
import { schemaForms } from "./schema/schema-form.js";
import {
  targets,
  type Target,
  type TargetEntry,
  type TargetOption,
} from "./targets/registry.js";

export type { Target };

/** An option every target takes. */
export interface CommonOption extends TargetOption {
  /**
   * True when the key may be given several times (`include=a,include=b`):
   * its values are in {@link PluginOptions.lists}, not in `common`.
   */
  readonly repeatable?: boolean;
}

function trueOrFalse(v: string): string | undefined {
  return v === "true" || v === "false"
    ? undefined
    : "valid values: true, false";
}

/**
 * Options every target takes (besides `target`), by key. Checked like a
 * target's own options (targets.ts, TargetOption).
 */
export const commonOptions: Readonly<Record<string, CommonOption>> = {
  mcp: {
    default: "false",
    check: trueOrFalse,
    example: "mcp=true",
  },
  tools: {
    default: "annotated",
    check: (v) =>
      v === "annotated" || v === "all"
        ? undefined
        : "valid values: annotated, all",
    example: "tools=all",
  },
  unannotated_tools: {
    default: "read-only-run",
    check: unannotatedToolsProblem,
    example: "unannotated_tools=ask",
  },
  include: {
    default: "",
    repeatable: true,
    check: methodPatternProblem,
    example: "include=acme.crm.v1.CrmService.*",
  },
  exclude: {
    default: "",
    repeatable: true,
    check: methodPatternProblem,
    example: "exclude=acme.crm.v1.CrmService.DeleteAccount",
  },
  trim_prefix: {
    default: "",
    check: trimPrefixProblem,
    example: "trim_prefix=acme.crm.v1",
  },
  name_prefix: {
    default: "",
    check: namePrefixProblem,
    example: "name_prefix=crm_",
  },
  schema: {
    default: "inline",
    check: (v) =>
      (schemaForms as readonly string[]).includes(v)
        ? undefined
        : `valid values: ${schemaForms.join(", ")}`,
    example: "schema=compact",
  },
  lenient_arguments: {
    default: "false",
    check: trueOrFalse,
    example: "lenient_arguments=true",
  },
  deprecated: {
    default: "drop",
    check: (v) =>
      v === "drop" || v === "keep" ? undefined : "valid values: drop, keep",
    example: "deprecated=keep",
  },
  output_only_comments: {
    default: "false",
    check: trueOrFalse,
    example: "output_only_comments=true",
  },
  json_names: {
    default: "false",
    check: trueOrFalse,
    example: "json_names=true",
  },
  tool_search: {
    default: "false",
    check: trueOrFalse,
    example: "tool_search=true",
  },
  providers: {
    default: "",
    repeatable: true,
    check: providerProblem,
    example: "providers=openai",
  },
};

/** Options passed with `--ai-tools_opt=` (or `opt:` in buf.gen.yaml). */
export interface PluginOptions {
  /** Which language to generate. Defaults to the first of `targets`. */
  readonly target: Target;
  /**
   * The options every target takes ({@link commonOptions}), by key, with
   * the defaults of those not given.
   */
  readonly common: Readonly<Record<string, string>>;
  /**
   * The values of the repeatable common options (`include`, `exclude`), by
   * key, in the order given; empty when not given.
   */
  readonly lists: Readonly<Record<string, readonly string[]>>;
  /**
   * The target's own options (its entry in `targets`), by key, with the
   * defaults of those not given, and its mapping options given (Go's
   * `M<file>`), under their whole key.
   */
  readonly values: Readonly<Record<string, string>>;
}

const targetNames = Object.keys(targets) as Target[];

/** Every option key, with the one target it applies to (undefined: all). */
function optionOwners(): Map<string, Target | undefined> {
  const owners = new Map<string, Target | undefined>([["target", undefined]]);
  for (const key of Object.keys(commonOptions)) {
    owners.set(key, undefined);
  }
  for (const name of targetNames) {
    const entry: TargetEntry = targets[name];
    for (const key of Object.keys(entry.options)) {
      owners.set(key, name);
    }
  }
  return owners;
}

/**
 * The target whose mapping option (TargetEntry.mapping) `key` is, e.g. go
 * for `Mlinks/v1/links.proto`; undefined when it is none.
 */
function mappingOwner(key: string): Target | undefined {
  return targetNames.find((name) => {
    const mapping = (targets[name] as TargetEntry).mapping;
    return (
      mapping !== undefined &&
      key.length > mapping.prefix.length + mapping.suffix.length &&
      key.startsWith(mapping.prefix) &&
      key.endsWith(mapping.suffix)
    );
  });
}

/** The mapping options' keys as a message lists them: `M<file>.proto`. */
function mappingForms(): string[] {
  return targetNames.flatMap((name) => {
    const mapping = (targets[name] as TargetEntry).mapping;
    return mapping === undefined
      ? []
      : [`${mapping.prefix}<file>${mapping.suffix}`];
  });
}

function checkTarget(value: string): string | undefined {
  return (targetNames as readonly string[]).includes(value)
    ? undefined
    : `valid values: ${targetNames.join(", ")}`;
}

/**
 * Parse the plugin parameter, a comma-separated list of `key=value` pairs.
 * Unknown keys, missing or invalid values, repeated keys (but those of
 * repeatable options) and options of another target are errors that name
 * the offending input and list what is valid.
 */
export function parseOptions(parameter: string): PluginOptions {
  const owners = optionOwners();
  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>(
    Object.entries(commonOptions)
      .filter(([, spec]) => spec.repeatable === true)
      .map(([key]) => [key, []]),
  );
  for (const raw of parameter.split(",")) {
    const pair = raw.trim();
    if (pair === "") {
      continue;
    }
    const eq = pair.indexOf("=");
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : pair.slice(eq + 1).trim();
    const mapped = owners.has(key) ? undefined : mappingOwner(key);
    if (!owners.has(key) && mapped === undefined) {
      throw new GeneratorError(
        `unknown option ${JSON.stringify(key)}; valid options: ${[...owners.keys(), ...mappingForms()].join(", ")}`,
      );
    }
    const owner = mapped ?? owners.get(key);
    const spec =
      mapped !== undefined
        ? (targets[mapped] as TargetEntry).mapping!
        : owner !== undefined
          ? (targets[owner] as TargetEntry).options[key]!
          : key === "target"
            ? { check: checkTarget, example: `target=${targetNames[0]}` }
            : commonOptions[key]!;
    if (values.has(key) && commonOptions[key]?.repeatable !== true) {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} is given more than once`,
      );
    }
    if (value === undefined || value === "") {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} needs a value, e.g. ${spec.example}${key === "target" ? `; ${checkTarget("")}` : ""}`,
      );
    }
    const problem = spec.check(value);
    if (problem !== undefined) {
      throw new GeneratorError(
        `invalid value ${JSON.stringify(value)} for option ${JSON.stringify(key)}; ${problem}`,
      );
    }
    values.set(key, value);
    repeated.get(key)?.push(value);
  }
  const target = (values.get("target") ?? targetNames[0]) as Target;
  for (const key of values.keys()) {
    const only = owners.get(key) ?? mappingOwner(key);
    if (only !== undefined && only !== target) {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} applies to target=${only}, not target=${target}`,
      );
    }
  }
  const entry: TargetEntry = targets[target];
  const own: Record<string, string> = {};
  for (const [key, spec] of Object.entries(entry.options)) {
    own[key] = values.get(key) ?? spec.default;
  }
  for (const [key, value] of values) {
    if (!owners.has(key)) {
      own[key] = value; // a mapping option of the target (checked above)
    }
  }
  const common: Record<string, string> = {};
  for (const [key, spec] of Object.entries(commonOptions)) {
    if (spec.repeatable !== true) {
      common[key] = values.get(key) ?? spec.default;
    }
  }
  return { target, common, lists: Object.fromEntries(repeated), values: own };
}
