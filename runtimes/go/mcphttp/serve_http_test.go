package mcphttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newEchoServer is an MCP server whose tool echo answers "ok".
func newEchoServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	return server
}

func newTestHTTPServer(t testing.TB, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// serve runs ServeMCPHTTP until the test ends (or stop), returning its
// URL and its result.
func serve(t *testing.T, server *mcp.Server, addr string, o HTTPOptions) (url string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan net.Addr, 1)
	o.Listening = func(a net.Addr) { listening <- a }
	done := make(chan error, 1)
	go func() { done <- ServeMCPHTTP(ctx, server, addr, o) }()
	select {
	case a := <-listening:
		url = "http://" + a.String() + "/mcp"
	case err := <-done:
		cancel()
		t.Fatal(err)
	}
	stop = sync.OnceValue(func() error { cancel(); return <-done })
	t.Cleanup(func() { _ = stop() })
	return url, stop
}

// TestServeRefusals: options that cannot serve safely are refused before
// listening, with the texts every runtime uses.
func TestServeRefusals(t *testing.T) {
	noAuth := `refusing to serve MCP over HTTP on "0.0.0.0" without authorization: set auth, or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) to serve anyone who can reach the port`
	cases := []struct {
		addr string
		o    HTTPOptions
		want string
	}{
		{"0.0.0.0:0", HTTPOptions{}, noAuth},
		{":0", HTTPOptions{}, noAuth},
		{"[::]:0", HTTPOptions{}, strings.Replace(noAuth, "0.0.0.0", "::", 1)},
		{"127.0.0.1:0", HTTPOptions{Auth: &AuthOptions{Issuer: testIssuerURL}},
			`auth needs publicUrl (public_url / PublicURL): the URL clients use, e.g. "https://tools.example.com/mcp"`},
		{"127.0.0.1:0", HTTPOptions{PublicURL: testPublicURL, Auth: &AuthOptions{Issuer: testIssuerURL, Algorithms: []string{"HS256"}}},
			`auth algorithm "HS256" is not allowed: use asymmetric ones (RS256, ES256, PS256, EdDSA...)`},
		{"127.0.0.1", HTTPOptions{}, `listen address "127.0.0.1" is not host:port, e.g. "127.0.0.1:8080"`},
		{"127.0.0.1:0", HTTPOptions{PublicURL: testPublicURL, Auth: &AuthOptions{Issuer: testIssuerURL, Leeway: 6 * time.Minute}},
			`auth Leeway 6m0s is out of range: between 0 and 5m (NoLeeway for none, zero for the default 30 s)`},
		{"127.0.0.1:0", HTTPOptions{PublicURL: testPublicURL, Auth: &AuthOptions{Issuer: testIssuerURL, Scopes: []string{"links read"}}},
			`auth Scopes: scope "links read" is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`},
		{"127.0.0.1:0", HTTPOptions{ToolScopes: map[string][]string{"links_delete": {"a\"b"}}},
			`ToolScopes: scope "a\"b" of tool "links_delete" is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`},
		{"127.0.0.1:0", HTTPOptions{PublicURL: testPublicURL, Auth: &AuthOptions{Issuer: testIssuerURL, Leeway: -time.Second}},
			`auth Leeway -1s is out of range: between 0 and 5m (NoLeeway for none, zero for the default 30 s)`},
	}
	for _, c := range cases {
		err := ServeMCPHTTP(context.Background(), newEchoServer(), c.addr, c.o)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.addr, err, c.want)
		}
	}
	// Explicitly open, or with auth, a non-loopback address serves.
	url, stop := serve(t, newEchoServer(), "0.0.0.0:0", HTTPOptions{AllowUnauthenticated: true, AllowedHosts: []string{"127.0.0.1"}})
	url = "http://127.0.0.1:" + url[strings.LastIndex(url, ":")+1:] // it listens on [::]
	if res := call(t, connectHTTP(t, url, "2026-07-28"), "echo"); text(res) != "ok" {
		t.Fatal(text(res))
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestServeDrain: when the context is done a call in flight finishes, new
// requests are refused and ServeMCPHTTP returns nil.
func TestServeDrain(t *testing.T) {
	server := newEchoServer()
	entered, release := make(chan struct{}), make(chan struct{})
	mcp.AddTool(server, &mcp.Tool{Name: "hold", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
			close(entered)
			<-release
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "held"}}}, nil, nil
		})
	url, stop := serve(t, server, "127.0.0.1:0", HTTPOptions{ShutdownGrace: time.Minute})
	cs := connectHTTP(t, url, "2026-07-28")
	held := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "hold", Arguments: map[string]any{}})
		held <- res
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	for {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(toolsList()))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			break // the listener is closed
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			break
		}
		time.Sleep(time.Millisecond) // ctx done, the drain not begun yet
	}
	select {
	case err := <-stopped:
		t.Fatalf("returned with a call in flight: %v", err)
	default:
	}
	close(release)
	if res := <-held; res == nil || text(res) != "held" {
		t.Fatalf("the held call: %+v", res)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// TestServeConnectionLimit: over MaxConnections a new connection is closed
// at once; the server answers again once one closes.
func TestServeConnectionLimit(t *testing.T) {
	url, _ := serve(t, newEchoServer(), "127.0.0.1:0", HTTPOptions{MaxConnections: 2})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	over, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer over.Close()
	_, _ = over.Write([]byte("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
	if _, err := over.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && !isReset(err) {
		t.Fatalf("the connection over the cap was not closed: %v", err)
	}
	idle[0].Close()
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(time.Millisecond) // the server sees the close
	}
}

func isReset(err error) bool {
	return err != nil && strings.Contains(err.Error(), "connection reset")
}

// TestServeDrainEndsEventStreams: a 2025-11-25 session's GET event stream
// carries no call: the drain ends it rather than waiting out the grace.
func TestServeDrainEndsEventStreams(t *testing.T) {
	url, stop := serve(t, newEchoServer(), "127.0.0.1:0", HTTPOptions{ShutdownGrace: time.Hour})
	cs := connectHTTP(t, url, "2025-11-25")
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	_, _ = io.Copy(io.Discard, resp.Body) // ends with the drain (else after an hour)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// TestLoopbackAndHosts: what counts as loopback, and Host matching (a
// listed name takes any port, host:port only that port, IPv6 bracketed,
// any case).
func TestLoopbackAndHosts(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.8.9.10": true, "::1": true, "[::1]": true, "localhost": true, "LocalHost": true,
		"0.0.0.0": false, "::": false, "": false, "10.0.0.1": false, "example.com": false, "localhost.example.com": false,
	} {
		if isLoopbackHost(host) != want {
			t.Errorf("isLoopbackHost(%q) = %v", host, !want)
		}
	}
	h := newHostOrigin(HTTPOptions{AllowedHosts: []string{"Tools.Example.com", "api.example.com:8443"}}, false)
	for host, want := range map[string]bool{
		"tools.example.com": true, "TOOLS.example.com:443": true, "api.example.com:8443": true,
		"api.example.com": false, "api.example.com:443": false, "localhost": false, "evil.example.com": false,
	} {
		if h.hostAllowed(host) != want {
			t.Errorf("hostAllowed(%q) = %v", host, !want)
		}
	}
	d := newHostOrigin(HTTPOptions{}, true)
	for host, want := range map[string]bool{"[::1]:8080": true, "127.0.0.1:1": true, "localhost": true, "[::2]:80": false, "127.0.0.2": false} {
		if d.hostAllowed(host) != want {
			t.Errorf("default hostAllowed(%q) = %v", host, !want)
		}
	}
	for origin, want := range map[string]bool{"http://localhost:5173": true, "https://127.0.0.1": true, "http://[::1]:3000": true, "null": false, "file://localhost": false, "http://example.com": false} {
		if d.originAllowed(origin) != want {
			t.Errorf("default originAllowed(%q) = %v", origin, !want)
		}
	}
}
