import type {
  DescMessage,
  DescMethod,
  DescService,
} from "../read/descriptors.js";
import type { OneofGroup } from "../schema/build-schema.js";
import type { OutputWrapKey } from "../schema/build-output-schema.js";
import type { AliasTables } from "./alias-tables.js";
import type { ToolHints } from "./tool-hints.js";
import type {
  ResponseAliasField,
  ResponseAliasTool,
} from "./response-aliases.js";

export type { ResponseAliasField, ResponseAliasTool };

/** A request field whose value is an id to alias. */
export interface AliasField {
  /** The proto field name, e.g. `link_id`. */
  readonly name: string;
  /** The JSON name, e.g. `linkId`. */
  readonly jsonName: string;
  readonly prefix: string;
}

/** One annotated RPC, as every target prints it. */
export interface ToolModel {
  readonly name: string;
  readonly description: string;
  readonly strict: boolean;
  readonly autoExecute: boolean;
  /**
   * The parameter schema in its canonical serialization (docs/schemas.md),
   * identical in every target. Only the text is kept: on large requests the
   * schema objects are most of the plugin's memory.
   */
  readonly schemaJson: string;
  /**
   * The tool's provider forms (providers/provider-forms.ts) in their
   * canonical serialization: what each provider's adapters send instead of
   * `parameters`, as one JSON object identical in every target.
   */
  readonly formsJson: string;
  /**
   * The argument table (argument-table.ts) as JSON text, from the walk of
   * the schema's tree: "" when the request's schema is an open object.
   */
  readonly argumentsJson: string;
  /**
   * The deadline of one call, in nanoseconds, from the annotation's
   * `timeout` (more than 0, at most a day); undefined when not set.
   */
  readonly timeoutNanos: bigint | undefined;
  /**
   * True when the request (transitively) carries `buf.validate` rules: the
   * generated code validates it before the call (docs/runtime.md).
   */
  readonly validate: boolean;
  /** Oneof members shown as sibling properties (see OneofGroup). */
  readonly oneofGroups: readonly OneofGroup[];
  /** The proto file declaring the RPC. */
  readonly file: string;
  /** `Service.Method`, for messages. */
  readonly element: string;
  readonly service: DescService;
  readonly method: DescMethod;
  readonly input: DescMessage;
  readonly output: DescMessage;
  readonly serverStreaming: boolean;
  /** Request fields with an alias_prefix, in declaration order. */
  readonly requestAliasFields: readonly AliasField[];
  /** The tool's primary prefix (docs/runtime.md), or "". */
  readonly outputPrefix: string;
  /**
   * Legacy (Go's RegisterFieldsFromJSON only): response JSON name → prefix,
   * first entry wins, "id" → "".
   */
  readonly responseFieldPrefixes: ReadonlyMap<string, string>;
  /** True when the tool involves aliases in any way. */
  readonly involvesAliases: boolean;
  /**
   * MCP `outputSchema` (docs/mcp.md) in its canonical serialization: what
   * protojson writes for the response with proto names and defaults
   * emitted, a server stream wrapped as `{"messages": [...]}`. Computed on
   * first read (only MCP files read it).
   */
  readonly outputSchemaJson: string;
  /**
   * The key the MCP result wraps the response's JSON under: `"messages"`
   * for a server stream, `"value"` for a response type whose JSON is not an
   * object, `""` when the JSON is the result as it is.
   */
  readonly outputWrapKey: OutputWrapKey;
  /** The MCP hints (tool-hints.ts): method kind, idempotency_level, option. */
  readonly hints: ToolHints;
  /**
   * The annotation's `required_scopes` (required-scopes.ts), sorted (byte
   * order) without repeats; empty when none.
   */
  readonly requiredScopes: readonly string[];
  /**
   * True when a call waits for an approval (tool-approval.ts): an
   * annotated tool without `auto_execute`, or a derived one as the option
   * `unannotated_tools` says.
   */
  readonly needsApproval: boolean;
}

/** A service with at least one tool, as the MCP files register it. */
export interface McpServiceModel {
  /** `linkhub.v1.LinkService`. */
  readonly fullName: string;
  /**
   * The short name the MCP functions are named after
   * (`Register<name>Handler`, `ForwardTo<name>Client`); unique in the
   * request (checked when `mcp=true`).
   */
  readonly name: string;
  /** The proto file declaring the service. */
  readonly file: string;
  readonly service: DescService;
  /** The service's tools, sorted by name. */
  readonly tools: readonly ToolModel[];
}

/** Everything the targets render, built once per request. */
export interface GeneratorModel {
  /** Every tool, sorted by name (byte order). */
  readonly tools: readonly ToolModel[];
  /** The auto-executed tools, sorted by name. */
  readonly executors: readonly ToolModel[];
  readonly hasAliases: boolean;
  readonly hasExecutors: boolean;
  /**
   * Legacy (Go's RegisterFieldsFromJSON only): the file-wide
   * responseFieldPrefixes, sorted by key.
   */
  readonly responseFieldPrefixes: readonly (readonly [string, string])[];
  /** Auto-executed tools with an output prefix, sorted by tool name. */
  readonly toolOutputPrefix: readonly (readonly [string, string])[];
  /**
   * Response registration by message type (docs/runtime.md): the message
   * types of the executors' responses that hold aliased ids, sorted by
   * full name, each with its fields in declaration order.
   */
  readonly responseAliasTypes: readonly (readonly [
    string,
    readonly ResponseAliasField[],
  ])[];
  /**
   * Per auto-executed tool whose response registers anything, sorted by
   * tool name: its response message and top-level entity id rule.
   */
  readonly toolResponseAliases: readonly (readonly [
    string,
    ResponseAliasTool,
  ])[];
  /** Every alias prefix the request declares, sorted. */
  readonly knownAliasPrefixes: readonly string[];
  /**
   * The services with at least one tool, sorted by full name (MCP files;
   * every MCP tool is executed, whatever its `auto_execute`).
   */
  readonly mcpServices: readonly McpServiceModel[];
  /**
   * The alias tables of an MCP file, where every tool is executed: as
   * `responseAliasTypes`, `toolResponseAliases` and `knownAliasPrefixes`,
   * over every tool. Computed on first read.
   */
  readonly mcpAliasTables: AliasTables;
  /**
   * The tool-search data of every tool (tool-search-data.ts) as canonical
   * JSON text, written with the option tool_search=true. Computed on first
   * read.
   */
  readonly toolSearchJson: string;
}
