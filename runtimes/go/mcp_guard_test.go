package aitools

// The tool layer's guards (issue 33: approvals, identity to the backend,
// limits, audit, handles bound to callers) on a real go-sdk server and
// client, against the gRPC server of executor_test.go on a real socket.
// Callers are told apart by the SDK's own auth.RequireBearerToken in front
// of NewMCPHTTPHandler, with a verifier taking the token as the subject.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

const (
	mergeMethod    = "/aitest.v1.AccountService/MergeAccounts"
	deniedMerge    = `the call of "accounts_merge" was not approved; nothing was sent`
	noWayMerge     = `the call of "accounts_merge" needs an approval and none could be asked (no approval hook, and the client does not support elicitation); nothing was sent`
	mergeArguments = `{"source_id":"a","target_id":"b","note":"n"}`
)

// guardedTools are accountTools with their methods, accounts_merge needing
// an approval and accounts_list the scope "accounts.read".
func guardedTools(client aitestv1.AccountServiceClient) []mcpTool {
	tools := accountTools(client)
	tools[0].Method, tools[0].RequiredScopes = "/aitest.v1.AccountService/ListAccounts", []string{"accounts.read"}
	tools[1].Method, tools[1].NeedsApproval = mergeMethod, true
	tools[2].Method = "/aitest.v1.AccountService/WatchAccounts"
	return tools
}

func newGuardedServer(client aitestv1.AccountServiceClient, opts ...MCPOption) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(server, opts, guardedTools(client))
	return server
}

// serveAsCallers serves server over HTTP behind the SDK's bearer middleware:
// the token is the caller's subject, and its scopes are "accounts.read"
// unless the token ends in "-noscope".
func serveAsCallers(t *testing.T, server *mcp.Server) string {
	t.Helper()
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		info := &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"claims": map[string]any{"tenant": "t-" + token, "level": 3.0}}}
		if !strings.HasSuffix(token, "-noscope") {
			info.Scopes = []string{"accounts.read"}
		}
		return info, nil
	}
	httpSrv := httptest.NewServer(auth.RequireBearerToken(verify, nil)(NewMCPHTTPHandler(server)))
	t.Cleanup(httpSrv.Close)
	return httpSrv.URL
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectAs connects a client of version as the caller token; elicit, when
// set, answers elicitation.
func connectAs(t *testing.T, url, version, token string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}
	if token != "" {
		transport.HTTPClient = &http.Client{Transport: bearer{token}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, opts).Connect(context.Background(), transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// answering is a client that answers every elicitation with action (and
// approve true when accepting), keeping the messages it was asked.
func answering(action string, asked *[]string) *mcp.ClientOptions {
	var mu sync.Mutex
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		*asked = append(*asked, req.Params.Message)
		mu.Unlock()
		if action == "accept" {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		}
		return &mcp.ElicitResult{Action: action}, nil
	}}
}

func wantResult(t *testing.T, res *mcp.CallToolResult, isError bool, text string) {
	t.Helper()
	if res.IsError != isError || (text != "" && textOf(res, 0) != text) {
		t.Fatalf("result isError=%v %q; want isError=%v %q", res.IsError, textOf(res, 0), isError, text)
	}
}

// TestConversationKeyVectors runs the conversationKey cases of
// e2e/vectors/security/security.json.
func TestConversationKeyVectors(t *testing.T) {
	type vector struct {
		ConversationKey []struct{ Handle, Subject, Key string } `json:"conversationKey"`
	}
	cases := loadVectors[vector](t, "security")["security.json"].ConversationKey
	if len(cases) == 0 {
		t.Fatal("no conversationKey cases in e2e/vectors/security/security.json")
	}
	for _, c := range cases {
		if got := conversationKey(c.Handle, c.Subject); got != c.Key {
			t.Errorf("conversationKey(%q, %q) = %q, want %q", c.Handle, c.Subject, got, c.Key)
		}
	}
}

func TestMCPApprovalHook(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	for _, allow := range []bool{true, false} {
		var asked []ApprovalRequest
		approve := func(_ context.Context, r ApprovalRequest) (bool, error) {
			asked = append(asked, r)
			return allow, nil
		}
		cs := connectInMemory(t, newGuardedServer(client, WithApprove(approve)))
		calls := srv.calls.Load()
		res := callTool(t, cs, "accounts_merge", json.RawMessage(mergeArguments), nil)
		if allow {
			wantResult(t, res, false, "")
		} else {
			wantResult(t, res, true, deniedMerge)
		}
		if sent := srv.calls.Load() != calls; sent != allow {
			t.Errorf("allow=%v: sent=%v", allow, sent)
		}
		want := []ApprovalRequest{{Subject: "", Tool: "accounts_merge", Method: mergeMethod, Arguments: json.RawMessage(mergeArguments)}}
		if len(asked) != 1 || asked[0].Tool != want[0].Tool || asked[0].Method != want[0].Method || string(asked[0].Arguments) != mergeArguments {
			t.Errorf("asked %+v, want %+v", asked, want)
		}
		// A tool that needs none is not asked about.
		wantResult(t, callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil), false, "")
		if len(asked) != 1 {
			t.Errorf("asked about accounts_list: %+v", asked)
		}
		// Arguments the executor refuses are not asked about either.
		wantResult(t, callTool(t, cs, "accounts_merge", map[string]any{"source_id": 5}, nil), true, "")
		if len(asked) != 1 {
			t.Errorf("asked about bad arguments: %+v", asked)
		}
	}
}

// TestMCPApprovalNoWayToAsk: no hook and a client without elicitation.
func TestMCPApprovalNoWayToAsk(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	url := httptest.NewServer(NewMCPHTTPHandler(newGuardedServer(client)))
	t.Cleanup(url.Close)
	for _, cs := range []*mcp.ClientSession{
		connectInMemory(t, newGuardedServer(client)),
		connectHTTP(t, url.URL, "2025-11-25"),
		connectHTTP(t, url.URL, "2026-07-28"),
	} {
		calls := srv.calls.Load()
		wantResult(t, callTool(t, cs, "accounts_merge", json.RawMessage(mergeArguments), nil), true, noWayMerge)
		if srv.calls.Load() != calls {
			t.Error("sent without approval")
		}
	}
}

// TestMCPApprovalElicitation: a user approves by elicitation on both
// revisions; on 2025-11-25 the SDK sends elicitation/create on the session.
func TestMCPApprovalElicitation(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	url := serveAsCallers(t, newGuardedServer(client))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, action := range []string{"accept", "decline", "cancel"} {
			var asked []string
			cs := connectAs(t, url, version, "alice", answering(action, &asked))
			calls := srv.calls.Load()
			res := callTool(t, cs, "accounts_merge", json.RawMessage(mergeArguments), nil)
			if action == "accept" {
				wantResult(t, res, false, "")
			} else {
				wantResult(t, res, true, deniedMerge)
			}
			if sent := srv.calls.Load() != calls; sent != (action == "accept") {
				t.Errorf("%s %s: sent=%v", version, action, sent)
			}
			want := `Allow the call of "accounts_merge"? Arguments: ` + mergeArguments
			if len(asked) != 1 || asked[0] != want {
				t.Errorf("%s %s: asked %q, want [%q]", version, action, asked, want)
			}
		}
	}
}

// TestMCPApprovalState: on 2026-07-28 the answer comes back with the
// signed state; another caller's, other arguments' or a forged state is
// refused, as is an accept without approve true.
func TestMCPApprovalState(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	url := serveAsCallers(t, newGuardedServer(client, WithApprovalSecret([]byte("0123456789abcdef0123456789abcdef"))))
	manual := &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	}
	alice := connectAs(t, url, "2026-07-28", "alice", manual)
	bob := connectAs(t, url, "2026-07-28", "bob", manual)
	first := callTool(t, alice, "accounts_merge", json.RawMessage(mergeArguments), nil)
	ask, ok := first.InputRequests[approvalInput].(*mcp.ElicitParams)
	if !ok || first.RequestState == "" || len(first.Content) != 0 {
		t.Fatalf("first call: %+v", first)
	}
	if ask.Message != `Allow the call of "accounts_merge"? Arguments: `+mergeArguments {
		t.Errorf("message %q", ask.Message)
	}
	yes := mcp.InputResponseMap{approvalInput: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	no := mcp.InputResponseMap{approvalInput: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}}
	retry := func(cs *mcp.ClientSession, args string, answer mcp.InputResponseMap, state string) *mcp.CallToolResult {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "accounts_merge", Arguments: json.RawMessage(args), InputResponses: answer, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	calls := srv.calls.Load()
	for name, res := range map[string]*mcp.CallToolResult{
		"another caller":    retry(bob, mergeArguments, yes, first.RequestState),
		"other arguments":   retry(alice, `{"source_id":"a","target_id":"c","note":"n"}`, yes, first.RequestState),
		"forged state":      retry(alice, mergeArguments, yes, strings.Replace(first.RequestState, ".", "x.", 1)),
		"no state":          retry(alice, mergeArguments, yes, ""),
		"approve false":     retry(alice, mergeArguments, no, first.RequestState),
		"no answer":         retry(alice, mergeArguments, nil, first.RequestState),
		"answer of another": retry(alice, mergeArguments, mcp.InputResponseMap{"other": yes[approvalInput]}, first.RequestState),
	} {
		if !res.IsError || textOf(res, 0) != deniedMerge {
			t.Errorf("%s: %+v", name, res)
		}
	}
	if srv.calls.Load() != calls {
		t.Fatal("a refused retry was sent")
	}
	// Argument order and spacing do not matter: the digest is of the
	// canonical JSON.
	approved := retry(alice, `{ "note": "n", "target_id": "b", "source_id": "a" }`, yes, first.RequestState)
	wantResult(t, approved, false, "")
	if srv.calls.Load() != calls+1 {
		t.Fatal("the approved retry was not sent")
	}
	// A state is single-use, and bound to its conversation: asked without a
	// handle, it does not run in the handle's conversation, nor one asked
	// there without it.
	handle, _ := approved.Meta[conversationMetaKey].(string)
	inConversation := func(state string) *mcp.CallToolResult {
		res, err := alice.CallTool(context.Background(), &mcp.CallToolParams{Name: "accounts_merge", Arguments: json.RawMessage(mergeArguments),
			InputResponses: yes, RequestState: state, Meta: mcp.Meta{conversationMetaKey: handle}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	fresh := callTool(t, alice, "accounts_merge", json.RawMessage(mergeArguments), nil)
	asked := callTool(t, alice, "accounts_merge", json.RawMessage(mergeArguments), mcp.Meta{conversationMetaKey: handle})
	for name, res := range map[string]*mcp.CallToolResult{
		"replayed":                  retry(alice, mergeArguments, yes, first.RequestState),
		"asked in no conversation":  inConversation(fresh.RequestState),
		"asked in the conversation": retry(alice, mergeArguments, yes, asked.RequestState),
	} {
		if !res.IsError || textOf(res, 0) != deniedMerge {
			t.Errorf("%s: %+v", name, res)
		}
	}
	if srv.calls.Load() != calls+1 {
		t.Fatal("a replayed or moved state was sent")
	}
	wantResult(t, inConversation(asked.RequestState), false, "")
	g := &mcpGuard{secret: []byte("0123456789abcdef0123456789abcdef")}
	c := approvalClaims{Subject: "alice", Tool: "accounts_merge", Args: argumentsDigest(mergeArguments)}
	if expired := g.signApproval(c, time.Now().Add(-time.Second)); g.verifyApproval(expired, c, time.Now()) {
		t.Error("an expired state verified")
	}
}

// TestMCPOptionsChecked: a short approval secret and a scope that is not
// an RFC 6749 scope token are refused when the option is made.
func TestMCPOptionsChecked(t *testing.T) {
	for want, make := range map[string]func(){
		"WithApprovalSecret must be at least 32 bytes (got 5)": func() { WithApprovalSecret([]byte("short")) },
		`WithRequiredScopes: scope "links read" of tool "links_list" is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`: func() {
			WithRequiredScopes(map[string][]string{"links_list": {"links read"}})
		},
		`WithRequiredScopes: scope "a\"b" of tool "t" is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`: func() {
			WithRequiredScopes(map[string][]string{"t": {`a"b`}})
		},
	} {
		func() {
			defer func() {
				if got := recover(); got != want {
					t.Errorf("panic %v, want %s", got, want)
				}
			}()
			make()
		}()
	}
	WithRequiredScopes(map[string][]string{"t": {"links.read", "https://api.example.com/x"}})
}

// TestExecutorApprove: the executor asks Approve for a tool in
// toolNeedsApproval, and refuses without it.
func TestExecutorApprove(t *testing.T) {
	conn, srv := startServer(t)
	savedNeeds, savedMethods := toolNeedsApproval, toolMethods
	t.Cleanup(func() { toolNeedsApproval, toolMethods = savedNeeds, savedMethods })
	toolNeedsApproval = map[string]bool{"accounts_merge": true}
	toolMethods = map[string]string{"accounts_merge": mergeMethod}
	ctx := WithIdentity(context.Background(), &Identity{Subject: "alice"})
	var asked []ApprovalRequest
	for _, tc := range []struct {
		approve ApproveFunc
		want    string
	}{
		{nil, `the call of "accounts_merge" needs an approval and none could be asked (no approval hook); nothing was sent`},
		{func(_ context.Context, r ApprovalRequest) (bool, error) { asked = append(asked, r); return false, nil }, deniedMerge},
		{func(_ context.Context, r ApprovalRequest) (bool, error) { asked = append(asked, r); return true, nil }, ""},
	} {
		e := NewExecutor(conn)
		e.Approve = tc.approve
		calls := srv.calls.Load()
		_, err := e.Execute(ctx, "accounts_merge", mergeArguments)
		if tc.want == "" {
			if err != nil || srv.calls.Load() != calls+1 {
				t.Fatalf("approved: %v", err)
			}
			continue
		}
		if err == nil || err.Error() != tc.want || srv.calls.Load() != calls {
			t.Fatalf("got %v, want %q and nothing sent", err, tc.want)
		}
		if te := err.(*ToolError); te.Reason != "not-approved" {
			t.Errorf("reason %q", te.Reason)
		}
	}
	want := ApprovalRequest{Subject: "alice", Tool: "accounts_merge", Method: mergeMethod, Arguments: json.RawMessage(mergeArguments)}
	for _, r := range asked {
		if r.Subject != want.Subject || r.Tool != want.Tool || r.Method != want.Method || string(r.Arguments) != mergeArguments {
			t.Errorf("asked %+v, want %+v", r, want)
		}
	}
	// A tool not in the table runs without asking.
	if _, err := NewExecutor(conn).Execute(ctx, "accounts_list", `{"count":1,"contacts_per_account":0}`); err != nil {
		t.Fatal(err)
	}
}

// TestMCPHandleOfAnotherCaller: a handle is bound to the caller that got
// it; another caller presenting it gets the unknown-handle result.
func TestMCPHandleOfAnotherCaller(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	store := NewMemoryConversationStore(0)
	var records []AuditRecord
	url := serveAsCallers(t, newGuardedServer(client, WithConversationStore(store), WithAudit(func(r AuditRecord) { records = append(records, r) })))
	alice := connectAs(t, url, "2026-07-28", "alice", nil)
	bob := connectAs(t, url, "2026-07-28", "bob", nil)
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	first := callTool(t, alice, "accounts_list", list, nil)
	handle, _ := first.Meta[conversationMetaKey].(string)
	if handle == "" || strings.Contains(handle, ".") {
		t.Fatalf("handle %q", handle)
	}
	if _, _, err := store.Load(context.Background(), conversationKey(handle, "alice")); err != nil {
		t.Fatalf("not stored under alice's key: %v", err)
	}
	wantResult(t, callTool(t, alice, "accounts_list", list, mcp.Meta{conversationMetaKey: handle}), false, "")
	calls := srv.calls.Load()
	unknown := `unknown or expired conversation "` + handle + `"; call again without "conversation" to start a new one`
	wantResult(t, callTool(t, bob, "accounts_list", list, mcp.Meta{conversationMetaKey: handle}), true, unknown)
	if srv.calls.Load() != calls {
		t.Error("another caller's call was sent")
	}
	if last := records[len(records)-1]; last.Subject != "bob" || last.Outcome != "unauthorized" {
		t.Errorf("audit %+v", last)
	}
	// A handle not of the minted form (alice's key itself) is unknown.
	key := conversationKey(handle, "alice")
	wantResult(t, callTool(t, bob, "accounts_list", list, mcp.Meta{conversationMetaKey: key}), true,
		`unknown or expired conversation "`+key+`"; call again without "conversation" to start a new one`)
	if srv.calls.Load() != calls {
		t.Error("a call with a key for a handle was sent")
	}
}

// TestMCPAuditStartAndUnknownHandle: without authorization an unknown
// handle is audited as invalid_arguments; a record's time is when the call
// started (before its approval hook ran).
func TestMCPAuditStartAndUnknownHandle(t *testing.T) {
	conn, _ := startServer(t)
	var records []AuditRecord
	var approvedAt time.Time
	approve := func(context.Context, ApprovalRequest) (bool, error) { approvedAt = time.Now(); return true, nil }
	server := newGuardedServer(aitestv1.NewAccountServiceClient(conn), WithApprove(approve), WithAudit(func(r AuditRecord) { records = append(records, r) }))
	httpSrv := httptest.NewServer(NewMCPHTTPHandler(server))
	t.Cleanup(httpSrv.Close)
	cs := connectHTTP(t, httpSrv.URL, "2026-07-28")
	res := callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, mcp.Meta{conversationMetaKey: "AAAAAAAAAAAAAAAAAAAAAA"})
	if !res.IsError || len(records) != 1 || records[0].Outcome != "invalid_arguments" || records[0].Code != "" {
		t.Fatalf("%+v %+v", res, records)
	}
	wantResult(t, callTool(t, cs, "accounts_merge", json.RawMessage(mergeArguments), nil), false, "")
	if last := records[len(records)-1]; last.Outcome != "ok" || !last.Time.Before(approvedAt) {
		t.Errorf("record %+v: its time is not before the approval (%v)", last, approvedAt)
	}
}

// TestMCPScopeSafetyNet: a caller whose token lacks a tool's scope is
// refused by the tool layer too, nothing sent.
func TestMCPScopeSafetyNet(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	server := newGuardedServer(client, WithRequiredScopes(map[string][]string{"accounts_watch": {"b", "a", "b"}}))
	if got := MCPRequiredScopes(server); len(got) != 2 || !slices.Equal(got["accounts_list"], []string{"accounts.read"}) || !slices.Equal(got["accounts_watch"], []string{"a", "b"}) {
		t.Errorf("MCPRequiredScopes = %v", got)
	}
	cs := connectAs(t, serveAsCallers(t, server), "2026-07-28", "carol-noscope", nil)
	calls := srv.calls.Load()
	wantResult(t, callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil), true, `the call of "accounts_list" needs scope "accounts.read"`)
	if srv.calls.Load() != calls {
		t.Error("sent without the scope")
	}
}

// TestMCPRequiredScopesByGeneratedName: a WithRequiredScopes key naming the
// generated tool holds for the tool a prefix renames (fails closed), as
// does a key naming the served one.
func TestMCPRequiredScopesByGeneratedName(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	server := newGuardedServer(client, WithNamePrefix("east"), WithRequiredScopes(map[string][]string{
		"accounts_watch": {"accounts.watch"}, "east_accounts_merge": {"accounts.merge"},
	}))
	got := MCPRequiredScopes(server)
	if !slices.Equal(got["east_accounts_watch"], []string{"accounts.watch"}) || !slices.Equal(got["east_accounts_merge"], []string{"accounts.merge"}) ||
		!slices.Equal(got["east_accounts_list"], []string{"accounts.read"}) {
		t.Errorf("MCPRequiredScopes = %v", got)
	}
	cs := connectAs(t, serveAsCallers(t, server), "2026-07-28", "carol", nil)
	calls := srv.calls.Load()
	wantResult(t, callTool(t, cs, "east_accounts_watch", map[string]any{"count": 1}, nil), true, `the call of "east_accounts_watch" needs scope "accounts.watch"`)
	if srv.calls.Load() != calls {
		t.Error("sent without the scope")
	}
}

// TestMCPRateBeforeScope: a call refused for its scopes counts against
// its subject's rate (every tools/call counts, first); the refusal names
// every missing scope.
func TestMCPRateBeforeScope(t *testing.T) {
	conn, _ := startServer(t)
	server := newGuardedServer(aitestv1.NewAccountServiceClient(conn), WithRateLimit(1))
	cs := connectAs(t, serveAsCallers(t, server), "2026-07-28", "carol-noscope", nil)
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	wantResult(t, callTool(t, cs, "accounts_list", list, nil), true, `the call of "accounts_list" needs scope "accounts.read"`)
	wantResult(t, callTool(t, cs, "accounts_list", list, nil), true, "too many calls: the limit is 1 per minute for this user; retry in 60 s")
	g := newMCPGuard(mcpOptions{})
	g.scopes["t"] = []string{"c", "a", "b"}
	if got := g.missingScopes("t", []string{"b"}); got != "a c" {
		t.Errorf("missingScopes = %q, want every missing one", got)
	}
}

// TestRateBucketsBounded: past maxRateBuckets subjects the least recently
// used bucket is dropped.
func TestRateBucketsBounded(t *testing.T) {
	g := newMCPGuard(mcpOptions{rateLimit: 1})
	now := time.Now()
	for i := range maxRateBuckets {
		g.takeToken(strconv.Itoa(i), now)
	}
	g.takeToken("0", now) // used again: "1" is the least recent now
	g.takeToken("new", now)
	if len(g.buckets) != maxRateBuckets || g.bucketLRU.Len() != maxRateBuckets {
		t.Fatalf("%d buckets, want %d", len(g.buckets), maxRateBuckets)
	}
	if g.takeToken("2", now) == "" || g.takeToken("1", now) != "" {
		t.Error("not the least recently used bucket was dropped")
	}
}

// TestUsedNoncesExpireInOrder: a nonce is refused while remembered, and
// forgotten approvalTTL after its use, from the front of the queue.
func TestUsedNoncesExpireInOrder(t *testing.T) {
	var u usedNonces
	now := time.Now()
	if !u.take("a", now) || u.take("a", now.Add(approvalTTL-time.Second)) {
		t.Fatal("a nonce was not single-use")
	}
	for i := range 1000 {
		u.take(strconv.Itoa(i), now.Add(time.Second))
	}
	if !u.take("z", now.Add(approvalTTL)) || len(u.until) != 1001 {
		t.Fatalf("%d remembered, want 1001 (a forgotten)", len(u.until))
	}
	if !u.take("y", now.Add(approvalTTL+time.Second)) || len(u.until) != 2 || len(u.queue)-u.head != 2 || len(u.queue) > 4 {
		t.Fatalf("%d remembered, queue %d from %d", len(u.until), len(u.queue), u.head)
	}
}

// TestMCPForwardIdentity: the chosen claims and the backend credentials
// reach the gRPC server as metadata; the client's token does not, and
// nothing of it is in the result.
func TestMCPForwardIdentity(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	forward := ForwardIdentity{
		Metadata: map[string]string{"X-User-Id": "sub", "x-tenant": "tenant", "x-level": "level", "x-absent": "nope"},
		BackendCredentials: func(_ context.Context, id *Identity) (map[string]string, error) {
			return map[string]string{"authorization": "Bearer backend-for-" + id.Subject}, nil
		},
	}
	url := serveAsCallers(t, newGuardedServer(client, WithForwardIdentity(forward), WithApprove(func(context.Context, ApprovalRequest) (bool, error) { return true, nil })))
	const token = "dave-secret-token"
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		res := callTool(t, connectAs(t, url, version, token, nil), "accounts_merge", json.RawMessage(mergeArguments), nil)
		wantResult(t, res, false, "")
		md := *srv.merged.Load()
		want := map[string]string{"x-user-id": token, "x-tenant": "t-" + token, "x-level": "3", "authorization": "Bearer backend-for-" + token}
		for k, v := range want {
			if got := md.Get(k); len(got) != 1 || got[0] != v {
				t.Errorf("%s: metadata %s = %q, want %q", version, k, got, v)
			}
		}
		if len(md.Get("x-absent")) != 0 {
			t.Errorf("%s: a missing claim was sent", version)
		}
		for k, vs := range md {
			for _, v := range vs {
				if v == "Bearer "+token {
					t.Errorf("%s: the client's token reached the server in %s", version, k)
				}
			}
		}
		b, _ := json.Marshal(res)
		if bytes.Contains(b, []byte("backend-for")) {
			t.Errorf("%s: the backend token is in the result: %s", version, b)
		}
	}
}

// TestForwardIdentityKeys: a metadata key gRPC cannot send panics at
// WithForwardIdentity, naming it.
func TestForwardIdentityKeys(t *testing.T) {
	for _, key := range []string{"x user", "grpc-user", "x-user-bin", "x/user", ""} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.Contains(r, "metadata key "+quote(key)+" cannot be sent") {
					t.Errorf("%q: panic %q", key, r)
				}
			}()
			WithForwardIdentity(ForwardIdentity{Metadata: map[string]string{key: "sub"}})
		}()
	}
	WithForwardIdentity(ForwardIdentity{Metadata: map[string]string{"X-User_Id.v1": "sub"}})
}

// TestMCPRateLimit: per subject, a token bucket of callsPerMinute.
func TestMCPRateLimit(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	var records []AuditRecord
	url := serveAsCallers(t, newGuardedServer(client, WithRateLimit(2), WithAudit(func(r AuditRecord) { records = append(records, r) })))
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	erin := connectAs(t, url, "2026-07-28", "erin", nil)
	wantResult(t, callTool(t, erin, "accounts_list", list, nil), false, "")
	wantResult(t, callTool(t, erin, "accounts_list", list, nil), false, "")
	calls := srv.calls.Load()
	wantResult(t, callTool(t, erin, "accounts_list", list, nil), true, "too many calls: the limit is 2 per minute for this user; retry in 30 s")
	if srv.calls.Load() != calls {
		t.Error("a limited call was sent")
	}
	if last := records[len(records)-1]; last.Outcome != "limited" || last.Subject != "erin" {
		t.Errorf("audit %+v", last)
	}
	// Another subject has a bucket of its own.
	wantResult(t, callTool(t, connectAs(t, url, "2026-07-28", "frank", nil), "accounts_list", list, nil), false, "")
	// The bucket refills at callsPerMinute a minute.
	g := newMCPGuard(mcpOptions{rateLimit: 60})
	now := time.Now()
	for i := 0; i < 60; i++ {
		if r := g.takeToken("x", now); r != "" {
			t.Fatalf("call %d: %s", i, r)
		}
	}
	if r := g.takeToken("x", now); r != "too many calls: the limit is 60 per minute for this user; retry in 1 s" {
		t.Errorf("61st: %q", r)
	}
	if r := g.takeToken("x", now.Add(time.Second)); r != "" {
		t.Errorf("after a second: %q", r)
	}
}

// TestMCPMaxConcurrentCalls: one conversation runs at most n calls at once.
func TestMCPMaxConcurrentCalls(t *testing.T) {
	conn, srv := startServer(t)
	srv.holding = make(chan struct{})
	client := aitestv1.NewAccountServiceClient(conn)
	cs := connectInMemory(t, newGuardedServer(client, WithMaxConcurrentCalls(1), WithTimeout(-1)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "accounts_watch", Arguments: map[string]any{"count": -1}})
		done <- err
	}()
	<-srv.holding
	calls := srv.calls.Load()
	wantResult(t, callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil), true, "too many calls at once in this conversation (limit 1); retry when one finishes")
	if srv.calls.Load() != calls {
		t.Error("a limited call was sent")
	}
	cancel()
	<-done
	// Once it ended, the conversation calls again (its handler returns
	// just after the client saw the cancel: wait for it).
	for callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil).IsError {
		time.Sleep(time.Millisecond)
	}
}

// TestMCPMaxConcurrentCallsWithoutHandle: stateless calls without a
// handle belong to no conversation: they count with their subject's, so
// leaving the handle out does not lift the limit; another subject's count
// is its own. A refused call deletes the conversation made for it, whose
// handle the model never sees (it stayed in the store until its TTL).
func TestMCPMaxConcurrentCallsWithoutHandle(t *testing.T) {
	conn, srv := startServer(t)
	srv.holding = make(chan struct{})
	store := NewMemoryConversationStore(0)
	url := serveAsCallers(t, newGuardedServer(aitestv1.NewAccountServiceClient(conn), WithConversationStore(store), WithMaxConcurrentCalls(1), WithTimeout(-1)))
	alice := connectAs(t, url, "2026-07-28", "alice", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := alice.CallTool(ctx, &mcp.CallToolParams{Name: "accounts_watch", Arguments: map[string]any{"count": -1}})
		done <- err
	}()
	<-srv.holding
	calls := srv.calls.Load()
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	wantResult(t, callTool(t, alice, "accounts_list", list, nil), true, "too many calls at once (limit 1); retry when one finishes")
	if srv.calls.Load() != calls {
		t.Error("a limited call was sent")
	}
	if n := conversationsIn(store); n != 1 {
		t.Errorf("%d conversations in the store, want the running call's 1", n)
	}
	wantResult(t, callTool(t, connectAs(t, url, "2026-07-28", "bob", nil), "accounts_list", list, nil), false, "")
	cancel()
	<-done
}

// TestMCPNoCredentialsDropsItsConversation: a stateless call without a
// handle refused for want of backend credentials deletes the conversation
// made for it, whose handle the model never sees (it stayed in the store
// until its TTL).
func TestMCPNoCredentialsDropsItsConversation(t *testing.T) {
	conn, _ := startServer(t)
	store := NewMemoryConversationStore(0)
	sealed := ForwardIdentity{BackendCredentials: func(context.Context, *Identity) (map[string]string, error) {
		return nil, errors.New("the vault is sealed")
	}}
	url := serveAsCallers(t, newGuardedServer(aitestv1.NewAccountServiceClient(conn), WithConversationStore(store), WithForwardIdentity(sealed)))
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	wantResult(t, callTool(t, connectAs(t, url, "2026-07-28", "alice", nil), "accounts_list", list, nil), true, `the backend credentials of the call of "accounts_list" could not be obtained; nothing was sent`)
	if n := conversationsIn(store); n != 0 {
		t.Errorf("%d conversations in the store, want 0", n)
	}
}

// conversationsIn is the number of conversations store holds.
func conversationsIn(store *MemoryConversationStore) int {
	store.mu.Lock()
	defer store.mu.Unlock()
	return len(store.entries)
}

// TestMCPAudit: one record per call, no argument values, the outcome and
// code of each way a call ends, and the JSON lines writer's form.
func TestMCPAudit(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	var buf bytes.Buffer
	write := NewJSONLinesAuditWriter(&buf)
	deny := func(context.Context, ApprovalRequest) (bool, error) { return false, nil }
	cs := connectAs(t, serveAsCallers(t, newGuardedServer(client, WithAudit(write), WithApprove(deny))), "2026-07-28", "gina", nil)
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	callTool(t, cs, "accounts_list", list, nil)
	callTool(t, cs, "accounts_list", map[string]any{"count": "many-secret-value"}, nil)
	callTool(t, cs, "accounts_merge", json.RawMessage(mergeArguments), nil)
	srv.fail.Store(status.New(codes.NotFound, "no such account"))
	callTool(t, cs, "accounts_list", list, nil)
	type line struct {
		Time       string   `json:"time"`
		Subject    string   `json:"subject"`
		Tool       string   `json:"tool"`
		Method     string   `json:"method"`
		Outcome    string   `json:"outcome"`
		Code       *string  `json:"code"`
		DurationMs *float64 `json:"durationMs"`
	}
	want := []struct{ tool, outcome, code string }{
		{"accounts_list", "ok", ""},
		{"accounts_list", "invalid_arguments", ""},
		{"accounts_merge", "denied", ""},
		{"accounts_list", "tool_error", "NOT_FOUND"},
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	for i, text := range lines {
		var l line
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d %s: %v", i, text, err)
		}
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", l.Time); err != nil {
			t.Errorf("line %d time %q", i, l.Time)
		}
		code := ""
		if l.Code != nil {
			code = *l.Code
		}
		if l.Subject != "gina" || l.Tool != want[i].tool || !strings.HasPrefix(l.Method, "/aitest.v1.AccountService/") || l.Outcome != want[i].outcome || code != want[i].code || l.DurationMs == nil || *l.DurationMs < 0 {
			t.Errorf("line %d: %s; want %+v", i, text, want[i])
		}
		if strings.Contains(text, "secret") || anyUUID.MatchString(text) {
			t.Errorf("line %d holds an argument value or a UUID: %s", i, text)
		}
	}
}
