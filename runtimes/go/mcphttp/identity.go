package mcphttp

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Identity is the verified caller: the token's subject ("sub"), scopes and
// claims, never the token. It has the fields of the generated package's
// Identity, whose IdentityFromRequest reads it back from the SDK's
// auth.TokenInfo.
type Identity struct {
	Subject   string
	Scopes    []string
	Claims    map[string]any
	ExpiresAt time.Time // zero when the token has no expiry (introspection)
}

// tokenInfoOf is the SDK's form of id: UserID the subject, Scopes and
// Expiration the token's, Extra["claims"] its claims, Extra["identity"] id.
func tokenInfoOf(id *Identity) *auth.TokenInfo {
	return &auth.TokenInfo{
		UserID:     id.Subject,
		Scopes:     id.Scopes,
		Expiration: id.ExpiresAt,
		Extra:      map[string]any{"claims": id.Claims, "identity": id},
	}
}

// subjectOf is the subject of id, "" without auth.
func subjectOf(id *Identity) string {
	if id == nil {
		return ""
	}
	return id.Subject
}
