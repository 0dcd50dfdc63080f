import type { ProblemCollector } from "../../errors.js";
import { checkMcpServiceNames } from "../../model/mcp-services.js";
import type {
  GeneratorModel,
  McpServiceModel,
  ToolModel,
} from "../../model/model.js";
import { alignKeys } from "./go-align.js";
import {
  goApprovalEntries,
  goArgumentEntries,
  goFullMethod,
  goMethodEntries,
  goCallTableImports,
  goCallTablesView,
  goTimeoutEntries,
  goValidatorAssignment,
  goValidatorImport,
  type GoCallOptions,
} from "./go-call-tables.js";
import {
  assignGoPackages,
  goFileNames,
  goImportGroups,
  goMainValidates,
  goStructLiteral,
  goToolSearchVar,
} from "./build-go-view.js";
import { goCamelCase, goMessageName } from "./go-camel-case.js";
import {
  goConnectCall,
  goConnectImport,
  goConnectNames,
  goConnectServiceView,
} from "./go-connect.js";
import { goFileIdentifiers } from "./go-imports.js";
import {
  goCompatDeclarations,
  goCompatLocalNames,
  goCompatNames,
  goCompatServiceView,
} from "./go-mcp-compat.js";
import { goQuote } from "./go-quote.js";
import {
  goConnectRuntimeNames,
  goRuntimeBeside,
  goRuntimeNames,
  type GoFeatures,
  type GoImport,
} from "./go-runtime.js";
import type {
  GoMcpFileView,
  GoMcpServiceView,
  GoMcpToolView,
} from "./go-mcp-view.js";

/** The name of the MCP file, beside ai_tools.gen.go. */
export const goMcpFileName = "ai_tools_mcp.gen.go";

/** Local names of the MCP file's functions: no import may take them. */
export const goMcpLocalNames: readonly string[] = [
  "args",
  "client",
  "conn",
  "ctx",
  "e",
  "impl",
  "opts",
  "s",
  "server",
  "tools",
];

/** Imports of the MCP file's own code (templates/go/mcp-file.hbs). */
const templateImports: readonly GoImport[] = [
  { name: "context", path: "context" },
  { name: "json", path: "encoding/json" },
  { name: "mcp", path: "github.com/modelcontextprotocol/go-sdk/mcp" },
  { name: "grpc", path: "google.golang.org/grpc" },
];

/**
 * Shape the model for templates/go/mcp-file.hbs: per service with tools,
 * `Register<Service>Handler` and `ForwardTo<Service>Client` over the tools'
 * records, and the runtime code the main file does not already hold. The
 * function names must not take a name the package already declares. A
 * proto file's Go package is at the path `importMap` gives it (`M<file>=`
 * options), else at its go_package. With `options.connect` (go_connect=true),
 * each service also gets `Connect<Service>Client` and
 * `ForwardToConnect<Service>Client` (go-connect.ts).
 */
export function buildGoMcpView(
  model: GeneratorModel,
  problems: ProblemCollector,
  importMap?: ReadonlyMap<string, string>,
  options: GoCallOptions & {
    readonly connect?: boolean;
    readonly compat?: boolean;
    /** The option tool_search=true: the main file has the toolsearch part. */
    readonly toolSearch?: boolean;
  } = {},
): GoMcpFileView {
  const connect = options.connect === true;
  const compat = options.compat === true;
  const toolSearch = options.toolSearch === true;
  // The main file's names (and problems), without building its view.
  const { varNames } = goFileNames(model, problems, importMap, toolSearch);
  const tools = model.mcpServices.flatMap((s) => s.tools);
  const packages = assignGoPackages(
    tools,
    problems,
    importMap,
    [
      ...goMcpLocalNames,
      ...(connect ? goConnectRuntimeNames : []),
      ...(compat ? goCompatLocalNames : []),
    ],
    connect || compat,
    toolSearch,
  );
  const toolByVar = new Map([...varNames].map(([tool, v]) => [v, tool]));
  const declared = new Set([
    ...goFileIdentifiers,
    ...goRuntimeNames(toolSearch).declarations,
    ...(toolSearch ? [goToolSearchVar] : []),
  ]);
  const declaredFor = (service: McpServiceModel): readonly string[] => [
    ...goServiceFunctions(service),
    ...(connect ? goConnectNames(service) : []),
    ...(compat ? goCompatNames(service) : []),
  ];
  checkMcpServiceNames(model.mcpServices, problems, declaredFor);
  for (const service of model.mcpServices) {
    for (const fn of declaredFor(service)) {
      const tool = toolByVar.get(fn) ?? service.tools[0]!;
      if (toolByVar.has(fn) || declared.has(fn)) {
        problems.add({
          file: tool.file,
          element: tool.element,
          message: `the Go MCP file declares ${fn} for service ${service.fullName}, which is also the Go identifier of tool ${JSON.stringify(tool.name)}; rename the tool`,
        });
      }
    }
  }
  for (const name of compat ? goCompatDeclarations.names : []) {
    const tool = toolByVar.get(name);
    if (tool !== undefined) {
      problems.add({
        file: tool.file,
        element: tool.element,
        message: `with go_mcp_compat=true the Go MCP file declares ${name} (protoc-gen-go-mcp's name), which is also the Go identifier of tool ${JSON.stringify(tool.name)}; rename the tool or leave go_mcp_compat out`,
      });
    }
  }
  problems.throwIfAny();

  const mainFeatures: GoFeatures = {
    aliases: model.hasAliases,
    executors: model.hasExecutors,
    streaming: model.executors.some((t) => t.serverStreaming),
    mcp: false,
    providers: true,
    toolsearch: toolSearch,
  };
  const runtime = goRuntimeBeside(mainFeatures, {
    ...mainFeatures,
    executors: true,
    mcp: true,
    connect,
  });
  // The call tables: declared here when the main file has no executors,
  // else completed by init with the tools only MCP executes; validation is
  // on whenever a tool's request has buf.validate rules.
  const validates = tools.some((t) => t.validate);
  const mainValidates = goMainValidates(model, options);
  const callTables = model.hasExecutors
    ? undefined
    : goCallTablesView(tools, options, validates);
  const initLines = [
    ...(model.hasAliases ? aliasTableLines(model) : []),
    ...(model.hasExecutors ? callTableLines(model, tools) : []),
    ...(model.hasExecutors && validates && !mainValidates
      ? [goValidatorAssignment]
      : []),
  ];
  const imports = new Map<string, GoImport>();
  for (const imp of [
    ...templateImports,
    ...(callTables !== undefined ||
    initLines.some((l) => l.startsWith("toolTimeouts["))
      ? [goCallTableImports[0]!]
      : []),
    ...(callTables !== undefined || initLines.includes(goValidatorAssignment)
      ? [goCallTableImports[1]!]
      : []),
    ...((callTables?.validator ?? false) ||
    initLines.includes(goValidatorAssignment)
      ? [goValidatorImport]
      : []),
    ...(connect ? [goConnectImport] : []),
    ...runtime.imports,
  ]) {
    imports.set(imp.path, imp);
  }

  const services: GoMcpServiceView[] = model.mcpServices.map((service) => {
    const pkg = packages.get(service.file)!.name;
    const name = goCamelCase(service.name);
    const [registerName, forwardName, toolsVar] = goServiceFunctions(service);
    const compatView = compat
      ? goCompatServiceView(service, packages)
      : undefined;
    return {
      fullName: service.fullName,
      registerName: registerName!,
      forwardName: forwardName!,
      toolsVar: toolsVar!,
      serverType: compatView?.serverName ?? `${pkg}.${name}Server`,
      registerServer: `${pkg}.Register${name}Server`,
      servedImpl:
        compatView === undefined
          ? "impl"
          : `${compatView.grpcServerName}{${compatView.serverName}: impl}`,
      clientType: `${pkg}.${name}Client`,
      newClient: `${pkg}.New${name}Client`,
      tools: service.tools.map((tool) => ({
        ...toolView(tool, varNames, packages),
        ...(connect
          ? { connectCall: goConnectCall(tool, varNames.get(tool)!, packages) }
          : {}),
      })),
      connect: connect
        ? goConnectServiceView(service, packages, importMap)
        : undefined,
      compat: compatView,
    };
  });

  return {
    fileName: goMcpFileName,
    importGroups: goImportGroups(imports.values(), packages.values()),
    services,
    compat,
    callTables,
    initLines,
    runtime: runtime.code,
  };
}

function toolView(
  tool: ToolModel,
  varNames: ReadonlyMap<ToolModel, string>,
  packages: ReadonlyMap<string, { readonly name: string }>,
): GoMcpToolView {
  const varName = varNames.get(tool)!;
  const lines: [string, string][] = [
    ["tool", varName],
    ["Method", goQuote(goFullMethod(tool))],
    ["output", `json.RawMessage(${goQuote(tool.outputSchemaJson)})`],
  ];
  if (tool.outputWrapKey !== "") {
    lines.push(["wrap", goQuote(tool.outputWrapKey)]);
  }
  // The true hints only, as hand-written Go would: false is the zero
  // value, and the runtime lists all four either way (docs/mcp.md).
  const { readOnly, destructive, idempotent, openWorld } = tool.hints;
  const hints = { readOnly, destructive, idempotent, openWorld };
  for (const [key, value] of Object.entries(hints)) {
    if (value) {
      lines.push([key, "true"]);
    }
  }
  if (tool.requiredScopes.length > 0) {
    lines.push([
      "RequiredScopes",
      `[]string{${tool.requiredScopes.map(goQuote).join(", ")}}`,
    ]);
  }
  if (tool.needsApproval) {
    lines.push(["NeedsApproval", "true"]);
  }
  const keys = alignKeys(lines.map(([key, value]) => ({ key, value })));
  const requestPkg = packages.get(tool.input.file.proto.name)!.name;
  const request = `${requestPkg}.${goMessageName(tool.input.typeName, tool.input.file.proto.package)}`;
  const helper = tool.serverStreaming ? "mcpStream" : "mcpUnary";
  return {
    fields: lines.map(([, value], i) => `${keys[i]!}${value},`),
    call: `${helper}(ctx, e, ${varName}, args, &${request}{}, client.${goCamelCase(tool.method.name)})`,
  };
}

/**
 * The registration entries of the tools the main file does not execute:
 * what the model's `mcpAliasTables` (every tool executed) hold beyond the
 * main file's tables, as statements of an init function.
 */
function aliasTableLines(model: GeneratorModel): string[] {
  const all = model.mcpAliasTables;
  const types = new Set(model.responseAliasTypes.map(([name]) => name));
  const tools = new Set(model.toolResponseAliases.map(([name]) => name));
  const known = new Set(model.knownAliasPrefixes);
  const lines: string[] = [];
  for (const [name, fields] of all.responseAliasTypes) {
    if (types.has(name)) continue;
    const literals = fields.map((f) =>
      goStructLiteral([
        ["field", goQuote(f.field)],
        ["prefix", f.prefix === "" ? "" : goQuote(f.prefix)],
        ["message", f.message === "" ? "" : goQuote(f.message)],
        ["isMap", f.map ? "true" : ""],
        ["anyValue", f.anyValue ? "true" : ""],
      ]),
    );
    lines.push(
      `responseAliasTypes[${goQuote(name)}] = []responseAliasField{${literals.join(", ")}}`,
    );
  }
  for (const prefix of all.knownAliasPrefixes) {
    if (!known.has(prefix)) {
      lines.push(`knownAliasPrefixes[${goQuote(prefix)}] = true`);
    }
  }
  for (const [name, t] of all.toolResponseAliases) {
    if (tools.has(name)) continue;
    const literal = goStructLiteral([
      ["message", goQuote(t.message)],
      ["idPrefix", t.idPrefix === "" ? "" : goQuote(t.idPrefix)],
      ["idField", t.idField === "" ? "" : goQuote(t.idField)],
    ]);
    lines.push(
      `toolResponseAliases[${goQuote(name)}] = responseAliasTool${literal}`,
    );
  }
  return lines;
}

/**
 * The argument tables and deadlines of the tools the main file does not
 * execute, as statements of an init function.
 */
function callTableLines(
  model: GeneratorModel,
  tools: readonly ToolModel[],
): string[] {
  const executed = new Set(model.executors);
  const others = tools.filter((t) => !executed.has(t));
  return [
    ...goArgumentEntries(others).map(([k, v]) => `toolArguments[${k}] = ${v}`),
    ...goTimeoutEntries(others).map(([k, v]) => `toolTimeouts[${k}] = ${v}`),
    ...goApprovalEntries(others).map(([k]) => `toolNeedsApproval[${k}] = true`),
    ...goMethodEntries(others).map(([k, v]) => `toolMethods[${k}] = ${v}`),
  ];
}

/**
 * The MCP declarations of `service`: `Register<Service>Handler`,
 * `ForwardTo<Service>Client` and the tool table `<service>MCPTools`.
 */
function goServiceFunctions(service: McpServiceModel): readonly string[] {
  const name = goCamelCase(service.name);
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  return [
    `Register${name}Handler`,
    `ForwardTo${name}Client`,
    `${lower}MCPTools`,
  ];
}
