//aitools:inline mcp

package aitools

import (
	"container/list"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// DefaultMaxConcurrentCalls is how many calls one conversation (an HTTP
// session, a handle, a stdio connection) runs at once unless
// WithMaxConcurrentCalls says otherwise.
const DefaultMaxConcurrentCalls = 16

// mcpGuard is what the calls of one server share to be safe on a network
// (docs/production.md): the approvals' signing key, the rate limit of each
// subject, the calls in flight per conversation and the tools' scopes.
type mcpGuard struct {
	secret        []byte
	perMinute     int
	maxConcurrent int

	mu        sync.Mutex
	buckets   map[string]*list.Element // per subject: a *tokenBucket in bucketLRU
	bucketLRU list.List                // the buckets, the least recently used first
	inFlight  map[any]int              // per conversation
	scopes    map[string][]string      // per tool: annotation + WithRequiredScopes

	nonces usedNonces // of the approval states used
}

func newMCPGuard(o mcpOptions) *mcpGuard {
	g := &mcpGuard{
		secret:        o.approvalSecret,
		perMinute:     o.rateLimit,
		maxConcurrent: o.maxConcurrent,
		buckets:       map[string]*list.Element{},
		inFlight:      map[any]int{},
		scopes:        map[string][]string{},
	}
	if len(g.secret) == 0 {
		g.secret = make([]byte, 32)
		_, _ = rand.Read(g.secret) // never fails (crypto/rand)
	}
	if g.maxConcurrent == 0 {
		g.maxConcurrent = DefaultMaxConcurrentCalls
	}
	for tool, scopes := range o.requiredScopes {
		g.addScopes(tool, scopes)
	}
	return g
}

// WithRequiredScopes adds, per tool name, scopes a caller's token must hold
// to call it over HTTP with authorization, to those of the tool's
// annotation (required_scopes). A key names a tool by its served name or by
// its generated one (without WithNamePrefix's prefix); a key naming both
// tools of two registrations applies to both. It panics on a scope that is
// not an RFC 6749 scope token.
func WithRequiredScopes(scopes map[string][]string) MCPOption {
	for tool, list := range scopes {
		for _, scope := range list {
			if !isScopeToken(scope) {
				panic(fmt.Sprintf("WithRequiredScopes: scope %s of tool %s is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)", quote(scope), quote(tool)))
			}
		}
	}
	return func(o *mcpOptions) { o.requiredScopes = scopes }
}

// isScopeToken reports whether s is a scope-token of RFC 6749 (3.3): one
// or more of %x21 / %x23-5B / %x5D-7E.
func isScopeToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// addScopes adds scopes to those tool requires: sorted, each once.
func (g *mcpGuard) addScopes(tool string, scopes []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	all := append(slices.Clone(g.scopes[tool]), scopes...)
	slices.Sort(all)
	g.scopes[tool] = slices.Compact(all)
}

// MCPRequiredScopes returns, per tool of server, the scopes a call needs
// (the annotation's required_scopes and WithRequiredScopes, sorted, each
// once; tools needing none are left out): the HTTP gate checks them per
// tools/call, and lists them in the resource metadata.
func MCPRequiredScopes(server MCPServer) map[string][]string {
	v, ok := mcpServers.Load(server)
	if !ok {
		return map[string][]string{}
	}
	g := v.(*mcpServer).guard
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make(map[string][]string, len(g.scopes))
	for tool, scopes := range g.scopes {
		if len(scopes) > 0 {
			out[tool] = slices.Clone(scopes)
		}
	}
	return out
}

// missingScopes are the scopes tool requires that scopes lacks, sorted and
// space-separated, "" when none is missing.
func (g *mcpGuard) missingScopes(tool string, scopes []string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var missing []string
	for _, need := range g.scopes[tool] {
		if !slices.Contains(scopes, need) {
			missing = append(missing, need)
		}
	}
	slices.Sort(missing)
	return strings.Join(slices.Compact(missing), " ")
}
