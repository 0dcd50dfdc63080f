package aitools

// A call the MCP client gives up on cancels the gRPC call: the test server
// sees the cancellation, for notifications/cancelled and for a client that
// disconnects (stdio, stateless HTTP). The SDK ends the handler's context
// on notifications/cancelled and a closed stdio connection; a stateless
// HTTP request's end is NewMCPHTTPHandler's to pass on (its deadline set
// aside here).

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

func TestMCPCancellation(t *testing.T) {
	conn, srv := startServer(t)
	srv.holding = make(chan struct{})
	// No deadline of its own, so that only the cancellation ends the call.
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithTimeout(-1))
	hold := &mcp.CallToolParams{Name: "accounts_watch", Arguments: map[string]any{"count": -1}}

	// notifications/cancelled: the SDK client sends it when the call's
	// context ends.
	cs := connectInMemory(t, server)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() { _, err := cs.CallTool(ctx, hold); errs <- err }()
	<-srv.holding
	before := srv.cancelled.Load()
	cancel()
	if err := <-errs; err == nil {
		t.Fatal("the cancelled call succeeded")
	}
	waitFor(t, "notifications/cancelled", func() bool { return srv.cancelled.Load() == before+1 })

	// A disconnect: the client's end of the connection goes away with the
	// call in flight (as when its process dies), over stdio-like pipes.
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	ss, err := server.Connect(context.Background(), &mcp.IOTransport{Reader: c2sR, Writer: s2cW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	client, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: s2cR, Writer: c2sW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, err := client.CallTool(context.Background(), hold); errs <- err }()
	<-srv.holding
	before = srv.cancelled.Load()
	c2sW.Close()
	s2cR.Close()
	waitFor(t, "a client that disconnects", func() bool { return srv.cancelled.Load() == before+1 })
	<-errs
	_ = ss.Wait()

	// An HTTP request whose connection closes mid-call: stateless
	// (2026-07-28), and a POST of a 2025-11-25 session.
	httpServer := httptest.NewServer(NewMCPHTTPHandler(server)) // closed at the end: a failure leaves its call held
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	call := `"method":"tools/call","params":{"name":"accounts_watch","arguments":{"count":-1}`
	stateless := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "accounts_watch"}
	goesAway(t, srv, httpServer.URL, `{"jsonrpc":"2.0","id":1,`+call+`,`+meta+`}}`, stateless)
	resp := postMCP(t, context.Background(), httpServer.URL, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, nil)
	session := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-11-25"}
	resp.Body.Close()
	postMCP(t, context.Background(), httpServer.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session).Body.Close()
	goesAway(t, srv, httpServer.URL, `{"jsonrpc":"2.0","id":2,`+call+`}}`, session)
	httpServer.Close()
}

// mcpRequest is a POST of one JSON-RPC message to an MCP endpoint.
func mcpRequest(ctx context.Context, url, body string, headers map[string]string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return req
}

// postMCP posts one JSON-RPC message to an MCP endpoint.
func postMCP(t *testing.T, ctx context.Context, url, body string, headers map[string]string) *http.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(mcpRequest(ctx, url, body, headers))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// goesAway posts a call the test server holds, then closes the request's
// connection: the server must see the call cancelled.
func goesAway(t *testing.T, srv *testServer, url, body string, headers map[string]string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(mcpRequest(ctx, url, body, headers)); err == nil {
			_, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
	}()
	<-srv.holding
	before := srv.cancelled.Load()
	cancel()
	waitFor(t, "an HTTP client that goes away", func() bool { return srv.cancelled.Load() == before+1 })
	<-done
}

// TestMCPResultLimit: a result over WithMaxResultBytes is an isError result
// with the executor's text, unary and streamed.
func TestMCPResultLimit(t *testing.T) {
	conn, _ := startServer(t)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithMaxResultBytes(500))
	cs := connectInMemory(t, server)
	res := callTool(t, cs, "accounts_list", map[string]any{"count": 20, "contacts_per_account": 0}, nil)
	if text := textOf(res, 0); !res.IsError || !strings.HasPrefix(text, "result too large: ") || !strings.HasSuffix(text, " bytes, over the limit of 500; ask for less (a smaller page size or a filter)") {
		t.Errorf("unary: %v %s", res.IsError, text)
	}
	res = callTool(t, cs, "accounts_watch", map[string]any{"count": 999}, nil)
	if text := textOf(res, 0); !res.IsError || text != "result too large: more than 500 bytes; ask for less (a smaller page size or a filter)" {
		t.Errorf("stream: %v %s", res.IsError, text)
	}
	wantSuccess(t, callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil))
}
