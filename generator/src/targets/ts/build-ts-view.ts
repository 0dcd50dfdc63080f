import { createRequire } from "node:module";
import type { DescMethod, DescService } from "../../read/descriptors.js";
import type { ProblemCollector } from "../../errors.js";
import type { GeneratorModel, ToolModel } from "../../model/model.js";
import type {
  ResponseAliasField,
  ResponseAliasTool,
} from "../../model/response-aliases.js";
import { assignToolIdentifiers } from "../../model/tool-identifiers.js";
import { compareUtf8 } from "../../schema/canonical-json.js";
import type { JsonValue } from "../../schema/json-schema.js";
import {
  printTs,
  printTsUnformatted,
  tsArray,
  tsCall,
  tsConst,
  tsImport,
  tsJson,
  tsMemberChain,
  tsObject,
  tsObjectKey,
  tsPlainExpr,
  tsProperty,
  tsReturn,
  tsStringExpr,
  tsStringKey,
  type Doc,
  type TsUnsure,
} from "./ts-doc.js";
import { tsKey, tsLiteral, tsString } from "./ts-literal.js";
import { tsInstallComment } from "./ts-install.js";
import {
  laid,
  layImport,
  layStatement,
  type LaidScalar,
} from "./ts-tool-layout.js";
import {
  esImportsComment,
  esModulePath,
  esServiceExportName,
  isTsIdentifier,
  tsCamelCase,
  tsReservedWords,
} from "./ts-names.js";
import type {
  TsEntryView,
  TsFileView,
  TsImportView,
  TsResponseTypeView,
} from "./ts-view.js";

/** The name of the TypeScript file, at the root of the output directory. */
export const tsFileName = "ai_tools.gen.ts";

/** The package the generated file imports its behaviour from. */
export const tsRuntimeModule = "@protoc-gen-ai-tools/runtime";

/**
 * Identifiers templates/ts/file.hbs declares or imports itself (imports of
 * protoc-gen-es services are chosen around the tools' names instead).
 */
export const tsFileIdentifiers: readonly string[] = [
  // declared
  "allTools",
  "createExecutor",
  "responseAliases",
  "knownAliasPrefixes",
  "aliasConfig",
  "toolMethods",
  "createValidator",
  // imported
  "AgentTool",
  "AliasConfig",
  "CreateExecutorOptions",
  "Executor",
  "ResponseAliases",
  "ToolMethod",
  "Transport",
  "defineTool",
  "runtimeCreateExecutor",
];

/**
 * Identifiers the file declares or imports with the option tool_search=true
 * (the `toolSearch` constant, docs/tool-search.md).
 */
export const tsToolSearchIdentifiers: readonly string[] = [
  "toolSearch",
  "ToolSearch",
  "defineToolSearch",
];

/**
 * Shape the model for the TypeScript templates: constant names, imports of
 * the protoc-gen-es output, and the statements whose layout depends on the
 * data, printed as prettier prints them (ts-doc.ts), so that the file needs
 * no formatter. Where that printer is unsure (a key outside ASCII), the
 * statements are printed unformatted and `formatted` is false: the target
 * then formats the file with prettier. Problems only TypeScript has
 * (identifier collisions) are added to `problems`. `layout: "unformatted"`
 * prints them unformatted whatever the data (the tests format that with
 * prettier and compare).
 */
export function buildTsView(
  model: GeneratorModel,
  options: {
    readonly tsImportPath: string;
    /** The option tool_search=true: the file exports `toolSearch`. */
    readonly toolSearch?: boolean;
  } & TsCallOptions,
  problems: ProblemCollector,
  layout: "formatted" | "unformatted" = "formatted",
): TsFileView {
  const searchNames =
    options.toolSearch === true ? tsToolSearchIdentifiers : [];
  const constNames = tsToolConstNames(model, problems, searchNames);
  problems.throwIfAny();

  const { names: serviceNames, imports: serviceImports } = tsServiceImports(
    model.executors.map((t) => t.service),
    new Set([
      ...constNames.values(),
      ...tsFileIdentifiers,
      ...searchNames,
      ...tsReservedWords,
    ]),
    options.tsImportPath,
  );

  let formatted = layout === "formatted";
  const unsure: TsUnsure = () => {
    formatted = false;
  };
  // The documents are made before printing: any of them may find the
  // printer unsure, and then all are printed unformatted.
  const docs = {
    serviceImports: serviceImports.map((i) => tsImport(i.specifiers, i.module)),
    tools: model.tools.map((tool) =>
      tsToolDeclarationDoc(tool, constNames.get(tool)!),
    ),
    responseAliases: responseAliasesDoc(model, unsure),
    toolMethods: toolMethodsDoc(model, constNames, serviceNames, unsure),
    toolSearch:
      options.toolSearch === true
        ? tsConst(
            true,
            "toolSearch",
            "ToolSearch",
            tsCall("defineToolSearch", [tsStringExpr(model.toolSearchJson)]),
          )
        : undefined,
  };
  const direct =
    layout === "formatted"
      ? laidStatements(model, constNames, serviceNames, unsure)
      : undefined;
  const print = formatted ? printTs : printTsUnformatted;

  return {
    fileName: tsFileName,
    formatted,
    runtimeModule: tsString(tsRuntimeModule),
    installComment: tsInstallComment([
      tsRuntimeModule,
      "@bufbuild/protobuf",
      "@connectrpc/connect",
      ...(model.executors.some((t) => t.validate) ? [tsValidatorModule] : []),
    ]),
    hasExecutors: model.hasExecutors,
    validatorImport: tsValidatorImport(model.executors),
    executorSettings: tsExecutorSettings(
      model.executors,
      options,
      "createValidator",
    ),
    esImportsComment: esImportsComment(options.tsImportPath),
    serviceImports: serviceImports.map(
      (i, n) =>
        (layout === "formatted"
          ? layImport(i.specifiers, i.module)
          : undefined) ?? print(docs.serviceImports[n]!),
    ),
    tools: model.tools.map((tool, i) => ({
      rawName: tool.name,
      element: tool.element,
      declaration: print(docs.tools[i]!),
    })),
    allTools:
      direct?.allTools ??
      print(
        tsReturn(
          tsArray(model.tools.map((t) => tsPlainExpr(constNames.get(t)!))),
        ),
        1,
      ),
    responseAliases: print(docs.responseAliases),
    knownAliasPrefixes:
      direct?.knownAliasPrefixes ??
      print(
        tsConst(
          true,
          "knownAliasPrefixes",
          "readonly string[]",
          tsArray(model.knownAliasPrefixes.map(tsStringExpr)),
        ),
      ),
    toolMethods: direct?.toolMethods ?? print(docs.toolMethods),
    toolSearch: docs.toolSearch === undefined ? "" : print(docs.toolSearch),
  };
}

/**
 * `export const responseAliases: ResponseAliases = {…};`: per message type
 * its fields, per tool its response message.
 */
function responseAliasesDoc(model: GeneratorModel, unsure: TsUnsure): Doc {
  const types = model.responseAliasTypes.map(([typeName, fields]) =>
    tsProperty(
      tsStringKey(typeName, unsure),
      tsArray(fields.map((f) => tsJson(responseAliasField(f), unsure))),
    ),
  );
  const tools = model.toolResponseAliases.map(([toolName, a]) =>
    tsProperty(
      tsObjectKey(toolName, unsure),
      tsJson(
        { message: a.message, idPrefix: a.idPrefix, idField: a.idField },
        unsure,
      ),
    ),
  );
  return tsConst(
    true,
    "responseAliases",
    "ResponseAliases",
    tsObject(
      [
        tsProperty("types", tsObject(types, true)),
        tsProperty("tools", tsObject(tools, true)),
      ],
      true,
    ),
  );
}

/**
 * `const toolMethods: Readonly<Record<string, ToolMethod>> = {…};` as a
 * document: keyed by tool name, an object rather than an array, which tsc
 * would type as the union of its elements' types (each with its own
 * method type), reducing it pairwise: minutes at Compute's size.
 */
function toolMethodsDoc(
  model: GeneratorModel,
  constNames: ReadonlyMap<ToolModel, string>,
  serviceNames: ReadonlyMap<DescService, string>,
  unsure: TsUnsure,
): Doc {
  return tsConst(
    false,
    "toolMethods",
    toolMethodsType,
    tsObject(
      model.executors.map((tool) =>
        tsProperty(
          tsObjectKey(tool.name, unsure),
          tsObject(
            [
              tsProperty("tool", tsPlainExpr(constNames.get(tool)!)),
              tsProperty(
                "method",
                tsMemberChain(
                  serviceNames.get(tool.service)!,
                  "method",
                  tool.method.localName,
                ),
              ),
              ...toolMethodData(tool).map(([key, value]) =>
                tsProperty(key, tsJson(value, unsure)),
              ),
            ],
            true,
          ),
        ),
      ),
      true,
    ),
  );
}

/** The type of `toolMethods`. */
const toolMethodsType = "Readonly<Record<string, ToolMethod>>";

/**
 * The statements that grow with the API, laid out directly
 * (ts-tool-layout.ts), faster than through documents; each undefined where
 * that layout cannot promise prettier's.
 */
function laidStatements(
  model: GeneratorModel,
  constNames: ReadonlyMap<ToolModel, string>,
  serviceNames: ReadonlyMap<DescService, string>,
  unsure: TsUnsure,
): {
  allTools: string | undefined;
  knownAliasPrefixes: string | undefined;
  toolMethods: string | undefined;
} {
  return {
    allTools: layStatement(
      "return",
      laid.array(model.tools.map((t) => laid.text(constNames.get(t)!))),
      2,
    ),
    knownAliasPrefixes: layStatement(
      "export const knownAliasPrefixes: readonly string[] =",
      laid.array(model.knownAliasPrefixes.map((p) => laid.json(p))),
    ),
    toolMethods: layStatement(
      `const toolMethods: ${toolMethodsType} =`,
      laid.object(
        model.executors.map((tool) => ({
          key: tsObjectKey(tool.name, unsure),
          value: laid.object(
            [
              { key: "tool", value: laid.text(constNames.get(tool)!) },
              {
                key: "method",
                value: laid.text(
                  tsMethodExpr(serviceNames.get(tool.service)!, tool.method),
                  "chain",
                ),
              },
              ...toolMethodData(tool).map(([key, value]) => ({
                key,
                value: laid.json(value),
              })),
            ],
            true,
          ),
        })),
        true,
      ),
    ),
  };
}

/**
 * `export const x: AgentTool = defineTool("name", "description", strict,
 * '<parameters>', '<forms>');`: the schema and the provider forms as JSON
 * text, which TypeScript checks as fast as any string, where an object
 * literal of the same schema costs it a type per node (docs/benchmarks.md,
 * "Type-checking the generated code").
 */
export function tsToolDeclarationDoc(
  tool: Pick<
    ToolModel,
    "name" | "description" | "strict" | "schemaJson" | "formsJson"
  >,
  constName: string,
): Doc {
  return tsConst(
    true,
    constName,
    "AgentTool",
    tsCall("defineTool", [
      tsStringExpr(tool.name),
      tsStringExpr(tool.description),
      { doc: String(tool.strict), kind: "boolean" },
      tsStringExpr(tool.schemaJson),
      tsStringExpr(tool.formsJson),
    ]),
  );
}

/**
 * The data of a tool's ToolMethod beyond its tool and method: the argument
 * table, the deadline (`timeoutMs`), `validate` and `needsApproval`, those
 * set.
 */
export function toolMethodData(tool: ToolModel): [string, LaidScalar][] {
  const out: [string, LaidScalar][] = [];
  if (tool.argumentsJson !== "") {
    out.push(["arguments", tool.argumentsJson]);
  }
  if (tool.timeoutNanos !== undefined) {
    out.push(["timeoutMs", Number(tool.timeoutNanos) / 1e6]);
  }
  if (tool.validate) {
    out.push(["validate", true]);
  }
  if (tool.needsApproval) {
    out.push(["needsApproval", true]);
  }
  return out;
}

/**
 * The settings the generated createExecutor passes beyond the tables, as
 * property lines: the validator when a tool validates its request, and the
 * plugin options that restore the original's behaviour. `validator` is its
 * expression: the executor's takes the function `createValidator`, so that
 * every executor of the process shares the one validator the runtime makes
 * with it (protovalidate compiles its rules once); the MCP tool set, made
 * once per server, takes `createValidator()`.
 */
export function tsExecutorSettings(
  tools: readonly ToolModel[],
  options: TsCallOptions,
  validator = "createValidator()",
): string[] {
  return [
    ...(tools.some((t) => t.validate) ? [`validator: ${validator},`] : []),
    ...(options.lenientArguments === true ? ["lenientArguments: true,"] : []),
    ...(options.jsonNames === true ? ["jsonNames: true,"] : []),
  ];
}

/** Plugin options the executors take (lenient_arguments, json_names). */
export interface TsCallOptions {
  readonly lenientArguments?: boolean;
  readonly jsonNames?: boolean;
}

/** The validator's import, when a tool of `tools` validates its request. */
export function tsValidatorImport(tools: readonly ToolModel[]): string {
  return tools.some((t) => t.validate)
    ? `import { createValidator } from ${tsString(tsValidatorModule)};`
    : "";
}

/** The package of protovalidate for TypeScript (docs/runtime.md). */
export const tsValidatorModule = "@bufbuild/protovalidate";

/** A field of `responseAliases.types`, as the vectors write it: "" and false left out. */
export function responseAliasField(f: ResponseAliasField): JsonValue {
  return {
    field: f.field,
    ...(f.prefix !== "" ? { prefix: f.prefix } : {}),
    ...(f.message !== "" ? { message: f.message } : {}),
    ...(f.map ? { map: true } : {}),
    ...(f.anyValue ? { anyValue: true } : {}),
  };
}

/**
 * The constant of each tool in ai_tools.gen.ts (`linksCreate`); collisions
 * go to `problems`.
 */
export function tsToolConstNames(
  model: GeneratorModel,
  problems: ProblemCollector,
  alsoTaken: readonly string[] = [],
): Map<ToolModel, string> {
  return assignToolIdentifiers(
    model.tools,
    {
      kind: "TypeScript constant",
      shape: tsCamelCase,
      invalid: (id) =>
        isTsIdentifier(id)
          ? undefined
          : `the TypeScript identifier ${JSON.stringify(id)}, which is not valid; start the name with a letter after any leading "_"`,
      reservedWords: tsReservedWords,
      taken: new Set([...tsFileIdentifiers, ...alsoTaken]),
      takenBy: "the generated file already declares or imports",
    },
    problems,
  );
}

/**
 * The services' descriptors as a file imports them: each one's local name
 * (see {@link assignServiceImports}) and the import lines, one per
 * protoc-gen-es module, sorted by path.
 */
export function tsServiceImports(
  services: readonly DescService[],
  taken: Set<string>,
  tsImportPath: string,
): {
  names: Map<DescService, string>;
  imports: (TsImportView & {
    readonly specifiers: readonly string[];
    readonly module: string;
  })[];
} {
  const names = assignServiceImports(services, taken);
  const byModule = new Map<string, string[]>();
  for (const [service, local] of names) {
    const from = esModulePath(tsImportPath, service.file.proto.name);
    const exported = esServiceExportName(service);
    const list = byModule.get(from) ?? [];
    list.push(exported === local ? local : `${exported} as ${local}`);
    byModule.set(from, list);
  }
  const imports = [...byModule.keys()].sort(compareUtf8).map((from) => {
    const specifiers = byModule.get(from)!.sort(compareUtf8);
    return {
      names: specifiers.join(", "),
      from: tsString(from),
      specifiers,
      module: from,
    };
  });
  return { names, imports };
}

/** The descriptor of a method: `LinkService.method.createLink`. */
export function tsMethodExpr(serviceLocal: string, method: DescMethod): string {
  const local = method.localName;
  const access = isTsIdentifier(local) ? `.${local}` : `[${tsString(local)}]`;
  return `${serviceLocal}.method${access}`;
}

/**
 * `responseAliases.types` entries, written as the vectors write them: ""
 * and false left out.
 */
export function tsResponseAliasTypes(
  types: readonly (readonly [string, readonly ResponseAliasField[]])[],
): TsResponseTypeView[] {
  return types.map(([typeName, fields]) => ({
    key: tsString(typeName),
    fields: fields.map((f) => tsLiteral(responseAliasField(f))),
  }));
}

/** `responseAliases.tools` entries. */
export function tsToolResponseAliases(
  tools: readonly (readonly [string, ResponseAliasTool])[],
): TsEntryView[] {
  return tools.map(([toolName, a]) => ({
    key: tsKey(toolName),
    value: tsLiteral({
      message: a.message,
      idPrefix: a.idPrefix,
      idField: a.idField,
    }),
  }));
}

/**
 * The local name of each service the executors call: the name protoc-gen-es
 * exports it under, unless another service or a name of the file has it;
 * then the proto package in PascalCase is put before it
 * (`LinkhubV1LinkService`), and a number after that if need be.
 */
export function assignServiceImports(
  services: readonly DescService[],
  taken: Set<string>,
): Map<DescService, string> {
  const unique = [...new Set(services)].sort((a, b) =>
    compareUtf8(a.typeName, b.typeName),
  );
  const out = new Map<DescService, string>();
  for (let i = 0; i < unique.length; i++) {
    const service = unique[i]!;
    const exported = esServiceExportName(service);
    const qualified =
      service.file.proto.package
        .split(".")
        .filter((p) => p !== "")
        .map((p) => p[0]!.toUpperCase() + p.slice(1))
        .join("") + exported.replace(/\$/g, "");
    let local = exported;
    if (taken.has(local)) {
      local = qualified;
    }
    for (let n = 2; taken.has(local); n++) {
      local = `${qualified}${n}`;
    }
    taken.add(local);
    out.set(service, local);
  }
  return out;
}

type FormatSync = (source: string, options: { parser: string }) => string;

let formatSync: FormatSync | undefined;

/**
 * Format generated TypeScript as prettier does, with prettier's default
 * options (the file looks the same whatever the user's configuration).
 * Prettier 3 formats asynchronously; @prettier/sync runs it in a worker
 * thread and waits for it, so the plugin stays synchronous. Loaded on first
 * use: the other targets never pay for it.
 */
export function formatTs(source: string): string {
  if (formatSync === undefined) {
    const require = createRequire(import.meta.url);
    formatSync = (require("@prettier/sync") as { format: FormatSync }).format;
  }
  return formatSync(source, { parser: "typescript" });
}
