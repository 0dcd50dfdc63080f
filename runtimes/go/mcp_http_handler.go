//aitools:inline mcp

// This file is compiled only where it is inlined, in a generated MCP file:
// this package's NewMCPHTTPHandler (serve_http.go) also takes HTTPOptions,
// whose gate needs JWT libraries generated code does not import.

//go:build aitools_inline

package aitools

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewMCPHTTPHandler serves server over streamable HTTP in both protocol
// revisions: a request of 2026-07-28 or later (its MCP-Protocol-Version
// header) is stateless, its conversation a handle the client passes back;
// older clients get sessions (Mcp-Session-Id), one conversation each,
// closed after 30 minutes idle. It checks no token: for authorization,
// Host and Origin allow-lists and a graceful shutdown, serve server with
// the runtime module's ServeMCPHTTP (docs/production.md).
func NewMCPHTTPHandler(server *mcp.Server) http.Handler {
	return newMCPTransportHandler(server, mcp.StreamableHTTPOptions{})
}
