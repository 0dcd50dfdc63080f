// Package mcphttp serves the tools of an MCP server (github.com/modelcontextprotocol/go-sdk)
// over streamable HTTP safely on a network (docs/production.md): OAuth 2.0
// protected resource metadata (RFC 9728), bearer JWTs verified against the
// issuer's cached JWKS (golang-jwt/jwt/v5, MicahParks/keyfunc/v3) or an
// introspection hook, per-tool scopes, Host and Origin allow-lists, a body
// limit, sessions bound to their subject, a connection cap and a graceful
// shutdown. The tools are registered by generated code (its
// ForwardTo…Client functions) on the same *mcp.Server; generated code
// never imports this package, so ai_tools.gen.go keeps needing only grpc
// and protobuf.
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "links", Version: "1.0.0"}, nil)
//	gentools.ForwardToLinkServiceClient(server, client)
//	err := mcphttp.ServeMCPHTTP(ctx, server, "0.0.0.0:8080", mcphttp.HTTPOptions{
//		PublicURL:  "https://tools.example.com/mcp",
//		Auth:       &mcphttp.AuthOptions{Issuer: "https://auth.example.com"},
//		ToolScopes: gentools.MCPRequiredScopes(server),
//	})
//
// A tool reads the caller with the generated IdentityFromRequest(req).
package mcphttp
