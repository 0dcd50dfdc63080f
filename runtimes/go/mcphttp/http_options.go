package mcphttp

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"time"
)

// HTTPOptions configure the MCP HTTP endpoint of ServeMCPHTTP and
// NewMCPHTTPHandler (docs/production.md). The zero value serves anyone
// who can reach a loopback port, as the generated NewMCPHTTPHandler does.
type HTTPOptions struct {
	// PublicURL is the URL clients use, e.g. "https://tools.example.com/mcp":
	// the "resource" of the protected resource metadata (RFC 9728) and the
	// audience tokens must name (RFC 8707). Required with Auth.
	PublicURL string
	// Auth verifies a bearer token on every request; nil: none.
	Auth *AuthOptions
	// AllowUnauthenticated lets ServeMCPHTTP listen on an address that is
	// not loopback without Auth, serving anyone who can reach the port.
	AllowUnauthenticated bool
	// AllowedHosts are the Host headers served, "host" (any port) or
	// "host:port"; others get 403 forbidden_host. Default: localhost,
	// 127.0.0.1, [::1] and the PublicURL's host.
	AllowedHosts []string
	// AllowedOrigins are the Origin headers served, e.g.
	// "https://app.example.com"; a request with another Origin gets 403
	// forbidden_origin, one without an Origin is served. Default: the
	// PublicURL's origin and, on a loopback address, any loopback origin.
	AllowedOrigins []string
	// MaxBodyBytes caps a request's body (413 request_too_large, nothing
	// parsed); default 4 MiB.
	MaxBodyBytes int64
	// ShutdownGrace is how long ServeMCPHTTP lets the calls in flight finish
	// once its context is done; default 10 s.
	ShutdownGrace time.Duration
	// MaxConnections caps ServeMCPHTTP's open connections: one over it is
	// closed at once; default 1024.
	MaxConnections int
	// Path is ServeMCPHTTP's MCP endpoint; default "/mcp".
	Path string
	// ToolScopes are the scopes each tool needs (tool name → scopes), which
	// the token must hold for a tools/call of that tool (403
	// insufficient_scope), also listed in the metadata's scopes_supported:
	// pass the generated MCPRequiredScopes(server) after registering the
	// tools (the annotations' required_scopes and WithRequiredScopes). The
	// generated tool layer refuses such a call too, as a tool error.
	ToolScopes map[string][]string
	// Listening, when set, is called once ServeMCPHTTP accepts connections,
	// with the address it listens on (the port taken for port 0).
	Listening func(addr net.Addr)
}

// AuthOptions verify bearer tokens: JWTs signed by Issuer's keys, or
// opaque tokens through Introspect.
type AuthOptions struct {
	// Issuer is the authorization server: the "iss" tokens must hold and
	// the one the metadata names.
	Issuer string
	// JWKSURL is where the issuer publishes its keys (cached, refreshed
	// hourly and on an unknown key id at most every 30 s). Default: the
	// jwks_uri of the issuer's metadata. It, the jwks_uri and Issuer (when
	// its metadata is read) must be https, or http on 127.0.0.1, localhost
	// or ::1: otherwise tokens are refused naming the issuer and the URL.
	JWKSURL string
	// Audience is the "aud" tokens must hold exactly; default PublicURL.
	Audience string
	// Algorithms are the signing algorithms accepted; default RS256 and
	// ES256. "none" and the HS (shared secret) ones are refused.
	Algorithms []string
	// Scopes are the scopes every request's token must hold.
	Scopes []string
	// Leeway is the clock skew allowed on exp and nbf, at most 5 minutes;
	// default (zero) 30 s, NoLeeway for none.
	Leeway time.Duration
	// Introspect, when set, verifies opaque tokens instead (RFC 7662 or the
	// application's own store): the caller, or nil for a token that is not
	// active. The Issuer and JWKSURL are then unused.
	Introspect func(ctx context.Context, token string) (*Identity, error)
	// AuthorizationServers are the metadata's authorization_servers;
	// default [Issuer]. Required with Introspect and no Issuer.
	AuthorizationServers []string
}

// Defaults of HTTPOptions.
const (
	DefaultMaxBodyBytes   = 4 << 20
	DefaultShutdownGrace  = 10 * time.Second
	DefaultMaxConnections = 1024
	defaultLeeway         = 30 * time.Second
	maxLeeway             = 5 * time.Minute
)

// NoLeeway is the AuthOptions.Leeway of no clock skew allowed (zero
// means the default, 30 s).
const NoLeeway time.Duration = -1

// checkHTTPOptions refuses options that cannot serve safely: Auth without
// PublicURL; with host (the address to listen on; "" for a handler, whose
// address is the application's), a host that is not loopback without Auth
// or AllowUnauthenticated.
func checkHTTPOptions(o HTTPOptions, host string, listening bool) error {
	if o.Auth != nil && o.PublicURL == "" {
		return errors.New(`auth needs publicUrl (public_url / PublicURL): the URL clients use, e.g. "https://tools.example.com/mcp"`)
	}
	if o.PublicURL != "" {
		if u, err := url.Parse(o.PublicURL); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return errors.New("public URL " + quote(o.PublicURL) + ` is not an http(s) URL: set PublicURL to the URL clients use, e.g. "https://tools.example.com/mcp"`)
		}
	}
	if a := o.Auth; a != nil {
		if a.Introspect == nil && a.Issuer == "" {
			return errors.New("auth needs an Issuer (JWT) or an Introspect hook (opaque tokens)")
		}
		if a.Introspect != nil && a.Issuer == "" && len(a.AuthorizationServers) == 0 {
			return errors.New("auth with Introspect needs AuthorizationServers (or Issuer): the protected resource metadata names them")
		}
		if (a.Leeway < 0 && a.Leeway != NoLeeway) || a.Leeway > maxLeeway {
			return errors.New("auth Leeway " + a.Leeway.String() + " is out of range: between 0 and 5m (NoLeeway for none, zero for the default 30 s)")
		}
		for _, alg := range a.Algorithms {
			if strings.EqualFold(alg, "none") || strings.HasPrefix(strings.ToUpper(alg), "HS") {
				return errors.New("auth algorithm " + quote(alg) + " is not allowed: use asymmetric ones (RS256, ES256, PS256, EdDSA...)")
			}
		}
	}
	if err := checkScopes(o); err != nil {
		return err
	}
	if listening && o.Auth == nil && !o.AllowUnauthenticated && !isLoopbackHost(host) {
		return errors.New(`refusing to serve MCP over HTTP on "` + host + `" without authorization: set auth, or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) to serve anyone who can reach the port`)
	}
	return nil
}

// checkScopes refuses a scope of Auth.Scopes or ToolScopes that is not an
// RFC 6749 scope-token: it would go into a WWW-Authenticate header.
func checkScopes(o HTTPOptions) error {
	const rule = " is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)"
	if o.Auth != nil {
		for _, s := range o.Auth.Scopes {
			if !isScopeToken(s) {
				return errors.New("auth Scopes: scope " + quote(s) + rule)
			}
		}
	}
	for tool, scopes := range o.ToolScopes {
		for _, s := range scopes {
			if !isScopeToken(s) {
				return errors.New("ToolScopes: scope " + quote(s) + " of tool " + quote(tool) + rule)
			}
		}
	}
	return nil
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

// isLoopbackHost reports whether host (a name or an address, IPv6 with or
// without brackets) is loopback: 127.0.0.0/8, ::1 or localhost. 0.0.0.0,
// :: and "" (every interface) are not.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// withDefaults fills the options' defaults.
func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	if o.MaxConnections <= 0 {
		o.MaxConnections = DefaultMaxConnections
	}
	if o.Path == "" {
		o.Path = "/mcp"
	}
	if o.Auth != nil {
		a := *o.Auth
		if a.Audience == "" {
			a.Audience = o.PublicURL
		}
		if len(a.Algorithms) == 0 {
			a.Algorithms = []string{"RS256", "ES256"}
		}
		switch a.Leeway {
		case 0:
			a.Leeway = defaultLeeway
		case NoLeeway:
			a.Leeway = 0
		}
		if len(a.AuthorizationServers) == 0 {
			a.AuthorizationServers = []string{a.Issuer}
		}
		o.Auth = &a
	}
	return o
}
