package mcphttp

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// protectedResourcePath is the well-known path of the protected resource
// metadata (RFC 9728).
const protectedResourcePath = "/.well-known/oauth-protected-resource"

// protectedResource serves the metadata of the endpoint at publicURL:
// path-inserted (/.well-known/oauth-protected-resource/mcp for /mcp) and at
// the root. Its resource is the configured URL, never the request's Host.
type protectedResource struct {
	paths       []string // where it is served
	metadataURL string   // the path-inserted one, absolute
	body        []byte
}

func newProtectedResource(publicURL string, servers, scopes []string) *protectedResource {
	u, _ := url.Parse(publicURL) // checked by checkHTTPOptions
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	body, _ := json.Marshal(map[string]any{
		"resource":                 publicURL,
		"authorization_servers":    servers,
		"bearer_methods_supported": []string{"header"},
		"scopes_supported":         scopes,
	})
	return &protectedResource{
		paths:       []string{protectedResourcePath + path, protectedResourcePath},
		metadataURL: u.Scheme + "://" + u.Host + protectedResourcePath + path,
		body:        body,
	}
}

// serves reports whether r asks for the metadata.
func (p *protectedResource) serves(r *http.Request) bool {
	return slices.Contains(p.paths, r.URL.Path)
}

func (p *protectedResource) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeRefusal(w, http.StatusMethodNotAllowed, "method_not_allowed", "the protected resource metadata answers GET and HEAD, not "+quote(r.Method))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=3600")
	_, _ = w.Write(p.body)
}

// sortedScopes is the union of the lists, sorted, without repeats.
func sortedScopes(lists ...[]string) []string {
	out := []string{}
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
