import type { DescFile } from "../../read/descriptors.js";
import type { ProblemCollector } from "../../errors.js";
import type { GeneratorModel, ToolModel } from "../../model/model.js";
import { assignToolIdentifiers } from "../../model/tool-identifiers.js";
import { compareUtf8 } from "../../schema/canonical-json.js";
import { alignKeys } from "./go-align.js";
import {
  goCallTableImports,
  goCallTablesView,
  goValidatorImport,
  type GoCallOptions,
} from "./go-call-tables.js";
import { goCamelCase, goMessageName } from "./go-camel-case.js";
import {
  goFileIdentifiers,
  goLocalNames,
  goTemplateImports,
  isGoStdImport,
} from "./go-imports.js";
import {
  goKeywordsAndPredeclared,
  goPackageName,
  goPascalCase,
  isGoIdentifier,
} from "./go-names.js";
import { goQuote, goRawQuote } from "./go-quote.js";
import {
  goRuntime,
  goRuntimeNames,
  type GoFeatures,
  type GoImport,
} from "./go-runtime.js";
import type {
  GoExecutorView,
  GoFileView,
  GoImportGroup,
  GoMapEntry,
  GoToolView,
} from "./go-view.js";

const noImportMap: ReadonlyMap<string, string> = new Map();

/** The name of the Go file, at the root of the output directory. */
export const goFileName = "ai_tools.gen.go";

const primaryPrefixComment = " // use the tool's primary prefix";

/**
 * The variable of the tool-search data (option tool_search=true): not
 * `ToolSearch`, the runtime's type of it, which the file inlines.
 */
export const goToolSearchVar = "ToolSearchData";

/**
 * Shape the model for the Go templates: identifiers, quoted literals,
 * aligned map entries and imports. Problems only Go has (identifier
 * collisions, missing go_package) are added to `problems`.
 */
export function buildGoView(
  model: GeneratorModel,
  problems: ProblemCollector,
  options: {
    /** go_package by proto file, from `M<file>=` options (go-import-map.ts). */
    readonly importMap?: ReadonlyMap<string, string>;
    /** The option tool_search=true: the file declares ToolSearchData. */
    readonly toolSearch?: boolean;
  } & GoCallOptions = {},
): GoFileView {
  const toolSearch = options.toolSearch === true;
  const { varNames, packages } = goFileNames(
    model,
    problems,
    options.importMap,
    toolSearch,
  );

  const features: GoFeatures = {
    aliases: model.hasAliases,
    executors: model.hasExecutors,
    streaming: model.executors.some((t) => t.serverStreaming),
    mcp: false,
    providers: true,
    toolsearch: toolSearch,
  };
  const runtime = goRuntime(features);
  const validator = goMainValidates(model, options);
  const imports = new Map<string, GoImport>();
  for (const imp of [
    ...goTemplateImports(features),
    ...(features.executors ? goCallTableImports : []),
    ...(validator ? [goValidatorImport] : []),
    ...runtime.imports,
  ]) {
    imports.set(imp.path, imp);
  }
  const importGroups = goImportGroups(imports.values(), packages.values());

  const tools: GoToolView[] = model.tools.map((tool) => {
    const name = goQuote(tool.name);
    const description = goQuote(tool.description);
    const parameters = goQuote(tool.schemaJson);
    const keys = alignKeys([
      { key: "Name", value: name },
      { key: "Description", value: description },
      { key: "Strict", value: String(tool.strict) },
      { key: "Parameters", value: `json.RawMessage(${parameters})` },
    ]);
    return {
      varName: varNames.get(tool)!,
      name,
      description,
      strict: String(tool.strict),
      parameters,
      nameKey: keys[0]!,
      descriptionKey: keys[1]!,
      strictKey: keys[2]!,
      parametersKey: keys[3]!,
    };
  });

  const executors: GoExecutorView[] = model.executors.map((tool) => {
    const requestPkg = packages.get(tool.input.file.proto.name)!;
    const servicePkg = packages.get(tool.service.file.proto.name)!;
    return {
      funcName: "Execute" + varNames.get(tool)!,
      name: goQuote(tool.name),
      rpcName: tool.element,
      requestType: `${requestPkg.name}.${goMessageName(tool.input.typeName, tool.input.file.proto.package)}`,
      clientConstructor: `${servicePkg.name}.New${goCamelCase(tool.service.name)}Client`,
      method: goCamelCase(tool.method.name),
      strict: String(tool.strict),
      serverStreaming: tool.serverStreaming,
      needsApproval: tool.needsApproval,
    };
  });

  return {
    fileName: goFileName,
    singleImport:
      importGroups.length === 1 && importGroups[0]!.lines.length === 1,
    importGroups,
    tools,
    hasAliases: model.hasAliases,
    hasExecutors: model.hasExecutors,
    responseFieldPrefixes: mapEntries(
      model.responseFieldPrefixes.map(([k, v]) => [
        goQuote(k),
        goQuote(v),
        v === "" ? primaryPrefixComment : "",
      ]),
    ),
    knownAliasPrefixes: mapEntries(
      model.knownAliasPrefixes.map((p) => [goQuote(p), "true", ""]),
    ),
    responseAliasTypes: model.responseAliasTypes.map(([name, fields]) => ({
      name: goQuote(name),
      fields: fields.map((f) =>
        goStructLiteral([
          ["field", goQuote(f.field)],
          ["prefix", f.prefix === "" ? "" : goQuote(f.prefix)],
          ["message", f.message === "" ? "" : goQuote(f.message)],
          ["isMap", f.map ? "true" : ""],
          ["anyValue", f.anyValue ? "true" : ""],
        ]),
      ),
    })),
    // Each entry names the generated tool's Parameters: the forms apply
    // only to a tool declared with them (provider_forms.go, formsOf).
    toolProviderForms: mapEntries(
      model.tools.map((tool) => [
        goQuote(tool.name),
        `{${varNames.get(tool)!}.Parameters, ${goRawQuote(tool.formsJson)}}`,
        "",
      ]),
    ),
    toolResponseAliases: mapEntries(
      model.toolResponseAliases.map(([tool, t]) => [
        goQuote(tool),
        goStructLiteral([
          ["message", goQuote(t.message)],
          ["idPrefix", t.idPrefix === "" ? "" : goQuote(t.idPrefix)],
          ["idField", t.idField === "" ? "" : goQuote(t.idField)],
        ]),
        "",
      ]),
    ),
    runtime: runtime.code,
    toolSearch: toolSearch ? goRawQuote(model.toolSearchJson) : "",
    executors,
    callTables: model.hasExecutors
      ? goCallTablesView(model.executors, options, validator)
      : undefined,
  };
}

/**
 * True when ai_tools.gen.go sets up validateRequest: with the plugin option
 * validate=true, when an executor's request has buf.validate rules.
 */
export function goMainValidates(
  model: GeneratorModel,
  options: GoCallOptions,
): boolean {
  return options.validate === true && model.executors.some((t) => t.validate);
}

/**
 * The names ai_tools.gen.go gives: each tool's variable and the packages its
 * executors import; with `toolSearch` (tool_search=true) the names of the
 * tool-search code are taken too. Throws the problems (collisions, missing
 * go_package).
 */
export function goFileNames(
  model: GeneratorModel,
  problems: ProblemCollector,
  importMap: ReadonlyMap<string, string> = noImportMap,
  toolSearch = false,
): {
  varNames: Map<ToolModel, string>;
  packages: Map<string, GoPackage>;
} {
  const varNames = assignToolIdentifiers(
    model.tools,
    {
      kind: "Go identifier",
      shape: goPascalCase,
      invalid: (id) =>
        isGoIdentifier(id)
          ? undefined
          : `the Go identifier ${JSON.stringify(id)}, which is not valid Go; start each "_"-separated part with a letter`,
      reservedWords: new Set(),
      taken: new Set([
        ...goFileIdentifiers,
        ...goRuntimeNames(toolSearch).declarations,
        ...(toolSearch ? [goToolSearchVar] : []),
      ]),
      takenBy: "the generated file already declares",
    },
    problems,
  );
  const packages = assignGoPackages(
    model.executors,
    problems,
    importMap,
    [],
    false,
    toolSearch,
  );
  problems.throwIfAny();
  return { varNames, packages };
}

/**
 * The import block's groups: the standard library, other modules, then the
 * packages of the protos, each sorted by path.
 */
export function goImportGroups(
  imports: Iterable<GoImport>,
  packages: Iterable<GoPackage>,
): GoImportGroup[] {
  const importLine = (imp: GoImport): string => {
    const last = imp.path.slice(imp.path.lastIndexOf("/") + 1);
    return imp.name === last
      ? goQuote(imp.path)
      : `${imp.name} ${goQuote(imp.path)}`;
  };
  const byPath = [...imports].sort((a, b) => compareUtf8(a.path, b.path));
  const std = byPath.filter((i) => isGoStdImport(i.path)).map(importLine);
  const modules = byPath.filter((i) => !isGoStdImport(i.path)).map(importLine);
  const own = [...new Map([...packages].map((p) => [p.importPath, p])).values()]
    .sort((a, b) => compareUtf8(a.importPath, b.importPath))
    .map((p) => `${p.name} ${goQuote(p.importPath)}`);
  return [std, modules, own]
    .filter((g) => g.length > 0)
    .map((lines) => ({ lines }));
}

/** `{a: x, b: y}`, leaving out the fields whose value is "" (zero). */
export function goStructLiteral(
  fields: readonly (readonly [string, string])[],
): string {
  const set = fields.filter(([, v]) => v !== "");
  return `{${set.map(([k, v]) => `${k}: ${v}`).join(", ")}}`;
}

function mapEntries(
  entries: readonly (readonly [string, string, string])[],
): GoMapEntry[] {
  const keys = alignKeys(entries.map(([key, value]) => ({ key, value })));
  return entries.map(([, value, comment], i) => ({
    key: keys[i]!,
    value,
    comment,
  }));
}

const allFeatures: GoFeatures = {
  aliases: true,
  executors: true,
  streaming: true,
  mcp: false,
  providers: true,
};

/** A Go package the file imports: its path and the name it has there. */
export interface GoPackage {
  readonly importPath: string;
  readonly name: string;
}

/**
 * The Go packages the calls of `tools` refer to, keyed by proto file name:
 * the request message's file and the service's file, each at the import
 * path `importMap` gives it (`M<file>=` options), else its go_package. Each
 * import path gets its own name, unique in the file, and none of
 * `alsoTaken` (the local names of the file's code). With `outputs`, the
 * response message's file too (the MCP file's connect-go interfaces).
 * With `toolSearch` (tool_search=true), none of the tool-search code's
 * names either.
 */
export function assignGoPackages(
  tools: readonly ToolModel[],
  problems: ProblemCollector,
  importMap: ReadonlyMap<string, string> = noImportMap,
  alsoTaken: readonly string[] = [],
  outputs = false,
  toolSearch = false,
): Map<string, GoPackage> {
  const files = new Map<
    string,
    { file: DescFile; tool: ToolModel; what: string }
  >();
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    if (!files.has(tool.service.file.proto.name)) {
      files.set(tool.service.file.proto.name, {
        file: tool.service.file,
        tool,
        what: `the client of ${tool.service.typeName}`,
      });
    }
    if (!files.has(tool.input.file.proto.name)) {
      files.set(tool.input.file.proto.name, {
        file: tool.input.file,
        tool,
        what: `the request type ${tool.input.typeName}`,
      });
    }
    if (outputs && !files.has(tool.output.file.proto.name)) {
      files.set(tool.output.file.proto.name, {
        file: tool.output.file,
        tool,
        what: `the response type ${tool.output.typeName}`,
      });
    }
  }
  const byPath = new Map<string, { wanted: string; files: string[] }>();
  for (const [name, { file, tool, what }] of files) {
    const goPackage =
      importMap.get(name) ?? file.proto.options?.goPackage ?? "";
    if (goPackage === "") {
      problems.add({
        file: name,
        element: tool.element,
        message: `the Go executor of tool ${JSON.stringify(tool.name)} needs the Go import path of ${what}, but ${name} has no go_package; add option go_package = "example.com/your/module/path;pkgname" to it, or give this plugin the M option protoc-gen-go takes (M${name}=example.com/your/module/path), or use buf's managed mode (go_package_prefix)`,
      });
      continue;
    }
    const { importPath, name: wanted } = goPackageName(goPackage);
    const entry = byPath.get(importPath) ?? { wanted, files: [] };
    entry.files.push(name);
    byPath.set(importPath, entry);
  }
  const taken = new Set<string>([
    ...goKeywordsAndPredeclared,
    ...goFileIdentifiers,
    ...goRuntimeNames(toolSearch).declarations,
    ...goRuntimeNames(toolSearch).identifiers,
    ...(toolSearch ? [goToolSearchVar] : []),
    ...[
      ...goTemplateImports(allFeatures),
      ...goCallTableImports,
      goValidatorImport,
      ...goRuntime(allFeatures).imports,
    ].map((i) => i.name),
    ...goLocalNames,
    ...alsoTaken,
    "gentools",
  ]);
  const out = new Map<string, GoPackage>();
  for (const importPath of [...byPath.keys()].sort(compareUtf8)) {
    const { wanted, files: fileNames } = byPath.get(importPath)!;
    const name = uniqueName(wanted, importPath, taken);
    taken.add(name);
    for (const f of fileNames) {
      out.set(f, { importPath, name });
    }
  }
  return out;
}

function uniqueName(
  wanted: string,
  importPath: string,
  taken: ReadonlySet<string>,
): string {
  if (!taken.has(wanted)) {
    return wanted;
  }
  const parts = importPath.split("/");
  const parent = (parts[parts.length - 2] ?? "")
    .replace(/[^A-Za-z0-9_]/g, "")
    .toLowerCase();
  if (parent !== "" && !/^[0-9]/.test(parent) && !taken.has(parent + wanted)) {
    return parent + wanted;
  }
  for (let n = 2; ; n++) {
    if (!taken.has(`${wanted}${n}`)) {
      return `${wanted}${n}`;
    }
  }
}
