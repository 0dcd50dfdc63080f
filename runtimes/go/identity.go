//aitools:inline executors mcp

package aitools

import (
	"context"
	"time"
)

// Identity is the verified caller of a tool: the subject ("sub") of the
// bearer token the HTTP gate accepted, its scopes and claims. It never holds
// the token itself. Over stdio, or over HTTP without Auth, there is none.
type Identity struct {
	Subject   string
	Scopes    []string
	Claims    map[string]any
	ExpiresAt time.Time // zero when the token has no expiry (introspection)
}

// identityKey is the context key of WithIdentity.
type identityKey struct{}

// WithIdentity returns ctx carrying id, for an executor (its approval hook
// and audit read the subject from there) or a tool implementation.
func WithIdentity(ctx context.Context, id *Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFromContext is the identity WithIdentity put in ctx, else nil.
func IdentityFromContext(ctx context.Context) *Identity {
	id, _ := ctx.Value(identityKey{}).(*Identity)
	return id
}
