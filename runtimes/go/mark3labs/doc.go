// Package mark3labs serves the tools of protoc-gen-ai-tools' generated Go
// MCP files on a server of github.com/mark3labs/mcp-go instead of the
// official Go SDK (docs/go.md, "MCP libraries"; docs/migrate-go-mcp.md).
//
// The generated Register...Handler and ForwardTo...Client take an
// MCPServer, anything with AddTool(*mcp.Tool, mcp.ToolHandler) in the
// official SDK's types; *Server is one, backed by a *server.MCPServer:
//
//	raw, s := mark3labs.NewServer("my-server", "1.0.0")
//	gentools.RegisterTestServiceHandler(s, &srv)
//	err := server.ServeStdio(raw)
//
// Each tool is translated once (name, title, description, input and output
// schemas, annotations, _meta) and each call on the way in (name, arguments
// as raw JSON, _meta including the progress token) and out (text, image and
// audio content, structuredContent, isError). The handler sees no session
// (its request's Session is nil): the generated tools treat such a call as
// stateless, so a conversation is carried by its handle (the _meta key
// "ai-tools/conversation", or the argument of WithHandleArgument) and no
// approval is asked by elicitation.
//
// No identity reaches the tools unless (*Server).SetTokenInfo tells who
// calls, as the official SDK's auth.TokenInfo (for streamable HTTP, from
// what server.WithHTTPContextFunc put in the context): without it annotated
// required_scopes and WithRequiredScopes refuse nothing, WithForwardIdentity
// forwards nothing, and all calls are one anonymous caller's for the
// per-subject limits.
//
// Wrap returns one *Server per raw server (NewServer's too), so every
// registration on a raw server shares its options, conversations and
// limits.
//
// The package is a module of its own, so that the runtime module does not
// depend on mcp-go.
package mark3labs
