import { GeneratorError } from "./errors.js";

/** The languages the plugin writes. */
export type Target = "go" | "ts" | "py";

/** Options passed with `--ai-tools_opt=` (or `opt:` in buf.gen.yaml). */
export interface PluginOptions {
  /** Which language to generate. Defaults to `go`. */
  readonly target: Target;
}

const targets: readonly Target[] = ["go", "ts", "py"];
const implementedTargets: readonly Target[] = ["go"];
const optionNames = ["target"] as const;

/**
 * Parse the plugin parameter, a comma-separated list of `key=value` pairs.
 * Unknown keys, missing or unknown values and repeated keys are errors that
 * name the offending input and list what is valid.
 */
export function parseOptions(parameter: string): PluginOptions {
  let target: Target = "go";
  const seen = new Set<string>();
  for (const raw of parameter.split(",")) {
    const pair = raw.trim();
    if (pair === "") {
      continue;
    }
    const eq = pair.indexOf("=");
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : pair.slice(eq + 1).trim();
    if (!(optionNames as readonly string[]).includes(key)) {
      throw new GeneratorError(
        `unknown option ${JSON.stringify(key)}; valid options: ${optionNames.join(", ")}`,
      );
    }
    if (seen.has(key)) {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} is given more than once`,
      );
    }
    seen.add(key);
    if (value === undefined || value === "") {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} needs a value, e.g. ${key}=${targets[0]}; valid values: ${targets.join(", ")}`,
      );
    }
    if (!(targets as readonly string[]).includes(value)) {
      throw new GeneratorError(
        `invalid value ${JSON.stringify(value)} for option "target"; valid values: ${targets.join(", ")}`,
      );
    }
    target = value as Target;
  }
  if (!implementedTargets.includes(target)) {
    throw new GeneratorError(
      `target ${JSON.stringify(target)} is not supported yet; supported targets: ${implementedTargets.join(", ")}`,
    );
  }
  return { target };
}
