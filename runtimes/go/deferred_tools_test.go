package aitools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
)

// The deferred tools over smallToolSearch (tool_search_test.go): LinkService
// holds a_links_create (CreateLink) and b_links_get (GetLink), NoteService
// c_notes_get (GetNote).

var deferredTestTools = []AgentTool{
	{Name: "a_links_create", Description: "Create a link.", Strict: true, Parameters: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false}`)},
	{Name: "b_links_get", Description: "Get a link.", Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)},
	{Name: "c_notes_get", Description: "Get a note.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
}

func newTestDeferredTools(t *testing.T, opts DeferredToolsOptions) (*DeferredTools, *MemoryConversationStore) {
	t.Helper()
	store := NewMemoryConversationStore(0)
	if opts.Tools == nil {
		opts.Tools = deferredTestTools
	}
	if opts.Search == nil {
		opts.Search = DefineToolSearch(smallToolSearch)
	}
	opts.Store = store
	d, err := NewDeferredTools(opts)
	if err != nil {
		t.Fatal(err)
	}
	return d, store
}

// sameValueJSON fails unless got, as JSON, equals want once both are parsed.
func sameValueJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	raw, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var g, w any
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the expected JSON: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, raw, want)
	}
}

// storeWithoutLoading is a store written before the loaded-tools
// operations.
type storeWithoutLoading struct{ ConversationStore }

func TestNewDeferredToolsRefuses(t *testing.T) {
	search := DefineToolSearch(smallToolSearch)
	store := NewMemoryConversationStore(0)
	extra := AgentTool{Name: "d_extra", Parameters: json.RawMessage(`{}`)}
	for _, c := range []struct {
		opts DeferredToolsOptions
		want string
	}{
		{DeferredToolsOptions{Tools: deferredTestTools, Search: search, Store: storeWithoutLoading{store}}, `the conversation store aitools.storeWithoutLoading cannot keep loaded tools: give it LoadTools(ctx, handle, epoch, names) and LoadedTools(ctx, handle) (docs/store.md, "Loaded tools")`},
		{DeferredToolsOptions{Tools: deferredTestTools, Search: search, Store: store, Limit: 21}, `limit "21": give a whole number from 1 to 20`},
		{DeferredToolsOptions{Tools: deferredTestTools, Search: search, Store: store, Limit: -1}, `limit "-1": give a whole number from 1 to 20`},
		{DeferredToolsOptions{Tools: deferredTestTools, Search: search, Store: store, MaxLoaded: -1}, `MaxLoaded "-1": give a whole number of at least 1 (0 for the default)`},
		{DeferredToolsOptions{Tools: deferredTestTools, Search: search, Store: store, AlwaysLoaded: []string{"nope"}}, `AlwaysLoaded: unknown tool "nope": name tools of the generated file`},
		{DeferredToolsOptions{Tools: deferredTestTools[:2], Search: search, Store: store}, `tool search data: namespace "NoteService" names the tool "c_notes_get", which is not given: pass the tools and the ToolSearchData of one generated file`},
		{DeferredToolsOptions{Tools: append([]AgentTool{extra}, deferredTestTools...), Search: search, Store: store}, `tool "d_extra" is served but not in the tool-search data: generate its file with tool_search=true and pass that file's data, or list it in AlwaysLoaded`},
		{DeferredToolsOptions{Tools: append([]AgentTool{deferredTestTools[0]}, deferredTestTools...), Search: search, Store: store}, `tool "a_links_create" is given twice: pass the generated file's AllTools()`},
		{DeferredToolsOptions{Tools: append([]AgentTool{{Name: "search_tools"}}, deferredTestTools...), Search: search, Store: store}, `tool "search_tools" has the name of the search function: rename the RPC's tool`},
		{DeferredToolsOptions{Tools: deferredTestTools, Search: DefineToolSearch("{"), Store: store}, `tool search data: invalid JSON`},
	} {
		_, err := NewDeferredTools(c.opts)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("NewDeferredTools: %v\nwant %s", err, c.want)
		}
	}
	// An always-loaded tool needs no namespace.
	if _, err := NewDeferredTools(DeferredToolsOptions{Tools: append([]AgentTool{extra}, deferredTestTools...), Search: search, Store: store, AlwaysLoaded: []string{"d_extra"}}); err != nil {
		t.Error(err)
	}
}

func TestDeferredSearchLoadsInOrder(t *testing.T) {
	ctx := context.Background()
	d, store := newTestDeferredTools(t, DeferredToolsOptions{AlwaysLoaded: []string{"c_notes_get"}})
	handle, _ := store.Create(ctx)
	out, err := d.Search(ctx, handle, "get", 0)
	if err != nil {
		t.Fatal(err)
	}
	// c_notes_get is found but always loaded: not in the loaded list.
	sameValueJSON(t, "search get", out, `{"found":["b_links_get","c_notes_get"],"loaded":["b_links_get"]}`)
	out, err = d.Search(ctx, handle, "make link", 1)
	if err != nil {
		t.Fatal(err)
	}
	sameValueJSON(t, "search make link", out, `{"found":["a_links_create"],"loaded":["b_links_get","a_links_create"]}`)
	// A found tool already loaded keeps its place; nothing found loads nothing.
	for _, query := range []string{"links", "zebra"} {
		if out, err = d.Search(ctx, handle, query, 5); err != nil {
			t.Fatal(err)
		}
		sameValueJSON(t, "loaded after "+query, out.Loaded, `["b_links_get","a_links_create"]`)
	}
	loaded, err := d.Loaded(ctx, handle)
	if err != nil || !reflect.DeepEqual(loaded, []string{"b_links_get", "a_links_create"}) {
		t.Errorf("Loaded = %v, %v", loaded, err)
	}

	// The model's mistake, and a conversation the store does not hold.
	var te *ToolError
	_, err = d.Search(ctx, handle, "get", 21)
	if !errors.As(err, &te) || te.Reason != "invalid-arguments" || te.Message != "invalid arguments, nothing was sent:\n- \"limit\": must be a whole number from 1 to 20" {
		t.Errorf("limit 21: %#v", err)
	}
	for _, op := range []func() error{
		func() error { _, err := d.Search(ctx, "gone", "get", 0); return err },
		func() error { _, err := d.Search(ctx, "gone", "zebra", 0); return err },
		func() error { _, err := d.Loaded(ctx, "gone"); return err },
		func() error { _, err := d.OpenAIChat(ctx, "gone"); return err },
	} {
		err := op()
		if !errors.As(err, &te) || te.Reason != "conversation-expired" || te.Message != `conversation "gone" expired or unknown: start a new conversation` {
			t.Errorf("unknown conversation: %#v", err)
		}
	}
}

// TestDeferredMaxLoaded: a search that would load more than MaxLoaded
// tools loads nothing and tells the model; tools already loaded count once.
func TestDeferredMaxLoaded(t *testing.T) {
	ctx := context.Background()
	d, store := newTestDeferredTools(t, DeferredToolsOptions{MaxLoaded: 1})
	handle, _ := store.Create(ctx)
	if _, err := d.Search(ctx, handle, "make link", 1); err != nil {
		t.Fatal(err)
	}
	_, err := d.Search(ctx, handle, "get", 0)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "conversation-full" || te.Code != codes.ResourceExhausted || te.Message != "3 tools would be loaded, at most 1: call one of the loaded tools, or start a new conversation" {
		t.Errorf("over MaxLoaded: %#v", err)
	}
	out, err := d.Search(ctx, handle, "make link", 1)
	if err != nil || !reflect.DeepEqual(out.Loaded, []string{"a_links_create"}) {
		t.Errorf("found again: %+v, %v", out, err)
	}
	// By default what Chat Completions takes beside search_tools and the
	// always-loaded tools.
	d, _ = newTestDeferredTools(t, DeferredToolsOptions{AlwaysLoaded: []string{"c_notes_get"}})
	if d.maxLoaded != 126 {
		t.Errorf("default MaxLoaded %d, want 126", d.maxLoaded)
	}
}

// TestDeferredLoadedSurvivesExecutors: two DeferredTools over one store
// (two replicas) see one loaded list, in load order.
func TestDeferredLoadedAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	store := NewMemoryConversationStore(time.Minute)
	opts := DeferredToolsOptions{Tools: deferredTestTools, Search: DefineToolSearch(smallToolSearch), Store: store}
	one, _ := NewDeferredTools(opts)
	two, _ := NewDeferredTools(opts)
	handle, _ := store.Create(ctx)
	if _, err := one.Search(ctx, handle, "note", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := two.Search(ctx, handle, "create", 0); err != nil {
		t.Fatal(err)
	}
	tools, err := one.OpenAIChat(ctx, handle)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Function.Name)
	}
	if !reflect.DeepEqual(names, []string{"search_tools", "c_notes_get", "a_links_create"}) {
		t.Errorf("OpenAIChat names %v", names)
	}
}

const deferredSearchParameters = `{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words."},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"The most tools to find; 5 by default."}},"required":["query"],"additionalProperties":false}`

const deferredSearchDescription = "Search this API's tools by what they do and load the best matches: a loaded tool can be called from the next turn on. Searchable: LinkService (Links.); NoteService (Notes.)."

func TestDeferredOpenAIResponses(t *testing.T) {
	ctx := context.Background()
	d, store := newTestDeferredTools(t, DeferredToolsOptions{AlwaysLoaded: []string{"c_notes_get"}})
	handle, _ := store.Create(ctx)
	link := `{"type":"namespace","name":"LinkService","description":"Links.","tools":[
		{"type":"function","name":"CreateLink","description":"Create a link.","parameters":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false},"strict":true,"defer_loading":true},
		{"type":"function","name":"GetLink","description":"Get a link.","parameters":{"type":"object","properties":{"id":{"type":"string"}}},"strict":false,"defer_loading":true}]}`
	note := `{"type":"function","name":"c_notes_get","description":"Get a note.","parameters":{"type":"object","properties":{}},"strict":false}`
	tools, err := d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{Search: "hosted"})
	if err != nil {
		t.Fatal(err)
	}
	// NoteService is left out: its one tool is always loaded.
	sameValueJSON(t, "hosted", tools, `[`+note+`,`+link+`,{"type":"tool_search"}]`)
	tools, err = d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{Search: "client"})
	if err != nil {
		t.Fatal(err)
	}
	sameValueJSON(t, "client", tools, `[`+note+`,`+link+`,{"type":"tool_search","execution":"client","description":"Search the functions of the namespaces above by what they do; the best matches are loaded.","parameters":`+deferredSearchParameters+`}]`)
	if _, err := d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{}); err == nil || err.Error() != `OpenAIResponses: search "" is not "hosted" or "client"` {
		t.Errorf("no search: %v", err)
	}

	output, err := d.OpenAIToolSearchOutput("call_1", []string{"b_links_get", "c_notes_get", "a_links_create", "b_links_get"})
	if err != nil {
		t.Fatal(err)
	}
	sameValueJSON(t, "tool_search_output", output, `{"type":"tool_search_output","call_id":"call_1","execution":"client","status":"completed","tools":[{"type":"namespace","name":"LinkService","description":"Links.","tools":[
		{"type":"function","name":"GetLink","description":"Get a link.","parameters":{"type":"object","properties":{"id":{"type":"string"}}},"strict":false,"defer_loading":true},
		{"type":"function","name":"CreateLink","description":"Create a link.","parameters":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false},"strict":true,"defer_loading":true}]}]}`)
	output, _ = d.OpenAIToolSearchOutput("call_2", nil)
	sameValueJSON(t, "nothing found", output, `{"type":"tool_search_output","call_id":"call_2","execution":"client","status":"completed","tools":[]}`)
	if _, err := d.OpenAIToolSearchOutput("call_3", []string{"zebra"}); err == nil || err.Error() != `unknown tool "zebra": pass names a search found` {
		t.Errorf("unknown tool: %v", err)
	}

	for _, c := range []struct{ namespace, function, tool, err string }{
		{"LinkService", "GetLink", "b_links_get", ""},
		{"NoteService", "GetNote", "c_notes_get", ""},
		{"LinkService", "GetNote", "", `no function "GetNote" in namespace "LinkService": call a function a tool search loaded`},
		{"Links", "GetLink", "", `unknown namespace "Links" (function "GetLink"): call a function a tool search loaded, with its namespace`},
	} {
		tool, err := d.ToolOf(c.namespace, c.function)
		var te *ToolError
		if c.err == "" && (err != nil || tool != c.tool) || c.err != "" && (!errors.As(err, &te) || te.Reason != "unknown-tool" || te.Message != c.err) {
			t.Errorf("ToolOf(%q, %q) = %q, %v", c.namespace, c.function, tool, err)
		}
	}
}

func TestDeferredChatAndGemini(t *testing.T) {
	ctx := context.Background()
	d, store := newTestDeferredTools(t, DeferredToolsOptions{AlwaysLoaded: []string{"c_notes_get"}})
	handle, _ := store.Create(ctx)
	chat, err := d.OpenAIChat(ctx, handle)
	if err != nil {
		t.Fatal(err)
	}
	search := `{"type":"function","function":{"name":"search_tools","description":"` + deferredSearchDescription + `","parameters":` + deferredSearchParameters + `,"strict":false}}`
	sameValueJSON(t, "chat before a search", chat, `[{"type":"function","function":{"name":"c_notes_get","description":"Get a note.","parameters":{"type":"object","properties":{}},"strict":false}},`+search+`]`)
	if _, err := d.Search(ctx, handle, "create link", 1); err != nil {
		t.Fatal(err)
	}
	chat, _ = d.OpenAIChat(ctx, handle)
	sameValueJSON(t, "chat after a search", chat, `[{"type":"function","function":{"name":"c_notes_get","description":"Get a note.","parameters":{"type":"object","properties":{}},"strict":false}},`+search+`,
		{"type":"function","function":{"name":"a_links_create","description":"Create a link.","parameters":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false},"strict":true}}]`)

	gemini, err := d.Gemini(ctx, handle, false)
	if err != nil {
		t.Fatal(err)
	}
	sameValueJSON(t, "gemini", gemini, `[{"name":"c_notes_get","description":"Get a note.","parametersJsonSchema":{"type":"object","properties":{}}},
		{"name":"search_tools","description":"`+deferredSearchDescription+`","parametersJsonSchema":`+deferredSearchParameters+`},
		{"name":"a_links_create","description":"Create a link.","parametersJsonSchema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false}}]`)
	// The OpenAPI form is generated: hand-written tools have none.
	if _, err := d.Gemini(ctx, handle, true); err == nil || err.Error() != `tool "c_notes_get" has no generated provider forms: generate it with protoc-gen-ai-tools` {
		t.Errorf("gemini openAPI: %v", err)
	}
	result, err := d.SearchToolsResult([]string{"a_links_create", "c_notes_get"})
	if err != nil || result != `{"tools":[{"name":"a_links_create","description":"Create a link."},{"name":"c_notes_get","description":"Get a note."}]}` {
		t.Errorf("SearchToolsResult = %s, %v", result, err)
	}
}

func TestDeferredAnthropic(t *testing.T) {
	ctx := context.Background()
	d, store := newTestDeferredTools(t, DeferredToolsOptions{AlwaysLoaded: []string{"c_notes_get"}})
	handle, _ := store.Create(ctx)
	tools := `{"name":"c_notes_get","description":"Get a note.","input_schema":{"type":"object","properties":{}}},
		{"name":"a_links_create","description":"Create a link.","input_schema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false},"defer_loading":true},
		{"name":"b_links_get","description":"Get a link.","input_schema":{"type":"object","properties":{"id":{"type":"string"}}},"defer_loading":true}`
	for _, c := range []struct{ search, last string }{
		{"bm25", `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`},
		{"regex", `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}`},
		{"client", `{"name":"search_tools","description":"` + deferredSearchDescription + `","input_schema":` + deferredSearchParameters + `}`},
	} {
		got, err := d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: c.search})
		if err != nil {
			t.Fatal(err)
		}
		sameValueJSON(t, "anthropic "+c.search, got, `[`+tools+`,`+c.last+`]`)
	}
	if _, err := d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "fuzzy"}); err == nil || err.Error() != `Anthropic: search "fuzzy" is not "bm25", "regex" or "client"` {
		t.Errorf("search fuzzy: %v", err)
	}
	refs, _ := d.AnthropicToolReferences([]string{"b_links_get", "c_notes_get"})
	sameValueJSON(t, "references", refs, `[{"type":"tool_reference","tool_name":"b_links_get"}]`)
	refs, _ = d.AnthropicToolReferences([]string{"c_notes_get"})
	sameValueJSON(t, "only always-loaded found", refs, `[{"type":"text","text":"the tools found are already loaded: c_notes_get"}]`)
	refs, _ = d.AnthropicToolReferences(nil)
	sameValueJSON(t, "nothing found", refs, `[{"type":"text","text":"no tool found; search again with other words"}]`)
}

// manyToolSearch is tool-search data of n tools t0000, t0001, ... in
// namespaces of per tools each, and the tools.
func manyToolSearch(n, per int) (string, []AgentTool) {
	var namespaces, names, norms []string
	var tools []AgentTool
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("t%04d", i)
		names = append(names, `"`+name+`"`)
		norms = append(norms, "1")
		tools = append(tools, AgentTool{Name: name, Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	for i := 0; i < n; i += per {
		var fns []string
		for j := i; j < min(i+per, n); j++ {
			fns = append(fns, fmt.Sprintf(`{"tool":"t%04d","function":"F%d"}`, j, j))
		}
		namespaces = append(namespaces, fmt.Sprintf(`{"name":"N%d","description":"Group %d.","tools":[%s]}`, i, i, strings.Join(fns, ",")))
	}
	data := `{"version":1,"namespaces":[` + strings.Join(namespaces, ",") + `],"index":{"version":2,"k1":1.2,"b":0.75,"names":[` + strings.Join(names, ",") + `],"norms":[` + strings.Join(norms, ",") + `],"idf":{},"postings":{},"stopWords":[],"queryTerms":{}}}`
	return data, tools
}

// TestDeferredLimits: each provider's limit, counted as it counts.
func TestDeferredLimits(t *testing.T) {
	ctx := context.Background()
	store := NewMemoryConversationStore(0)
	handle, _ := store.Create(ctx)
	epoch, _, _ := store.Load(ctx, handle)

	// OpenAI Responses: 127 namespaces + tool_search fit, 128 do not;
	// the functions inside a namespace do not count.
	for _, c := range []struct {
		namespaces int
		err        string
	}{
		{127, ""},
		{128, "129 top-level tools in one request (0 always loaded, 128 namespaces, the tool_search tool): OpenAI takes at most 128; load fewer tools always, or split the API into several tool sets (fewer services per generated file)"},
	} {
		data, tools := manyToolSearch(c.namespaces*10, 10)
		d, err := NewDeferredTools(DeferredToolsOptions{Tools: tools, Search: DefineToolSearch(data), Store: store})
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{Search: "hosted"})
		if (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%d namespaces: %v", c.namespaces, err)
		}
	}

	// Chat Completions: loaded tools + search_tools <= 128; Gemini <= 512;
	// Anthropic every tool + the search tool <= 10000.
	data, tools := manyToolSearch(10000, 10)
	d, err := NewDeferredTools(DeferredToolsOptions{Tools: tools, Search: DefineToolSearch(data), Store: store})
	if err != nil {
		t.Fatal(err)
	}
	load := func(n int) {
		var names []string
		for i := 0; i < n; i++ {
			names = append(names, fmt.Sprintf("t%04d", i))
		}
		if _, err := store.LoadTools(ctx, handle, epoch, names); err != nil {
			t.Fatal(err)
		}
	}
	load(127)
	if _, err := d.OpenAIChat(ctx, handle); err != nil {
		t.Errorf("chat with 128 tools: %v", err)
	}
	load(128)
	if _, err := d.OpenAIChat(ctx, handle); err == nil || err.Error() != "129 tools in one request: OpenAI takes at most 128; send a subset of the tools, or lower MaxLoaded" {
		t.Errorf("chat with 129 tools: %v", err)
	}
	load(511)
	if _, err := d.Gemini(ctx, handle, false); err != nil {
		t.Errorf("gemini with 512 declarations: %v", err)
	}
	load(512)
	if _, err := d.Gemini(ctx, handle, false); err == nil || err.Error() != "513 function declarations in one request: Gemini takes at most 512; send a subset of the tools, or lower MaxLoaded" {
		t.Errorf("gemini with 513 declarations: %v", err)
	}
	if _, err := d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "bm25"}); err == nil || err.Error() != "10001 tools in one request: Anthropic tool search takes at most 10000; send a subset of the tools" {
		t.Errorf("anthropic with 10001 tools: %v", err)
	}
	data, tools = manyToolSearch(9999, 10)
	d, _ = NewDeferredTools(DeferredToolsOptions{Tools: tools, Search: DefineToolSearch(data), Store: store})
	if got, err := d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "client"}); err != nil || len(got) != 10000 {
		t.Errorf("anthropic with 10000 tools: %d, %v", len(got), err)
	}
}
