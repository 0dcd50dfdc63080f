import type { ProblemCollector } from "../errors.js";
import { buildGoMcpView } from "./go/build-go-mcp-view.js";
import { buildGoView } from "./go/build-go-view.js";
import { goImportMapOf, goImportMapOption } from "./go/go-import-map.js";
import { goMcpOnlyOn, goMcpOnlyOption } from "./go/go-mcp-options.js";
import type { GeneratorModel } from "../model/model.js";
import { buildPyMcpView } from "./py/build-py-mcp-view.js";
import { buildPyView } from "./py/build-py-view.js";
import { pyPackageWarning } from "./py/py-package-warning.js";
import { buildTsMcpView } from "./ts/build-ts-mcp-view.js";
import { buildTsView, formatTs } from "./ts/build-ts-view.js";
import { tsImportPathWarning } from "./ts/ts-import-path-warning.js";

/** An option only one target takes (`--ai-tools_opt=key=value`). */
export interface TargetOption {
  /** The value when the option is not given. */
  readonly default: string;
  /** Check a value: a problem for the message, or undefined when valid. */
  readonly check: (value: string) => string | undefined;
  /** A valid `key=value`, shown in messages. */
  readonly example: string;
}

/**
 * Options a target takes any number of, each named by a prefix, a name and
 * a suffix (Go's `M<file>.proto=<import path>`, as protoc-gen-go takes
 * them). Given ones are in the target's option values under their whole key.
 */
export interface TargetMappingOption extends TargetOption {
  /** The key's prefix, e.g. `M`. */
  readonly prefix: string;
  /** The key's suffix, e.g. `.proto`. */
  readonly suffix: string;
}

/** What a target needs to render: the template view and the file it names. */
export interface TargetView {
  /** The generated file's path, relative to the output root. */
  readonly fileName: string;
}

/**
 * One language the plugin writes. Adding a language is a folder
 * `templates/<name>/` (entry template `file.hbs`; `mcp-file.hbs` for MCP),
 * a view builder, and one entry in {@link targets}.
 */
export interface TargetEntry {
  /** The options only this target takes, by key. */
  readonly options: Readonly<Record<string, TargetOption>>;
  /** Options named by a prefix, any number of them (Go's `M<file>=`). */
  readonly mapping?: TargetMappingOption;
  /**
   * Shape the model for this target's templates; problems only this
   * language has go to `problems`. `options` holds every option of the
   * entry and the common ones (options.ts), defaults filled in.
   */
  buildView(
    model: GeneratorModel,
    options: Readonly<Record<string, string>>,
    problems: ProblemCollector,
  ): TargetView;
  /**
   * With `mcp=true`: the view of the second file, which registers the tools
   * on the language's MCP SDK, rendered from the entry template
   * `templates/<name>/mcp-file.hbs`. Absent while a target has no MCP
   * support (the option is then refused for it).
   */
  buildMcpView?(
    model: GeneratorModel,
    options: Readonly<Record<string, string>>,
    problems: ProblemCollector,
  ): TargetView;
  /**
   * A warning about an option of this target the model shows to be most
   * likely wrong (a path to another plugin's output naming one file's
   * folder); generation goes on. `mcp` is the `mcp=` option.
   */
  optionWarning?(
    model: GeneratorModel,
    options: Readonly<Record<string, string>>,
    mcp: boolean,
  ): string | undefined;
  /**
   * Finish the rendered text of `view` (a formatter); the text as it is
   * when absent.
   */
  readonly postProcess?: (text: string, view: TargetView) => string;
}

/** The common options the executors take (options.ts). */
function callOptions(options: Readonly<Record<string, string>>): {
  readonly lenientArguments: boolean;
  readonly jsonNames: boolean;
} {
  return {
    lenientArguments: options["lenient_arguments"] === "true",
    jsonNames: options["json_names"] === "true",
  };
}

/** Every target, by the name `target=` takes; the first is the default. */
export const targets = {
  go: {
    options: {
      validate: {
        default: "false",
        check: (v) =>
          v === "true" || v === "false"
            ? undefined
            : "valid values: true, false",
        example: "validate=true",
      },
      go_connect: goMcpOnlyOption("go_connect"),
      go_mcp_compat: goMcpOnlyOption("go_mcp_compat"),
    },
    mapping: goImportMapOption,
    buildView: (model, options, problems) => {
      goMcpOnlyOn(options, "go_connect"); // refused without mcp=true
      goMcpOnlyOn(options, "go_mcp_compat");
      return buildGoView(model, problems, {
        importMap: goImportMapOf(options),
        ...callOptions(options),
        validate: options["validate"] === "true",
        toolSearch: options["tool_search"] === "true",
      });
    },
    buildMcpView: (model, options, problems) =>
      buildGoMcpView(model, problems, goImportMapOf(options), {
        ...callOptions(options),
        validate: options["validate"] === "true",
        connect: goMcpOnlyOn(options, "go_connect"),
        compat: goMcpOnlyOn(options, "go_mcp_compat"),
        toolSearch: options["tool_search"] === "true",
      }),
  },
  ts: {
    options: {
      ts_import_path: {
        default: ".",
        check: (v) =>
          /^\.{1,2}(\/[A-Za-z0-9_.@-]+)*$/.test(v) && !v.endsWith("/")
            ? undefined
            : 'use a relative path starting with "." or "..", e.g. ./gen or ../proto-es',
        example: "ts_import_path=./gen",
      },
    },
    buildView: (model, options, problems) =>
      buildTsView(
        model,
        {
          tsImportPath: options["ts_import_path"]!,
          toolSearch: options["tool_search"] === "true",
          ...callOptions(options),
        },
        problems,
      ),
    buildMcpView: (model, options, problems) =>
      buildTsMcpView(
        model,
        { tsImportPath: options["ts_import_path"]!, ...callOptions(options) },
        problems,
      ),
    optionWarning: (model, options, mcp) =>
      tsImportPathWarning(model, options["ts_import_path"]!, mcp),
    // ai_tools.gen.ts is printed as prettier formats it (ts-doc.ts) unless
    // its printer was unsure; the MCP file is formatted.
    postProcess: (text, view) =>
      "formatted" in view && view.formatted === true ? text : formatTs(text),
  },
  py: {
    options: {
      py_package: {
        default: "",
        check: (v) =>
          /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(v)
            ? undefined
            : "use a dotted Python package name, e.g. myapp.gen",
        example: "py_package=myapp.gen",
      },
    },
    buildView: (model, options, problems) =>
      buildPyView(
        model,
        {
          pyPackage: options["py_package"]!,
          toolSearch: options["tool_search"] === "true",
          ...callOptions(options),
        },
        problems,
      ),
    buildMcpView: (model, options, problems) =>
      buildPyMcpView(
        model,
        { pyPackage: options["py_package"]!, ...callOptions(options) },
        problems,
      ),
    optionWarning: (model, options, mcp) =>
      pyPackageWarning(model, options["py_package"]!, mcp),
  },
} as const satisfies Readonly<Record<string, TargetEntry>>;

/** The name of a target: `go`, `ts`, `py`. */
export type Target = keyof typeof targets;
