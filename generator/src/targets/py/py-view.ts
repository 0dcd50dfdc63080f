/**
 * What the Python templates (templates/py/*.hbs) print. Every string is
 * finished Python text: literals quoted by pyQuote, names checked; the
 * templates only iterate and print.
 */
export interface PyFileView extends PyAliasConfigView {
  /** Always "ai_tools_gen.py". */
  readonly fileName: string;
  /** The proto files the tools come from, for the header comment. */
  readonly sources: readonly string[];
  readonly hasExecutors: boolean;
  /**
   * The runtime's import statements, indented for the `try:` block
   * (templates/py/runtime-imports.hbs), in isort's order: `ai_tools_runtime`
   * (with executors), `from ai_tools_runtime import …`.
   */
  readonly runtimeImports: readonly string[];
  /**
   * The message of the ImportError raised when the runtime is missing: the
   * pip line (pyRuntimeMissing), quoted parts of one string.
   */
  readonly runtimeMissing: readonly string[];
  /**
   * The other third-party import statements, in isort's order: `grpc` (with
   * executors), the protobuf package's modules (WKT `_pb2`).
   */
  readonly thirdPartyImports: readonly string[];
  /** Import statements of the grpcio-tools output, sorted. */
  readonly ownImports: readonly string[];
  /** `__all__` entries, quoted, in ruff's (RUF022) order. */
  readonly exports: readonly string[];
  readonly tools: readonly PyToolView[];
  /**
   * The `ALL_TOOLS` assignment on one line, as ruff format collapses a
   * one-element tuple that fits in 88 columns; "" otherwise (one tool a line).
   */
  readonly allToolsLine: string;
  readonly executors: readonly PyExecutorView[];
  /**
   * Keyword arguments the Executor classes pass to the runtime's beyond
   * the tables (`validator=protovalidate.Validator(),`, …).
   */
  readonly executorSettings: readonly string[];
  /**
   * The tool-search data's JSON, quoted (option tool_search=true,
   * docs/tool-search.md), or "".
   */
  readonly toolSearch: string;
}

/**
 * The keyword arguments of an `AliasConfig` (templates/py/alias-config.hbs):
 * ALIAS_CONFIG of ai_tools_gen.py, MCP_ALIAS_CONFIG of ai_tools_mcp_gen.py.
 */
export interface PyAliasConfigView {
  /** Whether it has response registration tables. */
  readonly hasResponseAliases: boolean;
  /** `types` of ResponseAliases: one entry per message type, sorted. */
  readonly responseAliasTypes: readonly PyAliasTypeView[];
  /** `tools` of ResponseAliases: one entry per tool, sorted. */
  readonly toolResponseAliases: readonly PyAliasToolView[];
  /** Quoted prefixes, sorted. */
  readonly knownAliasPrefixes: readonly string[];
}

export interface PyToolView {
  /** The UPPER_SNAKE_CASE constant, e.g. `LINKS_CREATE`. */
  readonly constName: string;
  /** The tool name, unquoted (a comment); tool names are `[A-Za-z0-9_-]`. */
  readonly rawName: string;
  /** The tool name, quoted. */
  readonly name: string;
  readonly description: string;
  /** `True` or `False`. */
  readonly strict: string;
  /** The canonical schema JSON, quoted. */
  readonly parameters: string;
  /** The provider forms' canonical JSON (`ToolModel.formsJson`), quoted. */
  readonly forms: string;
}

/** A message type of the response registration table. */
export interface PyAliasTypeView {
  /** The quoted message full name. */
  readonly name: string;
  /** Each field's ResponseAliasField keyword arguments (`field="id"`, …). */
  readonly fields: readonly { readonly args: readonly string[] }[];
}

/** A tool of the response registration table. */
export interface PyAliasToolView {
  /** The quoted tool name. */
  readonly name: string;
  /** Its ResponseAliasTool keyword arguments (`message="…"`, …). */
  readonly args: readonly string[];
}

export interface PyExecutorView {
  /** The tool's constant. */
  readonly constName: string;
  /** The quoted gRPC method path, `"/linkhub.v1.LinkService/CreateLink"`. */
  readonly method: string;
  /** `<import name>.<Message>[.<Nested>]`. */
  readonly requestType: string;
  readonly responseType: string;
  /** `True` or `False`. */
  readonly serverStreaming: string;
  /**
   * Keyword arguments of the argument table, deadline and `validate`
   * (`arguments='…',`), those set.
   */
  readonly data: readonly string[];
}
