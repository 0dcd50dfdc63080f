package aitools

// WithSearchFirst on a real go-sdk server and client: over one connection
// (in memory, as stdio) and an HTTP session (2025-11-25) the list grows
// with a search and the client is told; over 2026-07-28 call_tool calls the
// found tool against the gRPC server of executor_test.go.

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mcptest"
)

// accountToolSearch is a hand-made index of the three account tools:
// "account" in each, "list", "merge" and "watch" in one; "combine" means
// "merge".
const accountToolSearch = `{"version":1,
 "namespaces":[{"name":"AccountService","description":"Accounts. Functions: ListAccounts, MergeAccounts, WatchAccounts","tools":[
  {"tool":"accounts_list","function":"ListAccounts"},{"tool":"accounts_merge","function":"MergeAccounts"},{"tool":"accounts_watch","function":"WatchAccounts"}]}],
 "index":{"version":2,"k1":1.2,"b":0.75,
  "names":["accounts_list","accounts_merge","accounts_watch"],
  "norms":[1.2,1.2,1.2],
  "idf":{"account":0.1,"list":1.0,"merge":1.0,"watch":1.0},
  "postings":{"account":[[0,1],[1,1],[2,1]],"list":[[0,1]],"merge":[[1,1]],"watch":[[2,1]]},
  "stopWords":["the"],
  "queryTerms":{"accounts":["account"],"combine":["merge"]}}}`

// listChanges is a client whose tools/list_changed notifications arrive
// on the channel.
func listChanges() (*mcp.ClientOptions, chan struct{}) {
	changed := make(chan struct{}, 8)
	return &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}}, changed
}

func toolNames(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools[0].Name != searchToolsName {
		return toolNamesOf(res.Tools)
	}
	stateless := len(res.Tools) > 1 && res.Tools[1].Name == callToolName
	then, item := "The tools found are added to your tool list: call them as any other tool.", `{"properties":{"description":{"type":"string"},"name":{"type":"string"}},"required":["name","description"],"type":"object"}`
	if stateless {
		then, item = "Each tool found comes with its input schema: call it with call_tool.", `{"properties":{"description":{"type":"string"},"inputSchema":{"type":"object"},"name":{"type":"string"}},"required":["name","description","inputSchema"],"type":"object"}`
	}
	search := res.Tools[0]
	input, _ := json.Marshal(search.InputSchema)
	output, _ := json.Marshal(search.OutputSchema)
	if want := "Find this server's tools by what you want to do, in a few words. " + then + "\nTool groups:\n- AccountService: Accounts. Functions: ListAccounts, MergeAccounts, WatchAccounts"; search.Description != want ||
		!strings.Contains(string(input), `"limit":{"description":"The most tools to find; `) || string(output) != `{"properties":{"tools":{"items":`+item+`,"type":"array"}},"required":["tools"],"type":"object"}` {
		t.Errorf("search_tools listed as %q, %s, %s", search.Description, input, output)
	}
	return toolNamesOf(res.Tools)
}

func toolNamesOf(tools []*mcp.Tool) string {
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	return strings.Join(names, ",")
}

// searchFound calls search_tools and returns its result's tools.
func searchFound(t *testing.T, cs *mcp.ClientSession, args map[string]any) []map[string]any {
	t.Helper()
	got := wantSuccess(t, callTool(t, cs, searchToolsName, args, nil))
	var tools []map[string]any
	for _, item := range got["tools"].([]any) {
		tools = append(tools, item.(map[string]any))
	}
	return tools
}

// listenAcknowledged signals each subscriptions/listen the server has
// acknowledged (search-first notes it as the acknowledgement is sent): a
// go-sdk client's Connect returns before its listen is, so a test lists
// only after it.
func listenAcknowledged(server *mcp.Server) chan struct{} {
	acked := make(chan struct{}, 8)
	server.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "notifications/subscriptions/acknowledged" {
				acked <- struct{}{}
			}
			return res, err
		}
	})
	return acked
}

func waitChanged(t *testing.T, changed chan struct{}) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
}

func TestMCPSearchFirstConnection(t *testing.T) {
	conn, _ := startServer(t)
	search := DefineToolSearch(accountToolSearch)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn),
		WithSearchFirst(SearchFirst{Search: search, AlwaysLoaded: []string{"accounts_watch"}}))
	opts, changed := listChanges()
	// The go-sdk client speaks 2026-07-28 unless told: a connection that
	// does not listen cannot be told its list grew, so it gets call_tool
	// and the found tools' schemas.
	quiet := connectInMemory(t, server)
	if found := searchFound(t, quiet, map[string]any{"query": "merge", "limit": 1}); len(found) != 1 || found[0]["name"] != "accounts_merge" || found[0]["inputSchema"] == nil {
		t.Fatalf("a 2026-07-28 connection that does not listen found %v", found)
	}
	if got := toolNames(t, quiet); got != "search_tools,call_tool,accounts_watch" {
		t.Fatalf("a 2026-07-28 connection that does not listen: %s", got)
	}
	res := callTool(t, quiet, callToolName, map[string]any{"name": "accounts_list", "arguments": map[string]any{"count": 1, "contacts_per_account": 0}}, nil)
	if got := wantSuccess(t, res); len(got["accounts"].([]any)) != 1 {
		t.Fatalf("call_tool of a 2026-07-28 connection that does not listen: %s", textOf(res, 0))
	}
	// One that listens (the client opens subscriptions/listen for its
	// handler) is told there.
	modernOpts, modernChanged := listChanges()
	acked := listenAcknowledged(server)
	modern := mcptest.ConnectInMemoryWith(t, server, modernOpts, nil)
	select {
	case <-acked:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/subscriptions/acknowledged")
	}
	if got := toolNames(t, modern); got != "search_tools,accounts_watch" {
		t.Fatalf("a listening 2026-07-28 connection: %s", got)
	}
	searchFound(t, modern, map[string]any{"query": "list accounts", "limit": 1})
	waitChanged(t, modernChanged)
	if got := toolNames(t, modern); got != "search_tools,accounts_watch,accounts_list" {
		t.Fatalf("a listening 2026-07-28 connection after a search: %s", got)
	}
	cs := mcptest.ConnectInMemoryWith(t, server, opts, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if caps := cs.InitializeResult().Capabilities.Tools; caps == nil || !caps.ListChanged {
		t.Fatalf("tools capability %+v", caps)
	}
	if got := toolNames(t, cs); got != "search_tools,accounts_watch" {
		t.Fatalf("before a search: %s", got)
	}
	found := searchFound(t, cs, map[string]any{"query": "combine the accounts"})
	if len(found) != 3 || found[0]["name"] != "accounts_merge" || found[0]["description"] != "Merge one account into another." || found[0]["inputSchema"] != nil {
		t.Fatalf("found %v", found)
	}
	waitChanged(t, changed)
	if got := toolNames(t, cs); got != "search_tools,accounts_watch,accounts_merge,accounts_list" {
		t.Fatalf("after a search: %s", got)
	}
	// Another connection has its own list.
	if got := toolNames(t, mcptest.ConnectInMemoryWith(t, server, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})); got != "search_tools,accounts_watch" {
		t.Fatalf("another connection: %s", got)
	}
	// A tool not listed is still called directly; call_tool is too.
	other := connectInMemory(t, server)
	wantSuccess(t, callTool(t, other, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil))
	res = callTool(t, other, callToolName, map[string]any{"name": "accounts_list", "arguments": map[string]any{"count": 1, "contacts_per_account": 0}}, nil)
	if got := wantSuccess(t, res); got["accounts"].([]any)[0].(map[string]any)["id"] != "acct-2" {
		t.Fatalf("call_tool in the connection's conversation: %s", textOf(res, 0))
	}
}

func TestMCPSearchFirstHTTP(t *testing.T) {
	conn, _ := startServer(t)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn),
		WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch), Limit: 1}), WithHandleArgument())
	httpServer := httptest.NewServer(NewMCPHTTPHandler(server))
	t.Cleanup(httpServer.Close)

	t.Run("session", func(t *testing.T) {
		opts, changed := listChanges()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, opts).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: httpServer.URL, DisableStandaloneSSE: true},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if got := toolNames(t, cs); got != "search_tools" {
			t.Fatalf("before a search: %s", got)
		}
		if found := searchFound(t, cs, map[string]any{"query": "watch accounts"}); len(found) != 1 || found[0]["name"] != "accounts_watch" {
			t.Fatalf("found %v", found)
		}
		waitChanged(t, changed)
		if found := searchFound(t, cs, map[string]any{"query": "list accounts", "limit": 2}); len(found) != 2 || found[0]["name"] != "accounts_list" {
			t.Fatalf("found %v", found)
		}
		waitChanged(t, changed)
		if got := toolNames(t, cs); got != "search_tools,accounts_watch,accounts_list,accounts_merge" {
			t.Fatalf("after two searches: %s", got)
		}
	})

	t.Run("stateless", func(t *testing.T) {
		cs := connectHTTP(t, httpServer.URL, "2026-07-28")
		if got := toolNames(t, cs); got != "search_tools,call_tool" {
			t.Fatalf("2026-07-28 list: %s", got)
		}
		found := searchFound(t, cs, map[string]any{"query": "list accounts"})
		schema, _ := json.Marshal(found[0]["inputSchema"])
		if len(found) != 1 || found[0]["name"] != "accounts_list" || !strings.Contains(string(schema), `"conversation":{`) {
			t.Fatalf("found %v (schema %s)", found, schema)
		}
		if got := toolNames(t, cs); got != "search_tools,call_tool" {
			t.Fatalf("a stateless search loads nothing: %s", got)
		}
		// call_tool: the same path as a direct call, the handle in _meta.
		res := callTool(t, cs, callToolName, map[string]any{"name": "accounts_list", "arguments": map[string]any{"count": 1, "contacts_per_account": 0}}, nil)
		wantSuccess(t, res)
		handle, _ := res.Meta[conversationMetaKey].(string)
		if handle == "" || textOf(res, 1) != "conversation: "+handle {
			t.Fatalf("no handle: %v", res.Content)
		}
		res = callTool(t, cs, callToolName, map[string]any{"name": "accounts_merge", "arguments": map[string]any{"source_id": "acct-1", "target_id": "acct-1", "note": "", "conversation": handle}}, nil)
		if got := wantSuccess(t, res); got["received_source_id"] != "acct-1" {
			t.Fatalf("alias in call_tool: %s", textOf(res, 0))
		}
		res = callTool(t, cs, callToolName, map[string]any{"name": "accounts_merge", "arguments": map[string]any{"source_id": "acct-9", "target_id": "acct-1", "note": ""}}, mcp.Meta{conversationMetaKey: handle})
		if !res.IsError || !strings.HasPrefix(textOf(res, 0), "invalid arguments, nothing was sent:\n- \"source_id\": unknown alias \"acct-9\"") {
			t.Fatalf("unknown alias in call_tool: %s", textOf(res, 0))
		}
		wantResult(t, callTool(t, cs, callToolName, map[string]any{"name": "accounts_delete", "arguments": map[string]any{}}, nil), true,
			`unknown tool "accounts_delete": call search_tools to find a tool, then call_tool with one of the names it gives`)
	})
}

func TestMCPSearchFirstArguments(t *testing.T) {
	server := newMCPServer(t, nil, WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch)}))
	cs := connectInMemory(t, server)
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{searchToolsName, map[string]any{}, "invalid arguments, nothing was sent:\n- \"query\": missing required field"},
		{searchToolsName, map[string]any{"query": 3, "limit": 21}, "invalid arguments, nothing was sent:\n- \"query\": must be a string\n- \"limit\": must be a whole number from 1 to 20"},
		{searchToolsName, map[string]any{"query": "x", "limit": 1.5}, "invalid arguments, nothing was sent:\n- \"limit\": must be a whole number from 1 to 20"},
		{searchToolsName, json.RawMessage(`{"q":"x","query":null,"Limit":2}`), "invalid arguments, nothing was sent:\n- \"q\": unknown field; valid fields: query, limit\n- \"Limit\": unknown field; valid fields: query, limit\n- \"query\": missing required field"},
		{callToolName, map[string]any{"name": "accounts_list", "arguments": []any{}}, "invalid arguments, nothing was sent:\n- \"arguments\": expected a JSON object, got an array"},
		{searchToolsName, []any{1}, "invalid arguments, nothing was sent:\n- expected a JSON object, got an array"},
		{callToolName, map[string]any{"arguments": map[string]any{}}, "invalid arguments, nothing was sent:\n- \"name\": missing required field"},
	} {
		wantResult(t, callTool(t, cs, c.tool, c.args, nil), true, c.want)
	}
	if found := searchFound(t, cs, map[string]any{"query": "the"}); len(found) != 0 {
		t.Fatalf("a query of stop words found %v", found)
	}
}

func TestMCPSearchFirstRefused(t *testing.T) {
	for _, c := range []struct {
		config SearchFirst
		want   string
	}{
		{SearchFirst{Search: DefineToolSearch(accountToolSearch), Limit: 21}, "WithSearchFirst: Limit 21 is not a whole number from 1 to 20: leave it out for 5"},
		{SearchFirst{Search: DefineToolSearch(accountToolSearch), AlwaysLoaded: []string{"accounts_list", "accounts_list"}}, `WithSearchFirst: AlwaysLoaded: "accounts_list" is given twice: give each tool once`},
		{SearchFirst{Search: DefineToolSearch(`{"version":7}`)}, "WithSearchFirst: tool search data: version 7"},
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, c.want) {
					t.Errorf("recovered %q, want %q", r, c.want)
				}
			}()
			newMCPServer(t, nil, WithSearchFirst(c.config))
		}()
	}
	// A served tool the data does not name is refused unless always
	// loaded.
	noWatch := DefineToolSearch(strings.Replace(accountToolSearch, `,{"tool":"accounts_watch","function":"WatchAccounts"}`, "", 1))
	func() {
		defer func() {
			if r, _ := recover().(string); r != `tool "accounts_watch" is served but not in the tool-search data: generate its file with tool_search=true and pass that file's data, or list it in AlwaysLoaded` {
				t.Errorf("recovered %q", r)
			}
		}()
		newMCPServer(t, nil, WithSearchFirst(SearchFirst{Search: noWatch}))
	}()
	cs := connectInMemory(t, newMCPServer(t, nil, WithSearchFirst(SearchFirst{Search: noWatch, AlwaysLoaded: []string{"accounts_watch"}})))
	if got := toolNames(t, cs); got != "search_tools,call_tool,accounts_watch" {
		t.Errorf("accounts_watch always loaded, not in the data: %s", got)
	}
	// Another MCP library's server, and a tool named like a meta tool:
	// refused at registration, nothing added.
	defer func() {
		if r, _ := recover().(string); !strings.HasPrefix(r, "WithSearchFirst needs a *mcp.Server of the go-sdk") {
			t.Errorf("recovered %q", r)
		}
		tools := accountTools(nil)
		tools[0].tool.Name = "search_tools"
		func() {
			defer func() {
				if r, _ := recover().(string); r != `tool "search_tools" has the name of a search-first tool: register it with a name prefix` {
					t.Errorf("recovered %q", r)
				}
			}()
			addMCPTools(mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil), []MCPOption{WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch)})}, tools)
		}()
	}()
	addMCPTools(&otherLibrary{}, []MCPOption{WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch)})}, accountTools(nil))
}

// An AlwaysLoaded name no served tool has is refused at tools/list and
// search_tools, once every registration is known: checked again after
// each.
func TestMCPSearchFirstAlwaysLoadedNotServed(t *testing.T) {
	refusal := `always-loaded tool "accounts_watch" is not served here: check its name (the generated tool names), or drop it from AlwaysLoaded`
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	tools := accountTools(nil)
	var watch []mcpTool
	for i, tool := range tools {
		if tool.tool.Name == "accounts_watch" {
			watch, tools = tools[i:i+1], append(tools[:i:i], tools[i+1:]...)
			break
		}
	}
	if len(watch) != 1 {
		t.Fatal("accountTools has no accounts_watch")
	}
	addMCPTools(server, []MCPOption{WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch), AlwaysLoaded: []string{"accounts_watch"}})}, tools)
	cs := connectInMemory(t, server)
	if _, err := cs.ListTools(context.Background(), nil); err == nil || !strings.Contains(err.Error(), refusal) {
		t.Errorf("tools/list: %v, want %q", err, refusal)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: searchToolsName, Arguments: map[string]any{"query": "merge"}}); err == nil || !strings.Contains(err.Error(), refusal) {
		t.Errorf("search_tools: %v, want %q", err, refusal)
	}
	addMCPTools(server, nil, watch)
	if got := toolNames(t, cs); got != "search_tools,call_tool,accounts_watch" {
		t.Errorf("accounts_watch registered later: %s", got)
	}
}

// otherLibrary is an MCPServer that is not the go-sdk's.
type otherLibrary struct{}

func (*otherLibrary) AddTool(*mcp.Tool, mcp.ToolHandler) {}

// Off by default: the tools as they always were, no meta tool.
func TestMCPSearchFirstOff(t *testing.T) {
	cs := connectInMemory(t, newMCPServer(t, nil))
	if got := toolNames(t, cs); got != "accounts_list,accounts_merge,accounts_watch" {
		t.Fatalf("tools %s", got)
	}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: searchToolsName, Arguments: map[string]any{"query": "x"}}); err == nil {
		t.Fatalf("search_tools served without WithSearchFirst: %v", res)
	}
}

// A tool the application adds itself is listed as the SDK lists it, after
// the view, over every page.
func TestMCPSearchFirstPages(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: 2})
	server.AddTool(&mcp.Tool{Name: "zz_hand_made", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	addMCPTools(server, []MCPOption{WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch), AlwaysLoaded: []string{"accounts_list"}})}, accountTools(nil))
	cs := mcptest.ConnectInMemoryWith(t, server, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "search_tools,accounts_list,zz_hand_made" {
		t.Fatalf("pages: %s", got)
	}
}

// The result's text is what TypeScript writes: no HTML escapes.
func TestMCPSearchFirstResultText(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	tools := accountTools(nil)
	tools[1].tool.Description = "Merge <one> & another."
	addMCPTools(server, []MCPOption{WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch)})}, tools)
	res := callTool(t, mcptest.ConnectInMemoryWith(t, server, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}), searchToolsName, map[string]any{"query": "merge"}, nil)
	if got := textOf(res, 0); got != `{"tools":[{"name":"accounts_merge","description":"Merge <one> & another."}]}` {
		t.Fatalf("text %s", got)
	}
}

// With name prefixes, a tool found is every registration of it, by its
// served name; AlwaysLoaded names the generated tool, so lists each.
func TestMCPSearchFirstNamePrefixes(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	sf := WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch), AlwaysLoaded: []string{"accounts_watch"}})
	addMCPTools(server, []MCPOption{sf, WithNamePrefix("east")}, accountTools(nil))
	addMCPTools(server, []MCPOption{sf, WithNamePrefix("west")}, accountTools(nil))
	cs := mcptest.ConnectInMemoryWith(t, server, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if got := toolNames(t, cs); got != "search_tools,east_accounts_watch,west_accounts_watch" {
		t.Fatalf("before a search: %s", got)
	}
	found := searchFound(t, cs, map[string]any{"query": "merge", "limit": 3})
	if len(found) != 2 || found[0]["name"] != "east_accounts_merge" || found[1]["name"] != "west_accounts_merge" {
		t.Fatalf("found %v", found)
	}
	if got := toolNames(t, cs); got != "search_tools,east_accounts_watch,west_accounts_watch,east_accounts_merge,west_accounts_merge" {
		t.Fatalf("after a search: %s", got)
	}
}

// call_tool of a tool that needs an approval asks it as a direct call does
// (2026-07-28: the signed state comes back with the answer, to call_tool),
// and a scope the token lacks is refused for the named tool.
func TestMCPSearchFirstGuards(t *testing.T) {
	conn, srv := startServer(t)
	server := newGuardedServer(aitestv1.NewAccountServiceClient(conn), WithSearchFirst(SearchFirst{Search: DefineToolSearch(accountToolSearch)}))
	url := serveAsCallers(t, server)
	for _, action := range []string{"accept", "decline"} {
		var asked []string
		cs := connectAs(t, url, "2026-07-28", "alice", answering(action, &asked))
		calls := srv.calls.Load()
		res := callTool(t, cs, callToolName, map[string]any{"name": "accounts_merge", "arguments": json.RawMessage(mergeArguments)}, nil)
		if action == "accept" {
			wantResult(t, res, false, "")
		} else {
			wantResult(t, res, true, deniedMerge)
		}
		if sent := srv.calls.Load() != calls; sent != (action == "accept") || len(asked) != 1 || !strings.Contains(asked[0], `"accounts_merge"`) {
			t.Errorf("%s: sent=%v, asked %q", action, sent, asked)
		}
	}
	cs := connectAs(t, url, "2026-07-28", "carol-noscope", nil)
	wantResult(t, callTool(t, cs, callToolName, map[string]any{"name": "accounts_list", "arguments": map[string]any{"count": 1, "contacts_per_account": 0}}, nil), true,
		`the call of "accounts_list" needs scope "accounts.read"`)
}
