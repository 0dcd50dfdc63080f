package mcphttp

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestScopeRefused: a token without a server-wide scope, or without the
// scope of the tool a tools/call names (alone or in a batch), gets 403
// insufficient_scope naming every scope needed; nothing reaches a tool.
func TestScopeRefused(t *testing.T) {
	g := newGateServer(t, nil)
	iss := g.iss
	noScope := iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"scope": nil}))
	g.post(t, noScope, toolsList(), nil).want(t, http.StatusForbidden, "insufficient_scope", map[string]string{
		"scheme": "Bearer", "error": "insufficient_scope", "scope": "links.read", "resource_metadata": testMetadata,
	})
	readOnly := iss.token(t, "ES256", "ec-1", false, iss.claims("alice", map[string]any{"scope": "links.read"}))
	a := g.post(t, readOnly, toolsCall("links_archive"), nil)
	a.want(t, http.StatusForbidden, "insufficient_scope", map[string]string{
		"scheme": "Bearer", "error": "insufficient_scope", "scope": "links.archive links.read", "resource_metadata": testMetadata,
	})
	if a.body["error_description"] != `the call of "links_archive" needs scope "links.archive"` {
		t.Fatalf("%v", a.body)
	}
	batch := "[" + toolsList() + "," + toolsCall("links_delete") + "]"
	a = g.post(t, iss.valid(t, "alice"), batch, nil)
	a.want(t, http.StatusForbidden, "insufficient_scope", map[string]string{
		"scheme": "Bearer", "error": "insufficient_scope", "scope": "links.delete links.read", "resource_metadata": testMetadata,
	})
	if a.body["error_description"] != `the call of "links_delete" needs scope "links.delete"` {
		t.Fatalf("%v", a.body)
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
	cs := connectWithToken(t, g.url, iss.valid(t, "alice"), "2026-07-28")
	if res := call(t, cs, "links_archive"); res.IsError {
		t.Fatal(text(res))
	}
}

// TestProtectedResourceMetadata: served path-inserted and at the root
// without a token, its resource the configured URL whatever the Host.
func TestProtectedResourceMetadata(t *testing.T) {
	g := newGateServer(t, nil)
	base := strings.TrimSuffix(g.url, "/mcp")
	want := map[string]any{
		"resource":                 testPublicURL,
		"authorization_servers":    []any{testIssuerURL},
		"bearer_methods_supported": []any{"header"},
		"scopes_supported":         []any{"links.archive", "links.delete", "links.read"},
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Host = "localhost:4444"
		a := send(t, req)
		if a.status != http.StatusOK || a.header.Get("Cache-Control") != "max-age=3600" || !reflect.DeepEqual(a.body, want) {
			t.Fatalf("%s: %d %q %v", path, a.status, a.header.Get("Cache-Control"), a.body)
		}
	}
	// Another method: 405 with the JSON body.
	req, _ := http.NewRequest(http.MethodPost, base+"/.well-known/oauth-protected-resource", nil)
	if a := send(t, req); a.status != http.StatusMethodNotAllowed || a.body["error"] != "method_not_allowed" || a.header.Get("Allow") != "GET, HEAD" ||
		a.body["error_description"] != `the protected resource metadata answers GET and HEAD, not "POST"` {
		t.Fatalf("POST metadata: %d %v %v", a.status, a.header, a.body)
	}
	// Without auth there is nothing to describe.
	open := newGateServer(t, func(o *HTTPOptions) { o.Auth = nil })
	req, _ = http.NewRequest(http.MethodGet, strings.TrimSuffix(open.url, "/mcp")+"/.well-known/oauth-protected-resource", nil)
	if a := send(t, req); a.status != http.StatusNotFound {
		t.Fatalf("metadata without auth: %d %v, want 404", a.status, a.body)
	}
}

// TestHostAndOrigin: a Host or an Origin not listed gets 403 before the
// token is looked at; the public URL's origin and loopback hosts pass.
func TestHostAndOrigin(t *testing.T) {
	g := newGateServer(t, nil)
	token := g.iss.valid(t, "alice")
	g.post(t, "", toolsList(), map[string]string{"Host": "evil.example.test"}).want(t, http.StatusForbidden, "forbidden_host", nil)
	g.post(t, token, toolsCall("echo"), map[string]string{"Host": "evil.example.test:8080"}).want(t, http.StatusForbidden, "forbidden_host", nil)
	g.post(t, token, toolsCall("echo"), map[string]string{"Origin": "https://evil.example.test"}).want(t, http.StatusForbidden, "forbidden_origin", nil)
	g.post(t, token, toolsList(), map[string]string{"Origin": "null"}).want(t, http.StatusForbidden, "forbidden_origin", nil)
	a := g.post(t, token, toolsList(), map[string]string{"Origin": "https://evil.example.test"})
	if a.body["error_description"] != `origin "https://evil.example.test" is not allowed: add it to AllowedOrigins` {
		t.Fatalf("%v", a.body)
	}
	a = g.post(t, token, toolsList(), map[string]string{"Host": "evil.example.test"})
	if a.body["error_description"] != `host "evil.example.test" is not allowed: add it to AllowedHosts` {
		t.Fatalf("%v", a.body)
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
	// The mountable handler's address is unknown: it lists the loopback
	// origins too (the same default in the three runtimes).
	for _, h := range []map[string]string{{"Origin": "https://mcp.example.test"}, {"Host": "localhost:9"}, {"Host": "mcp.example.test"}, {"Host": "[::1]:80"}, {"Origin": "http://localhost:5173"}} {
		if a := g.post(t, token, toolsList(), h); a.status != http.StatusOK {
			t.Fatalf("%v: %d %v", h, a.status, a.body)
		}
	}
	loopback := newGateServer(t, func(o *HTTPOptions) { o.PublicURL, o.Auth = "", nil })
	if a := loopback.post(t, "", toolsList(), map[string]string{"Origin": "http://localhost:5173"}); a.status != http.StatusOK {
		t.Fatalf("loopback origin on a loopback server: %d %v", a.status, a.body)
	}
	// A public URL written with its default port: browsers leave it out.
	port443 := newGateServer(t, func(o *HTTPOptions) { o.PublicURL, o.Auth = "https://tools.example.com:443/mcp", nil })
	for _, h := range []map[string]string{{"Origin": "https://tools.example.com"}, {"Host": "tools.example.com"}} {
		if a := port443.post(t, "", toolsList(), h); a.status != http.StatusOK {
			t.Fatalf("default port, %v: %d %v", h, a.status, a.body)
		}
	}
	listed := newGateServer(t, func(o *HTTPOptions) {
		o.AllowedHosts, o.AllowedOrigins = []string{"tools.internal:8443"}, []string{"https://app.example.com"}
	})
	listed.post(t, token, toolsList(), map[string]string{"Host": "tools.internal:9"}).want(t, http.StatusForbidden, "forbidden_host", nil)
	if a := listed.post(t, listed.iss.valid(t, "alice"), toolsList(), map[string]string{"Host": "tools.internal:8443", "Origin": "https://app.example.com"}); a.status != http.StatusOK {
		t.Fatalf("listed host and origin: %d %v", a.status, a.body)
	}
}

// TestBodyLimit: a body over MaxBodyBytes gets 413 before the token is
// checked, with or without Content-Length; one of exactly the limit passes.
func TestBodyLimit(t *testing.T) {
	g := newGateServer(t, nil)
	g.post(t, "", toolsList()+strings.Repeat(" ", 65537-len(toolsList())), nil).want(t, http.StatusRequestEntityTooLarge, "request_too_large", nil)
	req, _ := http.NewRequest(http.MethodPost, g.url, struct{ *strings.Reader }{strings.NewReader(toolsList() + strings.Repeat(" ", 200000))})
	req.Header.Set("Authorization", "Bearer "+g.iss.valid(t, "alice"))
	if req.ContentLength != 0 {
		t.Fatal("the body should be sent chunked")
	}
	send(t, req).want(t, http.StatusRequestEntityTooLarge, "request_too_large", nil)
	exact := toolsCall("echo") + strings.Repeat(" ", 65536-len(toolsCall("echo")))
	if a := g.post(t, g.iss.valid(t, "alice"), exact, nil); a.status != http.StatusOK || g.calls.Load() != 1 {
		t.Fatalf("a body of exactly the limit: %d %v, %d calls", a.status, a.body, g.calls.Load())
	}
}

// TestSessionBoundToSubject: a 2025-11-25 session is its initializer's:
// another subject, or an id never given, gets 404 session_not_found.
func TestSessionBoundToSubject(t *testing.T) {
	g := newGateServer(t, nil)
	cs := connectWithToken(t, g.url, g.iss.valid(t, "alice"), "2025-11-25")
	if cs.ID() == "" {
		t.Fatal("no session")
	}
	if res := call(t, cs, "echo"); text(res) != "alice "+testIssuerURL {
		t.Fatalf("%q", text(res))
	}
	calls := g.calls.Load()
	for _, c := range []struct{ subject, session string }{{"bob", cs.ID()}, {"alice", "not-a-session"}} {
		a := g.post(t, g.iss.valid(t, c.subject), toolsCall("echo"), map[string]string{"Mcp-Session-Id": c.session, "MCP-Protocol-Version": "2025-11-25"})
		a.want(t, http.StatusNotFound, "session_not_found", nil)
	}
	if g.calls.Load() != calls {
		t.Fatal("another subject's call reached the tool")
	}
}

// TestDrainRefusesNewRequests: once draining, a request gets 503
// shutting_down and its connection is closed.
func TestDrainRefusesNewRequests(t *testing.T) {
	gate := newHTTPGate(t.Context(), newEchoServer(), HTTPOptions{}.withDefaults(), "", true)
	srv := newTestHTTPServer(t, gate)
	gate.drain()
	req, _ := http.NewRequest(http.MethodPost, srv+"/mcp", strings.NewReader(toolsList()))
	a := send(t, req)
	a.want(t, http.StatusServiceUnavailable, "shutting_down", nil)
	if !a.close {
		t.Fatal("the connection stays open")
	}
}

// TestScopeCheckReadsKeysAsTheSDK: a tools/call whose keys repeat "method"
// or "name" in another case is checked for the tool the SDK calls (it
// matches keys by exact case): 403, nothing reaches a tool. encoding/json
// took "Method" or "NAME" and let links_archive run.
func TestScopeCheckReadsKeysAsTheSDK(t *testing.T) {
	g := newGateServer(t, nil)
	readOnly := g.iss.token(t, "ES256", "ec-1", false, g.iss.claims("alice", map[string]any{"scope": "links.read"}))
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"x","params":{"name":"links_archive","arguments":{},` + rpcMeta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"links_archive","NAME":"echo","arguments":{},` + rpcMeta + `}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"links_archive","Name":"echo","arguments":{},` + rpcMeta + `}}]`,
		// A first duplicate of another type: the SDK takes the last one
		// (method and params are read raw first); the gate skipped the
		// message on its type error and links_archive ran.
		`{"jsonrpc":"2.0","id":1,"method":1,"method":"tools/call","params":{"name":"links_archive","arguments":{},` + rpcMeta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":1,"params":{"name":"links_archive","arguments":{},` + rpcMeta + `}}`,
	}
	for _, body := range bodies {
		a := g.post(t, readOnly, body, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "links_archive"})
		a.want(t, http.StatusForbidden, "insufficient_scope", nil)
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
}

// TestUnreadableCallRefused: a JSON body the scope check cannot read as
// the SDK reads JSON-RPC is refused 400, not let through unchecked.
func TestUnreadableCallRefused(t *testing.T) {
	g := newGateServer(t, nil)
	readOnly := g.iss.token(t, "ES256", "ec-1", false, g.iss.claims("alice", map[string]any{"scope": "links.read"}))
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","method":1,"params":{"name":"links_archive"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"links_archive","name":1}}`,
	} {
		a := g.post(t, readOnly, body, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "links_archive"})
		a.want(t, http.StatusBadRequest, "invalid_request", nil)
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
}

// TestBodyTimeout: a body trickled slower than the gate's deadline gets
// 408 request_timeout and its connection closed; others are still served.
func TestBodyTimeout(t *testing.T) {
	gate := newHTTPGate(t.Context(), newEchoServer(), HTTPOptions{}.withDefaults(), "", true)
	gate.bodyTime = 100 * time.Millisecond
	url := newTestHTTPServer(t, gate)
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"json")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusRequestTimeout || !resp.Close || body["error"] != "request_timeout" ||
		body["error_description"] != "the request body did not arrive within 0.1 s" {
		t.Fatalf("%d close=%v %v", resp.StatusCode, resp.Close, body)
	}
	if res := call(t, connectHTTP(t, url, "2026-07-28"), "echo"); text(res) != "ok" {
		t.Fatal(text(res))
	}
}

// TestDeepBodyPassedToTheSDK: a body nested deeper than the SDK accepts is
// not decoded by the scope check (the decoder recurses: 4 MiB of "[" killed
// the process with a stack overflow) but passed on; the SDK refuses it,
// and nothing reaches a tool.
func TestDeepBodyPassedToTheSDK(t *testing.T) {
	g := newGateServer(t, func(o *HTTPOptions) { o.MaxBodyBytes = 0 })
	for _, body := range []string{strings.Repeat("[", 4<<20-1), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + strings.Repeat(`{"a":`, 800000) + "}"} {
		if a := g.post(t, g.iss.valid(t, "alice"), body, nil); a.status < 400 || a.status >= 500 {
			t.Fatalf("status %d %v", a.status, a.body)
		}
	}
	if g.calls.Load() != 0 {
		t.Fatalf("%d calls reached a tool", g.calls.Load())
	}
}

// TestBodyReadError: a body that cannot be read (bad chunked encoding)
// gets 400 with the JSON refusal body, as every other refusal.
func TestBodyReadError(t *testing.T) {
	gate := newHTTPGate(t.Context(), newEchoServer(), HTTPOptions{}.withDefaults(), "", true)
	url := newTestHTTPServer(t, gate)
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Content-Type") != "application/json" || body["error"] != "invalid_request" {
		t.Fatalf("%d %s %v", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// TestScopeOfCallTool: a search-first server's call_tool is checked for the
// tool it names: links_archive's scope is needed through call_tool too.
func TestScopeOfCallTool(t *testing.T) {
	scopes := map[string][]string{"links_archive": {"links.write"}}
	call := func(name, args string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`)
	}
	for _, c := range []struct {
		body []byte
		tool string // refused, "" when allowed
	}{
		{call("call_tool", `{"name":"links_archive","arguments":{}}`), "links_archive"},
		{call("call_tool", `{"name":"links_get","arguments":{}}`), ""},
		{call("call_tool", `{"name":7}`), ""},
		{call("links_archive", `{}`), "links_archive"},
	} {
		refusal, err := callNeedingScope(c.body, scopes, []string{"links.read"})
		if err != nil || (refusal == nil) != (c.tool == "") || refusal != nil && refusal.tool != c.tool {
			t.Errorf("%s: %+v, %v", c.body, refusal, err)
		}
	}
	// A tool of that name with scopes of its own is checked as itself.
	scopes["call_tool"] = []string{"calls"}
	if refusal, _ := callNeedingScope(call("call_tool", `{"name":"links_get"}`), scopes, nil); refusal == nil || refusal.tool != "call_tool" {
		t.Errorf("a tool named call_tool: %+v", refusal)
	}
}
