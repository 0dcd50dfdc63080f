//aitools:inline mcp

package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//aitools:if toolsearch

// A search-first tool set (docs/mcp.md, "Search-first tool sets"): the
// server lists search_tools and the tools always loaded; a search adds the
// tools it finds to the list of the client's session, which is told with
// notifications/tools/list_changed. A request that cannot be told
// (2026-07-28) lists call_tool too, which calls any tool by name, and
// search_tools then answers with the found tools' input schemas. Listing is
// a view: a tool that is not listed is still called directly.
//
// The go-sdk keeps one tool list per server: the per-session view is a
// receiving middleware on tools/list, and the notification goes to the one
// session through the server's sending handler.

// SearchFirst configures a search-first tool set (WithSearchFirst).
type SearchFirst struct {
	// Search is the generated tool-search data (tool_search=true).
	Search *ToolSearch
	// AlwaysLoaded are tools listed from the start, by their generated
	// names; a name the data does not hold panics at registration.
	AlwaysLoaded []string
	// Limit is how many tools a search finds when the call gives no
	// limit: 5 when 0, at most 20.
	Limit int
}

// WithSearchFirst serves the tools of the server search-first (docs/mcp.md,
// "Search-first tool sets"). The server must be a *mcp.Server of the go-sdk.
func WithSearchFirst(config SearchFirst) MCPOption {
	return func(o *mcpOptions) { o.searchFirst = &config }
}

// The meta tools' names, and the largest and default number of tools a
// search finds.
const (
	searchToolsName    = "search_tools"
	callToolName       = "call_tool"
	searchFirstMax     = 20
	searchFirstDefault = 5
)

// mcpSearchFirst is the search-first state of one server.
type mcpSearchFirst struct {
	config     SearchFirst
	limit      int
	always     map[string]bool // generated names
	namespaces []ToolNamespace

	mu     sync.Mutex
	byName map[string][]*mcpTool           // generated name -> its served tools
	served map[string]*mcpTool             // served name -> tool
	defs   map[string]*mcp.Tool            // served name -> its listed definition
	loaded map[*mcp.ServerSession][]string // served names, in load order
	send   mcp.MethodHandler               // the server's sending handler
}

// newMCPSearchFirst checks config: it panics for one it cannot serve,
// naming the fix.
func newMCPSearchFirst(server MCPServer, config SearchFirst) *mcpSearchFirst {
	if _, ok := server.(*mcp.Server); !ok {
		panic(fmt.Sprintf("WithSearchFirst needs a *mcp.Server of the go-sdk, whose tools/list it filters per session; %T has no such hook: leave WithSearchFirst out", server))
	}
	namespaces, err := config.Search.Namespaces()
	if err != nil {
		panic(fmt.Sprintf("WithSearchFirst: %v", err))
	}
	if config.Limit < 0 || config.Limit > searchFirstMax {
		panic(fmt.Sprintf("WithSearchFirst: limit %d is not 1 to %d (0 for %d)", config.Limit, searchFirstMax, searchFirstDefault))
	}
	known := map[string]bool{}
	for _, ns := range namespaces {
		for _, t := range ns.Tools {
			known[t.Tool] = true
		}
	}
	f := &mcpSearchFirst{
		config: config, limit: config.Limit, always: map[string]bool{}, namespaces: namespaces,
		byName: map[string][]*mcpTool{}, served: map[string]*mcpTool{}, defs: map[string]*mcp.Tool{},
		loaded: map[*mcp.ServerSession][]string{},
	}
	if f.limit == 0 {
		f.limit = searchFirstDefault
	}
	for _, name := range config.AlwaysLoaded {
		if !known[name] {
			panic(fmt.Sprintf("WithSearchFirst: always-loaded tool %s is not in the tool-search data; use a generated tool name", quote(name)))
		}
		f.always[name] = true
	}
	return f
}

// install sets the server of s up: the meta tools, the tools/list view and
// the sending handler that tells one session.
func (f *mcpSearchFirst) install(s *mcpServer, sdk *mcp.Server) {
	sdk.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		f.send = next
		return next
	})
	sdk.AddReceivingMiddleware(f.listView)
	sdk.AddTool(&mcp.Tool{Name: searchToolsName, Description: searchToolsDescription(f.namespaces), InputSchema: json.RawMessage(searchToolsSchema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return f.search(ctx, req), nil
		})
	sdk.AddTool(&mcp.Tool{Name: callToolName, Description: callToolDescription, InputSchema: json.RawMessage(callToolSchema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return f.callTool(ctx, s, req), nil
		})
}

// add records the tools of one registration, as listed (defs); a tool
// named like a meta tool panics.
func (f *mcpSearchFirst) add(tools []mcpTool, defs []*mcp.Tool) {
	for i := range tools {
		if n := tools[i].name; n == searchToolsName || n == callToolName {
			panic(fmt.Sprintf("tool %s is named like a tool of WithSearchFirst; rename the tool or leave WithSearchFirst out", quote(n)))
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range tools {
		t := &tools[i]
		f.byName[t.tool.Name] = append(f.byName[t.tool.Name], t)
		f.served[t.name] = t
		f.defs[t.name] = defs[i]
	}
}

// withoutListChanges reports whether the client of a request cannot be
// told of a list change: a 2026-07-28 request (stateless HTTP, or a
// connection speaking that revision), or no session at all.
func withoutListChanges(ss *mcp.ServerSession, extra *mcp.RequestExtra) bool {
	if ss == nil || extra != nil && extra.Header != nil && ss.ID() == "" {
		return true
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= "2026-07-28"
}

// listView is the receiving middleware that lists, of this server's
// generated tools, those of the request's view; other tools (added by the
// application) are listed as they are.
func (f *mcpSearchFirst) listView(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*mcp.ListToolsResult)
		if method != "tools/list" || err != nil || !ok {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		stateless := withoutListChanges(ss, req.GetExtra())
		shown := f.shown(ss, stateless)
		out := *list
		out.Tools = make([]*mcp.Tool, 0, len(list.Tools))
		for _, t := range list.Tools {
			if shown(t.Name) {
				out.Tools = append(out.Tools, t)
			}
		}
		return &out, nil
	}
}

// shown returns whether a listed tool is in the view of session ss.
func (f *mcpSearchFirst) shown(ss *mcp.ServerSession, stateless bool) func(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	loaded := map[string]bool{}
	if !stateless {
		for _, name := range f.loaded[ss] {
			loaded[name] = true
		}
	}
	return func(name string) bool {
		if name == callToolName {
			return stateless
		}
		t, ours := f.served[name]
		return !ours || f.always[t.tool.Name] || loaded[name]
	}
}

// search answers search_tools: the tools found, by their served names; in
// a session it loads them and tells the client when its list grew; without
// list changes each carries its input schema.
func (f *mcpSearchFirst) search(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
	query, limit, problem := searchArguments(req.Params.Arguments, f.limit)
	if problem != "" {
		return mcpErrorResult(problem)
	}
	hits, err := RankTools(f.config.Search, query, limit)
	if err != nil {
		return mcpErrorResult(err.Error())
	}
	stateless := withoutListChanges(req.Session, req.Extra)
	type found struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	}
	tools := []found{}
	var names []string
	f.mu.Lock()
	for _, hit := range hits {
		for _, t := range f.byName[hit.Name] {
			item := found{Name: t.name, Description: t.tool.Description}
			if stateless {
				item.InputSchema = schemaJSON(f.defs[t.name].InputSchema)
			}
			tools = append(tools, item)
			names = append(names, t.name)
		}
	}
	grew := !stateless && f.load(req.Session, names)
	f.mu.Unlock()
	if grew {
		f.notify(ctx, req.Session)
	}
	text, _ := json.Marshal(map[string]any{"tools": tools})
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text)}
}

// load appends to the loaded list of ss the names it lacks (always-loaded
// ones are listed anyway), in order; it reports whether the list grew. The
// list ends with the session. f.mu is held.
func (f *mcpSearchFirst) load(ss *mcp.ServerSession, names []string) bool {
	have, known := f.loaded[ss]
	grew := false
	for _, name := range names {
		if f.always[f.served[name].tool.Name] || containsString(have, name) {
			continue
		}
		have = append(have, name)
		grew = true
	}
	if !grew {
		return false
	}
	f.loaded[ss] = have
	if !known {
		go func() {
			_ = ss.Wait()
			f.mu.Lock()
			delete(f.loaded, ss)
			f.mu.Unlock()
		}()
	}
	return true
}

// notify sends notifications/tools/list_changed to ss alone, on the
// stream of the call of ctx.
func (f *mcpSearchFirst) notify(ctx context.Context, ss *mcp.ServerSession) {
	req := &mcp.ServerRequest[*mcp.ToolListChangedParams]{Session: ss, Params: &mcp.ToolListChangedParams{}}
	_, _ = f.send(ctx, "notifications/tools/list_changed", req)
}

// callTool answers call_tool: the named tool's call, through the same path
// as a direct call of it; an unknown name is an isError result.
func (f *mcpSearchFirst) callTool(ctx context.Context, s *mcpServer, req *mcp.CallToolRequest) *mcp.CallToolResult {
	name, args, problem := callArguments(req.Params.Arguments)
	if problem != "" {
		return mcpErrorResult(problem)
	}
	f.mu.Lock()
	t, ok := f.served[name]
	f.mu.Unlock()
	if !ok {
		return mcpErrorResult(fmt.Sprintf("unknown tool %s: find tools with %s", quote(name), searchToolsName))
	}
	params := *req.Params
	params.Name, params.Arguments = name, args
	inner := *req
	inner.Params = &params
	return s.call(ctx, &inner, t)
}

// searchArguments reads search_tools' arguments: the query, and the limit
// (def when not given); problem is the error text of bad ones.
func searchArguments(raw json.RawMessage, def int) (query string, limit int, problem string) {
	args, problem := metaToolArguments(raw)
	if problem != "" {
		return "", 0, problem
	}
	var violations []Violation
	query, ok := args["query"].(string)
	if !ok {
		violations = append(violations, metaViolation("query", args["query"], "a string"))
	}
	limit = def
	if v, given := args["limit"]; given && v != nil {
		n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64)
		if _, isNumber := v.(json.Number); !isNumber || err != nil || n < 1 || n > searchFirstMax {
			violations = append(violations, Violation{Field: "limit", Reason: "invalid-value", Message: fmt.Sprintf("must be an integer from 1 to %d", searchFirstMax)})
		} else {
			limit = int(n)
		}
	}
	if len(violations) > 0 {
		return "", 0, (&Executor{}).refuse("invalid-arguments", violations, nil).Error()
	}
	return query, limit, ""
}

// callArguments reads call_tool's arguments: the tool's name and its
// arguments (JSON, null when not given).
func callArguments(raw json.RawMessage) (name string, args json.RawMessage, problem string) {
	parsed, problem := metaToolArguments(raw)
	if problem != "" {
		return "", nil, problem
	}
	name, ok := parsed["name"].(string)
	if !ok {
		return "", nil, argumentsError(metaViolation("name", parsed["name"], "a string")).Error()
	}
	var whole struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(raw, &whole)
	return name, whole.Arguments, ""
}

// metaToolArguments decodes the arguments of a meta tool: an object, or
// nothing.
func metaToolArguments(raw json.RawMessage) (map[string]any, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, ""
	}
	v, _ := decodeJSON(string(raw))
	args, ok := v.(map[string]any)
	if !ok {
		return nil, argumentsError(Violation{Reason: "not-an-object", Message: "expected a JSON object, got " + jsonKind(v)}).Error()
	}
	return args, ""
}

// metaViolation is the violation of a meta tool's argument that is
// missing or not of the kind it must be.
func metaViolation(field string, v any, kind string) Violation {
	if v == nil {
		return Violation{Field: field, Reason: "required", Message: "missing required field"}
	}
	return Violation{Field: field, Reason: "invalid-value", Message: "must be " + kind}
}

// schemaJSON is a listed input schema as JSON.
func schemaJSON(schema any) json.RawMessage {
	if raw, ok := schema.(json.RawMessage); ok {
		return raw
	}
	raw, _ := json.Marshal(schema)
	return raw
}

// searchToolsDescription is search_tools' description: what it does, and
// the namespaces the server's tools are in.
func searchToolsDescription(namespaces []ToolNamespace) string {
	var b strings.Builder
	b.WriteString(searchToolsIntro)
	for _, ns := range namespaces {
		b.WriteString("\n- " + ns.Name + ": " + firstLine(ns.Description))
	}
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// The meta tools' texts and input schemas, the same in every language.
const (
	searchToolsIntro    = "Find the tools for a task: describe it in a few words. The tools found are added to your tool list; when your client cannot add them, call them with call_tool. The tools are grouped by service:"
	searchToolsSchema   = `{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words."},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"How many tools to find (default 5)."}},"required":["query"]}`
	callToolDescription = "Call a tool that search_tools found, by its name, with its arguments (its input schema is in search_tools' result)."
	callToolSchema      = `{"type":"object","properties":{"name":{"type":"string","description":"The tool's name, as search_tools gave it."},"arguments":{"type":"object","description":"The tool's arguments."}},"required":["name"]}`
)

//aitools:end
