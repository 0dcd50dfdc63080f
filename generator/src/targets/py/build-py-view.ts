import type { DescMessage } from "../../read/descriptors.js";
import type { ProblemCollector } from "../../errors.js";
import type { AliasTables } from "../../model/alias-tables.js";
import type { GeneratorModel, ToolModel } from "../../model/model.js";
import { assignToolIdentifiers } from "../../model/tool-identifiers.js";
import { compareUtf8 } from "../../schema/canonical-json.js";
import {
  isortType,
  natord,
  pyBlockIndent,
  pyImportStatements,
  pyLineLength,
  type PyImport,
} from "./py-imports.js";
import {
  isPyIdentifier,
  pyFileIdentifiers,
  pyKeywords,
  pyModuleNames,
  pyModuleProblem,
  pyProtoModule,
  pyUpperSnake,
} from "./py-names.js";
import { pyQuote } from "./py-quote.js";
import { pyRuntimeMissing } from "./py-runtime.js";
import type {
  PyAliasConfigView,
  PyAliasToolView,
  PyAliasTypeView,
  PyExecutorView,
  PyFileView,
  PyToolView,
} from "./py-view.js";

export type { PyFileView } from "./py-view.js";

/** The name of the Python module, at the root of the output directory. */
export const pyFileName = "ai_tools_gen.py";

/**
 * Shape the model for the Python templates: constant names, quoted literals
 * and imports. Problems only Python has (constant collisions, proto paths or
 * message names Python cannot import) are added to `problems`.
 */
export function buildPyView(
  model: GeneratorModel,
  options: {
    readonly pyPackage: string;
    /** The option tool_search=true: the module defines TOOL_SEARCH. */
    readonly toolSearch?: boolean;
  } & PyCallOptions,
  problems: ProblemCollector,
): PyFileView {
  const toolSearch = options.toolSearch === true;
  const constNames = pyToolConstNames(
    model,
    problems,
    toolSearch ? pyToolSearchIdentifiers : [],
  );
  const imports = assignImports(
    model.executors,
    [],
    options.pyPackage,
    problems,
  );
  problems.throwIfAny();

  const tools: PyToolView[] = model.tools.map((tool) => ({
    constName: constNames.get(tool)!,
    rawName: tool.name,
    name: pyQuote(tool.name),
    description: pyQuote(tool.description),
    strict: pyBool(tool.strict),
    parameters: pyQuote(tool.schemaJson),
    forms: pyQuote(tool.formsJson),
  }));

  const executors: PyExecutorView[] = model.executors.map((tool) => ({
    constName: constNames.get(tool)!,
    method: pyQuote(`/${tool.service.typeName}/${tool.method.name}`),
    requestType: imports.typeRef(tool.input),
    responseType: imports.typeRef(tool.output),
    serverStreaming: pyBool(tool.serverStreaming),
    data: pyToolMethodData(tool),
  }));

  const aliasConfig = pyAliasConfigView(model);

  const exportNames = [
    ...tools.map((t) => t.constName),
    "ALIAS_CONFIG",
    "ALL_TOOLS",
    "AgentTool",
    ...(model.hasExecutors ? ["AsyncExecutor", "Executor"] : []),
    "all_tools",
    ...(toolSearch ? ["TOOL_SEARCH"] : []),
  ];

  return {
    fileName: pyFileName,
    sources: [...new Set(model.tools.map((t) => t.file))].sort(compareUtf8),
    hasExecutors: model.hasExecutors,
    // The runtime's imports in a try block whose ImportError names the
    // pip line; then one section, as isort sorts it: grpc and the protobuf
    // package's modules.
    runtimeImports: pyImportStatements(
      [
        ...(model.hasExecutors
          ? [{ module: "ai_tools_runtime", name: "ai_tools_runtime" }]
          : []),
        ...[
          "AgentTool",
          ...pyAliasConfigNames(aliasConfig),
          ...(model.hasExecutors ? ["ToolMethod"] : []),
          ...(toolSearch ? ["ToolSearch", "define_tool_search"] : []),
        ].map((n) => ({ module: `ai_tools_runtime.${n}`, name: n })),
      ],
      pyBlockIndent,
    ),
    runtimeMissing: pyRuntimeMissing(pyFileName),
    thirdPartyImports: pyImportStatements([
      ...(model.hasExecutors ? [{ module: "grpc", name: "grpc" }] : []),
      ...pyValidatorImport(model.executors),
      ...imports.thirdParty,
    ]),
    ownImports: imports.own,
    exports: sortExports(exportNames).map(pyQuote),
    tools,
    allToolsLine: allToolsLine(tools),
    ...aliasConfig,
    executors,
    executorSettings: pyExecutorSettings(model.executors, options),
    toolSearch: toolSearch ? pyQuote(model.toolSearchJson) : "",
  };
}

/**
 * Names ai_tools_gen.py defines or imports with the option
 * tool_search=true (docs/tool-search.md).
 */
export const pyToolSearchIdentifiers: readonly string[] = [
  "TOOL_SEARCH",
  "ToolSearch",
  "define_tool_search",
];

/**
 * The keyword arguments of a tool's ToolMethod beyond its RPC: the
 * argument table, the deadline in seconds, `validate` and
 * `needs_approval`, those set.
 */
export function pyToolMethodData(tool: ToolModel): string[] {
  const out: string[] = [];
  if (tool.argumentsJson !== "") {
    out.push(`arguments=${pyQuote(tool.argumentsJson)},`);
  }
  if (tool.timeoutNanos !== undefined) {
    out.push(`timeout=${pyFloat(Number(tool.timeoutNanos) / 1e9)},`);
  }
  if (tool.validate) {
    out.push("validate=True,");
  }
  if (tool.needsApproval) {
    out.push("needs_approval=True,");
  }
  return out;
}

/** A float literal as Python's repr writes it (`30.0`, `0.5`, `1e-05`). */
export function pyFloat(n: number): string {
  if (Number.isInteger(n)) {
    return `${n}.0`;
  }
  if (n >= 1e-4) {
    return String(n);
  }
  return n.toExponential().replace(/e-(\d)$/, "e-0$1");
}

/** Plugin options the executors take (lenient_arguments, json_names). */
export interface PyCallOptions {
  readonly lenientArguments?: boolean;
  readonly jsonNames?: boolean;
}

/**
 * The keyword arguments the generated executors pass to the runtime's
 * beyond the tables: a protovalidate validator when a tool validates its
 * request (the module: its module-level `collect_violations` is the
 * validator the runtime needs, where `protovalidate.Validator()` is an
 * untyped call mypy --strict refuses), and the plugin options that restore
 * the original's behaviour.
 */
export function pyExecutorSettings(
  tools: readonly ToolModel[],
  options: PyCallOptions,
): string[] {
  return [
    ...(tools.some((t) => t.validate) ? ["validator=protovalidate,"] : []),
    ...(options.lenientArguments === true ? ["lenient_arguments=True,"] : []),
    ...(options.jsonNames === true ? ["json_names=True,"] : []),
  ];
}

/** `import protovalidate`, when a tool of `tools` validates its request. */
export function pyValidatorImport(
  tools: readonly ToolModel[],
): { module: string; name: string }[] {
  return tools.some((t) => t.validate)
    ? [{ module: "protovalidate", name: "protovalidate" }]
    : [];
}

/**
 * The keyword arguments of an `AliasConfig` holding `tables` (docs/runtime.md,
 * "Response registration"), defaults left out.
 */
export function pyAliasConfigView(tables: AliasTables): PyAliasConfigView {
  const responseAliasTypes: PyAliasTypeView[] = tables.responseAliasTypes.map(
    ([typeName, fields]) => ({
      name: pyQuote(typeName),
      fields: fields.map((f) => ({
        args: [
          `field=${pyQuote(f.field)}`,
          ...(f.prefix !== "" ? [`prefix=${pyQuote(f.prefix)}`] : []),
          ...(f.message !== "" ? [`message=${pyQuote(f.message)}`] : []),
          ...(f.map ? ["is_map=True"] : []),
          ...(f.anyValue ? ["any_value=True"] : []),
        ],
      })),
    }),
  );
  const toolResponseAliases: PyAliasToolView[] = tables.toolResponseAliases.map(
    ([toolName, t]) => ({
      name: pyQuote(toolName),
      args: [
        `message=${pyQuote(t.message)}`,
        ...(t.idPrefix !== "" ? [`id_prefix=${pyQuote(t.idPrefix)}`] : []),
        ...(t.idField !== "" ? [`id_field=${pyQuote(t.idField)}`] : []),
      ],
    }),
  );
  return {
    hasResponseAliases:
      responseAliasTypes.length > 0 || toolResponseAliases.length > 0,
    responseAliasTypes,
    toolResponseAliases,
    knownAliasPrefixes: tables.knownAliasPrefixes.map(pyQuote),
  };
}

/** The `ai_tools_runtime` classes an `AliasConfig` of `view` names. */
export function pyAliasConfigNames(view: PyAliasConfigView): string[] {
  return [
    "AliasConfig",
    ...(view.hasResponseAliases ? ["ResponseAliases"] : []),
    ...(view.responseAliasTypes.length > 0 ? ["ResponseAliasField"] : []),
    ...(view.toolResponseAliases.length > 0 ? ["ResponseAliasTool"] : []),
  ];
}

/**
 * The constant of each tool in ai_tools_gen.py (`LINKS_CREATE`); collisions
 * and invalid names are added to `problems`.
 */
export function pyToolConstNames(
  model: GeneratorModel,
  problems: ProblemCollector,
  alsoTaken: readonly string[] = [],
): Map<ToolModel, string> {
  return assignToolIdentifiers(
    model.tools,
    {
      kind: "Python constant",
      shape: pyUpperSnake,
      invalid: (id) =>
        isPyIdentifier(id)
          ? undefined
          : `the Python constant ${JSON.stringify(id)}, which is not a valid Python name; start each "_"-separated part with a letter`,
      reservedWords: pyKeywords,
      taken:
        alsoTaken.length === 0
          ? pyFileIdentifiers
          : new Set([...pyFileIdentifiers, ...alsoTaken]),
      takenBy: "ai_tools_gen.py already defines",
    },
    problems,
  );
}

/**
 * `ALL_TOOLS: tuple[AgentTool, ...] = (X,)` for exactly one tool when the
 * line fits, as ruff format writes a one-element tuple; else "".
 */
function allToolsLine(tools: readonly PyToolView[]): string {
  if (tools.length !== 1) return "";
  const line = `ALL_TOOLS: tuple[AgentTool, ...] = (${tools[0]!.constName},)`;
  return line.length <= pyLineLength ? line : "";
}

function pyBool(b: boolean): string {
  return b ? "True" : "False";
}

/**
 * `__all__` in the order ruff's RUF022 keeps it ("isort-style"):
 * SCREAMING_SNAKE_CASE names of more than one character, then CamelCase
 * ones (a one-letter `A` among them), then the rest, each group in natural
 * order (runs of digits compared as numbers).
 */
export function sortExports(names: readonly string[]): string[] {
  return [...names].sort((a, b) => isortType(a) - isortType(b) || natord(a, b));
}

export interface PyImports {
  /** The protobuf package's own modules (WKTs), with their names. */
  readonly thirdParty: PyImport[];
  /** The grpcio-tools output's modules, with their names. */
  readonly ownModules: PyImport[];
  /** Statements importing the grpcio-tools output. */
  readonly own: string[];
  /** The Python expression naming a message class. */
  typeRef(message: DescMessage): string;
  /** The name of the `_pb2_grpc` module of one of `grpcFiles`. */
  grpcModule(protoFile: string): string;
}

/**
 * The `*_pb2` modules the executors use: those of their request and response
 * messages; and the `*_pb2_grpc` modules of `grpcFiles` (the services' files,
 * for the MCP file). `google/protobuf/*.proto` come from the protobuf
 * package; every other file from the grpcio-tools output, under
 * `py_package` when set. Each module is bound to the short name
 * pyModuleNames gives its proto path (the same with or without
 * `py_package`; a `_pb2_grpc` module that of its `_pb2` plus `_grpc`), and
 * the statements are written as ruff writes them (pyImportStatements).
 */
export function assignImports(
  executors: readonly ToolModel[],
  grpcFiles: readonly string[],
  pyPackage: string,
  problems: ProblemCollector,
): PyImports {
  /** By the module's proto-derived path (without `py_package`). */
  const modules = new Map<string, { module: string; thirdParty: boolean }>();
  const refs = new Map<DescMessage, { base: string; local: string }>();
  for (let i = 0; i < executors.length; i++) {
    const tool = executors[i]!;
    const refused = new Set<string>();
    for (const [message, role] of [
      [tool.input, "request"],
      [tool.output, "response"],
    ] as const) {
      const fileName = message.file.proto.name;
      const thirdParty = isPackagedProto(fileName);
      const base = pyProtoModule(fileName);
      const module =
        thirdParty || pyPackage === "" ? base : `${pyPackage}.${base}`;
      const at = { file: tool.file, element: tool.element };
      const moduleProblem = pyModuleProblem(module);
      if (refused.has(module)) {
        continue;
      }
      if (moduleProblem !== undefined) {
        refused.add(module);
        problems.add({
          ...at,
          message: `the Python executor of tool ${JSON.stringify(tool.name)} imports the ${role} type ${message.typeName} from module ${module} (of ${fileName}), which Python cannot import: ${moduleProblem}; rename the file or its directories`,
        });
        continue;
      }
      const pkg = message.file.proto.package ?? "";
      const local =
        pkg === "" ? message.typeName : message.typeName.slice(pkg.length + 1);
      const bad = local
        .split(".")
        .find((part) => !isPyIdentifier(part) || hardKeyword(part));
      if (bad !== undefined) {
        problems.add({
          ...at,
          message: `the Python executor of tool ${JSON.stringify(tool.name)} needs the ${role} type ${message.typeName}, but ${JSON.stringify(bad)} is a Python keyword; rename the message`,
        });
        continue;
      }
      modules.set(base, { module, thirdParty });
      refs.set(message, { base, local });
    }
  }
  const grpcBases = new Map(grpcFiles.map((f) => [f, pyProtoModule(f)]));
  const names = pyModuleNames([...modules.keys(), ...grpcBases.values()]);
  const section = (thirdParty: boolean): PyImport[] =>
    [...modules]
      .filter(([, m]) => m.thirdParty === thirdParty)
      .map(([base, m]) => ({ module: m.module, name: names.get(base)! }));
  const grpcModule = (file: string, own: boolean): PyImport[] => {
    const base = grpcBases.get(file)!;
    return own === !isPackagedProto(file)
      ? [
          {
            module: `${pyPackage === "" || !own ? base : `${pyPackage}.${base}`}_grpc`,
            name: `${names.get(base)!}_grpc`,
          },
        ]
      : [];
  };
  const grpcOf = (own: boolean): PyImport[] =>
    [...new Map(grpcFiles.map((f) => [grpcBases.get(f)!, f])).values()].flatMap(
      (f) => grpcModule(f, own),
    );
  const ownModules = [...section(false), ...grpcOf(true)];
  return {
    thirdParty: [...section(true), ...grpcOf(false)],
    ownModules,
    own: pyImportStatements(ownModules),
    grpcModule: (protoFile) => `${names.get(pyProtoModule(protoFile))!}_grpc`,
    typeRef: (message) => {
      const { base, local } = refs.get(message)!;
      return `${names.get(base)!}.${local}`;
    },
  };
}

/**
 * True for a proto file whose Python modules come from a package, never
 * from the user's generated code: google/protobuf (protobuf) and the
 * googleapis-common-protos ones (google/api, google/longrunning, google/rpc,
 * google/type), which `py_package` does not move.
 */
function isPackagedProto(fileName: string): boolean {
  return /^google\/(protobuf|api|longrunning|rpc|type)\//.test(fileName);
}

function hardKeyword(s: string): boolean {
  return pyKeywords.has(s) && !["_", "case", "match", "type"].includes(s);
}
