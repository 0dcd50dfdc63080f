import type { GoConnectServiceView } from "./go-connect.js";
import type { GoCompatServiceView } from "./go-mcp-compat.js";
import type { GoCallTablesView, GoImportGroup } from "./go-view.js";

/**
 * What templates/go/mcp-file.hbs prints: the MCP file beside
 * ai_tools.gen.go (docs/mcp.md). Every string is final Go source text.
 */
export interface GoMcpFileView {
  /** Always "ai_tools_mcp.gen.go". */
  readonly fileName: string;
  /** Import block groups, as in the main file. */
  readonly importGroups: readonly GoImportGroup[];
  /** The services with at least one tool, by full name. */
  readonly services: readonly GoMcpServiceView[];
  /**
   * go_mcp_compat=true: the file declares protoc-gen-go-mcp's type aliases
   * and constants (templates/go/mcp-compat-names.hbs).
   */
  readonly compat: boolean;
  /**
   * The call tables (templates/go/call-tables.hbs) of every tool, when the
   * main file has no executors and so declares none.
   */
  readonly callTables: GoCallTablesView | undefined;
  /**
   * Statements of an init function adding to the main file's tables what
   * the tools only MCP executes (no auto_execute) need (alias registration,
   * argument tables, deadlines) and setting up validateRequest; empty when
   * there is nothing to add.
   */
  readonly initLines: readonly string[];
  /** The runtime code this file needs beyond the main file's. */
  readonly runtime: string;
}

/** The two functions of one service. */
export interface GoMcpServiceView {
  /** `linkhub.v1.LinkService`, for the doc comments. */
  readonly fullName: string;
  /** `RegisterLinkServiceHandler`. */
  readonly registerName: string;
  /** `ForwardToLinkServiceClient`. */
  readonly forwardName: string;
  /**
   * `linkServiceMCPTools`: the service's tools without their calls, which
   * ForwardTo<Service>Client and ForwardToConnect<Service>Client share.
   */
  readonly toolsVar: string;
  /**
   * The type of Register<Service>Handler's impl: `linkhubv1.LinkServiceServer`,
   * or with go_mcp_compat the file's method-only `LinkServiceServer`.
   */
  readonly serverType: string;
  /**
   * What grpc-go's Register<Service>Server is given: `impl`, or with
   * go_mcp_compat `linkServiceGRPCServer{LinkServiceServer: impl}`.
   */
  readonly servedImpl: string;
  /** `linkhubv1.RegisterLinkServiceServer`. */
  readonly registerServer: string;
  /** `linkhubv1.LinkServiceClient`. */
  readonly clientType: string;
  /** `linkhubv1.NewLinkServiceClient`. */
  readonly newClient: string;
  readonly tools: readonly GoMcpToolView[];
  /**
   * `Connect<Service>Client` and `ForwardToConnect<Service>Client`, with
   * go_connect=true only.
   */
  readonly connect: GoConnectServiceView | undefined;
  /**
   * protoc-gen-go-mcp's per-service names (`<Service>Server`,
   * `<Service>Client`, `Register<Service>HandlerWithProvider`,
   * `Register<Service>HandlerOpenAI`), with go_mcp_compat=true only.
   */
  readonly compat: GoCompatServiceView | undefined;
}

/** One entry of a service's tool table and its calls. */
export interface GoMcpToolView {
  /** The one-line fields, keys padded as gofmt aligns them: `tool:   LinksCreate,`. */
  readonly fields: readonly string[];
  /** The call's return expression: `mcpUnary(ctx, e, LinksCreate, args, &…{}, client.CreateLink)`. */
  readonly call: string;
  /** The call of ForwardToConnect<Service>Client (go_connect=true): `mcpUnary(…, connectUnary(client.CreateLink))`. */
  readonly connectCall?: string;
}
