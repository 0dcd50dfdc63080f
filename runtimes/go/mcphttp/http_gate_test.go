package mcphttp

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testIssuer is an authorization server's keys, its JWKS served on a real
// loopback socket.
type testIssuer struct {
	url     string
	jwksURL string
	ec      *ecdsa.PrivateKey
	rsa     *rsa.PrivateKey
	fetches atomic.Int32
}

const (
	testPublicURL = "https://mcp.example.test/mcp"
	testIssuerURL = "https://issuer.example.test"
	testMetadata  = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp"
)

func newTestIssuer(t testing.TB) *testIssuer {
	t.Helper()
	iss := &testIssuer{url: testIssuerURL}
	var err error
	if iss.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		t.Fatal(err)
	}
	if iss.rsa, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	jwks, _ := json.Marshal(map[string]any{"keys": []map[string]string{
		{"kty": "EC", "crv": "P-256", "kid": "ec-1", "alg": "ES256", "use": "sig",
			"x": b64(iss.ec.X.FillBytes(make([]byte, 32))), "y": b64(iss.ec.Y.FillBytes(make([]byte, 32)))},
		{"kty": "RSA", "kid": "rsa-1", "alg": "RS256", "use": "sig",
			"n": b64(iss.rsa.N.Bytes()), "e": b64(big.NewInt(int64(iss.rsa.E)).Bytes())},
	}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		iss.fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(jwks)
	}))
	t.Cleanup(srv.Close)
	iss.jwksURL = srv.URL + "/jwks.json"
	return iss
}

// claims are a valid token's claims for subject, changed by set (a nil
// value removes the claim).
func (iss *testIssuer) claims(subject string, set map[string]any) jwt.MapClaims {
	now := time.Now()
	c := jwt.MapClaims{"iss": iss.url, "aud": testPublicURL, "sub": subject, "scope": "links.read links.archive",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	for k, v := range set {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// token signs claims with alg ("ES256", "RS256", "none", "HS256") under kid,
// with the issuer's key or, wrongKey, another one.
func (iss *testIssuer) token(t testing.TB, alg, kid string, wrongKey bool, claims jwt.MapClaims) string {
	t.Helper()
	var method jwt.SigningMethod
	var key crypto.PrivateKey
	switch alg {
	case "ES256":
		method, key = jwt.SigningMethodES256, iss.ec
		if wrongKey {
			key, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		}
	case "RS256":
		method, key = jwt.SigningMethodRS256, iss.rsa
		if wrongKey {
			key, _ = rsa.GenerateKey(rand.Reader, 2048)
		}
	case "none":
		method, key = jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType
	case "HS256":
		method, key = jwt.SigningMethodHS256, []byte("a shared secret of thirty-two bytes!")
	}
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// valid is a valid ES256 token of subject.
func (iss *testIssuer) valid(t testing.TB, subject string) string {
	return iss.token(t, "ES256", "ec-1", false, iss.claims(subject, nil))
}

// gateServer is an MCP server with two tools behind the gate: echo answers
// the caller's subject, archive needs scope links.archive (ToolScopes) and
// links_delete links.delete. calls counts the calls that reached a tool.
type gateServer struct {
	url   string
	calls atomic.Int32
	iss   *testIssuer
}

func newGateServer(t testing.TB, change func(*HTTPOptions)) *gateServer {
	t.Helper()
	g := &gateServer{iss: newTestIssuer(t)}
	server := mcp.NewServer(&mcp.Implementation{Name: "gate-test", Version: "1.0.0"}, nil)
	handler := func(_ context.Context, req *mcp.CallToolRequest, _ map[string]any) (*mcp.CallToolResult, any, error) {
		g.calls.Add(1)
		// What the generated IdentityFromRequest reads.
		text := "anonymous"
		if info := req.Extra.TokenInfo; info != nil {
			text = info.UserID + " " + info.Extra["claims"].(map[string]any)["iss"].(string)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	}
	for _, name := range []string{"echo", "links_archive", "links_delete"} {
		mcp.AddTool(server, &mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, handler)
	}
	o := HTTPOptions{
		PublicURL:    testPublicURL,
		Auth:         &AuthOptions{Issuer: testIssuerURL, JWKSURL: g.iss.jwksURL, Scopes: []string{"links.read"}},
		MaxBodyBytes: 65536,
		ToolScopes:   map[string][]string{"links_archive": {"links.archive"}, "links_delete": {"links.delete"}},
	}
	if change != nil {
		change(&o)
	}
	srv := httptest.NewServer(NewMCPHTTPHandler(server, o))
	t.Cleanup(srv.Close)
	g.url = srv.URL + "/mcp"
	return g
}

// answer is an HTTP answer: status, WWW-Authenticate parsed, JSON body.
type answer struct {
	status    int
	close     bool              // the server closes the connection
	challenge map[string]string // "scheme" and the parameters
	body      map[string]any
	header    http.Header
}

// post sends a JSON-RPC body with token ("" for none) and extra headers.
func (g *gateServer) post(t testing.TB, token, body string, headers map[string]string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, g.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(body), &msg) == nil {
		req.Header.Set("Mcp-Method", msg.Method)
		if msg.Params.Name != "" {
			req.Header.Set("Mcp-Name", msg.Params.Name)
		}
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	return send(t, req)
}

func send(t testing.TB, req *http.Request) answer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, close: resp.Close, header: resp.Header, challenge: parseChallenge(resp.Header.Get("WWW-Authenticate"))}
	_ = json.Unmarshal(raw, &a.body)
	return a
}

// parseChallenge reads `Bearer a="x", b="y"` (quoted values with \ escapes).
func parseChallenge(h string) map[string]string {
	if h == "" {
		return nil
	}
	scheme, rest, _ := strings.Cut(h, " ")
	out := map[string]string{"scheme": scheme}
	for rest != "" {
		name, after, ok := strings.Cut(rest, `="`)
		if !ok {
			break
		}
		var value strings.Builder
		i := 0
		for ; i < len(after) && after[i] != '"'; i++ {
			if after[i] == '\\' {
				i++
			}
			value.WriteByte(after[i])
		}
		out[strings.TrimSpace(name)] = value.String()
		rest = strings.TrimPrefix(after[min(i+1, len(after)):], ", ")
	}
	return out
}

// rpcMeta is the _meta of a 2026-07-28 request.
const rpcMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

func toolsCall(tool string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{},` + rpcMeta + `}}`
}

func toolsList() string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + rpcMeta + `}}`
}

// want checks an answer's status, error code and challenge parameters.
func (a answer) want(t *testing.T, status int, code string, challenge map[string]string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d, want %d (body %v)", a.status, status, a.body)
	}
	if code != "" && (a.body["error"] != code || a.header.Get("Content-Type") != "application/json") {
		t.Fatalf("body %v (%s), want error %q as JSON", a.body, a.header.Get("Content-Type"), code)
	}
	for k, v := range challenge {
		if a.challenge[k] != v {
			t.Fatalf("WWW-Authenticate %v: %s = %q, want %q", a.challenge, k, a.challenge[k], v)
		}
	}
	if challenge != nil && len(a.challenge) != len(challenge) {
		t.Fatalf("WWW-Authenticate %v, want exactly %v", a.challenge, challenge)
	}
}

// connectHTTP connects an SDK client of protocol version, without a token.
func connectHTTP(t testing.TB, url, version string) *mcp.ClientSession {
	t.Helper()
	return connectWithToken(t, url, "", version)
}

// call calls a tool without arguments; it fails the test on a protocol
// error.
func call(t testing.TB, cs *mcp.ClientSession, name string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// text is the result's first text, "" when it has none.
func text(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
