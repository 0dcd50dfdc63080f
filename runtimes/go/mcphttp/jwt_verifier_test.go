package mcphttp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBearerTokenRefused: every token that fails a check gets 401
// invalid_token with a description naming the check, and reaches no tool.
func TestBearerTokenRefused(t *testing.T) {
	g := newGateServer(t, nil)
	iss := g.iss
	now := time.Now()
	cases := []struct {
		name, token, reason string
	}{
		{"expired", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"exp": now.Add(-2 * time.Minute).Unix(), "iat": now.Add(-10 * time.Minute).Unix()})), "^token expired$"},
		{"nbf ahead", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"nbf": now.Add(2 * time.Minute).Unix()})), "^token not valid yet$"},
		{"no exp", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"exp": nil})), "^token has no exp claim$"},
		{"no sub", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"sub": nil})), "^token has no sub claim$"},
		{"wrong aud", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"aud": "https://other.example.test/mcp"})), "^wrong audience$"},
		{"aud with a trailing slash", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"aud": testPublicURL + "/"})), "^wrong audience$"},
		{"wrong iss", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"iss": "https://evil.example.test"})), "^wrong issuer$"},
		{"bad signature ES256", iss.token(t, "ES256", "ec-1", true, iss.claims("alice", nil)), "^bad signature$"},
		{"bad signature RS256", iss.token(t, "RS256", "rsa-1", true, iss.claims("alice", nil)), "^bad signature$"},
		{"alg none", iss.token(t, "none", "ec-1", false, iss.claims("alice", nil)), `^algorithm "none" is not allowed$`},
		{"alg HS256", iss.token(t, "HS256", "ec-1", false, iss.claims("alice", nil)), `^algorithm "HS256" is not allowed$`},
		{"no iss", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"iss": nil})), "^token has no iss claim$"},
		{"no aud", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"aud": nil})), "^token has no aud claim$"},
		{"sub empty", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"sub": ""})), "^token has no sub claim$"},
		{"sub numeric", iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"sub": 123})), "^token has no sub claim$"},
		{"unknown kid", iss.token(t, "ES256", "not-in-the-jwks", true, iss.claims("alice", nil)), "^unknown signing key$"},
		{"malformed", "not.a-jwt", "^malformed token$"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := g.post(t, c.token, toolsCall("echo"), nil)
			a.want(t, http.StatusUnauthorized, "invalid_token", map[string]string{
				"scheme": "Bearer", "error": "invalid_token", "error_description": a.challenge["error_description"], "resource_metadata": testMetadata,
			})
			if !regexp.MustCompile(c.reason).MatchString(a.challenge["error_description"]) || a.body["error_description"] != a.challenge["error_description"] {
				t.Fatalf("description %q (body %q), want %s", a.challenge["error_description"], a.body["error_description"], c.reason)
			}
		})
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
	if n := iss.fetches.Load(); n > 2 {
		t.Fatalf("the JWKS was fetched %d times: it is cached (one refetch for the unknown kid)", n)
	}
}

// TestBearerTokenMissing: no token, or not a bearer one, gets the 401 that
// points at the metadata and names the server-wide scopes.
func TestBearerTokenMissing(t *testing.T) {
	g := newGateServer(t, nil)
	for _, header := range []string{"", "Bearer ", "Basic YWxpY2U6c2VjcmV0"} {
		a := g.post(t, "", toolsList(), map[string]string{"Authorization": header})
		a.want(t, http.StatusUnauthorized, "invalid_token", map[string]string{"scheme": "Bearer", "resource_metadata": testMetadata, "scope": "links.read"})
		if a.body["error_description"] != "no bearer token" {
			t.Fatalf("%q: %v", header, a.body)
		}
	}
}

// TestBearerTokenAccepted: valid tokens (ES256, RS256, aud in an array,
// expired within the leeway) reach the tool, whose TokenInfo holds the
// token's subject and claims (what the generated IdentityFromRequest reads); the JWKS is fetched once.
func TestBearerTokenAccepted(t *testing.T) {
	g := newGateServer(t, nil)
	iss := g.iss
	tokens := map[string]string{
		"ES256":         iss.valid(t, "alice"),
		"RS256":         iss.token(t, "RS256", "rsa-1", false, iss.claims("alice", nil)),
		"aud array":     iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"aud": []string{"https://other.example.test", testPublicURL}})),
		"within leeway": iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"exp": time.Now().Add(-5 * time.Second).Unix()})),
		"no kid":        iss.token(t, "ES256", "", false, iss.claims("alice", nil)),
	}
	for name, token := range tokens {
		t.Run(name, func(t *testing.T) {
			cs := connectWithToken(t, g.url, token, "2026-07-28")
			res := call(t, cs, "echo")
			if res.IsError || text(res) != "alice "+testIssuerURL {
				t.Fatalf("%v %q", res.IsError, text(res))
			}
		})
	}
	if n := iss.fetches.Load(); n != 1 {
		t.Fatalf("the JWKS was fetched %d times, want 1", n)
	}
}

// TestIntrospection: an opaque token verified by the hook; nil, an
// identity without a subject or expired is not accepted; a hook that fails
// (error or panic) gets a fixed text, never its own.
func TestIntrospection(t *testing.T) {
	g := newGateServer(t, func(o *HTTPOptions) {
		o.Auth = &AuthOptions{AuthorizationServers: []string{testIssuerURL}, Introspect: func(_ context.Context, token string) (*Identity, error) {
			switch token {
			case "opaque-alice":
				return &Identity{Subject: "alice", Scopes: []string{"links.read"}, Claims: map[string]any{"iss": "introspected"}}, nil
			case "no-subject":
				return &Identity{Scopes: []string{"links.read"}}, nil
			case "expired":
				return &Identity{Subject: "alice", Scopes: []string{"links.read"}, ExpiresAt: time.Now().Add(-time.Minute)}, nil
			case "fails":
				return nil, errors.New("GET https://introspect.internal/?token=fails: refused")
			case "panics":
				panic("introspection secret fails")
			}
			return nil, nil
		}}
	})
	log.SetOutput(io.Discard)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	for token, reason := range map[string]string{
		"opaque-bob": "token not accepted", "no-subject": "token not accepted", "expired": "token not accepted",
		"fails": "could not introspect the token", "panics": "could not introspect the token",
	} {
		a := g.post(t, token, toolsList(), nil)
		a.want(t, http.StatusUnauthorized, "invalid_token", map[string]string{
			"scheme": "Bearer", "error": "invalid_token", "error_description": reason, "resource_metadata": testMetadata,
		})
		if a.body["error_description"] != reason {
			t.Fatalf("%s: %v", token, a.body)
		}
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
	cs := connectWithToken(t, g.url, "opaque-alice", "2026-07-28")
	if res := call(t, cs, "echo"); text(res) != "alice introspected" {
		t.Fatalf("%q", text(res))
	}
}

// connectWithToken connects an SDK client sending token on every request.
func connectWithToken(t testing.TB, url, token, version string) *mcp.ClientSession {
	t.Helper()
	client := &http.Client{Transport: bearerTransport{token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestKeySetFetchedForSignedTokensOnly: a malformed token, or one of an
// algorithm not allowed, is refused without fetching the JWKS.
func TestKeySetFetchedForSignedTokensOnly(t *testing.T) {
	g := newGateServer(t, nil)
	for _, token := range []string{"not.a-jwt", g.iss.token(t, "none", "ec-1", false, g.iss.claims("alice", nil))} {
		g.post(t, token, toolsList(), nil).want(t, http.StatusUnauthorized, "invalid_token", nil)
	}
	if n := g.iss.fetches.Load(); n != 0 {
		t.Fatalf("the JWKS was fetched %d times", n)
	}
}

// TestJWKSDiscovery: without JWKSURL the keys are found through the
// issuer's metadata (RFC 8414).
func TestJWKSDiscovery(t *testing.T) {
	t.Run("failure remembered", testJWKSDiscoveryFailure)
	t.Run("cancelled by the client", testDiscoveryCancelledByClient)
	keys := newTestIssuer(t)
	issuer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/oauth-authorization-server" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"issuer":"x","jwks_uri":"` + keys.jwksURL + `"}`))
	}))
	t.Cleanup(issuer.Close)
	g := newGateServer(t, func(o *HTTPOptions) { o.Auth.Issuer, o.Auth.JWKSURL = issuer.URL, "" })
	token := keys.token(t, "ES256", "ec-1", false, keys.claims("alice", map[string]any{"iss": issuer.URL}))
	if res := call(t, connectWithToken(t, g.url, token, "2026-07-28"), "echo"); text(res) != "alice "+issuer.URL {
		t.Fatalf("%q", text(res))
	}
}

// TestKeysOverClearHTTP: the keys never come over http beyond loopback:
// a jwks_uri of the issuer's metadata, a JWKSURL or an issuer whose
// metadata is read; each token is refused naming the issuer and the URL,
// the metadata asked for once.
func TestKeysOverClearHTTP(t *testing.T) {
	var asked atomic.Int32
	meta := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = w.Write([]byte(`{"issuer":"x","jwks_uri":"http://10.0.0.8/jwks"}`))
	}))
	t.Cleanup(meta.Close)
	clear := "http://10.0.0.8/jwks"
	for _, c := range []struct{ issuer, jwksURL, what, url string }{
		{meta.URL, "", "jwks_uri", clear},
		{"https://issuer.example.test", clear, "JWKS URL", clear},
		{"http://10.0.0.8", "", "URL", "http://10.0.0.8"},
	} {
		g := newGateServer(t, func(o *HTTPOptions) { o.Auth.Issuer, o.Auth.JWKSURL = c.issuer, c.jwksURL })
		token := g.iss.token(t, "ES256", "ec-1", false, g.iss.claims("alice", map[string]any{"iss": c.issuer}))
		want := "issuer " + quote(c.issuer) + ": its " + c.what + " " + quote(c.url) + " must be https (http only on a loopback host)"
		for range 2 {
			g.post(t, token, toolsList(), nil).want(t, http.StatusUnauthorized, "invalid_token", map[string]string{
				"scheme": "Bearer", "error": "invalid_token", "error_description": want, "resource_metadata": testMetadata,
			})
		}
	}
	if n := asked.Load(); n != 1 {
		t.Fatalf("the issuer's metadata was asked for %d times, want 1", n)
	}
}

// testDiscoveryCancelledByClient: a client hanging up while the keys are
// discovered is not remembered as the issuer being down: the next token is
// verified. Discovery ran on the request's context, failed on its
// cancellation and refused every token for 30 s.
func testDiscoveryCancelledByClient(t *testing.T) {
	keys := newTestIssuer(t)
	issuer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"issuer":"x","jwks_uri":"` + keys.jwksURL + `"}`))
	}))
	t.Cleanup(issuer.Close)
	v := newJWTVerifier(t.Context(), AuthOptions{Issuer: issuer.URL, Audience: testPublicURL, Algorithms: []string{"ES256"}})
	token := keys.token(t, "ES256", "ec-1", false, keys.claims("alice", map[string]any{"iss": issuer.URL}))
	hungUp, cancel := context.WithCancel(t.Context())
	cancel()
	_, _ = v.verify(hungUp, token)
	if id, reason := v.verify(t.Context(), token); reason != "" || id.Subject != "alice" {
		t.Fatalf("after a cancelled request: %q", reason)
	}
}

// testJWKSDiscoveryFailure: while the issuer's metadata fails, tokens get
// 401 "could not get the issuer's signing keys" and the metadata is asked
// for once (its two well-known paths), not per token.
func testJWKSDiscoveryFailure(t *testing.T) {
	var asked atomic.Int32
	issuer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	t.Cleanup(issuer.Close)
	g := newGateServer(t, func(o *HTTPOptions) { o.Auth.Issuer, o.Auth.JWKSURL = issuer.URL, "" })
	token := g.iss.token(t, "ES256", "ec-1", false, g.iss.claims("alice", map[string]any{"iss": issuer.URL}))
	for range 4 {
		g.post(t, token, toolsList(), nil).want(t, http.StatusUnauthorized, "invalid_token", map[string]string{
			"scheme": "Bearer", "error": "invalid_token", "error_description": "could not get the issuer's signing keys", "resource_metadata": testMetadata,
		})
	}
	if n := asked.Load(); n != 2 {
		t.Fatalf("the issuer's metadata was asked for %d times, want 2 (one discovery)", n)
	}
}

// TestNoLeeway: with NoLeeway a token expired a second ago is refused;
// with the default leeway it passes.
func TestNoLeeway(t *testing.T) {
	g := newGateServer(t, func(o *HTTPOptions) { o.Auth.Leeway = NoLeeway })
	justExpired := g.iss.claims("alice", map[string]any{"exp": time.Now().Add(-2 * time.Second).Unix()})
	g.post(t, g.iss.token(t, "ES256", "ec-1", false, justExpired), toolsList(), nil).want(t, http.StatusUnauthorized, "invalid_token", nil)
	d := newGateServer(t, nil)
	justExpired["iss"] = testIssuerURL
	if a := d.post(t, d.iss.token(t, "ES256", "ec-1", false, justExpired), toolsList(), nil); a.status != http.StatusOK {
		t.Fatalf("default leeway: %d %v", a.status, a.body)
	}
}

// TestTokenWithoutKid: a token without kid is verified by the one key of
// its algorithm's type in the set; with two such keys it is refused as an
// unknown signing key (the rule of the three runtimes).
func TestTokenWithoutKid(t *testing.T) {
	iss := newTestIssuer(t)
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	jwk := func(k *ecdsa.PrivateKey, kid string) map[string]string {
		return map[string]string{"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig",
			"x": b64(k.X.FillBytes(make([]byte, 32))), "y": b64(k.Y.FillBytes(make([]byte, 32)))}
	}
	jwks, _ := json.Marshal(map[string]any{"keys": []any{jwk(iss.ec, "ec-1"), jwk(other, "ec-2"),
		map[string]string{"kty": "RSA", "kid": "rsa-1", "n": b64(iss.rsa.N.Bytes()), "e": b64(big.NewInt(int64(iss.rsa.E)).Bytes())}}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(jwks) }))
	t.Cleanup(srv.Close)
	g := newGateServer(t, func(o *HTTPOptions) { o.Auth.JWKSURL = srv.URL })
	a := g.post(t, iss.token(t, "ES256", "", false, iss.claims("alice", nil)), toolsList(), nil)
	if a.status != http.StatusUnauthorized || a.body["error_description"] != "unknown signing key" {
		t.Fatalf("two EC keys, no kid: %d %v", a.status, a.body)
	}
	if a := g.post(t, iss.token(t, "RS256", "", false, iss.claims("alice", nil)), toolsList(), nil); a.status != http.StatusOK {
		t.Fatalf("one RSA key, no kid: %d %v", a.status, a.body)
	}
	if a := g.post(t, iss.token(t, "ES256", "ec-1", false, iss.claims("alice", nil)), toolsList(), nil); a.status != http.StatusOK {
		t.Fatalf("kid ec-1: %d %v", a.status, a.body)
	}
}
