package aitools

// Per registration (WithProvider, WithNamePrefix) on a real go-sdk server
// and client, against the gRPC server of executor_test.go on a real socket:
// the form listed, the tools of one service registered twice each calling
// its own client, and the registrations refused with their fix.

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

// countingClient counts the calls of ListAccounts made through it, and
// keeps the last MergeAccounts request, before the real client sends them.
type countingClient struct {
	aitestv1.AccountServiceClient
	lists  atomic.Int64
	merged atomic.Pointer[aitestv1.MergeAccountsRequest]
}

func (c *countingClient) ListAccounts(ctx context.Context, req *aitestv1.ListAccountsRequest, opts ...grpc.CallOption) (*aitestv1.ListAccountsResponse, error) {
	c.lists.Add(1)
	return c.AccountServiceClient.ListAccounts(ctx, req, opts...)
}

func (c *countingClient) MergeAccounts(ctx context.Context, req *aitestv1.MergeAccountsRequest, opts ...grpc.CallOption) (*aitestv1.MergeAccountsResponse, error) {
	c.merged.Store(req)
	return c.AccountServiceClient.MergeAccounts(ctx, req, opts...)
}

// listedSchemas lists the tools of server: input schema by name, in order.
func listedSchemas(t *testing.T, cs *mcp.ClientSession) (names []string, schemas map[string]json.RawMessage) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas = map[string]json.RawMessage{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schemas[tool.Name], _ = json.Marshal(tool.InputSchema)
	}
	return names, schemas
}

// mustPanic runs f and checks it panics with a text containing want.
func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if text, _ := r.(string); !strings.Contains(text, want) {
			t.Errorf("recovered %v, want a panic containing %s", r, want)
		}
	}()
	f()
}

func TestMCPNamePrefixTwoClients(t *testing.T) {
	conn, _ := startServer(t)
	a := &countingClient{AccountServiceClient: aitestv1.NewAccountServiceClient(conn)}
	b := &countingClient{AccountServiceClient: aitestv1.NewAccountServiceClient(conn)}
	var audited []string
	audit := WithAudit(func(r AuditRecord) { audited = append(audited, r.Tool) })
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	// The shared options once, the prefix per registration: not a clash.
	addMCPTools(server, []MCPOption{audit, WithNamePrefix("east")}, accountTools(a))
	addMCPTools(server, []MCPOption{WithNamePrefix("west-2")}, accountTools(b))
	cs := connectInMemory(t, server)
	names, _ := listedSchemas(t, cs)
	if got := strings.Join(names, ","); got != "east_accounts_list,east_accounts_merge,east_accounts_watch,west-2_accounts_list,west-2_accounts_merge,west-2_accounts_watch" {
		t.Fatalf("tools %s", got)
	}
	args := map[string]any{"count": 1, "contacts_per_account": 0}
	wantSuccess(t, callTool(t, cs, "east_accounts_list", args, nil))
	if a.lists.Load() != 1 || b.lists.Load() != 0 {
		t.Fatalf("after east_accounts_list: east %d, west %d calls", a.lists.Load(), b.lists.Load())
	}
	wantSuccess(t, callTool(t, cs, "west-2_accounts_list", args, nil))
	wantSuccess(t, callTool(t, cs, "west-2_accounts_list", args, nil))
	if a.lists.Load() != 1 || b.lists.Load() != 2 {
		t.Fatalf("after west-2_accounts_list twice: east %d, west %d calls", a.lists.Load(), b.lists.Load())
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "accounts_list", Arguments: args}); err == nil || !strings.Contains(err.Error(), `unknown tool "accounts_list"`) {
		t.Errorf("the unprefixed name: %v", err)
	}
	if got := strings.Join(audited, ","); got != "east_accounts_list,west-2_accounts_list,west-2_accounts_list" {
		t.Errorf("audited %s", got)
	}
}

func TestMCPNamePrefixRefused(t *testing.T) {
	server := func() *mcp.Server { return mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil) }
	mustPanic(t, `name prefix "east side" of tool "accounts_list": use only letters, digits, "_" and "-" in a name prefix`, func() {
		addMCPTools(server(), []MCPOption{WithNamePrefix("east side")}, accountTools(nil))
	})
	long := strings.Repeat("p", 64-len("_accounts_list")+1)
	mustPanic(t, `tool "accounts_list" would be named "`+long+`_accounts_list", 65 characters, over the 64 an MCP tool name takes: use a shorter name prefix`, func() {
		addMCPTools(server(), []MCPOption{WithNamePrefix(long)}, accountTools(nil))
	})
	// 64 characters are taken; an empty prefix adds nothing.
	s := server()
	addMCPTools(s, []MCPOption{WithNamePrefix(long[1:])}, accountTools(nil)[:1])
	addMCPTools(s, []MCPOption{WithNamePrefix("")}, accountTools(nil)[:1])
	names, _ := listedSchemas(t, connectInMemory(t, s))
	if len(names) != 2 || names[0] != "accounts_list" || names[1] != long[1:]+"_accounts_list" {
		t.Errorf("tools %v", names)
	}
}

// mergeForms are generated forms for accounts_merge (written here: the
// generator's own are pinned by its vectors): an OpenAI form where every
// property is present and the optional ones nullable, an Anthropic form,
// and no Gemini form (the tool's Parameters).
var mergeForms = map[string]generatedForms{
	"accounts_merge": {accountsMerge.Parameters, `{"anthropic":{"properties":{"source_id":{"type":"string"},"target_id":{"type":"string"}},"type":"object"},"geminiParameters":null,"openai":{"additionalProperties":false,"properties":{"note":{"type":["string","null"]},"source_id":{"type":"string"},"target_id":{"type":"string"}},"required":["note","source_id","target_id"],"type":"object"}}`},
}

func TestMCPProviderForm(t *testing.T) {
	useProviderForms(t, mergeForms)
	conn, _ := startServer(t)
	client := &countingClient{AccountServiceClient: aitestv1.NewAccountServiceClient(conn)}
	merge := func(c aitestv1.AccountServiceClient) []mcpTool { return accountTools(c)[1:2] }
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	extra := WithExtraProperties(MCPExtraProperty{Name: "tenant"})
	addMCPTools(server, []MCPOption{extra, WithProvider(ProviderOpenAI), WithNamePrefix("openai")}, merge(client))
	addMCPTools(server, []MCPOption{extra, WithProvider(ProviderAnthropic), WithNamePrefix("anthropic")}, merge(client))
	addMCPTools(server, []MCPOption{WithProvider(ProviderGemini), WithNamePrefix("gemini")}, merge(client))
	addMCPTools(server, nil, merge(client))
	// protoc-gen-go-mcp's LLMProviderStandard ("standard") is the default form.
	addMCPTools(server, []MCPOption{WithProvider("standard"), WithNamePrefix("standard")}, merge(client))
	cs := connectInMemory(t, server)
	_, schemas := listedSchemas(t, cs)
	tenant := `"tenant":{"anyOf":[{"type":"string"},{"type":"null"}]}`
	// The form, with the shared extra property added as to the Parameters
	// (not required: accounts_merge is not strict here).
	sameJSON(t, schemas["openai_accounts_merge"], json.RawMessage(`{"additionalProperties":false,"properties":{"note":{"type":["string","null"]},"source_id":{"type":"string"},"target_id":{"type":"string"},`+tenant+`},"required":["note","source_id","target_id"],"type":"object"}`))
	sameJSON(t, schemas["anthropic_accounts_merge"], json.RawMessage(`{"properties":{"source_id":{"type":"string"},"target_id":{"type":"string"},`+tenant+`},"type":"object"}`))
	withTenant := json.RawMessage(`{"properties":{"note":{"type":"string"},"source_id":{"type":"string"},"target_id":{"type":"string"},` + tenant + `},"type":"object"}`)
	sameJSON(t, schemas["gemini_accounts_merge"], withTenant) // no Gemini form: the Parameters
	sameJSON(t, schemas["accounts_merge"], withTenant)
	sameJSON(t, schemas["standard_accounts_merge"], withTenant)

	// A call of the form's tool reaches the server as the default one's.
	// (The generated tools' nulls: e2e/go, gentools/mcp_registration_test.go.)
	args := map[string]any{"source_id": "s1", "target_id": "t1", "note": "n"}
	wantSuccess(t, callTool(t, cs, "accounts_merge", args, nil))
	byDefault := client.merged.Load()
	wantSuccess(t, callTool(t, cs, "openai_accounts_merge", args, nil))
	if byOpenAI := client.merged.Load(); byOpenAI == byDefault || byOpenAI.String() != byDefault.String() || byDefault.GetSourceId() != "s1" {
		t.Errorf("openai form sent %v, default form %v", byOpenAI, byDefault)
	}
}

func TestMCPProviderRefused(t *testing.T) {
	useProviderForms(t, mergeForms)
	server := func() *mcp.Server { return mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil) }
	mustPanic(t, `unknown provider "mistral": use ProviderOpenAI, ProviderAnthropic or ProviderGemini, or leave WithProvider out for the default form`, func() {
		addMCPTools(server(), []MCPOption{WithProvider("mistral")}, accountTools(nil)[1:2])
	})
	// accounts_list has no generated forms in this table; accounts_merge,
	// before it, has: the registration adds neither.
	s := server()
	mustPanic(t, `provider "gemini": tool "accounts_list" has no generated "gemini" form; generate with providers=gemini (or without providers=), or register a tool written by hand without a provider`, func() {
		tools := accountTools(nil)
		addMCPTools(s, []MCPOption{WithProvider(ProviderGemini)}, []mcpTool{tools[1], tools[0]})
	})
	if names, _ := listedSchemas(t, connectInMemory(t, s)); len(names) != 0 {
		t.Errorf("a refused registration added %v", names)
	}
}

// fixupEcho serves FixupService.EchoStrict, keeping each request received.
type fixupEcho struct {
	aitestv1.UnimplementedFixupServiceServer
	mu  sync.Mutex
	got []*aitestv1.FixupRequest
}

func (s *fixupEcho) EchoStrict(_ context.Context, req *aitestv1.FixupRequest) (*aitestv1.FixupRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, req)
	return req, nil
}

// TestMCPProviderFormCall: fixup_strict as the generator writes it (the
// fixture runtimes/ts/test/support/fixup-strict-tool.json, which
// generator/test/mcp-provider-fixture.test.ts keeps equal to the
// generator's output), a strict tool on a message cycle whose OpenAI form
// (the recursive one) differs from its Parameters, served with
// WithProvider(ProviderOpenAI) against a gRPC server on a real socket: the
// form listed; the OpenAI form's arguments (every property, the optional
// ones null) reach the server as the default form's do; a child only the
// recursive form lists reaches it too.
func TestMCPProviderFormCall(t *testing.T) {
	raw, err := os.ReadFile("../ts/test/support/fixup-strict-tool.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Name, Description string
		Strict            bool
		Parameters        json.RawMessage
		Forms             json.RawMessage
	}
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	tool := AgentTool{Name: fixture.Name, Description: fixture.Description, Strict: fixture.Strict, Parameters: fixture.Parameters}
	useProviderForms(t, map[string]generatedForms{tool.Name: {tool.Parameters, string(fixture.Forms)}})
	useArguments(t, nil)
	echo := &fixupEcho{}
	client := aitestv1.NewFixupServiceClient(serveOnSocket(t, func(srv *grpc.Server) { aitestv1.RegisterFixupServiceServer(srv, echo) }))
	fixup := []mcpTool{{
		tool: tool,
		call: func(ctx context.Context, e *Executor, args string) (string, error) {
			return mcpUnary(ctx, e, tool, args, &aitestv1.FixupRequest{}, client.EchoStrict)
		},
	}}
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(server, []MCPOption{WithProvider(ProviderOpenAI), WithNamePrefix("openai")}, fixup)
	addMCPTools(server, nil, fixup)
	cs := connectInMemory(t, server)
	_, schemas := listedSchemas(t, cs)
	var forms struct{ OpenAI json.RawMessage }
	_ = json.Unmarshal(fixture.Forms, &forms)
	if len(forms.OpenAI) == 0 || reflect.DeepEqual(schemas["openai_fixup_strict"], schemas["fixup_strict"]) {
		t.Fatal("the fixture's OpenAI form is missing or listed as the Parameters")
	}
	sameJSON(t, schemas["openai_fixup_strict"], forms.OpenAI)
	sameJSON(t, schemas["fixup_strict"], tool.Parameters)

	// Every field but the nullable ones (the optional note and level, the
	// oneof kind), as the default form's arguments may give it.
	given := map[string]any{
		"labels": []any{map[string]any{"key": "k", "value": "v"}}, "items_by_num": []any{}, "flags": []any{},
		"attrs": []any{}, "extra": `"x"`, "list": []any{}, "items": []any{}, "values": []any{}, "value_map": []any{},
		"item":         map[string]any{"name": "a", "counts": []any{}, "payload": "1", "children": []any{}, "owner_id": ""},
		"display_name": "d", "count": 2, "enabled": true, "timeout": "1s", "data": "", "levels": []any{},
	}
	openai := map[string]any{"note": nil, "level": nil, "text": nil, "number": nil, "nested": nil, "other_text": nil}
	for k, v := range given {
		openai[k] = v
	}
	wantSuccess(t, callTool(t, cs, "fixup_strict", given, nil))
	wantSuccess(t, callTool(t, cs, "openai_fixup_strict", openai, nil))
	child := map[string]any{"name": "b", "counts": []any{}, "payload": "2", "owner_id": "", "children": []any{}}
	deep := maps.Clone(openai)
	deep["item"] = map[string]any{"name": "a", "counts": []any{}, "payload": "1", "owner_id": "", "children": []any{child}}
	wantSuccess(t, callTool(t, cs, "openai_fixup_strict", deep, nil))
	if len(echo.got) != 3 {
		t.Fatalf("%d requests reached the server", len(echo.got))
	}
	if !proto.Equal(echo.got[0], echo.got[1]) || echo.got[0].GetDisplayName() != "d" || echo.got[0].GetItem().GetName() != "a" {
		t.Errorf("the OpenAI form's call sent %v, the default form's %v", echo.got[1], echo.got[0])
	}
	if children := echo.got[2].GetItem().GetChildren(); len(children) != 1 || children[0].GetName() != "b" {
		t.Errorf("the recursive form's child: %v", echo.got[2].GetItem())
	}
}
