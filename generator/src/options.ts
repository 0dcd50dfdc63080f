import { GeneratorError } from "./errors.js";

/** The languages the plugin writes. */
export type Target = "go" | "ts" | "py";

/** Options passed with `--ai-tools_opt=` (or `opt:` in buf.gen.yaml). */
export interface PluginOptions {
  /** Which language to generate. Defaults to `go`. */
  readonly target: Target;
  /**
   * TypeScript: where the protoc-gen-es output lives, relative to this
   * plugin's output root (`.` when both plugins write to one directory).
   */
  readonly tsImportPath: string;
  /**
   * Python: the package prefix of the grpcio-tools output (`myapp.gen`), ""
   * when the `*_pb2` modules are importable from the output root.
   */
  readonly pyPackage: string;
}

const targets: readonly Target[] = ["go", "ts", "py"];

interface OptionSpec {
  /** The one target the option applies to, or undefined for all. */
  readonly target?: Target;
  /** Checks a value; returns a problem, or undefined when it is valid. */
  readonly check: (value: string) => string | undefined;
  readonly example: string;
}

const optionSpecs: Readonly<Record<string, OptionSpec>> = {
  target: {
    check: (v) =>
      (targets as readonly string[]).includes(v)
        ? undefined
        : `valid values: ${targets.join(", ")}`,
    example: "target=go",
  },
  ts_import_path: {
    target: "ts",
    check: (v) =>
      /^\.{1,2}(\/[A-Za-z0-9_.@-]+)*$/.test(v) && !v.endsWith("/")
        ? undefined
        : 'use a relative path starting with "." or "..", e.g. ./gen or ../proto-es',
    example: "ts_import_path=./gen",
  },
  py_package: {
    target: "py",
    check: (v) =>
      /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(v)
        ? undefined
        : "use a dotted Python package name, e.g. myapp.gen",
    example: "py_package=myapp.gen",
  },
};

/**
 * Parse the plugin parameter, a comma-separated list of `key=value` pairs.
 * Unknown keys, missing or invalid values, repeated keys and options of
 * another target are errors that name the offending input and list what is
 * valid.
 */
export function parseOptions(parameter: string): PluginOptions {
  const values = new Map<string, string>();
  for (const raw of parameter.split(",")) {
    const pair = raw.trim();
    if (pair === "") {
      continue;
    }
    const eq = pair.indexOf("=");
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : pair.slice(eq + 1).trim();
    const spec = optionSpecs[key];
    if (spec === undefined) {
      throw new GeneratorError(
        `unknown option ${JSON.stringify(key)}; valid options: ${Object.keys(optionSpecs).join(", ")}`,
      );
    }
    if (values.has(key)) {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} is given more than once`,
      );
    }
    if (value === undefined || value === "") {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} needs a value, e.g. ${spec.example}${key === "target" ? `; valid values: ${targets.join(", ")}` : ""}`,
      );
    }
    const problem = spec.check(value);
    if (problem !== undefined) {
      throw new GeneratorError(
        `invalid value ${JSON.stringify(value)} for option ${JSON.stringify(key)}; ${problem}`,
      );
    }
    values.set(key, value);
  }
  const target = (values.get("target") ?? "go") as Target;
  for (const key of values.keys()) {
    const only = optionSpecs[key]!.target;
    if (only !== undefined && only !== target) {
      throw new GeneratorError(
        `option ${JSON.stringify(key)} applies to target=${only}, not target=${target}`,
      );
    }
  }
  return {
    target,
    tsImportPath: values.get("ts_import_path") ?? ".",
    pyPackage: values.get("py_package") ?? "",
  };
}
