// Package gosdk gives code written for protoc-gen-go-mcp's gosdk adapter its
// two functions (docs/migrate-go-mcp.md). The generated Register...Handler
// and ForwardTo...Client of protoc-gen-ai-tools take a *mcp.Server of the
// official Go SDK as it is, so there is nothing to adapt: both functions hand
// back the server itself.
//
//	raw, s := gosdk.NewServer("my-server", "1.0.0")
//	gentools.RegisterTestServiceHandler(s, &srv)
//	err := raw.Run(ctx, &mcp.StdioTransport{})
package gosdk

import "github.com/modelcontextprotocol/go-sdk/mcp"

// NewServer makes a server of the official Go SDK named name at version and
// returns it twice: the first value for the transports (Run, Connect,
// NewMCPHTTPHandler), the second to register tools on. Both are the same
// pointer.
func NewServer(name, version string) (*mcp.Server, *mcp.Server) {
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: version}, nil)
	return s, Wrap(s)
}

// Wrap returns s: a *mcp.Server is already what the generated functions
// register their tools on.
func Wrap(s *mcp.Server) *mcp.Server {
	return s
}
