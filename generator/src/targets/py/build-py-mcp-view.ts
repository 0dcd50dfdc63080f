import type { ProblemCollector } from "../../errors.js";
import { checkMcpServiceNames } from "../../model/mcp-services.js";
import type { GeneratorModel, McpServiceModel } from "../../model/model.js";
import { compareUtf8 } from "../../schema/canonical-json.js";
import {
  assignImports,
  pyAliasConfigNames,
  pyAliasConfigView,
  pyFileName,
  pyToolConstNames,
  pyToolMethodData,
  sortExports,
  type PyCallOptions,
} from "./build-py-view.js";
import { pyBlockIndent, pyImportStatements } from "./py-imports.js";
import { isPyIdentifier, pyKeywords, pyUpperSnake } from "./py-names.js";
import { pyQuote } from "./py-quote.js";
import { pyRuntimeMissing } from "./py-runtime.js";
import type { PyAliasConfigView } from "./py-view.js";

/** The name of the Python MCP module, beside ai_tools_gen.py. */
export const pyMcpFileName = "ai_tools_mcp_gen.py";

/** The module name of ai_tools_gen.py, as the MCP module imports it. */
const mainModule = pyFileName.replace(/\.py$/, "");

/**
 * What templates/py/mcp-file.hbs prints. Every string is finished Python
 * text: literals quoted by pyQuote, names checked; the template only
 * iterates and prints.
 */
export interface PyMcpFileView {
  /** Always "ai_tools_mcp_gen.py". */
  readonly fileName: string;
  /** The proto files of the services, for the header comment. */
  readonly sources: readonly string[];
  /**
   * The runtime's import statements, indented for the `try:` block
   * (templates/py/runtime-imports.hbs), in isort's order.
   */
  readonly runtimeImports: readonly string[];
  /**
   * The message of the ImportError raised when the runtime or its mcp
   * extra is missing: the pip line (pyRuntimeMissing).
   */
  readonly runtimeMissing: readonly string[];
  /** The other third-party import statements, in isort's order. */
  readonly thirdPartyImports: readonly string[];
  /** Import statements of ai_tools_gen and the grpcio-tools output. */
  readonly ownImports: readonly string[];
  /** `__all__` entries, quoted, in ruff's (RUF022) order. */
  readonly exports: readonly string[];
  /**
   * MCP_ALIAS_CONFIG's arguments when the MCP tools register more than
   * ai_tools_gen.ALIAS_CONFIG does (tools without `auto_execute`); null
   * when it is that one.
   */
  readonly ownAliasConfig: PyAliasConfigView | null;
  readonly services: readonly PyMcpServiceView[];
}

/** One service with tools: its tuple of tools and its two functions. */
export interface PyMcpServiceView {
  /** `linkhub.v1.LinkService`. */
  readonly fullName: string;
  /** `LINK_SERVICE_TOOLS`. */
  readonly toolsName: string;
  /** `register_link_service_handler`. */
  readonly registerName: string;
  /** `forward_to_link_service_client`. */
  readonly forwardName: string;
  /** `linkhub_links_pb2_grpc.LinkServiceServicer`. */
  readonly servicerType: string;
  /** `linkhub_links_pb2_grpc.add_LinkServiceServicer_to_server`. */
  readonly addServicer: string;
  readonly tools: readonly PyMcpToolView[];
}

/** One McpToolMethod of a service. */
export interface PyMcpToolView {
  /** `ai_tools_gen.LINKS_CREATE`. */
  readonly tool: string;
  /** The quoted gRPC method path. */
  readonly method: string;
  readonly requestType: string;
  readonly responseType: string;
  /** `True` or `False`. */
  readonly serverStreaming: string;
  /** The quoted canonical output schema JSON. */
  readonly outputSchema: string;
  /** The quoted wrap key (`""`, `"messages"`, `"value"`). */
  readonly outputWrapKey: string;
  /** `True` or `False`, each hint (docs/mcp.md, "Tool hints"). */
  readonly readOnlyHint: string;
  readonly destructiveHint: string;
  readonly idempotentHint: string;
  readonly openWorldHint: string;
  /**
   * Keyword arguments of the required scopes, the argument table, the
   * deadline, `validate` and `needs_approval`, those set.
   */
  readonly data: readonly string[];
}

/**
 * Shape the model for templates/py/mcp-file.hbs: per service with tools
 * (model.mcpServices), the tools as `McpToolMethod`s over ai_tools_gen's
 * tool constants, `register_<service>_handler` (an in-process servicer) and
 * `forward_to_<service>_client` (a channel), and MCP_ALIAS_CONFIG, the alias
 * tables of every tool: every MCP tool is executed. Each tool carries its
 * argument table, deadline and `validate` flag; the runtime's McpToolServer
 * makes the protovalidate validator itself when a tool needs one and takes
 * `lenient_arguments` as its own option, so this file imports neither.
 */
export function buildPyMcpView(
  model: GeneratorModel,
  options: { readonly pyPackage: string } & PyCallOptions,
  problems: ProblemCollector,
): PyMcpFileView {
  const constNames = pyToolConstNames(model, problems);
  const tools = model.mcpServices.flatMap((s) => s.tools);
  const serviceFiles = model.mcpServices.map((s) => s.file);
  const imports = assignImports(
    tools,
    serviceFiles,
    options.pyPackage,
    problems,
  );
  for (const s of model.mcpServices) {
    const snake = pySnakeName(s);
    if (!isPyIdentifier(snake) || pyKeywords.has(snake)) {
      problems.add({
        file: s.file,
        element: s.fullName,
        message: `the Python MCP functions of service ${s.fullName} would be named from ${JSON.stringify(snake)}, which is not a valid Python name; rename the service`,
      });
    }
  }
  checkMcpServiceNames(model.mcpServices, problems, (s) => {
    const view = pyServiceNames(s);
    return [view.toolsName, view.registerName, view.forwardName];
  });
  problems.throwIfAny();

  const services: PyMcpServiceView[] = model.mcpServices.map((s) => {
    const grpcModule = imports.grpcModule(s.file);
    return {
      fullName: s.fullName,
      ...pyServiceNames(s),
      servicerType: `${grpcModule}.${s.service.name}Servicer`,
      addServicer: `${grpcModule}.add_${s.service.name}Servicer_to_server`,
      tools: s.tools.map((t) => ({
        tool: `${mainModule}.${constNames.get(t)!}`,
        method: pyQuote(`/${t.service.typeName}/${t.method.name}`),
        requestType: imports.typeRef(t.input),
        responseType: imports.typeRef(t.output),
        serverStreaming: pyBool(t.serverStreaming),
        outputSchema: pyQuote(t.outputSchemaJson),
        outputWrapKey: pyQuote(t.outputWrapKey),
        readOnlyHint: pyBool(t.hints.readOnly),
        destructiveHint: pyBool(t.hints.destructive),
        idempotentHint: pyBool(t.hints.idempotent),
        openWorldHint: pyBool(t.hints.openWorld),
        data: [...pyRequiredScopes(t.requiredScopes), ...pyToolMethodData(t)],
      })),
    };
  });

  // Every MCP tool is executed: its response registers its ids whatever
  // its auto_execute, so the MCP file has its own tables when the main
  // file's (auto-executed tools only) lack some.
  const mainAliasConfig = pyAliasConfigView(model);
  const mcpAliasConfig = pyAliasConfigView(model.mcpAliasTables);
  const ownAliasConfig =
    JSON.stringify(mcpAliasConfig) === JSON.stringify(mainAliasConfig)
      ? null
      : mcpAliasConfig;

  return {
    fileName: pyMcpFileName,
    sources: [...new Set(serviceFiles)].sort(compareUtf8),
    // The runtime's imports in a try block whose ImportError names the
    // pip line (with the mcp extra); then one section, as isort sorts it:
    // grpc and the protobuf package's modules.
    runtimeImports: pyImportStatements(
      [
        ...(ownAliasConfig === null
          ? []
          : pyAliasConfigNames(ownAliasConfig)
        ).map((n) => ({ module: `ai_tools_runtime.${n}`, name: n })),
        ...["McpProvider", "McpToolMethod", "McpToolServer"].map((n) => ({
          module: `ai_tools_runtime.mcp.${n}`,
          name: n,
        })),
      ],
      pyBlockIndent,
    ),
    runtimeMissing: pyRuntimeMissing(pyMcpFileName, "mcp"),
    thirdPartyImports: pyImportStatements([
      { module: "grpc", name: "grpc" },
      ...imports.thirdParty,
    ]),
    ownImports: pyImportStatements([
      { module: mainModule, name: mainModule },
      ...imports.ownModules,
    ]),
    exports: sortExports([
      "MCP_ALIAS_CONFIG",
      ...services.flatMap((s) => [s.toolsName, s.registerName, s.forwardName]),
    ]).map(pyQuote),
    ownAliasConfig,
    services,
  };
}

function pyBool(b: boolean): string {
  return b ? "True" : "False";
}

/** The snake-case name the MCP declarations of `service` are made from. */
function pySnakeName(service: McpServiceModel): string {
  return pyUpperSnake(service.name).toLowerCase();
}

/**
 * The names the MCP file declares for `service`: `<SERVICE>_TOOLS`,
 * `register_<service>_handler` and `forward_to_<service>_client`.
 */
function pyServiceNames(service: McpServiceModel): {
  readonly toolsName: string;
  readonly registerName: string;
  readonly forwardName: string;
} {
  const snake = pySnakeName(service);
  return {
    toolsName: `${snake.toUpperCase()}_TOOLS`,
    registerName: `register_${snake}_handler`,
    forwardName: `forward_to_${snake}_client`,
  };
}

/**
 * The `required_scopes` keyword argument of an McpToolMethod (none when
 * the tool requires no scope), a tuple broken one scope a line as ruff
 * format breaks one over 88 columns at the argument's indentation.
 */
export function pyRequiredScopes(scopes: readonly string[]): string[] {
  if (scopes.length === 0) {
    return [];
  }
  const quoted = scopes.map(pyQuote);
  const tuple =
    quoted.length === 1 ? `(${quoted[0]},)` : `(${quoted.join(", ")})`;
  const line = `required_scopes=${tuple},`;
  if (argumentIndent.length + line.length <= 88) {
    return [line];
  }
  const inner = `${argumentIndent}    `;
  return [
    `required_scopes=(\n${quoted.map((q) => `${inner}${q},\n`).join("")}${argumentIndent}),`,
  ];
}

/** The indentation of McpToolMethod's arguments in templates/py/mcp-file.hbs. */
const argumentIndent = " ".repeat(8);
