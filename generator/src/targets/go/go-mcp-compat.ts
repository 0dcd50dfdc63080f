import type { McpServiceModel } from "../../model/model.js";
import type { GoPackage } from "./build-go-view.js";
import { goCamelCase } from "./go-camel-case.js";
import { goTypeOf } from "./go-connect.js";

/**
 * What option `go_mcp_compat=true` adds to the Go MCP file: the names of
 * protoc-gen-go-mcp's generated code and runtime package, declared over
 * ours, so that code written for protoc-gen-go-mcp compiles with only its
 * import paths changed (docs/migrate-go-mcp.md). Per service, its
 * method-only `<S>Server` interface of the unary tools (which
 * Register<S>Handler then takes; a server-streaming tool's method is served
 * when the impl has it, else UNIMPLEMENTED),
 * `<S>Client` (grpc-go's client interface), `Register<S>HandlerWithProvider`
 * and `Register<S>HandlerOpenAI`; once per file, the aliases and constants
 * of {@link goCompatDeclarations}. The Go text is templates/go/mcp-compat.hbs.
 */

/** One service's protoc-gen-go-mcp declarations, final Go source text. */
export interface GoCompatServiceView {
  /** `LinkServiceServer`: the interface Register<S>Handler takes. */
  readonly serverName: string;
  /**
   * Its methods, grpc-go's signatures: those of the service's unary tools
   * (protoc-gen-go-mcp made no streaming method a tool).
   */
  readonly serverMethods: readonly string[];
  /**
   * The server-streaming tools: {@link grpcServerName} serves each with the
   * impl's method when it has one, else UNIMPLEMENTED.
   */
  readonly streamMethods: readonly GoCompatStreamView[];
  /** `LinkServiceClient`, an alias of {@link clientTarget}. */
  readonly clientName: string;
  /** `linkhubv1.LinkServiceClient`. */
  readonly clientTarget: string;
  /** `linkServiceGRPCServer`: an impl as grpc-go registers it. */
  readonly grpcServerName: string;
  /** `linkServiceUnimplemented`: embeds {@link unimplementedType}. */
  readonly unimplementedName: string;
  /** `linkhubv1.UnimplementedLinkServiceServer`. */
  readonly unimplementedType: string;
  /** `RegisterLinkServiceHandlerWithProvider`. */
  readonly withProviderName: string;
  /** `RegisterLinkServiceHandlerOpenAI`. */
  readonly openAIName: string;
}

/** A server-streaming tool's method, as grpc-go's server interface has it. */
export interface GoCompatStreamView {
  /** `WatchLinks`. */
  readonly name: string;
  /** `linkhubv1.WatchLinksRequest`. */
  readonly request: string;
  /** `linkhubv1.LinkService_WatchLinksServer`. */
  readonly stream: string;
}

/** The names the file declares for `service` with go_mcp_compat. */
export function goCompatNames(service: McpServiceModel): readonly string[] {
  const name = goCamelCase(service.name);
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  const register = `Register${name}Handler`;
  return [
    `${register}WithProvider`,
    `${register}OpenAI`,
    `${name}Server`,
    `${name}Client`,
    `${lower}GRPCServer`,
    `${lower}Unimplemented`,
  ];
}

/**
 * The declarations of `service` with go_mcp_compat; `packages` holds the
 * import of every request's and response's file.
 */
export function goCompatServiceView(
  service: McpServiceModel,
  packages: ReadonlyMap<string, GoPackage>,
): GoCompatServiceView {
  const [
    withProviderName,
    openAIName,
    serverName,
    clientName,
    grpcServerName,
    unimplementedName,
  ] = goCompatNames(service);
  const name = goCamelCase(service.name);
  const pkg = packages.get(service.file)!.name;
  const methods = new Map<string, string>();
  const streams = new Map<string, GoCompatStreamView>();
  for (const tool of service.tools) {
    const method = goCamelCase(tool.method.name);
    const request = goTypeOf(tool.input, packages);
    if (tool.serverStreaming) {
      streams.set(method, {
        name: method,
        request,
        stream: `${pkg}.${name}_${method}Server`,
      });
    } else {
      methods.set(
        method,
        `${method}(context.Context, *${request}) (*${goTypeOf(tool.output, packages)}, error)`,
      );
    }
  }
  return {
    serverName: serverName!,
    serverMethods: [...methods.values()],
    streamMethods: [...streams.values()],
    clientName: clientName!,
    clientTarget: `${pkg}.${name}Client`,
    grpcServerName: grpcServerName!,
    unimplementedName: unimplementedName!,
    unimplementedType: `${pkg}.Unimplemented${name}Server`,
    withProviderName: withProviderName!,
    openAIName: openAIName!,
  };
}

/**
 * The names of the file-level declarations with go_mcp_compat
 * (templates/go/mcp-compat-names.hbs declares them).
 */
export const goCompatDeclarations: { readonly names: readonly string[] } = {
  names: [
    "ExtraProperty",
    "LLMProvider",
    "LLMProviderOpenAI",
    "LLMProviderStandard",
    "Option",
  ],
};

/**
 * The local names of the compat functions: no import may take them
 * (goMcpLocalNames has the others).
 */
export const goCompatLocalNames: readonly string[] = [
  "ok",
  "provider",
  "req",
  "stream",
];
