package mcphttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpGate checks each request before the SDK sees it (docs/production.md),
// in this order: shutting down (503), Host (403 forbidden_host), Origin (403
// forbidden_origin), the protected resource metadata (served, no token),
// the body's size (413), the bearer token (401, 403 for a server-wide
// scope), the scopes of the tools/calls in the body (403), the session's
// subject (404). The verified identity then rides in the SDK's
// auth.TokenInfo (auth.RequireBearerToken; IdentityFromRequest).
type httpGate struct {
	path       string // the MCP endpoint's path; "" for any
	maxBody    int64
	bodyTime   time.Duration // the whole body must arrive within it
	hosts      hostOrigin
	auth       *AuthOptions // nil: no token asked
	jwt        *jwtVerifier // nil with Introspect
	prm        *protectedResource
	challenges challenges
	toolScopes map[string][]string
	sessions   *sessionBinding
	inner      http.Handler
	draining   atomic.Bool
	streamsMu  sync.Mutex
	streams    map[*http.Request]context.CancelFunc // GET event streams open
}

// gateTokenKey holds the TokenInfo of a request the gate verified.
type gateTokenKey struct{}

// newHTTPGate protects server's endpoint with options o (defaults filled,
// checked); ctx ends the key set's refresh.
func newHTTPGate(ctx context.Context, server *mcp.Server, o HTTPOptions, path string, loopback bool) *httpGate {
	g := &httpGate{
		path:       path,
		maxBody:    o.MaxBodyBytes,
		bodyTime:   bodyTimeout,
		hosts:      newHostOrigin(o, loopback),
		auth:       o.Auth,
		toolScopes: o.ToolScopes,
		sessions:   newSessionBinding(),
		inner:      newTransportHandler(server, o.MaxBodyBytes),
		streams:    map[*http.Request]context.CancelFunc{},
	}
	if a := o.Auth; a != nil {
		all := [][]string{a.Scopes}
		for _, s := range g.toolScopes {
			all = append(all, s)
		}
		g.prm = newProtectedResource(o.PublicURL, a.AuthorizationServers, sortedScopes(all...))
		g.challenges = challenges{metadataURL: g.prm.metadataURL, scopes: sortedScopes(a.Scopes)}
		if a.Introspect == nil {
			g.jwt = newJWTVerifier(ctx, *a)
		}
		fromGate := func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
			return ctx.Value(gateTokenKey{}).(*auth.TokenInfo), nil
		}
		g.inner = auth.RequireBearerToken(fromGate, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true, ClockSkew: a.Leeway})(g.inner)
	}
	return g
}

func (g *httpGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.admit(w, r) {
		return
	}
	if g.prm != nil && g.prm.serves(r) {
		g.prm.ServeHTTP(w, r)
		return
	}
	// Without auth there is no metadata: its paths are not the endpoint.
	if (g.path != "" && r.URL.Path != g.path) || strings.HasPrefix(r.URL.Path, protectedResourcePath) {
		http.NotFound(w, r)
		return
	}
	body, ok := g.readBody(w, r)
	if !ok {
		return
	}
	var id *Identity
	if g.auth != nil {
		if id = g.authorize(w, r, body); id == nil {
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), gateTokenKey{}, tokenInfoOf(id)))
	}
	subject := subjectOf(id)
	if sid := r.Header.Get("Mcp-Session-Id"); sid != "" && !g.sessions.allowed(sid, subject) {
		writeRefusal(w, http.StatusNotFound, "session_not_found", "session not found: initialize a new one")
		return
	}
	if r.Method == http.MethodGet {
		var closed func()
		r, closed = g.openStream(r)
		defer closed()
	}
	g.inner.ServeHTTP(&sessionRecorder{ResponseWriter: w, record: func(h http.Header, status int) {
		g.sessions.record(r, h, status, subject)
	}}, r)
}

// admit refuses a request while draining (503), or from a Host or an
// Origin not listed (403).
func (g *httpGate) admit(w http.ResponseWriter, r *http.Request) bool {
	switch origin := r.Header.Get("Origin"); {
	case g.draining.Load():
		w.Header().Set("Connection", "close")
		writeRefusal(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down: retry on another instance")
	case !g.hosts.hostAllowed(r.Host):
		writeRefusal(w, http.StatusForbidden, "forbidden_host", "host "+quote(r.Host)+" is not allowed: add it to AllowedHosts")
	case origin != "" && !g.hosts.originAllowed(origin):
		writeRefusal(w, http.StatusForbidden, "forbidden_origin", "origin "+quote(origin)+" is not allowed: add it to AllowedOrigins")
	default:
		return true
	}
	return false
}

// bodyTimeout is how long a request's body may take to arrive: a client
// trickling it would otherwise hold its connection (slowloris).
const bodyTimeout = 30 * time.Second

// readBody reads the body whole, up to the limit (413 over it, nothing
// parsed), within bodyTime (408, the connection closed), and puts it back
// for the SDK. The read deadline is the connection's, taken off again
// once the body is read: an answer streamed long after is not cut.
func (g *httpGate) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	tooLarge := func() ([]byte, bool) {
		writeRefusal(w, http.StatusRequestEntityTooLarge, "request_too_large", "the request body is over "+strconv.FormatInt(g.maxBody, 10)+" bytes")
		return nil, false
	}
	if r.ContentLength > g.maxBody {
		return tooLarge()
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil, true
	}
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(g.bodyTime)) == nil
	body, err := io.ReadAll(io.LimitReader(r.Body, g.maxBody+1))
	if deadline {
		_ = rc.SetReadDeadline(time.Time{})
	}
	if int64(len(body)) > g.maxBody {
		return tooLarge()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		w.Header().Set("Connection", "close")
		writeRefusal(w, http.StatusRequestTimeout, "request_timeout", "the request body did not arrive within "+strconv.FormatFloat(g.bodyTime.Seconds(), 'f', -1, 64)+" s")
		return nil, false
	}
	if err != nil {
		writeRefusal(w, http.StatusBadRequest, "invalid_request", "could not read the request body")
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}

// authorize verifies the bearer token and the scopes of the calls in body,
// answering 401 or 403 itself when they do not pass (nil then).
func (g *httpGate) authorize(w http.ResponseWriter, r *http.Request, body []byte) *Identity {
	fields := strings.Fields(r.Header.Get("Authorization"))
	if len(fields) != 2 || !strings.EqualFold(fields[0], "bearer") {
		g.challenges.noToken(w)
		return nil
	}
	var id *Identity
	reason := ""
	if g.jwt != nil {
		id, reason = g.jwt.verify(r.Context(), fields[1])
	} else {
		id, reason = g.introspect(r.Context(), fields[1])
	}
	if reason != "" {
		g.challenges.invalidToken(w, reason)
		return nil
	}
	if missing := missingScopes(g.auth.Scopes, id.Scopes); len(missing) > 0 {
		g.challenges.insufficientScope(w, sortedScopes(g.auth.Scopes), "the token lacks scope "+quote(strings.Join(missing, " ")))
		return nil
	}
	s, err := callNeedingScope(body, g.toolScopes, id.Scopes)
	if err != nil {
		writeRefusal(w, http.StatusBadRequest, "invalid_request", err.Error())
		return nil
	}
	if s != nil {
		g.challenges.insufficientScope(w, sortedScopes(g.auth.Scopes, s.needed), s.description())
		return nil
	}
	return id
}

// introspect asks the Introspect hook about an opaque token: the caller,
// or the reason it is refused. A hook's failure (an error, a panic) is
// logged, never shown: its text may hold the token or an internal URL.
// An identity without a subject, or expired, is not accepted.
func (g *httpGate) introspect(ctx context.Context, token string) (id *Identity, reason string) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("mcphttp: the Introspect hook panicked: %v", p)
			id, reason = nil, "could not introspect the token"
		}
	}()
	id, err := g.auth.Introspect(ctx, token)
	switch {
	case err != nil:
		log.Printf("mcphttp: the Introspect hook failed: %v", err)
		return nil, "could not introspect the token"
	case id == nil || id.Subject == "" || (!id.ExpiresAt.IsZero() && !time.Now().Before(id.ExpiresAt)):
		return nil, "token not accepted"
	}
	return id, ""
}

// openStream is r ending when the server starts draining (a GET event
// stream carries no call), and its cleanup.
func (g *httpGate) openStream(r *http.Request) (*http.Request, func()) {
	ctx, cancel := context.WithCancel(r.Context())
	r = r.WithContext(ctx)
	g.streamsMu.Lock()
	g.streams[r] = cancel
	g.streamsMu.Unlock()
	return r, func() {
		g.streamsMu.Lock()
		delete(g.streams, r)
		g.streamsMu.Unlock()
		cancel()
	}
}

// drain refuses new requests (503 shutting_down) and ends the event
// streams; calls in flight go on.
func (g *httpGate) drain() {
	g.draining.Store(true)
	g.streamsMu.Lock()
	defer g.streamsMu.Unlock()
	for _, cancel := range g.streams {
		cancel()
	}
}
