package aitools

// The MCP part on a real go-sdk server and client: in memory (a connection,
// as stdio), over streamable HTTP with sessions (2025-11-25) and stateless
// (2026-07-28) with handles, against the gRPC server of executor_test.go on
// a real socket, and an implementation served in process.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mcptest"
)

var (
	accountsList = AgentTool{
		Name:        "accounts_list",
		Description: "List accounts.",
		Strict:      true,
		Parameters:  json.RawMessage(`{"additionalProperties":false,"properties":{"contacts_per_account":{"type":"integer"},"count":{"type":"integer"}},"required":["count","contacts_per_account"],"type":"object"}`),
	}
	accountsMerge = AgentTool{
		Name:        "accounts_merge",
		Description: "Merge one account into another.",
		Strict:      false,
		Parameters:  json.RawMessage(`{"properties":{"note":{"type":"string"},"source_id":{"type":"string"},"target_id":{"type":"string"}},"type":"object"}`),
	}
	accountsWatch = AgentTool{
		Name:        "accounts_watch",
		Description: "Stream accounts.",
		Parameters:  json.RawMessage(`{"properties":{"count":{"type":"integer"}},"type":"object"}`),
	}
)

// accountTools are the tools a generated ForwardToAccountServiceClient
// would add.
func accountTools(client aitestv1.AccountServiceClient) []mcpTool {
	return []mcpTool{
		{
			tool:       accountsList,
			output:     json.RawMessage(`{"type":"object"}`),
			readOnly:   true,
			idempotent: true,
			call: func(ctx context.Context, e *Executor, args string) (string, error) {
				return mcpUnary(ctx, e, accountsList, args, &aitestv1.ListAccountsRequest{}, client.ListAccounts)
			},
		},
		{
			tool:        accountsMerge,
			destructive: true,
			idempotent:  true,
			call: func(ctx context.Context, e *Executor, args string) (string, error) {
				return mcpUnary(ctx, e, accountsMerge, args, &aitestv1.MergeAccountsRequest{}, client.MergeAccounts)
			},
		},
		{
			tool:      accountsWatch,
			wrap:      "messages",
			openWorld: true,
			call: func(ctx context.Context, e *Executor, args string) (string, error) {
				return mcpStream(ctx, e, accountsWatch, args, &aitestv1.WatchAccountsRequest{}, client.WatchAccounts)
			},
		},
	}
}

func newMCPServer(t testing.TB, client aitestv1.AccountServiceClient, opts ...MCPOption) *mcp.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(server, opts, accountTools(client))
	return server
}

// connectInMemory connects a client to server over in-memory transports:
// one connection, as stdio.
func connectInMemory(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return mcptest.ConnectInMemory(t, server)
}

// connectHTTP connects a client of protocol version to NewMCPHTTPHandler.
func connectHTTP(t *testing.T, url, version string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool; it fails the test on a protocol error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any, meta mcp.Meta) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func textOf(res *mcp.CallToolResult, i int) string {
	if i >= len(res.Content) {
		return ""
	}
	if c, ok := res.Content[i].(*mcp.TextContent); ok {
		return c.Text
	}
	return ""
}

var anyUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// wantSuccess checks a successful result: one text block (two with a
// handle), structuredContent the same JSON, and no registered UUID.
func wantSuccess(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("isError: %s", textOf(res, 0))
	}
	var fromText any
	if err := json.Unmarshal([]byte(textOf(res, 0)), &fromText); err != nil {
		t.Fatalf("text is not JSON: %s", textOf(res, 0))
	}
	a, _ := json.Marshal(fromText)
	b, _ := json.Marshal(res.StructuredContent)
	if string(a) != string(b) {
		t.Fatalf("structuredContent %s differs from the text %s", b, a)
	}
	obj, _ := fromText.(map[string]any)
	return obj
}

func TestMCPToolsList(t *testing.T) {
	conn, _ := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	server := newMCPServer(t, client,
		WithExtraProperties(MCPExtraProperty{Name: "tenant", Description: "The tenant.", Required: true}, MCPExtraProperty{Name: "trace"}),
		WithHandleArgument())
	res, err := connectInMemory(t, server).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		byName[tool.Name] = tool
	}
	if strings.Join(names, ",") != "accounts_list,accounts_merge,accounts_watch" {
		t.Fatalf("tools %v", names)
	}
	nullable := `{"anyOf":[{"type":"string"},{"type":"null"}]`
	for name, want := range map[string]string{
		// strict: every added property required
		"accounts_list": `{"additionalProperties":false,"properties":{"contacts_per_account":{"type":"integer"},"conversation":` + nullable + `,"description":` + quote(conversationHelp) + `},"count":{"type":"integer"},"tenant":` + nullable + `,"description":"The tenant."},"trace":` + nullable + `}},"required":["count","contacts_per_account","tenant","trace","conversation"],"type":"object"}`,
		// not strict: the required extra only
		"accounts_merge": `{"properties":{"conversation":` + nullable + `,"description":` + quote(conversationHelp) + `},"note":{"type":"string"},"source_id":{"type":"string"},"target_id":{"type":"string"},"tenant":` + nullable + `,"description":"The tenant."},"trace":` + nullable + `}},"required":["tenant"],"type":"object"}`,
	} {
		got, _ := json.Marshal(byName[name].InputSchema)
		if string(got) != want {
			t.Errorf("%s inputSchema\n got %s\nwant %s", name, got, want)
		}
	}
	list, merge, watch := byName["accounts_list"], byName["accounts_merge"], byName["accounts_watch"]
	if out, _ := json.Marshal(list.OutputSchema); string(out) != `{"type":"object"}` || merge.OutputSchema != nil {
		t.Errorf("outputSchema %s, %v", out, merge.OutputSchema)
	}
	// Every hint is listed, true or false (CONTRACT31 H).
	for tool, want := range map[*mcp.Tool]string{
		list:  `{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true}`,
		merge: `{"destructiveHint":true,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":false}`,
		watch: `{"destructiveHint":false,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false}`,
	} {
		if got, _ := json.Marshal(tool.Annotations); string(got) != want {
			t.Errorf("%s annotations\n got %s\nwant %s", tool.Name, got, want)
		}
	}
}

func TestMCPExtraPropertyNamedLikeAField(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `extra property "note" is already a property of tool "accounts_merge"`) {
			t.Fatalf("recovered %v", r)
		}
	}()
	newMCPServer(t, nil, WithExtraProperties(MCPExtraProperty{Name: "note"}))
}

// TestMCPConnection: over one connection, aliases carry from call to call;
// no handle is shown; another connection has its own aliases.
func TestMCPConnection(t *testing.T) {
	conn, _ := startServer(t)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn))
	cs := connectInMemory(t, server)
	res := callTool(t, cs, "accounts_list", map[string]any{"count": 2, "contacts_per_account": 1}, nil)
	got := wantSuccess(t, res)
	accounts, _ := got["accounts"].([]any)
	if len(accounts) != 2 || accounts[0].(map[string]any)["id"] != "acct-1" || len(res.Content) != 1 || res.Meta[conversationMetaKey] != nil {
		t.Fatalf("list: %s (%d blocks, meta %v)", textOf(res, 0), len(res.Content), res.Meta)
	}
	// proto field names, defaults emitted
	if _, ok := accounts[0].(map[string]any)["workspace_id"]; !ok || !strings.Contains(textOf(res, 0), `"name":""`) {
		t.Fatalf("not proto names with defaults: %s", textOf(res, 0))
	}
	res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-2", "target_id": "acct-1", "note": ""}, nil)
	if got := wantSuccess(t, res); got["received_source_id"] != "acct-2" {
		t.Fatalf("merge: %s", textOf(res, 0))
	}
	res = callTool(t, cs, "accounts_watch", map[string]any{"count": 2}, nil)
	if got := wantSuccess(t, res); len(got["messages"].([]any)) != 2 {
		t.Fatalf("watch: %s", textOf(res, 0))
	}

	other := connectInMemory(t, server)
	res = callTool(t, other, "accounts_merge", map[string]any{"source_id": "acct-2", "target_id": "acct-1", "note": ""}, nil)
	if !res.IsError || !strings.HasPrefix(textOf(res, 0), "invalid arguments, nothing was sent:\n- \"source_id\": unknown alias \"acct-2\"") {
		t.Fatalf("second connection: %s", textOf(res, 0))
	}
}

// A connection whose conversation expired is told so once, rather than
// numbering anew under the aliases the model still holds; its next call
// starts a new conversation.
func TestMCPConnectionConversationExpires(t *testing.T) {
	conn, _ := startServer(t)
	store := NewMemoryConversationStore(time.Minute)
	var skew atomic.Int64
	store.now = func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithConversationStore(store))
	cs := connectInMemory(t, server)
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	wantSuccess(t, callTool(t, cs, "accounts_list", list, nil))
	skew.Store(int64(2 * time.Minute))
	res := callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, nil)
	// The model never saw the conversation's handle, which the text does not name.
	if !res.IsError || textOf(res, 0) != "this conversation expired or was lost: start a new conversation" {
		t.Fatalf("call after expiry: %s", textOf(res, 0))
	}
	res = callTool(t, cs, "accounts_list", list, nil)
	got := wantSuccess(t, res)
	if accounts, _ := got["accounts"].([]any); len(accounts) != 1 || accounts[0].(map[string]any)["id"] != "acct-1" {
		t.Fatalf("the next call, in a new conversation: %s", textOf(res, 0))
	}
}

// lossyStore loses its conversations between Load and Register while lose
// is set.
type lossyStore struct {
	*MemoryConversationStore
	lose atomic.Bool
}

func (s *lossyStore) Register(ctx context.Context, handle, epoch string, pairs [][2]string) (string, error) {
	if s.lose.Load() {
		_ = s.Delete(ctx, handle)
		return "", ErrConversationExpired
	}
	return s.MemoryConversationStore.Register(ctx, handle, epoch, pairs)
}

// A connection's conversation lost while a call ran (its registration
// finds it gone) is named as the model knows it, without a handle; the
// connection's next call starts a new conversation.
func TestMCPConnectionConversationLostInACall(t *testing.T) {
	conn, _ := startServer(t)
	store := &lossyStore{MemoryConversationStore: NewMemoryConversationStore(0)}
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithConversationStore(store))
	cs := connectInMemory(t, server)
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	wantSuccess(t, callTool(t, cs, "accounts_list", list, nil))
	store.lose.Store(true)
	res := callTool(t, cs, "accounts_list", map[string]any{"count": 2, "contacts_per_account": 0}, nil)
	if !res.IsError || textOf(res, 0) != "this conversation expired or was lost: start a new conversation" {
		t.Fatalf("lost in the call: %s", textOf(res, 0))
	}
	store.lose.Store(false)
	got := wantSuccess(t, callTool(t, cs, "accounts_list", list, nil))
	if accounts, _ := got["accounts"].([]any); len(accounts) != 1 || accounts[0].(map[string]any)["id"] != "acct-1" {
		t.Fatalf("the next call, in a new conversation: %v", got)
	}
}

// A stateless conversation lost while a call ran is named as the model
// knows it: without a handle when the call made it (the model never saw
// it), by the handle the model passed (not the store's key) otherwise.
func TestMCPHandleConversationLostInACall(t *testing.T) {
	conn, _ := startServer(t)
	store := &lossyStore{MemoryConversationStore: NewMemoryConversationStore(0)}
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithConversationStore(store))
	httpServer := httptest.NewServer(NewMCPHTTPHandler(server))
	t.Cleanup(httpServer.Close)
	cs := connectHTTP(t, httpServer.URL, "2026-07-28")
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	store.lose.Store(true)
	res := callTool(t, cs, "accounts_list", list, nil)
	if !res.IsError || textOf(res, 0) != "this conversation expired or was lost: start a new conversation" {
		t.Fatalf("made for the call, lost in it: %s", textOf(res, 0))
	}
	store.lose.Store(false)
	res = callTool(t, cs, "accounts_list", list, nil)
	wantSuccess(t, res)
	handle, _ := res.Meta[conversationMetaKey].(string)
	store.lose.Store(true)
	res = callTool(t, cs, "accounts_list", list, mcp.Meta{conversationMetaKey: handle})
	if want := `unknown or expired conversation "` + handle + `"; call again without "conversation" to start a new one`; !res.IsError || textOf(res, 0) != want {
		t.Fatalf("passed, lost in the call: %s", textOf(res, 0))
	}
}

func TestMCPErrors(t *testing.T) {
	conn, srv := startServer(t)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn))
	cs := connectInMemory(t, server)
	wantSuccess(t, callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil))

	res := callTool(t, cs, "accounts_list", map[string]any{"count": "many", "contacts_per_account": 0}, nil)
	if !res.IsError || textOf(res, 0) != "invalid arguments, nothing was sent:\n- \"count\": expected an integer, got \"many\"" {
		t.Errorf("bad arguments: %v %s", res.IsError, textOf(res, 0))
	}
	res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-9", "target_id": "acct-1", "note": ""}, nil)
	if !res.IsError || textOf(res, 0) != "invalid arguments, nothing was sent:\n- \"source_id\": unknown alias \"acct-9\"; valid acct aliases: acct-1" {
		t.Errorf("unknown alias: %v %s", res.IsError, textOf(res, 0))
	}

	uuid := testUUID(1) // acct-1
	st, _ := status.New(codes.NotFound, "account "+uuid+" not found").WithDetails(wrapperspb.String(uuid))
	srv.fail.Store(st)
	res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, nil)
	want := `rpc error: code = NotFound desc = account acct-1 not found`
	if !res.IsError || textOf(res, 0) != want || anyUUID.MatchString(textOf(res, 0)) {
		t.Errorf("server error: %v %s", res.IsError, textOf(res, 0))
	}

	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "accounts_nope", Arguments: map[string]any{}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool: %v", err)
	}
}

func TestMCPPanicIsAnErrorResult(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(server, nil, []mcpTool{{tool: accountsWatch, call: func(context.Context, *Executor, string) (string, error) { panic("boom") }}})
	res := callTool(t, connectInMemory(t, server), "accounts_watch", map[string]any{}, nil)
	if !res.IsError || textOf(res, 0) != `internal error in tool "accounts_watch": boom` {
		t.Fatalf("%v %s", res.IsError, textOf(res, 0))
	}
}

// TestMCPHTTP: 2025-11-25 clients get one conversation per session;
// 2026-07-28 clients get a handle with each result and pass it back in
// _meta or as the argument "conversation".
func TestMCPHTTP(t *testing.T) {
	conn, _ := startServer(t)
	store := NewMemoryConversationStore(0)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithHandleArgument(), WithConversationStore(store))
	httpServer := httptest.NewServer(NewMCPHTTPHandler(server))
	conversations := func() int {
		store.mu.Lock()
		defer store.mu.Unlock()
		return len(store.entries)
	}
	t.Cleanup(httpServer.Close)
	list := map[string]any{"count": 1, "contacts_per_account": 0}

	t.Run("sessions", func(t *testing.T) {
		cs := connectHTTP(t, httpServer.URL, "2025-11-25")
		if cs.ID() == "" {
			t.Fatal("no Mcp-Session-Id")
		}
		res := callTool(t, cs, "accounts_list", list, nil)
		if wantSuccess(t, res); len(res.Content) != 1 || res.Meta[conversationMetaKey] != nil {
			t.Fatalf("a session shows no handle: %v", res.Content)
		}
		wantSuccess(t, callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, nil))
		// The store loses the session's conversation (a restart, an
		// eviction): the model never saw its handle, which the text does
		// not name; the session's next call starts a new one.
		store.mu.Lock()
		clear(store.entries)
		store.mu.Unlock()
		res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, nil)
		if !res.IsError || textOf(res, 0) != "this conversation expired or was lost: start a new conversation" {
			t.Fatalf("a lost session conversation: %s", textOf(res, 0))
		}
		wantSuccess(t, callTool(t, cs, "accounts_list", list, nil))
		res = callTool(t, connectHTTP(t, httpServer.URL, "2025-11-25"), "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, nil)
		if !res.IsError {
			t.Fatalf("another session resolved acct-1: %s", textOf(res, 0))
		}
	})

	t.Run("handles", func(t *testing.T) {
		cs := connectHTTP(t, httpServer.URL, "2026-07-28")
		if got := cs.InitializeResult().ProtocolVersion; got != "2026-07-28" {
			t.Fatalf("protocol %s", got)
		}
		res := callTool(t, cs, "accounts_list", list, nil)
		wantSuccess(t, res)
		handle, _ := res.Meta[conversationMetaKey].(string)
		if !regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`).MatchString(handle) || textOf(res, 1) != "conversation: "+handle {
			t.Fatalf("handle %q, second block %q", handle, textOf(res, 1))
		}
		// passed back in _meta
		res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, mcp.Meta{conversationMetaKey: handle})
		if got := wantSuccess(t, res); got["received_source_id"] != "acct-1" || res.Meta[conversationMetaKey] != handle {
			t.Fatalf("_meta handle: %s %v", textOf(res, 0), res.Meta)
		}
		// passed back as the argument
		res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": "", "conversation": handle}, nil)
		wantSuccess(t, res)
		// none: a new conversation, which knows no alias (and, as the call
		// failed, is not kept)
		before := conversations()
		res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": ""}, nil)
		if conversations() != before {
			t.Errorf("a failed first call kept its conversation: %d, was %d", conversations(), before)
		}
		if !res.IsError || !strings.Contains(textOf(res, 0), `unknown alias "acct-1"`) || len(res.Content) != 1 || res.Meta[conversationMetaKey] != nil {
			t.Fatalf("no handle: %s %v", textOf(res, 0), res.Meta)
		}
		res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": "", "conversation": "AAAAAAAAAAAAAAAAAAAAAA"}, nil)
		if !res.IsError || textOf(res, 0) != `unknown or expired conversation "AAAAAAAAAAAAAAAAAAAAAA"; call again without "conversation" to start a new one` {
			t.Fatalf("unknown handle: %s", textOf(res, 0))
		}
	})
}

// tenantServer answers MergeAccounts with the extra property "tenant" it
// finds in its context.
type tenantServer struct {
	aitestv1.UnimplementedAccountServiceServer
}

func (tenantServer) MergeAccounts(ctx context.Context, req *aitestv1.MergeAccountsRequest) (*aitestv1.MergeAccountsResponse, error) {
	if req.SourceId == "panic" {
		panic("the implementation failed")
	}
	tenant, _ := MCPExtraValue(ctx, "tenant")
	key, _ := ctx.Value(tenantKey{}).(string)
	return &aitestv1.MergeAccountsResponse{ReceivedSourceId: tenant + "/" + key + "/" + req.SourceId}, nil
}

type tenantKey struct{}

// TestMCPInProcessExtras: an implementation served in process sees the
// extra properties in its context; they never reach the request.
func TestMCPInProcessExtras(t *testing.T) {
	conn := serveInProcess(func(s *grpc.Server) { aitestv1.RegisterAccountServiceServer(s, tenantServer{}) })
	t.Cleanup(func() { conn.Close() })
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	client := aitestv1.NewAccountServiceClient(conn)
	addMCPTools(server, []MCPOption{WithExtraProperties(MCPExtraProperty{Name: "tenant", Required: true, ContextKey: tenantKey{}})}, []mcpTool{{
		tool: accountsWatch, // any name: the call is MergeAccounts
		call: func(ctx context.Context, e *Executor, args string) (string, error) {
			return mcpUnary(ctx, e, accountsMerge, args, &aitestv1.MergeAccountsRequest{}, client.MergeAccounts)
		},
	}})
	cs := connectInMemory(t, server)
	res := callTool(t, cs, "accounts_watch", map[string]any{"tenant": "acme", "source_id": "x", "target_id": "y", "note": ""}, nil)
	if got := wantSuccess(t, res); got["received_source_id"] != "acme/acme/x" {
		t.Fatalf("%s", textOf(res, 0))
	}
	// A panic of the implementation is a server error, not the end of the process.
	res = callTool(t, cs, "accounts_watch", map[string]any{"tenant": "acme", "source_id": "panic", "target_id": "y", "note": ""}, nil)
	if !res.IsError || textOf(res, 0) != `rpc error: code = Internal desc = panic: the implementation failed` {
		t.Fatalf("panic: %s", textOf(res, 0))
	}
	res = callTool(t, cs, "accounts_watch", map[string]any{"source_id": "x"}, nil)
	if !res.IsError || textOf(res, 0) != "invalid arguments, nothing was sent:\n- \"tenant\": missing required field" {
		t.Fatalf("missing extra: %s", textOf(res, 0))
	}
	res = callTool(t, cs, "accounts_watch", map[string]any{"tenant": 7}, nil)
	if !res.IsError || textOf(res, 0) != "invalid arguments, nothing was sent:\n- \"tenant\": must be a string" {
		t.Fatalf("extra not a string: %s", textOf(res, 0))
	}
}

// BenchmarkMCPCall is one tools/call over in-memory transports, to the
// gRPC server on a socket and back (most of its time is go-sdk's JSON);
// BenchmarkExecutorCall is the same call through the executor alone.
func BenchmarkMCPCall(b *testing.B) {
	conn, _ := startServer(b)
	cs := connectInMemory(b, newMCPServer(b, aitestv1.NewAccountServiceClient(conn)))
	params := &mcp.CallToolParams{Name: "accounts_list", Arguments: map[string]any{"count": 1, "contacts_per_account": 1}}
	b.ResetTimer()
	for range b.N {
		if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

func BenchmarkExecutorCall(b *testing.B) {
	conn, _ := startServer(b)
	e := NewExecutor(conn)
	b.ResetTimer()
	for range b.N {
		if _, err := e.Execute(context.Background(), "accounts_list", `{"count":1,"contacts_per_account":1}`); err != nil {
			b.Fatal(err)
		}
	}
}

// mcpArgumentsVector is e2e/vectors/mcp/call-arguments.json (format in
// e2e/vectors/README.md).
type mcpArgumentsVector struct {
	Tool  string `json:"tool"`
	Cases []struct {
		Name   string `json:"name"`
		Server struct {
			ExtraProperties []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"extraProperties"`
			HandleArgument bool `json:"handleArgument"`
		} `json:"server"`
		Arguments   any            `json:"arguments"`
		Meta        map[string]any `json:"meta"`
		ExpectError *string        `json:"expectError"`
		Expect      *struct {
			Extras       map[string]string `json:"extras"`
			Conversation string            `json:"conversation"`
		} `json:"expect"`
	} `json:"cases"`
}

// TestMCPCallArgumentVectors runs the shared vectors of the extra
// properties and the conversation handle of a call, each case on a server
// of its own over stateless HTTP (2026-07-28).
func TestMCPCallArgumentVectors(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	vectors := loadVectors[mcpArgumentsVector](t, "mcp")
	if len(vectors) == 0 {
		t.Fatal("no e2e/vectors/mcp vectors")
	}
	for _, file := range sortedKeys(vectors) {
		vec := vectors[file]
		if vec.Tool != accountsWatch.Name {
			t.Fatalf("%s: tool %q", file, vec.Tool)
		}
		for _, c := range vec.Cases {
			t.Run(file+"/"+c.Name, func(t *testing.T) {
				ctx := context.Background()
				store := NewMemoryConversationStore(0)
				handles := map[string]string{}
				for _, name := range []string{"h1", "h2"} {
					h, err := store.Create(ctx)
					if err != nil {
						t.Fatal(err)
					}
					handles[name] = h
				}
				opts := []MCPOption{WithConversationStore(store)}
				var declared []string
				for _, p := range c.Server.ExtraProperties {
					opts = append(opts, WithExtraProperties(MCPExtraProperty{Name: p.Name, Required: p.Required}))
					declared = append(declared, p.Name)
				}
				if c.Server.HandleArgument {
					opts = append(opts, WithHandleArgument())
				}
				var mu sync.Mutex
				var seen map[string]string
				server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
				addMCPTools(server, opts, []mcpTool{{
					tool: accountsWatch,
					wrap: "messages",
					call: func(ctx context.Context, e *Executor, args string) (string, error) {
						mu.Lock()
						seen = map[string]string{}
						for _, name := range declared {
							if v, ok := MCPExtraValue(ctx, name); ok {
								seen[name] = v
							}
						}
						mu.Unlock()
						return mcpStream(ctx, e, accountsWatch, args, &aitestv1.WatchAccountsRequest{}, client.WatchAccounts)
					},
				}})
				httpServer := httptest.NewServer(NewMCPHTTPHandler(server))
				t.Cleanup(httpServer.Close)
				cs := connectHTTP(t, httpServer.URL, "2026-07-28")

				placeholders := func(m map[string]any) map[string]any {
					if m == nil {
						return nil
					}
					out := map[string]any{}
					for k, v := range m {
						if s, ok := v.(string); ok && strings.HasPrefix(s, "$") && handles[s[1:]] != "" {
							v = handles[s[1:]]
						}
						out[k] = v
					}
					return out
				}
				args := c.Arguments
				if m, ok := args.(map[string]any); ok {
					args = placeholders(m)
				}
				calls := srv.calls.Load()
				res := callTool(t, cs, vec.Tool, args, placeholders(c.Meta))
				mu.Lock()
				defer mu.Unlock()
				if c.ExpectError != nil {
					if !res.IsError || len(res.Content) != 1 || textOf(res, 0) != *c.ExpectError {
						t.Fatalf("isError %v, %d blocks, text\n got %s\nwant %s", res.IsError, len(res.Content), textOf(res, 0), *c.ExpectError)
					}
					if srv.calls.Load() != calls {
						t.Fatalf("the call reached the server, with extras %v", seen)
					}
					return
				}
				if c.Expect == nil {
					t.Fatal("a case without expect or expectError")
				}
				if got := wantSuccess(t, res); len(got["messages"].([]any)) != 0 {
					t.Fatalf("result %s", textOf(res, 0))
				}
				if !reflect.DeepEqual(seen, c.Expect.Extras) {
					t.Errorf("extras seen %v, want %v", seen, c.Expect.Extras)
				}
				handle, _ := res.Meta[conversationMetaKey].(string)
				switch want := c.Expect.Conversation; want {
				case "new":
					if !regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`).MatchString(handle) || handle == handles["h1"] || handle == handles["h2"] {
						t.Errorf("conversation %q, want a new one", handle)
					}
				default:
					if handles[want] == "" || handle != handles[want] {
						t.Errorf("conversation %q, want %s (%q)", handle, want, handles[want])
					}
				}
			})
		}
	}
}
