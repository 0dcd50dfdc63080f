import { createRequire } from "node:module";
import type { DescService } from "@bufbuild/protobuf";
import type { ProblemCollector } from "../errors.js";
import type { GeneratorModel } from "../model/model.js";
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
  const constNames = assignToolIdentifiers(
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
  problems.throwIfAny();

  const serviceNames = assignServiceImports(
    model.executors.map((t) => t.service),
    new Set([...constNames.values(), ...tsFileIdentifiers, ...tsReservedWords]),
  );
  const byModule = new Map<string, string[]>();
  for (const [service, local] of serviceNames) {
    const from = esModulePath(options.tsImportPath, service.file.proto.name);
    const exported = esServiceExportName(service);
    const list = byModule.get(from) ?? [];
    list.push(exported === local ? local : `${exported} as ${local}`);
    byModule.set(from, list);
  }
  const serviceImports: TsImportView[] = [...byModule.keys()]
    .sort(compareUtf8)
    .map((from) => ({
      names: byModule.get(from)!.sort(compareUtf8).join(", "),
      from: tsString(from),
    }));

  const tools: TsToolView[] = model.tools.map((tool) => ({
    constName: constNames.get(tool)!,
    rawName: tool.name,
    name: tsString(tool.name),
    description: tsString(tool.description),
    strict: String(tool.strict),
    parameters: tsLiteral(JSON.parse(tool.schemaJson) as JsonValue),
    element: tool.element,
  }));

  const executors: TsExecutorView[] = model.executors.map((tool) => {
    const local = tool.method.localName;
    const access = isTsIdentifier(local) ? `.${local}` : `[${tsString(local)}]`;
    return {
      constName: constNames.get(tool)!,
      method: `${serviceNames.get(tool.service)!}.method${access}`,
    };
  });

  // Written as the vectors write them: "" and false left out.
  const responseAliasTypes: TsResponseTypeView[] = model.responseAliasTypes.map(
    ([typeName, fields]) => ({
      key: tsString(typeName),
      fields: fields.map((f) =>
        tsLiteral({
          field: f.field,
          ...(f.prefix !== "" ? { prefix: f.prefix } : {}),
          ...(f.message !== "" ? { message: f.message } : {}),
          ...(f.map ? { map: true } : {}),
        }),
      ),
    }),
  );
  const toolResponseAliases: TsEntryView[] = model.toolResponseAliases.map(
    ([toolName, a]) => ({
      key: tsKey(toolName),
      value: tsLiteral({
        message: a.message,
        idPrefix: a.idPrefix,
        idField: a.idField,
      }),
    }),
  );

  return {
    fileName: tsFileName,
    runtimeModule: tsString(tsRuntimeModule),
    hasExecutors: model.hasExecutors,
    serviceImports,
    tools,
    responseAliasTypes,
    toolResponseAliases,
    knownAliasPrefixes: model.knownAliasPrefixes.map(tsString),
    executors,
  };
}

/**
 * The local name of each service the executors call: the name protoc-gen-es
 * exports it under, unless another service or a name of the file has it;
 * then the proto package in PascalCase is put before it
 * (`LinkhubV1LinkService`), and a number after that if need be.
 */
function assignServiceImports(
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
