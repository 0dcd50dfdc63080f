import { createRequire } from "node:module";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import type { ProblemCollector } from "../errors.js";
import type { GeneratorModel, ToolModel } from "../model/model.js";
import type {
  ResponseAliasField,
  ResponseAliasTool,
} from "../model/response-aliases.js";
import { assignToolIdentifiers } from "../model/tool-identifiers.js";
import { compareUtf8 } from "../schema/canonical-json.js";
import type { JsonValue } from "../schema/json-schema.js";
import { tsKey, tsLiteral, tsString } from "./ts-literal.js";
import {
  esModulePath,
  esServiceExportName,
  isTsIdentifier,
  tsCamelCase,
  tsReservedWords,
} from "./ts-names.js";
import type {
  TsEntryView,
  TsExecutorView,
  TsFileView,
  TsImportView,
  TsResponseTypeView,
  TsToolView,
} from "./ts-view.js";

/** The name of the TypeScript file, at the root of the output directory. */
export const tsFileName = "ai_tools.gen.ts";

/** The package the generated file imports its behaviour from. */
export const tsRuntimeModule = "@ai-tools/runtime";

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
 * Shape the model for the TypeScript templates: constant names, imports of
 * the protoc-gen-es output, quoted literals. Problems only TypeScript has
 * (identifier collisions) are added to `problems`.
 */
export function buildTsView(
  model: GeneratorModel,
  options: { readonly tsImportPath: string },
  problems: ProblemCollector,
): TsFileView {
  const constNames = tsToolConstNames(model, problems);
  problems.throwIfAny();

  const { names: serviceNames, imports: serviceImports } = tsServiceImports(
    model.executors.map((t) => t.service),
    new Set([...constNames.values(), ...tsFileIdentifiers, ...tsReservedWords]),
    options.tsImportPath,
  );

  const tools: TsToolView[] = model.tools.map((tool) => ({
    constName: constNames.get(tool)!,
    rawName: tool.name,
    name: tsString(tool.name),
    description: tsString(tool.description),
    strict: String(tool.strict),
    parameters: tsLiteral(JSON.parse(tool.schemaJson) as JsonValue),
    element: tool.element,
  }));

  const executors: TsExecutorView[] = model.executors.map((tool) => ({
    constName: constNames.get(tool)!,
    method: tsMethodExpr(serviceNames.get(tool.service)!, tool.method),
  }));

  return {
    fileName: tsFileName,
    runtimeModule: tsString(tsRuntimeModule),
    hasExecutors: model.hasExecutors,
    serviceImports,
    tools,
    responseAliasTypes: tsResponseAliasTypes(model.responseAliasTypes),
    toolResponseAliases: tsToolResponseAliases(model.toolResponseAliases),
    knownAliasPrefixes: model.knownAliasPrefixes.map(tsString),
    executors,
  };
}

/**
 * The constant of each tool in ai_tools.gen.ts (`linksCreate`); collisions
 * go to `problems`.
 */
export function tsToolConstNames(
  model: GeneratorModel,
  problems: ProblemCollector,
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
      taken: new Set(tsFileIdentifiers),
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
): { names: Map<DescService, string>; imports: TsImportView[] } {
  const names = assignServiceImports(services, taken);
  const byModule = new Map<string, string[]>();
  for (const [service, local] of names) {
    const from = esModulePath(tsImportPath, service.file.proto.name);
    const exported = esServiceExportName(service);
    const list = byModule.get(from) ?? [];
    list.push(exported === local ? local : `${exported} as ${local}`);
    byModule.set(from, list);
  }
  const imports = [...byModule.keys()].sort(compareUtf8).map((from) => ({
    names: byModule.get(from)!.sort(compareUtf8).join(", "),
    from: tsString(from),
  }));
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
    fields: fields.map((f) =>
      tsLiteral({
        field: f.field,
        ...(f.prefix !== "" ? { prefix: f.prefix } : {}),
        ...(f.message !== "" ? { message: f.message } : {}),
        ...(f.map ? { map: true } : {}),
      }),
    ),
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
  for (const service of unique) {
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
