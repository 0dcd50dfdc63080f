//aitools:inline mcp

package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//aitools:if toolsearch

// A search-first tool set (docs/mcp.md, "Search-first tool sets"): the
// server lists search_tools and the tools always loaded; a search adds the
// tools it finds to the list of a connection that can be told of it now,
// with notifications/tools/list_changed (a 2025-11-25 connection or HTTP
// session; a 2026-07-28 connection while it listens, on its
// subscriptions/listen stream). Any other request (stateless HTTP, a
// 2026-07-28 connection that does not listen) lists call_tool too, which
// calls any tool by name, and search_tools then answers with the found
// tools' input schemas. Listing is a view: a tool that is not listed is
// still called directly.
//
// The go-sdk keeps one tool list per server: the per-connection view is a
// receiving middleware on tools/list, and the notification goes to the one
// session through the server's sending handler, which a sending middleware
// keeps; it also notes the listens the SDK acknowledges, with their ids.

// SearchFirst configures a search-first tool set (WithSearchFirst).
type SearchFirst struct {
	// Search is the generated tool-search data (tool_search=true:
	// ToolSearchData).
	Search *ToolSearch
	// AlwaysLoaded are tools listed from the start, by their generated
	// names (with a name prefix: every registration of the tool). A
	// served tool the data does not hold must be listed here (else its
	// registration panics); a name no served tool has is refused at the
	// first tools/list or search_tools, when every registration is known.
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

// mcpSearchFirst is the search-first state of one server.
type mcpSearchFirst struct {
	config     SearchFirst
	limit      int
	namespaces []ToolNamespace
	total      int             // the tools of the data
	known      map[string]bool // the data's tools and AlwaysLoaded

	mu     sync.Mutex
	byName map[string][]*mcpTool           // generated name -> its served tools
	served map[string]*mcpTool             // served name -> tool
	defs   map[string]*mcp.Tool            // served name -> its listed definition
	always []*mcp.Tool                     // the always-loaded tools' definitions
	absent string                          // an AlwaysLoaded name no served tool has
	search map[bool]*mcp.Tool              // search_tools' definition, by call view
	loaded map[*mcp.ServerSession][]string // served names, in load order
	send   mcp.MethodHandler               // the server's sending handler
	// listens are the 2026-07-28 connections listening for tool list
	// changes (subscriptions/listen), with the listen's context and id:
	// one a connection, the last acknowledged, dropped when any listen of
	// the connection ends, as the go-sdk keeps its own (docs/mcp.md).
	listens map[*mcp.ServerSession]toolListen
}

// toolListen is a subscriptions/listen stream that takes
// notifications/tools/list_changed.
type toolListen struct {
	ctx context.Context
	id  any
}

// newMCPSearchFirst checks config: it panics for one it cannot serve,
// naming the fix.
func newMCPSearchFirst(server MCPServer, config SearchFirst) *mcpSearchFirst {
	if _, ok := server.(*mcp.Server); !ok {
		panic(fmt.Sprintf("WithSearchFirst needs a *mcp.Server of the go-sdk, whose tools/list it views per connection; %T has no such hook: leave WithSearchFirst out", server))
	}
	namespaces, err := config.Search.Namespaces()
	if err != nil {
		panic(fmt.Sprintf("WithSearchFirst: %v", err))
	}
	limit := config.Limit
	if limit == 0 {
		limit = searchFirstDefault
	}
	if limit < 1 || limit > searchFirstMax {
		panic(fmt.Sprintf("WithSearchFirst: Limit %d is not a whole number from 1 to %d: leave it out for %d", config.Limit, searchFirstMax, searchFirstDefault))
	}
	known := map[string]bool{}
	total := 0
	for _, ns := range namespaces {
		for _, t := range ns.Tools {
			known[t.Tool] = true
			total++
		}
	}
	seen := map[string]bool{}
	for _, name := range config.AlwaysLoaded {
		if seen[name] {
			panic(fmt.Sprintf("WithSearchFirst: AlwaysLoaded: %s is given twice: give each tool once", quote(name)))
		}
		seen[name], known[name] = true, true
	}
	return &mcpSearchFirst{
		config: config, limit: limit, namespaces: namespaces, total: total, known: known,
		byName: map[string][]*mcpTool{}, served: map[string]*mcpTool{}, defs: map[string]*mcp.Tool{},
		loaded: map[*mcp.ServerSession][]string{}, listens: map[*mcp.ServerSession]toolListen{},
	}
}

// install sets the server of s up: the meta tools, the tools/list view and
// the sending handler that tells one session.
func (f *mcpSearchFirst) install(s *mcpServer, sdk *mcp.Server) {
	sdk.AddSendingMiddleware(f.noteListens)
	sdk.AddReceivingMiddleware(f.listView)
	sdk.AddTool(f.searchTool(false), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := f.alwaysServed(); err != nil {
			return nil, err
		}
		return f.run(ctx, req), nil
	})
	sdk.AddTool(callToolDefinition(), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return f.callTool(ctx, s, req), nil
	})
}

// add records the tools of one registration, as listed (defs); a tool
// named like a meta tool, or one neither the data nor AlwaysLoaded names
// (no list would show it, no search find it), panics.
func (f *mcpSearchFirst) add(tools []mcpTool, defs []*mcp.Tool) {
	for i := range tools {
		if n := tools[i].name; n == searchToolsName || n == callToolName {
			panic(fmt.Sprintf("tool %s has the name of a search-first tool: register it with a name prefix", quote(n)))
		}
		if n := tools[i].tool.Name; !f.known[n] {
			panic(notInSearchData(n))
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
	f.always, f.absent = nil, ""
	for _, name := range f.config.AlwaysLoaded {
		if len(f.byName[name]) == 0 && f.absent == "" {
			f.absent = name
		}
		for _, t := range f.byName[name] {
			f.always = append(f.always, f.defs[t.name])
		}
	}
	f.search = nil // its description names the groups of the tools served
}

// alwaysServed refuses an AlwaysLoaded name no served tool has (a
// mistyped name would list nothing): checked at tools/list and
// search_tools, when every registration is known.
func (f *mcpSearchFirst) alwaysServed() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.absent != "" {
		return fmt.Errorf("always-loaded tool %s is not served here: check its name (the generated tool names), or drop it from AlwaysLoaded", quote(f.absent))
	}
	return nil
}

// noteListens is the sending middleware that keeps the server's sending
// handler (to tell one session) and notes each 2026-07-28 connection that
// listens for tool list changes: the SDK acknowledges a listen with its id.
func (f *mcpSearchFirst) noteListens(next mcp.MethodHandler) mcp.MethodHandler {
	f.send = next
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ack, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
		if ss, _ := req.GetSession().(*mcp.ServerSession); ok && ss != nil && method == "notifications/subscriptions/acknowledged" && ack.Notifications.ToolsListChanged {
			f.mu.Lock()
			f.listens[ss] = toolListen{ctx: ctx, id: ack.Meta[mcp.MetaKeySubscriptionID]}
			f.mu.Unlock()
		}
		return next(ctx, method, req)
	}
}

// canTell reports whether the client of a request can be told of a list
// change now: a 2025-11-25 connection (stdio, in memory) or HTTP session,
// or a 2026-07-28 connection while it listens for tool list changes; not
// a stateless HTTP request, nor a 2026-07-28 connection that does not
// listen. f.mu is held.
func (f *mcpSearchFirst) canTell(ss *mcp.ServerSession, extra *mcp.RequestExtra) bool {
	if ss == nil || extra != nil && extra.Header != nil && ss.ID() == "" {
		return false
	}
	if p := ss.InitializeParams(); p != nil && p.ProtocolVersion >= "2026-07-28" {
		_, listening := f.listens[ss]
		return listening
	}
	return true
}

// tell sends notifications/tools/list_changed to ss alone: on the stream
// of the call of ctx (2025-11-25), or on the connection's listen stream
// with its id (2026-07-28).
func (f *mcpSearchFirst) tell(ctx context.Context, ss *mcp.ServerSession) {
	params := &mcp.ToolListChangedParams{}
	f.mu.Lock()
	if listen, listening := f.listens[ss]; listening {
		ctx, params.Meta = listen.ctx, mcp.Meta{mcp.MetaKeySubscriptionID: listen.id}
	}
	f.mu.Unlock()
	_, _ = f.send(ctx, "notifications/tools/list_changed", &mcp.ServerRequest[*mcp.ToolListChangedParams]{Session: ss, Params: params})
}

// listView is the receiving middleware of tools/list: the view of the
// request's connection first (search_tools, call_tool where the list
// cannot change, the always-loaded tools, the tools found in load order),
// then the tools the application added to the server itself, as the SDK
// lists them (pages included).
func (f *mcpSearchFirst) listView(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			if err := f.alwaysServed(); err != nil {
				return nil, err
			}
		}
		res, err := next(ctx, method, req)
		if method == "subscriptions/listen" { // it returns when the listen ends
			f.mu.Lock()
			ss, _ := req.GetSession().(*mcp.ServerSession)
			delete(f.listens, ss)
			f.mu.Unlock()
		}
		list, ok := res.(*mcp.ListToolsResult)
		if method != "tools/list" || err != nil || !ok {
			return res, err
		}
		out := *list
		out.Tools = []*mcp.Tool{}
		if p, _ := req.GetParams().(*mcp.ListToolsParams); p == nil || p.Cursor == "" {
			ss, _ := req.GetSession().(*mcp.ServerSession)
			out.Tools = f.view(ss, req.GetExtra())
		}
		f.mu.Lock()
		for _, t := range list.Tools {
			if _, ours := f.served[t.Name]; !ours && t.Name != searchToolsName && t.Name != callToolName {
				out.Tools = append(out.Tools, t)
			}
		}
		f.mu.Unlock()
		return &out, nil
	}
}

// view is the tools a connection lists.
func (f *mcpSearchFirst) view(ss *mcp.ServerSession, extra *mcp.RequestExtra) []*mcp.Tool {
	f.mu.Lock()
	defer f.mu.Unlock()
	callView := !f.canTell(ss, extra)
	tools := []*mcp.Tool{f.searchTool(callView)}
	if callView {
		tools = append(tools, callToolDefinition())
	}
	tools = append(tools, f.always...)
	if !callView {
		for _, name := range f.loaded[ss] {
			tools = append(tools, f.defs[name])
		}
	}
	return tools
}

// find is the served tools a query finds, best first, at most limit: the
// data's ranking kept to the tools this server serves. f.mu is held.
func (f *mcpSearchFirst) find(query string, limit int) ([]*mcpTool, error) {
	hits, err := RankTools(f.config.Search, query, max(f.total, 1))
	if err != nil {
		return nil, err
	}
	var found []*mcpTool
	for _, hit := range hits {
		for _, t := range f.byName[hit.Name] {
			if len(found) == limit {
				return found, nil
			}
			found = append(found, t)
		}
	}
	return found, nil
}

// run answers search_tools: the tools found, by their served names; in a
// connection that can be told it loads them and says so when its list
// grew; otherwise each carries its input schema.
func (f *mcpSearchFirst) run(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
	query, limit, problem := searchArguments(req.Params.Arguments, f.limit)
	if problem != "" {
		return mcpErrorResult(problem)
	}
	f.mu.Lock()
	callView := !f.canTell(req.Session, req.Extra)
	found, err := f.find(query, limit)
	if err != nil {
		f.mu.Unlock()
		return mcpErrorResult(err.Error())
	}
	items := make([]foundTool, len(found))
	for i, t := range found {
		items[i] = foundTool{Name: t.name, Description: t.tool.Description}
		if callView {
			items[i].InputSchema = f.defs[t.name].InputSchema
		}
	}
	grew := !callView && f.load(req.Session, found)
	f.mu.Unlock()
	if grew {
		f.tell(ctx, req.Session)
	}
	var b strings.Builder // as TypeScript writes it: no HTML escapes
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]any{"tools": items})
	text := strings.TrimSuffix(b.String(), "\n")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(text)}
}

// foundTool is one tool of search_tools' result.
type foundTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	InputSchema any    `json:"inputSchema,omitempty"`
}

// load appends the tools found to the loaded list of ss, each once,
// always-loaded ones left out, never reordering; it reports whether the
// list grew. The list ends with the session. f.mu is held.
func (f *mcpSearchFirst) load(ss *mcp.ServerSession, found []*mcpTool) bool {
	have, known := f.loaded[ss]
	grew := false
	for _, t := range found {
		if containsString(f.config.AlwaysLoaded, t.tool.Name) || containsString(have, t.name) {
			continue
		}
		have = append(have, t.name)
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
		return mcpErrorResult(fmt.Sprintf("unknown tool %s: call %s to find a tool, then %s with one of the names it gives", quote(name), searchToolsName, callToolName))
	}
	params := *req.Params
	params.Name, params.Arguments = name, args
	inner := *req
	inner.Params = &params
	return s.call(ctx, &inner, t)
}

//aitools:end
