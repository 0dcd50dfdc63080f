package gentools

// The executors of the golden generated from
// e2e/vectors/proto/aitest/v1/vectors.proto, run against an in-process gRPC
// server on a real socket: registration by message type, the shared error
// vectors (e2e/vectors/errors/*.json), the fix-up vectors
// (e2e/vectors/fixup/*.json) through fixArgs and through the executors, and
// no registered UUID in any text for the model.

import (
	"context"
	"encoding/json"
	"errors"
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
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	aitestv1 "example.com/aitools/testgo/pb/aitest/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/vectortest"
)

// testServer serves both services of vectors.proto. Every call counts; the
// next call answers with the status set by failNext, if any.
type testServer struct {
	aitestv1.UnimplementedAccountServiceServer
	aitestv1.UnimplementedFixupServiceServer
	calls     atomic.Int64
	next      atomic.Int64
	fail      atomic.Pointer[status.Status]
	lastMerge atomic.Pointer[aitestv1.MergeAccountsRequest]
}

func (s *testServer) begin() error {
	s.calls.Add(1)
	if st := s.fail.Swap(nil); st != nil {
		return st.Err()
	}
	return nil
}

// account is a fresh account with notes and contacts of fresh ids; each
// contact's owner is the account.
func (s *testServer) account(notes, contacts int32) *aitestv1.Account {
	id := s.next.Add(1)
	a := &aitestv1.Account{
		Id:          testkit.UUID(int(id)),
		Name:        fmt.Sprintf("account %d", id),
		OwnerId:     testkit.UUID(100000 + int(id)),
		WorkspaceId: testkit.UUID(900000),
		Tags:        map[string]string{"origin": testkit.UUID(800000)},
	}
	for i := int32(0); i < notes; i++ {
		a.Notes = append(a.Notes, &aitestv1.Note{Id: testkit.UUID(200000 + int(s.next.Add(1))), Text: "note"})
	}
	for i := int32(0); i < contacts; i++ {
		a.Contacts = append(a.Contacts, &aitestv1.Contact{Id: testkit.UUID(300000 + int(s.next.Add(1))), OwnerId: a.Id, ExternalId: testkit.UUID(700000)})
	}
	return a
}

func (s *testServer) CreateAccount(_ context.Context, req *aitestv1.CreateAccountRequest) (*aitestv1.CreateAccountResponse, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	return &aitestv1.CreateAccountResponse{Account: s.account(req.NoteCount, req.ContactCount)}, nil
}

func (s *testServer) ListAccounts(_ context.Context, req *aitestv1.ListAccountsRequest) (*aitestv1.ListAccountsResponse, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	resp := &aitestv1.ListAccountsResponse{}
	for i := int32(0); i < req.Count; i++ {
		resp.Accounts = append(resp.Accounts, s.account(0, req.ContactsPerAccount))
	}
	return resp, nil
}

func (s *testServer) MergeAccounts(_ context.Context, req *aitestv1.MergeAccountsRequest) (*aitestv1.MergeAccountsResponse, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	s.lastMerge.Store(req)
	return &aitestv1.MergeAccountsResponse{ReceivedSourceId: req.SourceId + " -> " + req.TargetId + " " + req.Note}, nil
}

func (s *testServer) WatchAccounts(req *aitestv1.WatchAccountsRequest, stream grpc.ServerStreamingServer[aitestv1.Account]) error {
	if err := s.begin(); err != nil {
		return err
	}
	for i := int32(0); i < req.Count; i++ {
		if err := stream.Send(s.account(0, 0)); err != nil {
			return err
		}
	}
	return nil
}

func (s *testServer) EchoStrict(_ context.Context, req *aitestv1.FixupRequest) (*aitestv1.FixupRequest, error) {
	return req, s.begin()
}

func (s *testServer) EchoLoose(_ context.Context, req *aitestv1.FixupRequest) (*aitestv1.FixupRequest, error) {
	return req, s.begin()
}

// startServer serves on 127.0.0.1 and returns a connection to it.
func startServer(t testing.TB) (*grpc.ClientConn, *testServer) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	s := &testServer{}
	aitestv1.RegisterAccountServiceServer(srv, s)
	aitestv1.RegisterFixupServiceServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return conn, s
}

func startExecutor(t testing.TB) (*Executor, *testServer) {
	conn, s := startServer(t)
	return NewExecutor(conn), s
}

func decodeAny(t *testing.T, s string) any {
	t.Helper()
	v, ok := decodeJSON(s)
	if !ok {
		t.Fatalf("invalid JSON %q", s)
	}
	return v
}

func TestExecutorRegistersByMessageType(t *testing.T) {
	e, srv := startExecutor(t)
	ctx := context.Background()
	out, err := e.Execute(ctx, "accounts_create", `{"name":"a","owner_id":"","note_count":2,"contact_count":1}`)
	if err != nil {
		t.Fatal(err)
	}
	// The account is acct-1, its owner user-1, its notes note-1 and note-2
	// (their own prefix, not the tool's), its contact contact-1 whose owner is
	// the account; workspace, external and map values stay raw.
	got := decodeAny(t, out).(map[string]any)["account"].(map[string]any)
	if got["id"] != "acct-1" || got["owner_id"] != "user-1" || got["workspace_id"] != testkit.UUID(900000) {
		t.Fatalf("response not aliased as expected: %s", out)
	}
	notes := got["notes"].([]any)
	if notes[0].(map[string]any)["id"] != "note-1" || notes[1].(map[string]any)["id"] != "note-2" {
		t.Fatalf("notes: %s", out)
	}
	contact := got["contacts"].([]any)[0].(map[string]any)
	if contact["id"] != "contact-1" || contact["owner_id"] != "acct-1" || contact["external_id"] != testkit.UUID(700000) {
		t.Fatalf("contacts: %s", out)
	}
	if got["tags"].(map[string]any)["origin"] != testkit.UUID(800000) {
		t.Fatalf("map value was aliased: %s", out)
	}

	// 12 accounts of 2 contacts: acct-2..acct-13 and contact-2..contact-25,
	// account by account.
	out, err = e.ExecuteAccountsList(ctx, `{"count":12,"contacts_per_account":2}`)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range decodeAny(t, out).(map[string]any)["accounts"].([]any) {
		acct := a.(map[string]any)
		if want := fmt.Sprintf("acct-%d", i+2); acct["id"] != want {
			t.Fatalf("account %d is %v, want %s: %s", i, acct["id"], want, out)
		}
		for j, c := range acct["contacts"].([]any) {
			if want := fmt.Sprintf("contact-%d", 2*i+j+2); c.(map[string]any)["id"] != want {
				t.Fatalf("account %d contact %d is %v, want %s", i, j, c.(map[string]any)["id"], want)
			}
		}
	}

	// acct-10 reaches the server exactly, free text stays free text.
	out, err = e.ExecuteAccountsMerge(ctx, `{"source_id":"acct-10","target_id":"acct-1","note":"merge acct-10 into acct-1"}`)
	if err != nil {
		t.Fatal(err)
	}
	m := e.GetAliasManager()
	req := srv.lastMerge.Load()
	if req.SourceId != m.ResolveAlias("acct-10") || req.TargetId != testkit.UUID(1) || req.Note != "merge acct-10 into acct-1" {
		t.Fatalf("server received %v", req)
	}
	if want := "acct-10 -> acct-1 merge acct-10 into acct-1"; decodeAny(t, out).(map[string]any)["received_source_id"] != want {
		t.Fatalf("merge response %s", out)
	}
}

func TestExecutorUnknownAliasFailsBeforeTheCall(t *testing.T) {
	e, srv := startExecutor(t)
	ctx := context.Background()
	if _, err := e.ExecuteAccountsCreate(ctx, `{"name":"a","owner_id":"","note_count":0,"contact_count":0}`); err != nil {
		t.Fatal(err)
	}
	calls := srv.calls.Load()
	_, err := e.ExecuteAccountsMerge(ctx, `{"source_id":"acct-0","target_id":"acct-1","note":""}`)
	want := "invalid arguments, nothing was sent:\n- \"source_id\": unknown alias \"acct-0\"; valid acct aliases: acct-1"
	var te *ToolError
	if !errors.As(err, &te) || err.Error() != want || te.Reason != "unknown-alias" || status.Code(err) != codes.InvalidArgument {
		t.Fatalf("err = %v; want %s", err, want)
	}
	if srv.calls.Load() != calls {
		t.Fatal("the RPC was made despite the unknown alias")
	}
}

func TestExecutorServerErrorKeepsCodeAndDetails(t *testing.T) {
	e, srv := startExecutor(t)
	ctx := context.Background()
	uuid := testkit.UUID(1)
	e.GetAliasManager().Register("acct", uuid)
	detail, err := anypb.New(wrapperspb.String(uuid))
	if err != nil {
		t.Fatal(err)
	}
	st, err := status.New(codes.NotFound, `account "`+uuid+`" not found`).WithDetails(wrapperspb.String(uuid))
	if err != nil {
		t.Fatal(err)
	}
	srv.fail.Store(st)
	_, err = e.ExecuteAccountsMerge(ctx, `{"source_id":"acct-1","target_id":"","note":""}`)
	var te *ToolError
	if !errors.As(err, &te) {
		t.Fatalf("%T is not a *ToolError", err)
	}
	if err.Error() != `rpc error: code = NotFound desc = account "acct-1" not found` || te.RawMessage != `account "acct-1" not found` {
		t.Fatalf("message %q, raw %q", err.Error(), te.RawMessage)
	}
	got, ok := status.FromError(err)
	if !ok || got.Code() != codes.NotFound || got.Message() != te.RawMessage || len(te.Details) != 1 || !proto.Equal(te.Details[0], detail) {
		t.Fatalf("status %v, details %v", got, te.Details)
	}
	if d := got.Details(); len(d) != 1 || d[0].(*wrapperspb.StringValue).GetValue() != uuid {
		t.Fatalf("details lost the raw id: %v", d)
	}
	if te.Cause == nil || errors.Unwrap(err) != te.Cause {
		t.Fatal("no cause")
	}
}

func TestExecutorErrors(t *testing.T) {
	e, _ := startExecutor(t)
	ctx := context.Background()
	// Unknown fields are refused (lenient_arguments=true drops them).
	_, err := e.ExecuteAccountsCreate(ctx, `{"name":"x","owner_id":"","note_count":0,"contact_count":0,"unknownField":1}`)
	if err == nil || err.Error() != "invalid arguments, nothing was sent:\n- \"unknownField\": unknown field; valid fields: name, owner_id, note_count, contact_count" {
		t.Fatalf("unknown field: %v", err)
	}
	_, err = e.ExecuteAccountsCreate(ctx, `{"name":"x","owner_id":"","note_count":"99999999999","contact_count":0}`)
	if err == nil || !strings.HasPrefix(err.Error(), "invalid arguments, nothing was sent:\n- ") {
		t.Fatalf("decoder error: %v", err)
	}
	if e.CanExecute("nope") || !e.CanExecute("accounts_watch") || !e.CanExecute("fixup_strict") {
		t.Fatal("CanExecute")
	}
}

func TestExecutorServerStreaming(t *testing.T) {
	e, _ := startExecutor(t)
	ctx := context.Background()
	out, err := e.ExecuteAccountsWatch(ctx, `{"count":3}`)
	if err != nil {
		t.Fatal(err)
	}
	items, ok := decodeAny(t, out).([]any)
	if !ok || len(items) != 3 || items[2].(map[string]any)["id"] != "acct-3" || items[2].(map[string]any)["owner_id"] != "user-3" {
		t.Fatalf("stream result: %s", out)
	}
	if out, err := e.ExecuteAccountsWatch(ctx, `{"count":0}`); err != nil || out != "[]" {
		t.Fatalf("empty stream: %s, %v", out, err)
	}
	// The message limit, apart from the size limit (MaxResultBytes).
	e.MaxResultBytes = -1
	if _, err := e.ExecuteAccountsWatch(ctx, `{"count":1000}`); err != nil {
		t.Fatalf("1000 messages must pass: %v", err)
	}
	_, err = e.ExecuteAccountsWatch(ctx, `{"count":1001}`)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "invalid-response" || te.Code != codes.ResourceExhausted ||
		err.Error() != "stream returned more than 1000 messages: narrow the request" {
		t.Fatalf("1001 messages: %v", err)
	}
}

func TestExecutorConcurrent(t *testing.T) {
	e, _ := startExecutor(t)
	ctx := context.Background()
	done := make(chan error)
	for w := 0; w < 8; w++ {
		go func() {
			for i := 0; i < 20; i++ {
				out, err := e.ExecuteAccountsCreate(ctx, `{"name":"c","owner_id":"","note_count":0,"contact_count":1}`)
				if err != nil {
					done <- err
					return
				}
				var resp struct{ Account struct{ ID string } }
				if err := json.Unmarshal([]byte(out), &resp); err != nil {
					done <- err
					return
				}
				id := resp.Account.ID
				if _, err := e.ExecuteAccountsMerge(ctx, `{"source_id":"`+id+`","target_id":"`+id+`","note":""}`); err != nil {
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

// TestErrorVectors runs e2e/vectors/errors/*.json through the executors.
func TestErrorVectors(t *testing.T) {
	conn, srv := startServer(t)
	vectortest.RunErrors(t, func(register []vectortest.Registration, server *status.Status, tool, args string) (error, bool) {
		e := NewExecutor(conn)
		for _, r := range register {
			e.GetAliasManager().Register(r.Prefix, r.UUID)
		}
		srv.fail.Store(server)
		calls := srv.calls.Load()
		_, err := e.Execute(context.Background(), tool, args)
		srv.fail.Store(nil)
		return err, srv.calls.Load() != calls
	})
}

// TestNoUUIDReachesTheModel puts aliases (and raw UUIDs) where they do not
// fit: no registered UUID appears in what the model reads.
func TestNoUUIDReachesTheModel(t *testing.T) {
	e, _ := startExecutor(t)
	uuid := testkit.UUID(42)
	e.GetAliasManager().Register("acct", uuid)
	for _, args := range vectortest.LeakArgs(uuid) {
		out, err := e.Execute(context.Background(), "fixup_loose", args)
		if text := vectortest.ModelText(out, err); strings.Contains(text, uuid) {
			t.Errorf("%s: the model would read a UUID: %s", args, text)
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
	e, _ := startExecutor(t)
	// No argument tables: the fix-up vectors use JSON names and unknown
	// keys, which the structure check (e2e/vectors/arguments) refuses.
	saved := toolArguments
	toolArguments = map[string]string{}
	argTables.Clear()
	t.Cleanup(func() { toolArguments = saved; argTables.Clear() })
	for file, vec := range testkit.LoadVectors[fixupVector](t, "fixup") {
		t.Run(file, func(t *testing.T) {
			var req aitestv1.FixupRequest
			md := req.ProtoReflect().Descriptor()
			if string(md.FullName()) != vec.Message || len(vec.Cases) == 0 {
				t.Fatalf("vector for %q with %d cases", vec.Message, len(vec.Cases))
			}
			for _, c := range vec.Cases {
				fixed, err := fixArgs(decodeAny(t, string(c.Args)), md, vec.Strict)
				if c.ExpectError != nil {
					if err == nil || "failed to parse arguments: "+err.Error() != *c.ExpectError {
						t.Errorf("%s: error %v; want %s", c.Name, err, *c.ExpectError)
					}
					// The executor refuses it with the fix-up's error as one violation.
					v := violationOf(err, "")
					want := "invalid arguments, nothing was sent:\n- " + quote(v.Field) + ": " + v.Message
					if _, err := e.Execute(context.Background(), vec.Tool, string(c.Args)); err == nil || err.Error() != want {
						t.Errorf("%s: executor error %v; want %s", c.Name, err, want)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				got := encodeJSON(fixed)
				if !reflect.DeepEqual(decodeAny(t, got), decodeAny(t, string(c.Expect))) {
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
