package mcphttp

import (
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newTransportHandler serves server over streamable HTTP in both protocol
// revisions, as the generated NewMCPHTTPHandler does: a request of
// 2026-07-28 or later (its MCP-Protocol-Version header) is stateless, the
// SDK ending its call with it; older clients get sessions (Mcp-Session-Id),
// closed after 30 minutes idle. Bodies up to maxBody bytes; the SDK's
// localhost Host check is off (it would refuse a proxy's Host on a loopback
// port): the gate's allow-list replaces it.
func newTransportHandler(server *mcp.Server, maxBody int64) http.Handler {
	getServer := func(*http.Request) *mcp.Server { return server }
	sessions := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		SessionTimeout: 30 * time.Minute, MaxRequestBodyBytes: maxBody, DisableLocalhostProtection: true,
	})
	stateless := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless: true, PropagateRequestCancellation: true, MaxRequestBodyBytes: maxBody, DisableLocalhostProtection: true,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// quote is s as a Go string literal, for error texts.
func quote(s string) string { return strconv.Quote(s) }
