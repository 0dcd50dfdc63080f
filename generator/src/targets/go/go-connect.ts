import type { McpServiceModel, ToolModel } from "../../model/model.js";
import type { DescMessage } from "../../read/descriptors.js";
import type { GoPackage } from "./build-go-view.js";
import { goCamelCase, goMessageName } from "./go-camel-case.js";
import { goPackageName } from "./go-names.js";
import type { GoImport } from "./go-runtime.js";

/**
 * What option `go_connect=true` adds to the Go MCP file: per service an
 * interface with the methods of its tools as connect-go's generated client
 * declares them (`connect.Request` in, `connect.Response` or a
 * `connect.ServerStreamForClient` out) and `ForwardToConnect<S>Client`,
 * whose calls go through the runtime's connectUnary and connectStream
 * (runtimes/go/mcp_connect.go). The interface is declared in the file, so
 * that it imports only connectrpc.com/connect, never the user's connect
 * package.
 */

/** The import of connect-go. */
export const goConnectImport: GoImport = {
  name: "connect",
  path: "connectrpc.com/connect",
};

/** One service's connect-go declarations, final Go source text. */
export interface GoConnectServiceView {
  /** `ConnectLinkServiceClient`. */
  readonly interfaceName: string;
  /** `ForwardToConnectLinkServiceClient`. */
  readonly forwardName: string;
  /** The client connect-go generates: `linkhubv1connect.LinkServiceClient`. */
  readonly generatedType: string;
  /** The interface's methods, one per RPC with a tool, in tool order. */
  readonly methods: readonly string[];
}

/** The names the file declares for `service` with go_connect. */
export function goConnectNames(service: McpServiceModel): readonly string[] {
  const name = goCamelCase(service.name);
  return [`Connect${name}Client`, `ForwardToConnect${name}Client`];
}

/**
 * The connect-go declarations of `service`. `packages` holds the import of
 * every request's and response's file (assignGoPackages with outputs);
 * `importMap` the M options, which protoc-gen-connect-go takes too.
 */
export function goConnectServiceView(
  service: McpServiceModel,
  packages: ReadonlyMap<string, GoPackage>,
  importMap?: ReadonlyMap<string, string>,
): GoConnectServiceView {
  const [interfaceName, forwardName] = goConnectNames(service);
  const name = goCamelCase(service.name);
  const goPackage =
    importMap?.get(service.file) ??
    service.service.file.proto.options?.goPackage ??
    "";
  const connectPackage = `${goPackageName(goPackage).name}connect`;
  const methods = new Map<string, string>();
  for (const tool of service.tools) {
    const method = goCamelCase(tool.method.name);
    const request = goTypeOf(tool.input, packages);
    const response = goTypeOf(tool.output, packages);
    const result = tool.serverStreaming
      ? `*connect.ServerStreamForClient[${response}]`
      : `*connect.Response[${response}]`;
    methods.set(
      method,
      `${method}(context.Context, *connect.Request[${request}]) (${result}, error)`,
    );
  }
  return {
    interfaceName: interfaceName!,
    forwardName: forwardName!,
    generatedType: `${connectPackage}.${name}Client`,
    methods: [...methods.values()],
  };
}

/**
 * The call expression of a tool of ForwardToConnect<S>Client: mcpUnary or
 * mcpStream over the connect-go method made a gRPC-shaped one.
 */
export function goConnectCall(
  tool: ToolModel,
  varName: string,
  packages: ReadonlyMap<string, GoPackage>,
): string {
  const helper = tool.serverStreaming ? "mcpStream" : "mcpUnary";
  const adapt = tool.serverStreaming ? "connectStream" : "connectUnary";
  const method = `client.${goCamelCase(tool.method.name)}`;
  return `${helper}(ctx, e, ${varName}, args, &${goTypeOf(tool.input, packages)}{}, ${adapt}(${method}))`;
}

/** A message's Go type, qualified by its package's import name. */
export function goTypeOf(
  message: DescMessage,
  packages: ReadonlyMap<string, GoPackage>,
): string {
  const pkg = packages.get(message.file.proto.name)!.name;
  return `${pkg}.${goMessageName(message.typeName, message.file.proto.package)}`;
}
