package gentools

// Compute Engine's whole deferred request, for every provider, built by the
// inlined runtime from Compute's generated tools, provider forms and
// tool-search data (gen/compute/deferred.json, scripts/compute-fixture.mjs):
// they stand in for linkhub's tables while the test runs. The nightly run's
// alone (node scripts/run.mjs --large, from bash scripts/nightly.sh large);
// the other modes leave it out.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// computeTools installs Compute's provider forms until the test ends and
// returns its tools and tool-search data.
func computeTools(t *testing.T) ([]AgentTool, *ToolSearch) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "gen", "compute", "deferred.json"))
	if err != nil {
		t.Fatalf("%v: run node scripts/run.mjs --large (it writes the Compute fixture, then runs this test)", err)
	}
	var fixture struct {
		ToolSearch string `json:"toolSearch"`
		Tools      []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Strict      bool            `json:"strict"`
			Parameters  json.RawMessage `json:"parameters"`
			Forms       string          `json:"forms"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatal(err)
	}
	savedForms, savedParsed := toolProviderForms, parsedProviderForms
	t.Cleanup(func() { toolProviderForms, parsedProviderForms = savedForms, savedParsed })
	toolProviderForms, parsedProviderForms = map[string]generatedForms{}, &sync.Map{}
	tools := make([]AgentTool, len(fixture.Tools))
	for i, f := range fixture.Tools {
		tools[i] = AgentTool{Name: f.Name, Description: f.Description, Strict: f.Strict, Parameters: f.Parameters}
		toolProviderForms[f.Name] = generatedForms{parameters: f.Parameters, forms: f.Forms}
	}
	return tools, DefineToolSearch(fixture.ToolSearch)
}

// requestBytes is the size of a request's tools as JSON.
func requestBytes(t *testing.T, v any) int {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// TestComputeDeferredRequests swaps the package's provider-form tables for
// Compute's (computeTools), so it must stay serial: no t.Parallel here, and
// none in this package, since Go runs a test without it alone (a generated
// AgentTool carries no forms of its own, so a Go test cannot build
// Compute's tools with their forms otherwise; TypeScript and Python pass
// them to defineTool / AgentTool). The servers TestMain starts run in
// another process and never read the tables.
func TestComputeDeferredRequests(t *testing.T) {
	ctx := context.Background()
	tools, search := computeTools(t)
	namespaces, err := search.Namespaces()
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 988 || len(namespaces) != 124 {
		t.Fatalf("%d tools in %d namespaces, want Compute's 988 in 124", len(tools), len(namespaces))
	}
	store := NewMemoryConversationStore(0)
	d, err := NewDeferredTools(DeferredToolsOptions{Tools: tools, Search: search, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	handle, _ := store.Create(ctx)

	// OpenAI Responses: 124 namespaces and tool_search, 125 of 128 items;
	// every function deferred in its namespace.
	for _, mode := range []string{"hosted", "client"} {
		items, err := d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{Search: mode})
		if err != nil || len(items) != 125 {
			t.Fatalf("OpenAIResponses %s: %d items, %v", mode, len(items), err)
		}
		functions := 0
		for _, item := range items[:124] {
			functions += len(item.(OpenAINamespaceTool).Tools)
		}
		if functions != 988 {
			t.Errorf("OpenAIResponses %s: %d functions", mode, functions)
		}
		if mode == "hosted" {
			t.Logf("OpenAI Responses (hosted search): 125 items, %d bytes", requestBytes(t, items))
		}
	}
	// Anthropic: 988 deferred tools and the search tool.
	for _, mode := range []string{"bm25", "regex", "client"} {
		items, err := d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: mode})
		if err != nil || len(items) != 989 {
			t.Fatalf("Anthropic %s: %d tools, %v", mode, len(items), err)
		}
		deferred := 0
		for _, item := range items {
			if tool, ok := item.(AnthropicDeferredTool); ok && tool.DeferLoading {
				deferred++
			}
		}
		if deferred != 988 {
			t.Errorf("Anthropic %s: %d deferred", mode, deferred)
		}
		if mode == "bm25" {
			t.Logf("Anthropic (BM25 search): 989 tools, %d bytes", requestBytes(t, items))
		}
	}
	// Strict tool use counts every strict tool, deferred or not: Compute's
	// deferred request goes without it.
	if _, err := d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "bm25", Strict: true}); err == nil || !strings.Contains(err.Error(), "Anthropic strict tool use takes at most 20") {
		t.Errorf("Anthropic strict: %v", err)
	}

	// Chat Completions and Gemini send what is loaded: 3 tools after a
	// search, then as many as each provider takes.
	found, err := d.Search(ctx, handle, "reserve a static external IP address", 3)
	if err != nil || len(found.Loaded) != 3 {
		t.Fatalf("search: %+v, %v", found, err)
	}
	chat, err := d.OpenAIChat(ctx, handle)
	if err != nil || len(chat) != 4 {
		t.Fatalf("OpenAIChat with 3 loaded: %d, %v", len(chat), err)
	}
	t.Logf("Chat Completions with 3 loaded %v: %d bytes", found.Loaded, requestBytes(t, chat))
	for _, openAPI := range []bool{false, true} {
		decls, err := d.Gemini(ctx, handle, openAPI)
		if err != nil || len(decls) != 4 {
			t.Fatalf("Gemini openAPI=%v with 3 loaded: %d, %v", openAPI, len(decls), err)
		}
	}
	// A new conversation, loaded up to each limit.
	handle, _ = store.Create(ctx)
	epoch, _, _ := store.Load(ctx, handle)
	load := func(n int) {
		t.Helper()
		names := make([]string, n)
		for i := range names {
			names[i] = tools[i].Name
		}
		if _, err := store.LoadTools(ctx, handle, epoch, names); err != nil {
			t.Fatal(err)
		}
	}
	load(127)
	loaded, _ := d.Loaded(ctx, handle)
	if chat, err := d.OpenAIChat(ctx, handle); err != nil || len(chat) != 128 || len(loaded) != 127 {
		t.Fatalf("OpenAIChat with %d loaded: %d, %v", len(loaded), len(chat), err)
	}
	// The default MaxLoaded is what Chat takes (127 beside search_tools): a
	// search that would load more loads nothing and tells the model.
	if out, err := d.Search(ctx, handle, "reserve a static external IP address", 3); err == nil || !strings.Contains(err.Error(), "tools would be loaded, at most 127: call one of the loaded tools, or start a new conversation") {
		t.Errorf("search past MaxLoaded: %+v, %v", out, err)
	}
	load(128)
	if _, err := d.OpenAIChat(ctx, handle); err == nil || err.Error() != "129 tools in one request: OpenAI takes at most 128; send a subset of the tools, or lower MaxLoaded" {
		t.Errorf("OpenAIChat with 128 loaded: %v", err)
	}
	load(511)
	for _, openAPI := range []bool{false, true} {
		if decls, err := d.Gemini(ctx, handle, openAPI); err != nil || len(decls) != 512 {
			t.Fatalf("Gemini openAPI=%v with 511 loaded: %d, %v", openAPI, len(decls), err)
		}
	}
	load(512)
	want := fmt.Sprintf("%d function declarations in one request: Gemini takes at most 512; send a subset of the tools, or lower MaxLoaded", 513)
	if _, err := d.Gemini(ctx, handle, false); err == nil || err.Error() != want {
		t.Errorf("Gemini with 512 loaded: %v", err)
	}
}
