package aitools

// The executor helpers against a gRPC server of vectors.proto on a real
// socket: the shared error vectors (e2e/vectors/errors/*.json), the fix-up
// vectors through a call, registration by message type, and no registered
// UUID in any text for the model. Executor.Execute (execute.go) stands in
// for what the generated file declares (templates/go/executor.hbs).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/vectortest"
)

// testServer counts calls and answers the next one with the status set by
// failNext, if any.
type testServer struct {
	aitestv1.UnimplementedAccountServiceServer
	aitestv1.UnimplementedFixupServiceServer
	calls atomic.Int64
	next  atomic.Int64
	fail  atomic.Pointer[status.Status]
	// cancelled counts the calls the server saw cancelled (or past their
	// deadline) before it answered.
	cancelled atomic.Int64
	// holding, when set, receives once from each held call as it holds.
	holding chan struct{}
	// merged is the request metadata of the last MergeAccounts.
	merged atomic.Pointer[metadata.MD]
}

func (s *testServer) begin() error {
	s.calls.Add(1)
	if st := s.fail.Swap(nil); st != nil {
		return st.Err()
	}
	return nil
}

func (s *testServer) account(contacts int32) *aitestv1.Account {
	a := &aitestv1.Account{Id: testUUID(int(s.next.Add(1))), WorkspaceId: testUUID(900000)}
	for i := int32(0); i < contacts; i++ {
		a.Contacts = append(a.Contacts, &aitestv1.Contact{Id: testUUID(300000 + int(s.next.Add(1))), OwnerId: a.Id})
	}
	return a
}

func (s *testServer) ListAccounts(_ context.Context, req *aitestv1.ListAccountsRequest) (*aitestv1.ListAccountsResponse, error) {
	resp := &aitestv1.ListAccountsResponse{}
	for i := int32(0); i < req.Count; i++ {
		resp.Accounts = append(resp.Accounts, s.account(req.ContactsPerAccount))
	}
	return resp, s.begin()
}

func (s *testServer) MergeAccounts(ctx context.Context, req *aitestv1.MergeAccountsRequest) (*aitestv1.MergeAccountsResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	s.merged.Store(&md)
	return &aitestv1.MergeAccountsResponse{ReceivedSourceId: req.SourceId}, s.begin()
}

// WatchAccounts streams req.Count accounts; a negative count holds the call
// until the client cancels it (or its deadline passes).
func (s *testServer) WatchAccounts(req *aitestv1.WatchAccountsRequest, stream grpc.ServerStreamingServer[aitestv1.Account]) error {
	if err := s.begin(); err != nil {
		return err
	}
	ctx := stream.Context()
	if req.Count < 0 {
		if s.holding != nil {
			s.holding <- struct{}{}
		}
		<-ctx.Done()
		s.cancelled.Add(1)
		return ctx.Err()
	}
	for i := int32(0); i < req.Count; i++ {
		if ctx.Err() != nil {
			s.cancelled.Add(1)
			return ctx.Err()
		}
		if err := stream.Send(s.account(0)); err != nil {
			if ctx.Err() != nil {
				s.cancelled.Add(1)
			}
			return err
		}
	}
	return nil
}

func (s *testServer) EchoLoose(_ context.Context, req *aitestv1.FixupRequest) (*aitestv1.FixupRequest, error) {
	return req, s.begin()
}

// startServer serves on 127.0.0.1 and installs the tables of vectors.proto
// (those of the register-response-nested vector, and vectorsArguments).
func startServer(t testing.TB) (*grpc.ClientConn, *testServer) {
	t.Helper()
	vec := loadVectors[aliasVector](t, "aliases")["register-response-nested.json"]
	useTables(t, nil, vec.KnownPrefixes, vec.ResponseAliases)
	useArguments(t, vectorsArguments)
	s := &testServer{}
	conn := serveOnSocket(t, func(srv *grpc.Server) {
		aitestv1.RegisterAccountServiceServer(srv, s)
		aitestv1.RegisterFixupServiceServer(srv, s)
	})
	return conn, s
}

// serveOnSocket serves the services register adds on 127.0.0.1 and returns
// a connection to them; both close when the test ends.
func serveOnSocket(t testing.TB, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	register(srv)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return conn
}

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
	conn, _ := startServer(t)
	e := NewExecutor(conn)
	uuid := testUUID(42)
	e.GetAliasManager().Register("acct", uuid)
	for _, args := range vectortest.LeakArgs(uuid) {
		out, err := e.Execute(context.Background(), "fixup_loose", args)
		if text := vectortest.ModelText(out, err); strings.Contains(text, uuid) {
			t.Errorf("%s: the model would read a UUID: %s", args, text)
		}
	}
}

// TestRegistrationByMessageType: 12 accounts of 2 contacts are acct-1 ..
// acct-12 and contact-1 .. contact-24, account by account; a contact's
// owner (an account) reads as its account's alias. The response has proto
// names, or JSON names with json_names=true: registration reads both.
func TestRegistrationByMessageType(t *testing.T) {
	conn, _ := startServer(t)
	for _, camel := range []bool{false, true} {
		jsonNames = camel
		t.Cleanup(func() { jsonNames = false })
		e := NewExecutor(conn)
		out, err := e.Execute(context.Background(), "accounts_list", `{"count":12,"contacts_per_account":2}`)
		if err != nil {
			t.Fatal(err)
		}
		format := `{"id":"acct-%d","workspace_id":"%s","contacts":[{"id":"contact-%d","owner_id":"acct-%d"},{"id":"contact-%d","owner_id":"acct-%d"}]}`
		if camel {
			format = strings.NewReplacer("workspace_id", "workspaceId", "owner_id", "ownerId").Replace(format)
		}
		var want strings.Builder
		want.WriteString(`{"accounts":[`)
		for i := 1; i <= 12; i++ {
			if i > 1 {
				want.WriteByte(',')
			}
			fmt.Fprintf(&want, format, i, testUUID(900000), 2*i-1, i, 2*i, i)
		}
		want.WriteString(`]}`)
		sameJSON(t, json.RawMessage(out), json.RawMessage(want.String()))
	}
}

func TestStreamLimit(t *testing.T) {
	conn, _ := startServer(t)
	e := NewExecutor(conn)
	out, err := e.Execute(context.Background(), "accounts_watch", `{"count":2}`)
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	// Parsed values: protojson's white space varies from build to build.
	sameJSON(t, json.RawMessage(out), json.RawMessage(fmt.Sprintf(
		`[{"id":"acct-1","workspace_id":%q},{"id":"acct-2","workspace_id":%q}]`,
		testUUID(900000), testUUID(900000))))
	_, err = e.Execute(context.Background(), "accounts_watch", `{"count":1001}`)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "invalid-response" || status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("1001 messages: %v", err)
	}
}

// TestFixupVectorsThroughExecutor sends each admitted fix-up case to the
// echo server: it receives what the fixed arguments decode to. A refused
// case is refused with the fix-up's error as one violation. No argument
// tables: the fix-up vectors use JSON names and unknown keys.
func TestFixupVectorsThroughExecutor(t *testing.T) {
	conn, _ := startServer(t)
	useArguments(t, nil)
	e := NewExecutor(conn)
	md := (&aitestv1.FixupRequest{}).ProtoReflect().Descriptor()
	for file, vec := range loadVectors[fixupVector](t, "fixup") {
		for _, c := range vec.Cases {
			out, err := e.Execute(context.Background(), vec.Tool, string(c.Args))
			if c.ExpectError != nil {
				v, _ := decodeJSON(string(c.Args))
				_, fixErr := fixArgs(v, md, vec.Strict)
				if fixErr == nil || "failed to parse arguments: "+fixErr.Error() != *c.ExpectError {
					t.Fatalf("%s/%s: the fix-up says %v", file, c.Name, fixErr)
				}
				want := "invalid arguments, nothing was sent:\n- " + quote(violationOf(fixErr, "").Field) + ": " + violationOf(fixErr, "").Message
				var te *ToolError
				if !errors.As(err, &te) || err.Error() != want || len(te.Violations) != 1 || te.Violations[0].Reason != "invalid-value" {
					t.Errorf("%s/%s: error %v; want %s", file, c.Name, err, want)
				}
				continue
			}
			var want, echoed aitestv1.FixupRequest
			if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(c.Expect, &want); err != nil {
				t.Fatalf("%s/%s: expect does not decode: %v", file, c.Name, err)
			}
			if err != nil || protojson.Unmarshal([]byte(out), &echoed) != nil || !proto.Equal(&echoed, &want) {
				t.Errorf("%s/%s: server received %s (%v); want %v", file, c.Name, out, err, &want)
			}
		}
	}
}

// A decoder error reads with ordinary spaces (protojson writes "proto:" and
// a space it picks per build between an ordinary and a no-break one),
// without protojson's position in a text the model never wrote, the field
// by its proto name.
func TestDecoderErrorHasOrdinarySpaces(t *testing.T) {
	conn, _ := startServer(t)
	e := NewExecutor(conn)
	_, err := e.Execute(context.Background(), "fixup_loose", `{"count":"99999999999"}`)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "invalid-arguments" {
		t.Fatalf("error %v; want invalid-arguments", err)
	}
	if strings.ContainsRune(err.Error(), '\u00a0') || err.Error() != "invalid arguments, nothing was sent:\n- invalid value for int32 field count: \"99999999999\"" {
		t.Errorf("error %q", err.Error())
	}
	if errors.Unwrap(errors.Unwrap(err)) == nil {
		t.Errorf("the decoder's own error is not kept: %#v", te.Cause)
	}
	// protojson names the field by its JSON name (contactsPerAccount): the
	// model reads the schema's.
	_, err = e.Execute(context.Background(), "accounts_list", `{"count":1,"contacts_per_account":"99999999999"}`)
	if err == nil || err.Error() != "invalid arguments, nothing was sent:\n- invalid value for int32 field contacts_per_account: \"99999999999\"" {
		t.Errorf("error %v", err)
	}
}
