import type { ProblemCollector } from "../../errors.js";
import { checkMcpServiceNames } from "../../model/mcp-services.js";
import type { GeneratorModel, McpServiceModel } from "../../model/model.js";
import {
  tsFileName,
  tsMethodExpr,
  tsResponseAliasTypes,
  tsRuntimeModule,
  tsServiceImports,
  tsToolConstNames,
  tsToolResponseAliases,
  tsExecutorSettings,
  tsValidatorImport,
  tsValidatorModule,
  toolMethodData,
  type TsCallOptions,
} from "./build-ts-view.js";
import { tsInstallComment } from "./ts-install.js";
import { tsLiteral, tsString } from "./ts-literal.js";
import { esImportsComment, tsReservedWords } from "./ts-names.js";
import type {
  TsMcpExtraAliasesView,
  TsMcpFileView,
  TsMcpServiceView,
} from "./ts-mcp-view.js";

/** The name of the TypeScript MCP file, beside ai_tools.gen.ts. */
export const tsMcpFileName = "ai_tools_mcp.gen.ts";

/**
 * Identifiers templates/ts/mcp-file.hbs declares or imports itself, besides
 * the per-service names (service descriptors are imported around them).
 */
export const tsMcpFileIdentifiers: readonly string[] = [
  // declared
  "mcpAliasConfig",
  // imported
  "aiTools",
  "AliasConfig",
  "McpHandlerOptions",
  "McpServiceOptions",
  "McpToolMethod",
  "McpToolServer",
  "ServiceImpl",
  "Transport",
  "createInProcessTransport",
  "createValidator",
];

/**
 * Shape the model for templates/ts/mcp-file.hbs: per service with tools
 * (model.mcpServices), its tools as `McpToolMethod`s over ai_tools.gen.ts's
 * constants, `register<Service>Handler` (the implementation on an
 * in-process transport) and `forwardTo<Service>Client` (a transport). Every
 * MCP tool is executed: the registration of tools the main file does not
 * execute is added here.
 */
export function buildTsMcpView(
  model: GeneratorModel,
  options: { readonly tsImportPath: string } & TsCallOptions,
  problems: ProblemCollector,
): TsMcpFileView {
  const constNames = tsToolConstNames(model, problems);
  problems.throwIfAny();
  const mcpTools = model.mcpServices.flatMap((s) => s.tools);

  checkMcpServiceNames(model.mcpServices, problems, tsServiceNames);
  const declared = new Set<string>();
  for (const s of model.mcpServices) {
    for (const name of tsServiceNames(s)) {
      declared.add(name);
      if (tsMcpFileIdentifiers.includes(name)) {
        problems.add({
          file: s.file,
          element: s.fullName,
          message: `the TypeScript MCP file declares ${name} itself, and would declare it for ${s.fullName} too; rename the service`,
        });
      }
    }
  }
  problems.throwIfAny();

  const { names: serviceNames, imports: serviceImports } = tsServiceImports(
    model.mcpServices.map((s) => s.service),
    new Set([...declared.keys(), ...tsMcpFileIdentifiers, ...tsReservedWords]),
    options.tsImportPath,
  );

  const services: TsMcpServiceView[] = model.mcpServices.map((s) => {
    const serviceLocal = serviceNames.get(s.service)!;
    return {
      fullName: s.fullName,
      serviceLocal,
      ...tsServiceView(s),
      tools: s.tools.map((t) => ({
        constName: constNames.get(t)!,
        method: tsMethodExpr(serviceLocal, t.method),
        outputSchema: tsLiteral(t.outputSchemaJson),
        outputWrapKey: tsString(t.outputWrapKey),
        readOnlyHint: String(t.hints.readOnly),
        destructiveHint: String(t.hints.destructive),
        idempotentHint: String(t.hints.idempotent),
        openWorldHint: String(t.hints.openWorld),
        data: [
          ...tsRequiredScopes(t.requiredScopes),
          ...toolMethodData(t).map(
            ([key, value]) => `${key}: ${tsLiteral(value)},`,
          ),
        ],
      })),
    };
  });

  const extraAliases = mcpOnlyAliases(model);
  return {
    fileName: tsMcpFileName,
    mcpRuntimeModule: tsString(`${tsRuntimeModule}/mcp`),
    runtimeModule: tsString(tsRuntimeModule),
    installComment: tsInstallComment(
      [
        tsRuntimeModule,
        "@modelcontextprotocol/server",
        ...(mcpTools.some((t) => t.validate) ? [tsValidatorModule] : []),
      ],
      "and @modelcontextprotocol/node to serve over HTTP",
    ),
    mainModule: tsString(`./${tsFileName.replace(/\.ts$/, ".js")}`),
    esImportsComment: esImportsComment(options.tsImportPath),
    serviceImports,
    extraAliases,
    aliasConfig:
      extraAliases === undefined ? "aiTools.aliasConfig" : "mcpAliasConfig",
    services,
    validatorImport: tsValidatorImport(mcpTools),
    // MCP results keep proto names whatever json_names says (docs/mcp.md).
    toolSetSettings: tsExecutorSettings(mcpTools, {
      lenientArguments: options.lenientArguments === true,
    }),
  };
}

/**
 * The registration entries of the tools the main file does not execute:
 * what the model's `mcpAliasTables` (every tool executed) hold beyond the
 * main file's tables; undefined when they hold nothing more.
 */
function mcpOnlyAliases(
  model: GeneratorModel,
): TsMcpExtraAliasesView | undefined {
  const all = model.mcpAliasTables;
  const types = new Set(model.responseAliasTypes.map(([name]) => name));
  const tools = new Set(model.toolResponseAliases.map(([name]) => name));
  const known = new Set(model.knownAliasPrefixes);
  const view = {
    prefixes: all.knownAliasPrefixes.filter((p) => !known.has(p)),
    types: all.responseAliasTypes.filter(([name]) => !types.has(name)),
    tools: all.toolResponseAliases.filter(([name]) => !tools.has(name)),
  };
  if (view.prefixes.length + view.types.length + view.tools.length === 0) {
    return undefined;
  }
  return {
    prefixes: view.prefixes.map(tsString),
    types: tsResponseAliasTypes(view.types),
    tools: tsToolResponseAliases(view.tools),
  };
}

/**
 * The names the MCP file declares for `service`: its tools,
 * `register<Service>Handler` and `forwardTo<Service>Client`.
 */
function tsServiceNames(service: McpServiceModel): readonly string[] {
  const view = tsServiceView(service);
  return [view.toolsName, view.registerName, view.forwardName];
}

function tsServiceView(service: McpServiceModel): {
  readonly toolsName: string;
  readonly registerName: string;
  readonly forwardName: string;
} {
  const name = service.name;
  return {
    toolsName: `${name[0]!.toLowerCase()}${name.slice(1)}Tools`,
    registerName: `register${name}Handler`,
    forwardName: `forwardTo${name}Client`,
  };
}

/**
 * The `requiredScopes` line of an MCP tool entry (none when the tool
 * requires no scope), broken one scope a line as prettier breaks an
 * array over 80 columns at the entry's indentation.
 */
export function tsRequiredScopes(scopes: readonly string[]): string[] {
  if (scopes.length === 0) {
    return [];
  }
  const quoted = scopes.map(tsString);
  const line = `requiredScopes: [${quoted.join(", ")}],`;
  if (entryIndent.length + line.length <= 80) {
    return [line];
  }
  const inner = `${entryIndent}  `;
  return [
    `requiredScopes: [\n${quoted.map((q) => `${inner}${q},\n`).join("")}${entryIndent}],`,
  ];
}

/** The indentation of a tool entry's properties in templates/ts/mcp-service.hbs. */
const entryIndent = "    ";
