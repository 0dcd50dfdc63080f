//aitools:inline mcp

package aitools

import "github.com/modelcontextprotocol/go-sdk/mcp"

// The HTTP gate (package mcphttp of the runtime module: ServeMCPHTTP, or
// its NewMCPHTTPHandler, with Auth) passes the verified identity through
// the SDK's auth.TokenInfo, set by auth.RequireBearerToken, which the SDK
// copies into every request's Extra.TokenInfo and checks sessions against:
// UserID is the subject, Scopes and Expiration the token's, Extra["claims"]
// its claims (a map[string]any) and Extra["identity"] the gate's identity.
// The gate and a generated package are different Go packages, so
// IdentityFromRequest rebuilds the identity from those fields.

// IdentityFromRequest is the verified caller of a tools/call, nil when the
// request came without auth (stdio, in process, HTTP without Auth).
func IdentityFromRequest(req *mcp.CallToolRequest) *Identity {
	if req == nil || req.Extra == nil || req.Extra.TokenInfo == nil {
		return nil
	}
	info := req.Extra.TokenInfo
	if id, ok := info.Extra["identity"].(*Identity); ok {
		return id
	}
	claims, _ := info.Extra["claims"].(map[string]any)
	return &Identity{Subject: info.UserID, Scopes: info.Scopes, Claims: claims, ExpiresAt: info.Expiration}
}
