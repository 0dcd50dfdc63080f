// Enabled with -tags aitools_fixup once the golden case "fixup" (generated
// from e2e/vectors/proto/aitest/v1/vectors.proto) exists.

package gentools

// Executors of the golden generated from e2e/vectors/proto/aitest/v1/vectors.proto,
// run against an in-process gRPC server; and the fix-up vectors
// (e2e/vectors/fixup/*.json) run through fixArgs and through the executors.

import (
	"context"
	"encoding/json"
	"example.com/aitools/testgo/internal/testkit"
	"fmt"
	"net"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	aitestv1 "example.com/aitools/testgo/pb/aitest/v1"
)

type accountServer struct {
	aitestv1.UnimplementedAccountServiceServer
	calls     atomic.Int64
	next      atomic.Int64
	lastMerge atomic.Pointer[aitestv1.MergeAccountsRequest]
}

func (s *accountServer) account(n int32) *aitestv1.Account {
	id := s.next.Add(1)
	a := &aitestv1.Account{
		Id:          testkit.UUID(int(id)),
		Name:        fmt.Sprintf("account %d", id),
		OwnerId:     testkit.UUID(100000 + int(id)),
		WorkspaceId: testkit.UUID(900000),
		Tags:        map[string]string{"origin": testkit.UUID(800000)},
	}
	for i := int32(0); i < n; i++ {
		a.Notes = append(a.Notes, &aitestv1.Note{Id: testkit.UUID(int(s.next.Add(1))), Text: "note"})
	}
	return a
}

func (s *accountServer) CreateAccount(_ context.Context, req *aitestv1.CreateAccountRequest) (*aitestv1.CreateAccountResponse, error) {
	s.calls.Add(1)
	if req.Name == "fail" {
		return nil, status.Error(codes.FailedPrecondition, "account name taken")
	}
	return &aitestv1.CreateAccountResponse{Account: s.account(req.NoteCount)}, nil
}

func (s *accountServer) ListAccounts(_ context.Context, req *aitestv1.ListAccountsRequest) (*aitestv1.ListAccountsResponse, error) {
	s.calls.Add(1)
	resp := &aitestv1.ListAccountsResponse{}
	for i := int32(0); i < req.Count; i++ {
		resp.Accounts = append(resp.Accounts, s.account(0))
	}
	return resp, nil
}

func (s *accountServer) MergeAccounts(_ context.Context, req *aitestv1.MergeAccountsRequest) (*aitestv1.MergeAccountsResponse, error) {
	s.calls.Add(1)
	s.lastMerge.Store(req)
	return &aitestv1.MergeAccountsResponse{ReceivedSourceId: req.SourceId + " -> " + req.TargetId + " " + req.Note}, nil
}

func (s *accountServer) WatchAccounts(req *aitestv1.WatchAccountsRequest, stream grpc.ServerStreamingServer[aitestv1.Account]) error {
	s.calls.Add(1)
	for i := int32(0); i < req.Count; i++ {
		if err := stream.Send(s.account(0)); err != nil {
			return err
		}
	}
	return nil
}

type fixupServer struct {
	aitestv1.UnimplementedFixupServiceServer
}

func (fixupServer) EchoStrict(_ context.Context, req *aitestv1.FixupRequest) (*aitestv1.FixupRequest, error) {
	return req, nil
}

func (fixupServer) EchoLoose(_ context.Context, req *aitestv1.FixupRequest) (*aitestv1.FixupRequest, error) {
	return req, nil
}

func startServer(t *testing.T) (*Executor, *accountServer) {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	accounts := &accountServer{}
	aitestv1.RegisterAccountServiceServer(srv, accounts)
	aitestv1.RegisterFixupServiceServer(srv, fixupServer{})
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return lis.Dial() }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return NewExecutor(conn), accounts
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
	return v
}

func TestExecutorAliasesResponsesAndResolvesArguments(t *testing.T) {
	e, srv := startServer(t)
	ctx := context.Background()
	out, err := e.Execute(ctx, "accounts_create", `{"name":"a","noteCount":2}`)
	if err != nil {
		t.Fatal(err)
	}
	// Account id, then notes (sorted keys: id, name, notes, ownerId...): "id"
	// uses the tool's primary prefix, ownerId is "user", workspace and map values stay raw.
	got := decodeJSON(t, out).(map[string]any)["account"].(map[string]any)
	if got["id"] != "acct-1" || got["ownerId"] != "user-1" || got["workspaceId"] != testkit.UUID(900000) {
		t.Fatalf("response not aliased as expected: %s", out)
	}
	notes := got["notes"].([]any)
	if notes[0].(map[string]any)["id"] != "acct-2" || notes[1].(map[string]any)["id"] != "acct-3" {
		t.Fatalf("notes: %s", out)
	}
	if got["tags"].(map[string]any)["origin"] != testkit.UUID(800000) {
		t.Fatalf("map value was aliased: %s", out)
	}
	// Ten more accounts: acct-4..acct-13; acct-10 must reach the server exactly.
	if _, err := e.ExecuteAccountsList(ctx, `{"count":10}`); err != nil {
		t.Fatal(err)
	}
	m := e.GetAliasManager()
	out, err = e.ExecuteAccountsMerge(ctx, `{"sourceId":"acct-10","targetId":"acct-1","note":"merge acct-10 into acct-1"}`)
	if err != nil {
		t.Fatal(err)
	}
	req := srv.lastMerge.Load()
	if req.SourceId != testkit.UUID(10) || req.TargetId != testkit.UUID(1) || req.Note != "merge acct-10 into acct-1" {
		t.Fatalf("server received %v", req)
	}
	// The response mentions both UUIDs in free text: aliasified.
	if want := "acct-10 -> acct-1 merge acct-10 into acct-1"; decodeJSON(t, out).(map[string]any)["receivedSourceId"] != want {
		t.Fatalf("merge response %s", out)
	}
	if m.ResolveAlias("acct-10") != testkit.UUID(10) {
		t.Fatal("GetAliasManager is not the executor's manager")
	}
}

func TestExecutorUnknownAliasFailsBeforeTheCall(t *testing.T) {
	e, srv := startServer(t)
	ctx := context.Background()
	if _, err := e.ExecuteAccountsCreate(ctx, `{"name":"a"}`); err != nil {
		t.Fatal(err)
	}
	calls := srv.calls.Load()
	_, err := e.ExecuteAccountsMerge(ctx, `{"sourceId":"acct-0","targetId":"acct-1"}`)
	want := `unknown alias "acct-0" in field "sourceId"; valid acct aliases: acct-1`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v; want %s", err, want)
	}
	if srv.calls.Load() != calls {
		t.Fatal("the RPC was made despite the unknown alias")
	}
}

func TestExecutorErrors(t *testing.T) {
	e, _ := startServer(t)
	ctx := context.Background()
	_, err := e.ExecuteAccountsCreate(ctx, `{"name":"fail"}`)
	if status.Code(err) != codes.FailedPrecondition || status.Convert(err).Message() != "account name taken" {
		t.Fatalf("server error not returned as is: %v", err)
	}
	_, err = e.ExecuteAccountsCreate(ctx, `{"name":`)
	if err == nil || !strings.HasPrefix(err.Error(), "failed to parse arguments: ") {
		t.Fatalf("invalid JSON: %v", err)
	}
	_, err = e.ExecuteAccountsCreate(ctx, `{"noteCount":"many"}`)
	if err == nil || !strings.HasPrefix(err.Error(), "failed to parse arguments: ") {
		t.Fatalf("bad field: %v", err)
	}
	if _, err := e.ExecuteAccountsCreate(ctx, `{"name":"x","unknownField":1}`); err != nil {
		t.Fatalf("unknown fields must be discarded: %v", err)
	}
	_, err = e.Execute(ctx, "nope", `{}`)
	if err == nil || err.Error() != "no auto-executor for tool: nope" {
		t.Fatalf("Execute(nope) = %v", err)
	}
	if e.CanExecute("nope") || !e.CanExecute("accounts_watch") || !e.CanExecute("fixup_strict") {
		t.Fatal("CanExecute")
	}
}

func TestExecutorServerStreaming(t *testing.T) {
	e, _ := startServer(t)
	ctx := context.Background()
	out, err := e.ExecuteAccountsWatch(ctx, `{"count":3}`)
	if err != nil {
		t.Fatal(err)
	}
	items, ok := decodeJSON(t, out).([]any)
	if !ok || len(items) != 3 || items[2].(map[string]any)["id"] != "acct-3" {
		t.Fatalf("stream result: %s", out)
	}
	if out, err := e.ExecuteAccountsWatch(ctx, `{"count":0}`); err != nil || decodeJSON(t, out) == nil || len(decodeJSON(t, out).([]any)) != 0 {
		t.Fatalf("empty stream: %s, %v", out, err)
	}
	if _, err := e.ExecuteAccountsWatch(ctx, `{"count":1000}`); err != nil {
		t.Fatalf("1000 messages must pass: %v", err)
	}
	_, err = e.ExecuteAccountsWatch(ctx, `{"count":1001}`)
	if err == nil || !strings.Contains(err.Error(), "1000") {
		t.Fatalf("1001 messages: %v", err)
	}
}

func TestExecutorConcurrent(t *testing.T) {
	e, _ := startServer(t)
	ctx := context.Background()
	done := make(chan error)
	for w := 0; w < 8; w++ {
		go func() {
			for i := 0; i < 20; i++ {
				out, err := e.ExecuteAccountsCreate(ctx, `{"name":"c"}`)
				if err != nil {
					done <- err
					return
				}
				id := decodeJSON(t, out).(map[string]any)["account"].(map[string]any)["id"].(string)
				if _, err := e.ExecuteAccountsMerge(ctx, `{"sourceId":"`+id+`","targetId":"`+id+`"}`); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for w := 0; w < 8; w++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

type fixupVector struct {
	Message string `json:"message"`
	Tool    string `json:"tool"`
	Strict  bool   `json:"strict"`
	Cases   []struct {
		Name        string          `json:"name"`
		Args        json.RawMessage `json:"args"`
		Expect      json.RawMessage `json:"expect"`
		ExpectError *string         `json:"expectError"`
	} `json:"cases"`
}

func TestFixupVectors(t *testing.T) {
	e, _ := startServer(t)
	for file, vec := range testkit.LoadVectors[fixupVector](t, "fixup") {
		t.Run(file, func(t *testing.T) {
			var req aitestv1.FixupRequest
			md := req.ProtoReflect().Descriptor()
			if string(md.FullName()) != vec.Message || len(vec.Cases) == 0 {
				t.Fatalf("vector for %q with %d cases", vec.Message, len(vec.Cases))
			}
			for _, c := range vec.Cases {
				got, err := e.fixArgs(string(c.Args), md, vec.Strict)
				if c.ExpectError != nil {
					if err == nil || err.Error() != *c.ExpectError {
						t.Errorf("%s: error %v; want %s", c.Name, err, *c.ExpectError)
					}
					if _, err := e.Execute(context.Background(), vec.Tool, string(c.Args)); err == nil || err.Error() != *c.ExpectError {
						t.Errorf("%s: executor error %v; want %s", c.Name, err, *c.ExpectError)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				if !reflect.DeepEqual(decodeJSON(t, got), decodeJSON(t, string(c.Expect))) {
					t.Errorf("%s:\n got  %s\n want %s", c.Name, got, c.Expect)
					continue
				}
				// Admitted means decodable: the executor gets the same request to the server.
				var want aitestv1.FixupRequest
				if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal([]byte(got), &want); err != nil {
					t.Errorf("%s: fixed arguments do not decode: %v", c.Name, err)
					continue
				}
				out, err := e.Execute(context.Background(), vec.Tool, string(c.Args))
				if err != nil {
					t.Errorf("%s: executor: %v", c.Name, err)
					continue
				}
				var echoed aitestv1.FixupRequest
				if err := protojson.Unmarshal([]byte(out), &echoed); err != nil || !proto.Equal(&echoed, &want) {
					t.Errorf("%s: server received %s; want %v (%v)", c.Name, out, &want, err)
				}
			}
		})
	}
}
