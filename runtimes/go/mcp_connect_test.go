package aitools

// ForwardToConnect...Client's calls (mcp_connect.go): a connect-go client
// with connect.WithGRPC() calling the gRPC server of executor_test.go on a
// real socket (HTTP/2 without TLS), side by side with the gRPC client.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

// connectAccountClient is what a generated Connect...Client interface
// declares for the tools of accountTools.
type connectAccountClient interface {
	ListAccounts(context.Context, *connect.Request[aitestv1.ListAccountsRequest]) (*connect.Response[aitestv1.ListAccountsResponse], error)
	MergeAccounts(context.Context, *connect.Request[aitestv1.MergeAccountsRequest]) (*connect.Response[aitestv1.MergeAccountsResponse], error)
	WatchAccounts(context.Context, *connect.Request[aitestv1.WatchAccountsRequest]) (*connect.ServerStreamForClient[aitestv1.Account], error)
}

// accountConnectClient is a connect-go client of AccountService, built as
// protoc-gen-connect-go builds one: a connect.Client per method.
type accountConnectClient struct {
	list  *connect.Client[aitestv1.ListAccountsRequest, aitestv1.ListAccountsResponse]
	merge *connect.Client[aitestv1.MergeAccountsRequest, aitestv1.MergeAccountsResponse]
	watch *connect.Client[aitestv1.WatchAccountsRequest, aitestv1.Account]
}

func (c *accountConnectClient) ListAccounts(ctx context.Context, r *connect.Request[aitestv1.ListAccountsRequest]) (*connect.Response[aitestv1.ListAccountsResponse], error) {
	return c.list.CallUnary(ctx, r)
}

func (c *accountConnectClient) MergeAccounts(ctx context.Context, r *connect.Request[aitestv1.MergeAccountsRequest]) (*connect.Response[aitestv1.MergeAccountsResponse], error) {
	return c.merge.CallUnary(ctx, r)
}

func (c *accountConnectClient) WatchAccounts(ctx context.Context, r *connect.Request[aitestv1.WatchAccountsRequest]) (*connect.ServerStreamForClient[aitestv1.Account], error) {
	return c.watch.CallServerStream(ctx, r)
}

// newAccountConnectClient speaks gRPC (connect.WithGRPC) over HTTP/2
// without TLS to the server at addr.
func newAccountConnectClient(addr string) *accountConnectClient {
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	hc := &http.Client{Transport: &http.Transport{Protocols: &protocols}}
	base := "http://" + addr + "/" + aitestv1.AccountService_ServiceDesc.ServiceName + "/"
	return &accountConnectClient{
		list:  connect.NewClient[aitestv1.ListAccountsRequest, aitestv1.ListAccountsResponse](hc, base+"ListAccounts", connect.WithGRPC()),
		merge: connect.NewClient[aitestv1.MergeAccountsRequest, aitestv1.MergeAccountsResponse](hc, base+"MergeAccounts", connect.WithGRPC()),
		watch: connect.NewClient[aitestv1.WatchAccountsRequest, aitestv1.Account](hc, base+"WatchAccounts", connect.WithGRPC()),
	}
}

// connectAccountTools are the tools a generated
// ForwardToConnectAccountServiceClient would add: accountTools' with the
// connect-go calls.
func connectAccountTools(client connectAccountClient) []mcpTool {
	tools := accountTools(nil)
	tools[0].call = func(ctx context.Context, e *Executor, args string) (string, error) {
		return mcpUnary(ctx, e, accountsList, args, &aitestv1.ListAccountsRequest{}, connectUnary(client.ListAccounts))
	}
	tools[1].call = func(ctx context.Context, e *Executor, args string) (string, error) {
		return mcpUnary(ctx, e, accountsMerge, args, &aitestv1.MergeAccountsRequest{}, connectUnary(client.MergeAccounts))
	}
	tools[2].call = func(ctx context.Context, e *Executor, args string) (string, error) {
		return mcpStream(ctx, e, accountsWatch, args, &aitestv1.WatchAccountsRequest{}, connectStream(client.WatchAccounts))
	}
	return tools
}

// TestMCPConnectForward: the connect-go forward resolves aliases, streams,
// sends the forwarded metadata as headers, and reports a server error
// (code, message, BadRequest details) with the text the gRPC forward gives.
func TestMCPConnectForward(t *testing.T) {
	conn, srv := startServer(t)
	creds := WithForwardIdentity(ForwardIdentity{BackendCredentials: func(context.Context, *Identity) (map[string]string, error) {
		return map[string]string{"x-tenant": "acme", "authorization": "Bearer backend"}, nil
	}})
	viaConnect := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(viaConnect, []MCPOption{creds}, connectAccountTools(newAccountConnectClient(conn.Target())))
	viaGRPC := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), creds)
	cs, grpcCS := connectInMemory(t, viaConnect), connectInMemory(t, viaGRPC)
	// acct-1 is the first account each conversation lists.
	acct1 := map[*mcp.ClientSession]string{grpcCS: testUUID(1), cs: testUUID(2)}
	callTool(t, grpcCS, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil)

	res := callTool(t, cs, "accounts_list", map[string]any{"count": 2, "contacts_per_account": 0}, nil)
	if got := wantSuccess(t, res); got["accounts"].([]any)[1].(map[string]any)["id"] != "acct-2" {
		t.Fatalf("list: %s", textOf(res, 0))
	}
	calls := srv.calls.Load()
	res = callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-2", "target_id": "acct-1", "note": ""}, nil)
	if got := wantSuccess(t, res); got["received_source_id"] != "acct-2" || srv.calls.Load() != calls+1 {
		t.Fatalf("merge: %s", textOf(res, 0))
	}
	md := *srv.merged.Load()
	// The server received the UUID the alias stands for, and the headers.
	if got := md.Get("x-tenant"); len(got) != 1 || got[0] != "acme" {
		t.Errorf("x-tenant %q", got)
	}
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer backend" {
		t.Errorf("authorization %q", got)
	}
	res = callTool(t, cs, "accounts_watch", map[string]any{"count": 3}, nil)
	if got := wantSuccess(t, res); len(got["messages"].([]any)) != 3 {
		t.Fatalf("watch: %s", textOf(res, 0))
	}

	// The same failure through both forwards: the same text.
	for name, args := range map[string]map[string]any{
		"accounts_merge": {"source_id": "acct-1", "target_id": "acct-1", "note": ""},
		"accounts_watch": {"count": 1},
	} {
		var texts [2]string
		for i, session := range []*mcp.ClientSession{cs, grpcCS} {
			uuid := acct1[session]
			st, err := status.New(codes.FailedPrecondition, "account "+uuid+" is locked").WithDetails(&errdetails.BadRequest{
				FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "source_id", Description: "locked since " + uuid}},
			})
			if err != nil {
				t.Fatal(err)
			}
			srv.fail.Store(st)
			res := callTool(t, session, name, args, nil)
			if !res.IsError {
				t.Fatalf("%s: not an error: %s", name, textOf(res, 0))
			}
			texts[i] = textOf(res, 0)
		}
		want := "rpc error: code = FailedPrecondition desc = account acct-1 is locked"
		if texts[0] != texts[1] || !strings.HasPrefix(texts[0], want) || !strings.Contains(texts[0], "locked since acct-1") {
			t.Errorf("%s: connect %q\n gRPC %q", name, texts[0], texts[1])
		}
	}
}

// TestConnectHeaders: outgoing metadata become headers, binary values
// base64-encoded as gRPC sends them.
func TestConnectHeaders(t *testing.T) {
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-user-id", "u1", "x-user-id", "u2", "trace-bin", "\x00\xff")
	h := http.Header{}
	connectHeaders(ctx, h)
	if got := h.Values("X-User-Id"); strings.Join(got, ",") != "u1,u2" {
		t.Errorf("x-user-id %q", got)
	}
	if got := h.Get("Trace-Bin"); got != connect.EncodeBinaryHeader([]byte("\x00\xff")) || got != "AP8" {
		t.Errorf("trace-bin %q", got)
	}
}

// TestMCPConnectDeadline: a call past its deadline through the connect-go
// forward is refused with the code the gRPC forward gives.
func TestMCPConnectDeadline(t *testing.T) {
	conn, _ := startServer(t)
	timeout := WithTimeout(50 * time.Millisecond)
	viaConnect := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(viaConnect, []MCPOption{timeout}, connectAccountTools(newAccountConnectClient(conn.Target())))
	viaGRPC := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), timeout)
	for _, server := range []*mcp.Server{viaConnect, viaGRPC} {
		res := callTool(t, connectInMemory(t, server), "accounts_watch", map[string]any{"count": -1}, nil) // held until cancelled
		// The code, not the description: grpc-go's reads "context deadline
		// exceeded" or "stream terminated by RST_STREAM ...", depending on
		// whether the client's timer or the server's reset comes first.
		if want := "rpc error: code = DeadlineExceeded desc = "; !res.IsError || !strings.HasPrefix(textOf(res, 0), want) {
			t.Errorf("%v %q, want %q...", res.IsError, textOf(res, 0), want)
		}
	}
}

// TestMCPConnectStreamClosedWhenLeftEarly: a stream mcpStream stops reading
// (past 1000 messages) is closed, as connect-go asks; one read to its end
// is closed once.
func TestMCPConnectStreamClosedWhenLeftEarly(t *testing.T) {
	conn, _ := startServer(t)
	client := newAccountConnectClient(conn.Target())
	for count, wantErr := range map[int]string{1001: "stream returned more than 1000 messages: narrow the request", 2: ""} {
		var receiver *connectReceiver[aitestv1.Account]
		watch := func(ctx context.Context, req *aitestv1.WatchAccountsRequest, opts ...grpc.CallOption) (*connectReceiver[aitestv1.Account], error) {
			r, err := connectStream(client.WatchAccounts)(ctx, req, opts...)
			receiver = r
			return r, err
		}
		e := NewExecutor(nil)
		e.MaxResultBytes = 10_000_000 // the message count stops it first
		_, err := mcpStream(context.Background(), e, accountsWatch, fmt.Sprintf(`{"count":%d}`, count), &aitestv1.WatchAccountsRequest{}, watch)
		if (err == nil) != (wantErr == "") || (err != nil && !strings.Contains(err.Error(), wantErr)) {
			t.Fatalf("count %d: error %v, want %q", count, err, wantErr)
		}
		if receiver == nil || !receiver.closed {
			t.Errorf("count %d: the stream was not closed", count)
		}
		if err := receiver.Close(); err != nil {
			t.Errorf("count %d: a second Close: %v", count, err)
		}
	}
}
