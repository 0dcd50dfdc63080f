package aitools

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// requestVectors is e2e/vectors/tool-search/requests.json (written by the
// TypeScript runtime's tests): the deferred requests and answers every
// runtime builds from the same tools and data.
type requestVectors struct {
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Strict      bool            `json:"strict"`
		Parameters  json.RawMessage `json:"parameters"`
		Forms       json.RawMessage `json:"forms"`
	} `json:"tools"`
	ToolSearch string `json:"toolSearch"`
	Cases      []struct {
		Name         string   `json:"name"`
		AlwaysLoaded []string `json:"alwaysLoaded"`
		MaxLoaded    int      `json:"maxLoaded"`
		Searches     []struct {
			Query  string   `json:"query"`
			Limit  int      `json:"limit"`
			Found  []string `json:"found"`
			Loaded []string `json:"loaded"`
			Error  string   `json:"error"`
		} `json:"searches"`
		Requests map[string]json.RawMessage `json:"requests"`
		Found    []string                   `json:"found"`
		Answers  map[string]json.RawMessage `json:"answers"`
		ToolOf   []struct {
			Namespace string `json:"namespace"`
			Function  string `json:"function"`
			Expected  string `json:"expected"`
			Error     string `json:"error"`
		} `json:"toolOf"`
	} `json:"cases"`
	SearchArguments []struct {
		Args     json.RawMessage `json:"args"`
		Expected json.RawMessage `json:"expected"`
		Error    string          `json:"error"`
	} `json:"searchArguments"`
}

// sameParsedJSON reports whether got, as JSON, equals want once both are
// parsed.
func sameParsedJSON(t *testing.T, got any, want json.RawMessage) bool {
	t.Helper()
	raw, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if json.Unmarshal(raw, &g) != nil || json.Unmarshal(want, &w) != nil {
		t.Fatalf("not JSON: %s or %s", raw, want)
	}
	return reflect.DeepEqual(g, w)
}

// TestDeferredVectors builds every case of the shared vectors: the
// searches' found and loaded lists, each provider's request, the answers to
// search calls and ToolOf, compared with the TypeScript runtime's as parsed
// JSON, errors by their text.
func TestDeferredVectors(t *testing.T) {
	ctx := context.Background()
	v := loadVectors[requestVectors](t, "tool-search")["requests.json"]
	if len(v.Tools) == 0 || len(v.Cases) < 2 || len(v.SearchArguments) < 10 {
		t.Fatalf("requests.json: %d tools, %d cases, %d search arguments", len(v.Tools), len(v.Cases), len(v.SearchArguments))
	}
	forms := map[string]generatedForms{}
	var tools []AgentTool
	for _, tool := range v.Tools {
		tools = append(tools, AgentTool{Name: tool.Name, Description: tool.Description, Strict: tool.Strict, Parameters: tool.Parameters})
		forms[tool.Name] = generatedForms{parameters: tool.Parameters, forms: string(tool.Forms)}
	}
	useProviderForms(t, forms)
	for _, c := range v.Cases {
		store := NewMemoryConversationStore(0)
		d, err := NewDeferredTools(DeferredToolsOptions{Tools: tools, Search: DefineToolSearch(v.ToolSearch), Store: store, AlwaysLoaded: c.AlwaysLoaded, MaxLoaded: c.MaxLoaded})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		handle, _ := store.Create(ctx)
		for _, s := range c.Searches {
			out, err := d.Search(ctx, handle, s.Query, s.Limit)
			if s.Error != "" {
				if err == nil || err.Error() != s.Error {
					t.Errorf("%s: Search(%q, %d) = %+v, %v; want the error %s", c.Name, s.Query, s.Limit, out, err, s.Error)
				}
				continue
			}
			if err != nil || !reflect.DeepEqual(out.Found, s.Found) || !reflect.DeepEqual(out.Loaded, s.Loaded) {
				t.Errorf("%s: Search(%q, %d) = %+v, %v; want found %v, loaded %v", c.Name, s.Query, s.Limit, out, err, s.Found, s.Loaded)
			}
		}
		build := map[string]func() (any, error){
			"openAiResponsesHosted": func() (any, error) {
				return d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{Search: "hosted"})
			},
			"openAiResponsesClient": func() (any, error) {
				return d.OpenAIResponses(ctx, handle, OpenAIDeferredOptions{Search: "client"})
			},
			"openAiChat": func() (any, error) { return d.OpenAIChat(ctx, handle) },
			"gemini": func() (any, error) {
				decls, err := d.Gemini(ctx, handle, false)
				return map[string]any{"functionDeclarations": decls}, err
			},
			"geminiParameters": func() (any, error) {
				decls, err := d.Gemini(ctx, handle, true)
				return map[string]any{"functionDeclarations": decls}, err
			},
			"anthropicBm25": func() (any, error) {
				return d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "bm25"})
			},
			"anthropicRegex": func() (any, error) {
				return d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "regex"})
			},
			"anthropicClient": func() (any, error) {
				return d.Anthropic(ctx, handle, AnthropicDeferredOptions{Search: "client"})
			},
			"openAiToolSearchOutput": func() (any, error) { return d.OpenAIToolSearchOutput("call_1", c.Found) },
			"anthropicToolReferences": func() (any, error) {
				return d.AnthropicToolReferences(c.Found)
			},
			"anthropicToolReferencesNone": func() (any, error) {
				return d.AnthropicToolReferences([]string{})
			},
			"anthropicToolReferencesAlwaysLoaded": func() (any, error) {
				return d.AnthropicToolReferences(c.AlwaysLoaded)
			},
			"searchToolsResult": func() (any, error) {
				text, err := d.SearchToolsResult(c.Found)
				return json.RawMessage(text), err
			},
		}
		checked := 0
		for _, group := range []map[string]json.RawMessage{c.Requests, c.Answers} {
			for name, want := range group {
				f, ok := build[name]
				if !ok {
					t.Errorf("%s: vectors have %q, which this test does not build", c.Name, name)
					continue
				}
				checked++
				got, err := f()
				if err != nil || !sameParsedJSON(t, got, want) {
					raw, _ := json.Marshal(got)
					t.Errorf("%s: %s:\n got %s, %v\nwant %s", c.Name, name, raw, err, want)
				}
			}
		}
		if checked != len(build) {
			t.Errorf("%s: %d of the %d requests and answers in the vectors", c.Name, checked, len(build))
		}
		for _, call := range c.ToolOf {
			tool, err := d.ToolOf(call.Namespace, call.Function)
			if call.Error != "" && (err == nil || err.Error() != call.Error) || call.Error == "" && (err != nil || tool != call.Expected) {
				t.Errorf("%s: ToolOf(%q, %q) = %q, %v; want %q%s", c.Name, call.Namespace, call.Function, tool, err, call.Expected, call.Error)
			}
		}
	}
	for _, a := range v.SearchArguments {
		// What a Go caller passes: a string's content (the wire text a
		// provider sent, the very string TypeScript and Python are given),
		// else the value's JSON text (an object as OpenAI's
		// tool_search_call sends it).
		text := string(a.Args)
		var wire string
		if len(a.Args) > 0 && a.Args[0] == '"' && json.Unmarshal(a.Args, &wire) == nil {
			text = wire
		}
		got, err := ParseSearchArguments(text)
		if a.Error != "" {
			if err == nil || err.Error() != a.Error {
				t.Errorf("ParseSearchArguments(%s): %v, want %s", text, err, a.Error)
			}
			continue
		}
		want := map[string]any{"query": got.Query}
		if got.Limit != 0 {
			want["limit"] = got.Limit
		}
		if err != nil || !sameParsedJSON(t, want, a.Expected) {
			t.Errorf("ParseSearchArguments(%s) = %+v, %v; want %s", text, got, err, a.Expected)
		}
	}
}
