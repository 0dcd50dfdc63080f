//aitools:inline toolsearch

package aitools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
)

//aitools:if executors

// Deferred tools (docs/tool-search.md): a model request carries the
// always-loaded tools, the namespaces to search (OpenAI Responses) or every
// tool deferred (Anthropic), or the tools the conversation's searches
// loaded (Chat Completions, Gemini), and a search tool. Each
// conversation's loaded tools are kept in its conversation store, in load
// order, never reordered, so that any replica sends the same tools in the
// same order (prompt caches survive). Generated in a file with executors;
// its conversations are the ConversationExecutor's when the file has one. The TypeScript and Python runtimes have the
// same functions and texts (runtimes/ts/src/deferred-tools.ts).

// DeferredToolsOptions configures NewDeferredTools.
type DeferredToolsOptions struct {
	// Tools are the tools of the generated file (AllTools()).
	Tools []AgentTool
	// Search is its tool-search data (ToolSearchData, generated with
	// tool_search=true).
	Search *ToolSearch
	// Store keeps each conversation's loaded tools: the ConversationStore
	// of the ConversationExecutor (a handle is one its Start returned), or,
	// in a file without conversations, any store of loaded tools. It needs
	// the methods LoadTools and LoadedTools besides Load
	// (MemoryConversationStore and redisstore's store have them).
	Store interface {
		Load(ctx context.Context, handle string) (epoch, state string, err error)
	}
	// AlwaysLoaded names tools sent as ordinary tools in every request,
	// never deferred.
	AlwaysLoaded []string
	// Limit is how many tools a search finds when the model does not say:
	// 5 when 0, at most MaxSearchLimit.
	Limit int
	// MaxLoaded is the most tools a conversation's searches may load
	// (always-loaded ones aside): a search that would load more loads
	// nothing and returns a ToolError "conversation-full" for the model.
	// When 0, OpenAIMaxTools less the always-loaded tools less 1, what
	// Chat Completions takes with search_tools (1 when that is less); a
	// negative one is refused (docs/tool-search.md, "Limits").
	MaxLoaded int
}

// ToolSearchOutcome is what DeferredTools.Search found and what is loaded
// now.
type ToolSearchOutcome struct {
	// Found are the tools the search found, best first (loaded before or
	// not).
	Found []string `json:"found"`
	// Loaded are the conversation's loaded tools after the search, in load
	// order.
	Loaded []string `json:"loaded"`
}

// toolLoadingStore is a ConversationStore with the loaded-tools
// operations (docs/store.md, "Loaded tools").
type toolLoadingStore interface {
	Load(ctx context.Context, handle string) (epoch, state string, err error)
	LoadTools(ctx context.Context, handle, epoch string, names []string) ([]string, error)
	LoadedTools(ctx context.Context, handle string) ([]string, error)
}

// toolPlacement is where a tool sits in the search data.
type toolPlacement struct {
	namespace *ToolNamespace
	function  string
}

// DeferredTools is a generated API's tools for requests that load tools on
// demand: per provider, the request's tools, and the answers to the
// model's search calls. It is safe for concurrent use.
type DeferredTools struct {
	data         *toolSearchData
	search       *ToolSearch
	store        toolLoadingStore
	tools        []AgentTool
	byName       map[string]AgentTool
	alwaysLoaded []AgentTool
	always       map[string]bool
	placements   map[string]toolPlacement
	limit        int
	maxLoaded    int
	searchTool   AgentTool
}

// NewDeferredTools returns the deferred tools of a generated file's tools
// and tool-search data. Options that cannot work are an error: a store
// without the loaded-tools operations, an unknown always-loaded tool,
// search data naming tools that are not given (or a given tool in no
// namespace nor always loaded), a Limit outside 1 to MaxSearchLimit, a
// negative MaxLoaded.
func NewDeferredTools(opts DeferredToolsOptions) (*DeferredTools, error) {
	store, err := toolLoadingOf(opts.Store)
	if err != nil {
		return nil, err
	}
	limit := opts.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	if limit < 1 || limit > MaxSearchLimit {
		return nil, fmt.Errorf("limit %s: give a whole number from 1 to %d", quote(strconv.Itoa(opts.Limit)), MaxSearchLimit)
	}
	data, err := opts.Search.parsed()
	if err != nil {
		return nil, err
	}
	d := &DeferredTools{data: data, search: opts.Search, store: store, tools: opts.Tools, byName: map[string]AgentTool{}, always: map[string]bool{}, placements: map[string]toolPlacement{}, limit: limit}
	for _, t := range opts.Tools {
		if _, twice := d.byName[t.Name]; twice {
			return nil, fmt.Errorf("tool %s is given twice: pass the generated file's AllTools()", quote(t.Name))
		}
		if t.Name == SearchToolsName {
			return nil, fmt.Errorf("tool %s has the name of the search function: rename the RPC's tool", quote(t.Name))
		}
		d.byName[t.Name] = t
	}
	for _, name := range opts.AlwaysLoaded {
		t, ok := d.byName[name]
		if !ok {
			return nil, fmt.Errorf("AlwaysLoaded: unknown tool %s: name tools of the generated file", quote(name))
		}
		if !d.always[name] {
			d.always[name] = true
			d.alwaysLoaded = append(d.alwaysLoaded, t)
		}
	}
	for i := range data.Namespaces {
		ns := &data.Namespaces[i]
		for _, f := range ns.Tools {
			if _, ok := d.byName[f.Tool]; !ok {
				return nil, fmt.Errorf("tool search data: namespace %s names the tool %s, which is not given: pass the tools and the ToolSearchData of one generated file", quote(ns.Name), quote(f.Tool))
			}
			d.placements[f.Tool] = toolPlacement{namespace: ns, function: f.Function}
		}
	}
	for _, t := range opts.Tools {
		if _, ok := d.placements[t.Name]; !ok && !d.always[t.Name] {
			return nil, errors.New(notInSearchData(t.Name))
		}
	}
	d.maxLoaded = opts.MaxLoaded
	if d.maxLoaded < 0 {
		return nil, fmt.Errorf("MaxLoaded %s: give a whole number of at least 1 (0 for the default)", quote(strconv.Itoa(opts.MaxLoaded)))
	}
	if d.maxLoaded == 0 {
		// What Chat Completions takes, search_tools one of them.
		d.maxLoaded = max(1, OpenAIMaxTools-len(d.alwaysLoaded)-1)
	}
	d.searchTool = searchToolOf(data.Namespaces, d.limit)
	return d, nil
}

// toolLoadingOf returns the store with its loaded-tools operations, or an
// error naming those it lacks (a store written before them).
func toolLoadingOf(store any) (toolLoadingStore, error) {
	if s, ok := store.(toolLoadingStore); ok {
		return s, nil
	}
	var missing []string
	if _, ok := store.(interface {
		LoadTools(ctx context.Context, handle, epoch string, names []string) ([]string, error)
	}); !ok {
		missing = append(missing, "LoadTools(ctx, handle, epoch, names)")
	}
	if _, ok := store.(interface {
		LoadedTools(ctx context.Context, handle string) ([]string, error)
	}); !ok {
		missing = append(missing, "LoadedTools(ctx, handle)")
	}
	return nil, fmt.Errorf("the conversation store %T cannot keep loaded tools: give it %s (docs/store.md, \"Loaded tools\")", store, strings.Join(missing, " and "))
}

// Search ranks the tools for query (at most limit, the options' Limit when
// 0) and appends the found ones not yet loaded (always-loaded ones aside)
// to the conversation's loaded tools, atomically. A limit outside 1 to
// MaxSearchLimit is the model's mistake: a ToolError "invalid-arguments" to
// show it, as is a search that would load more than MaxLoaded tools
// ("conversation-full", nothing loaded); store failures are ToolErrors "conversation-expired",
// "conversation-corrupt" or "store-unavailable".
func (d *DeferredTools) Search(ctx context.Context, handle, query string, limit int) (ToolSearchOutcome, error) {
	if limit < 0 || limit > MaxSearchLimit {
		return ToolSearchOutcome{}, searchArgumentsError([]Violation{limitViolation()})
	}
	if limit == 0 {
		limit = d.limit
	}
	hits, err := RankTools(d.search, query, limit)
	if err != nil {
		return ToolSearchOutcome{}, err
	}
	found := make([]string, 0, len(hits))
	var fresh []string
	for _, hit := range hits {
		if _, ok := d.byName[hit.Name]; !ok {
			continue
		}
		found = append(found, hit.Name)
		if !d.always[hit.Name] {
			fresh = append(fresh, hit.Name)
		}
	}
	loaded, err := d.loadNames(ctx, handle, fresh)
	if err != nil {
		return ToolSearchOutcome{}, err
	}
	return ToolSearchOutcome{Found: found, Loaded: loaded}, nil
}

// loadNames appends names to the loaded tools (the epoch read first) and
// returns the whole list. Names that would bring the list over MaxLoaded
// load none of them: a ToolError "conversation-full" for the model.
func (d *DeferredTools) loadNames(ctx context.Context, handle string, names []string) ([]string, error) {
	now, err := d.Loaded(ctx, handle)
	if err != nil {
		return nil, err
	}
	count := len(now)
	for _, name := range names {
		loaded := false
		for _, l := range now {
			loaded = loaded || l == name
		}
		if !loaded {
			count++
		}
	}
	if count == len(now) {
		return now, nil
	}
	if count > d.maxLoaded {
		msg := fmt.Sprintf("%d tools would be loaded, at most %d: call one of the loaded tools, or start a new conversation", count, d.maxLoaded)
		return nil, &ToolError{Reason: "conversation-full", Code: codes.ResourceExhausted, Message: msg, RawMessage: msg}
	}
	epoch, _, err := d.store.Load(ctx, handle)
	if err != nil {
		return nil, deferredStoreError(handle, err)
	}
	loaded, err := d.store.LoadTools(ctx, handle, epoch, names)
	if err != nil {
		return nil, deferredStoreError(handle, err)
	}
	return loaded, nil
}

// Loaded returns the conversation's loaded tools, in load order (empty,
// not nil, before any search).
func (d *DeferredTools) Loaded(ctx context.Context, handle string) ([]string, error) {
	loaded, err := d.store.LoadedTools(ctx, handle)
	if err != nil {
		return nil, deferredStoreError(handle, err)
	}
	if loaded == nil {
		loaded = []string{}
	}
	return loaded, nil
}

// deferredStoreError is a store's error as a ToolError (storeError, in a
// file with conversations; else as the store wrote it), one that is
// already a ToolError unchanged.
func deferredStoreError(handle string, err error) error {
	if _, ok := err.(*ToolError); ok {
		return err
	}
	//aitools:if aliases
	err = storeError(handle, err)
	//aitools:end
	return err
}

// ToolOf returns the tool an OpenAI namespaced function call names; an
// unknown pair is a ToolError "unknown-tool" naming both, to show the
// model.
func (d *DeferredTools) ToolOf(namespace, function string) (string, error) {
	if tool, ok := d.data.byFunction[namespace+"\x00"+function]; ok {
		if _, given := d.byName[tool]; given {
			return tool, nil
		}
	}
	msg := "no function " + quote(function) + " in namespace " + quote(namespace) + ": call a function a tool search loaded"
	known := false
	for _, ns := range d.data.Namespaces {
		known = known || ns.Name == namespace
	}
	if !known {
		msg = "unknown namespace " + quote(namespace) + " (function " + quote(function) + "): call a function a tool search loaded, with its namespace"
	}
	return "", &ToolError{Reason: "unknown-tool", Code: codes.NotFound, Message: msg, RawMessage: msg}
}

// OpenAIToolSearchOutput returns the input item answering OpenAI's client
// tool_search_call of callID: the found functions grouped in their
// namespaces, in the order found (always-loaded tools left out: the model
// has them).
func (d *DeferredTools) OpenAIToolSearchOutput(callID string, found []string) (OpenAIToolSearchOutput, error) {
	tools, err := d.known(found)
	if err != nil {
		return OpenAIToolSearchOutput{}, err
	}
	groups := []OpenAINamespaceTool{}
	at := map[string]int{}
	for _, t := range tools {
		p, ok := d.placements[t.Name]
		if !ok || d.always[t.Name] {
			continue
		}
		i, ok := at[p.namespace.Name]
		if !ok {
			i = len(groups)
			at[p.namespace.Name] = i
			groups = append(groups, OpenAINamespaceTool{Type: "namespace", Name: p.namespace.Name, Description: p.namespace.Description, Tools: []OpenAINamespaceFunction{}})
		}
		dup := false
		for _, f := range groups[i].Tools {
			dup = dup || f.Name == p.function
		}
		if dup {
			continue
		}
		f, err := openAINamespaceFunction(t, p.function)
		if err != nil {
			return OpenAIToolSearchOutput{}, err
		}
		groups[i].Tools = append(groups[i].Tools, f)
	}
	return OpenAIToolSearchOutput{Type: "tool_search_output", CallID: callID, Execution: "client", Status: "completed", Tools: groups}, nil
}

// AnthropicToolReferences returns the content of the tool_result answering
// Anthropic's search_tools call: a tool_reference per found deferred tool,
// or one text block when there is none.
func (d *DeferredTools) AnthropicToolReferences(found []string) ([]AnthropicToolResultBlock, error) {
	tools, err := d.known(found)
	if err != nil {
		return nil, err
	}
	var refs []AnthropicToolResultBlock
	for _, t := range tools {
		if !d.always[t.Name] {
			refs = append(refs, AnthropicToolResultBlock{Type: "tool_reference", ToolName: t.Name})
		}
	}
	if len(refs) > 0 {
		return refs, nil
	}
	text := "no tool found; search again with other words"
	if len(tools) > 0 {
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		text = "the tools found are already loaded: " + strings.Join(names, ", ")
	}
	return []AnthropicToolResultBlock{{Type: "text", Text: text}}, nil
}

// SearchToolsResult returns the result text of a search_tools call (Chat
// Completions, Gemini): {"tools":[{"name":...,"description":...}]}, in the
// order found.
func (d *DeferredTools) SearchToolsResult(found []string) (string, error) {
	tools, err := d.known(found)
	if err != nil {
		return "", err
	}
	type entry struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	out := struct {
		Tools []entry `json:"tools"`
	}{Tools: make([]entry, len(tools))}
	for i, t := range tools {
		out.Tools[i] = entry{t.Name, t.Description}
	}
	return marshalText(out)
}

// known returns the tools of found, or an error naming one not given.
func (d *DeferredTools) known(found []string) ([]AgentTool, error) {
	out := make([]AgentTool, len(found))
	for i, name := range found {
		t, ok := d.byName[name]
		if !ok {
			return nil, fmt.Errorf("unknown tool %s: pass names a search found", quote(name))
		}
		out[i] = t
	}
	return out, nil
}

// marshalText is v as compact JSON with <, > and & as written.
func marshalText(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

//aitools:end
