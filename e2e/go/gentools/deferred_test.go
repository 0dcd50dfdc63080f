package gentools_test

// Deferred tools (docs/tool-search.md) over the generated ToolSearchData
// (tool_search=true) and the real test server: the model searches, the
// found tools load into the conversation, and a loaded tool's call reaches
// the server with the conversation's UUIDs.

import (
	"encoding/json"
	"slices"
	"testing"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// names are the names of the chat tools, in request order.
func chatNames(tools []gentools.OpenAIChatTool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Function.Name)
	}
	return out
}

func TestDeferredSearchLoadCall(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	store := gentools.NewMemoryConversationStore(0)
	executor := gentools.NewConversationExecutor(c, store)
	deferred, err := gentools.NewDeferredTools(gentools.DeferredToolsOptions{
		Tools: gentools.AllTools(), Search: gentools.ToolSearchData, Store: store, AlwaysLoaded: []string{"ping"},
	})
	if err != nil {
		t.Fatal(err)
	}
	handle, err := executor.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// Before any search: the always-loaded tool and search_tools only.
	tools, err := deferred.OpenAIChat(ctx, handle)
	if err != nil || !slices.Equal(chatNames(tools), []string{"ping", "search_tools"}) {
		t.Fatalf("OpenAIChat before a search: %v, %v", chatNames(tools), err)
	}

	// The model asks search_tools (Chat Completions: a function call).
	args, err := gentools.ParseSearchArguments(`{"query":"create a short link to a target URL","limit":1}`)
	if err != nil {
		t.Fatal(err)
	}
	found, err := deferred.Search(ctx, handle, args.Query, args.Limit)
	if err != nil || !slices.Equal(found.Found, []string{"links_create"}) || !slices.Equal(found.Loaded, []string{"links_create"}) {
		t.Fatalf("search create: %+v, %v", found, err)
	}
	result, err := deferred.SearchToolsResult(found.Found)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Tools []struct{ Name, Description string }
	}
	if err := json.Unmarshal([]byte(result), &answer); err != nil || len(answer.Tools) != 1 || answer.Tools[0].Name != "links_create" || answer.Tools[0].Description != gentools.LinksCreate.Description {
		t.Fatalf("SearchToolsResult: %s, %v", result, err)
	}

	// The next request carries the loaded tool; the model creates a link.
	ws := newUUID()
	r, err := executor.Execute(ctx, handle, "links_create", js(createArgs(ws, "https://example.com/deferred")))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ Link struct{ ID string } }
	if err := json.Unmarshal([]byte(r), &created); err != nil || created.Link.ID != "link-1" {
		t.Fatalf("links_create: %s, %v", r, err)
	}

	// A second search loads links_get after it: load order, never reordered.
	found, err = deferred.Search(ctx, handle, "get a link by its id", 0)
	if err != nil || len(found.Found) == 0 || found.Found[0] != "links_get" {
		t.Fatalf("search get: %+v, %v", found, err)
	}
	if found.Loaded[0] != "links_create" || found.Loaded[1] != "links_get" {
		t.Fatalf("loaded after the second search: %v", found.Loaded)
	}
	tools, err = deferred.OpenAIChat(ctx, handle)
	if err != nil {
		t.Fatal(err)
	}
	wantNames := append([]string{"ping", "search_tools"}, found.Loaded...)
	if !slices.Equal(chatNames(tools), wantNames) {
		t.Fatalf("OpenAIChat after two searches: %v, want %v", chatNames(tools), wantNames)
	}

	// OpenAI Responses: the model calls the namespaced function GetLink.
	tool, err := deferred.ToolOf("LinkService", "GetLink")
	if err != nil || tool != "links_get" {
		t.Fatalf("ToolOf: %q, %v", tool, err)
	}
	from := len(recorded(t))
	r, err = executor.Execute(ctx, handle, tool, `{"id":"link-1"}`)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Link struct{ ID, TargetURL string }
	}
	if err := json.Unmarshal([]byte(r), &got); err != nil || got.Link.ID != "link-1" {
		t.Fatalf("links_get: %s, %v", r, err)
	}
	links, err := linkhubv1.NewLinkServiceClient(c).ListLinks(ctx, &linkhubv1.ListLinksRequest{WorkspaceId: ws})
	if err != nil || len(links.GetLinks()) != 1 {
		t.Fatalf("ListLinks: %v, %v", links, err)
	}
	// link-1 reached the server as the link's UUID.
	expectRecordedFrom(t, from, []want{
		{"linkhub.v1.LinkService/GetLink", &linkhubv1.GetLinkRequest{Id: links.GetLinks()[0].GetId()}},
		{"linkhub.v1.LinkService/ListLinks", &linkhubv1.ListLinksRequest{WorkspaceId: ws}}, // ours
	})
}

// TestDeferredRequestsOfLinkhub builds every provider's deferred request of
// the generated data: namespaces, deferred tools and search tools as each
// provider takes them.
func TestDeferredRequestsOfLinkhub(t *testing.T) {
	ctx := ctxT(t)
	store := gentools.NewMemoryConversationStore(0)
	deferred, err := gentools.NewDeferredTools(gentools.DeferredToolsOptions{Tools: gentools.AllTools(), Search: gentools.ToolSearchData, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	handle, _ := store.Create(ctx)
	namespaces, err := gentools.ToolSearchData.Namespaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, search := range []string{"hosted", "client"} {
		tools, err := deferred.OpenAIResponses(ctx, handle, gentools.OpenAIDeferredOptions{Search: search})
		if err != nil || len(tools) != len(namespaces)+1 {
			t.Fatalf("OpenAIResponses %s: %d items, %v", search, len(tools), err)
		}
		functions := 0
		for _, item := range tools[:len(namespaces)] {
			ns := item.(gentools.OpenAINamespaceTool)
			for _, f := range ns.Tools {
				functions++
				if !f.DeferLoading || f.Type != "function" {
					t.Errorf("%s.%s: %+v", ns.Name, f.Name, f)
				}
			}
		}
		if functions != len(gentools.AllTools()) {
			t.Errorf("OpenAIResponses %s: %d functions, want %d", search, functions, len(gentools.AllTools()))
		}
	}
	for _, search := range []string{"bm25", "regex", "client"} {
		tools, err := deferred.Anthropic(ctx, handle, gentools.AnthropicDeferredOptions{Search: search})
		if err != nil || len(tools) != len(gentools.AllTools())+1 {
			t.Fatalf("Anthropic %s: %d tools, %v", search, len(tools), err)
		}
	}
	found, err := deferred.Search(ctx, handle, "list the page themes of a workspace", 2)
	if err != nil {
		t.Fatal(err)
	}
	output, err := deferred.OpenAIToolSearchOutput("call_1", found.Found)
	if err != nil || len(output.Tools) == 0 || output.Tools[0].Name != "PageThemeService" {
		t.Fatalf("OpenAIToolSearchOutput(%v): %+v, %v", found.Found, output, err)
	}
	refs, err := deferred.AnthropicToolReferences(found.Found)
	if err != nil || len(refs) != len(found.Found) || refs[0].Type != "tool_reference" || refs[0].ToolName != found.Found[0] {
		t.Fatalf("AnthropicToolReferences: %+v, %v", refs, err)
	}
	for _, openAPI := range []bool{false, true} {
		decls, err := deferred.Gemini(ctx, handle, openAPI)
		if err != nil || len(decls) != len(found.Loaded)+1 || decls[0].Name != "search_tools" {
			t.Fatalf("Gemini openAPI=%v: %+v, %v", openAPI, decls, err)
		}
	}
}
