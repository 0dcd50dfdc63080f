package aitools

// The provider functions of providers.go on tools with and without
// generated provider forms, the per-request limits, and the shared vectors
// of e2e/vectors/providers/adapters.json (format in e2e/vectors/README.md).
// The other provider vectors pin the generator's forms; the generator runs
// them.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// useProviderForms installs a table of generated provider forms until the
// test ends.
func useProviderForms(t testing.TB, forms map[string]generatedForms) {
	t.Helper()
	savedForms, savedParsed := toolProviderForms, parsedProviderForms
	t.Cleanup(func() { toolProviderForms, parsedProviderForms = savedForms, savedParsed })
	toolProviderForms, parsedProviderForms = forms, &sync.Map{}
}

func sameJSON(t *testing.T, got, want json.RawMessage) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got %s: %v", got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

type adapterVector struct {
	Tools map[string]struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Strict      bool            `json:"strict"`
		Parameters  json.RawMessage `json:"parameters"`
		Forms       json.RawMessage `json:"forms"`
	} `json:"tools"`
	Cases []struct {
		Name    string `json:"name"`
		Adapter string `json:"adapter"`
		Options struct {
			Strict bool   `json:"strict"`
			Form   string `json:"form"`
		} `json:"options"`
		Tools       []string        `json:"tools"`
		Expect      json.RawMessage `json:"expect"`
		ExpectError string          `json:"expectError"`
	} `json:"cases"`
}

// callAdapter runs the function a case of adapters.json names, the result
// as JSON.
func callAdapter(adapter string, strict bool, form string, tools []AgentTool) (any, error) {
	switch adapter {
	case "openaiChat":
		return OpenAIChatTools(tools)
	case "openaiResponses":
		return OpenAIResponsesTools(tools)
	case "anthropic":
		return AnthropicTools(tools, strict)
	case "gemini":
		declarations, err := GeminiFunctionDeclarations(tools, form == "parameters")
		return map[string]any{"functionDeclarations": declarations}, err
	}
	return nil, fmt.Errorf("unknown adapter %q", adapter)
}

func TestAdapterVectors(t *testing.T) {
	v := loadVectors[adapterVector](t, "providers")["adapters.json"]
	if len(v.Cases) == 0 {
		t.Fatal("no cases in adapters.json")
	}
	forms := map[string]generatedForms{}
	for _, tool := range v.Tools {
		if tool.Forms != nil {
			forms[tool.Name] = generatedForms{tool.Parameters, string(tool.Forms)}
		}
	}
	useProviderForms(t, forms)
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			tools := make([]AgentTool, len(c.Tools))
			for i, id := range c.Tools {
				tool, ok := v.Tools[id]
				if !ok {
					t.Fatalf("no tool %q", id)
				}
				tools[i] = AgentTool{Name: tool.Name, Description: tool.Description, Strict: tool.Strict, Parameters: tool.Parameters}
			}
			got, err := callAdapter(c.Adapter, c.Options.Strict, c.Options.Form, tools)
			if c.ExpectError != "" {
				if err == nil || !strings.Contains(err.Error(), c.ExpectError) {
					t.Fatalf("error %v, want one containing %q", err, c.ExpectError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, b, c.Expect)
		})
	}
}

// providerTools returns n tools "tool_<i>" of one schema, each with
// generated forms holding the Anthropic strict counts (optional, unions)
// when strict.
func providerTools(t testing.TB, n int, strict bool, optional, unions int) []AgentTool {
	t.Helper()
	tools := make([]AgentTool, n)
	forms := map[string]generatedForms{}
	for i := range tools {
		tools[i] = AgentTool{Name: fmt.Sprintf("tool_%d", i), Description: "d", Strict: strict, Parameters: json.RawMessage(closedSchema)}
		text := `{"geminiParameters":` + closedGemini + `}`
		if strict {
			text = fmt.Sprintf(`{"anthropicStrict":%s,"anthropicStrictCounts":{"optional":%d,"unions":%d},"geminiParameters":%s}`, closedSchema, optional, unions, closedGemini)
		}
		forms[tools[i].Name] = generatedForms{tools[i].Parameters, text}
	}
	useProviderForms(t, forms)
	return tools
}

const (
	closedSchema = `{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false}`
	closedGemini = `{"type":"OBJECT","properties":{"url":{"type":"STRING"}},"required":["url"]}`
)

func TestAnthropicToolsLimits(t *testing.T) {
	if got, err := AnthropicTools(providerTools(t, 20, true, 0, 0), true); err != nil || len(got) != 20 || !got[0].Strict {
		t.Fatalf("20 strict tools: %v, %v", got, err)
	}
	_, err := AnthropicTools(providerTools(t, 21, true, 0, 0), true)
	want := "21 strict tools in one request: Anthropic strict tool use takes at most 20; send fewer tools with strict"
	if err == nil || err.Error() != want {
		t.Fatalf("21 strict tools: %v, want %q", err, want)
	}
	// Without strict, or with tools that are not strict, no limit applies.
	if got, err := AnthropicTools(providerTools(t, 21, true, 0, 0), false); err != nil || len(got) != 21 || got[0].Strict {
		t.Fatalf("21 tools without strict: %v", err)
	}
	if _, err := AnthropicTools(providerTools(t, 21, false, 0, 0), true); err != nil {
		t.Fatalf("21 tools that are not strict: %v", err)
	}
	// The counts of the forms add up across the tools.
	if _, err := AnthropicTools(providerTools(t, 2, true, 12, 8), true); err != nil {
		t.Fatalf("24 optional and 16 union parameters: %v", err)
	}
	_, err = AnthropicTools(providerTools(t, 2, true, 0, 9), true)
	want = "18 parameters with a union type across the strict tools in one request: Anthropic strict tool use takes at most 16; send fewer tools with strict"
	if err == nil || err.Error() != want {
		t.Fatalf("18 union parameters: %v, want %q", err, want)
	}
	_, err = AnthropicTools(providerTools(t, 5, true, 5, 0), true)
	want = "25 optional parameters across the strict tools in one request: Anthropic strict tool use takes at most 24; send fewer tools with strict"
	if err == nil || err.Error() != want {
		t.Fatalf("25 optional parameters: %v, want %q", err, want)
	}
}

func TestGeminiFunctionDeclarations(t *testing.T) {
	got, err := GeminiFunctionDeclarations(providerTools(t, 512, false, 0, 0), false)
	if err != nil || len(got) != 512 {
		t.Fatalf("512 declarations: %v", err)
	}
	b, _ := json.Marshal(got[0])
	sameJSON(t, b, json.RawMessage(`{"name":"tool_0","description":"d","parametersJsonSchema":`+closedSchema+`}`))
	_, err = GeminiFunctionDeclarations(providerTools(t, 513, false, 0, 0), false)
	want := "513 function declarations in one request: Gemini takes at most 512; send a subset of the tools"
	if err == nil || err.Error() != want {
		t.Fatalf("513 declarations: %v, want %q", err, want)
	}
	openAPI, err := GeminiFunctionDeclarations(providerTools(t, 1, true, 0, 0), true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(openAPI[0])
	sameJSON(t, b, json.RawMessage(`{"name":"tool_0","description":"d","parameters":`+closedGemini+`}`))
}

func TestOpenAITools(t *testing.T) {
	responses, err := OpenAIResponsesTools(providerTools(t, 128, true, 0, 0))
	if err != nil || len(responses) != 128 {
		t.Fatalf("128 tools: %v", err)
	}
	b, _ := json.Marshal(responses[0])
	sameJSON(t, b, json.RawMessage(`{"type":"function","name":"tool_0","description":"d","parameters":`+closedSchema+`,"strict":true}`))
	chat, err := OpenAIChatTools(providerTools(t, 128, false, 0, 0))
	if err != nil || len(chat) != 128 {
		t.Fatalf("128 tools: %v", err)
	}
	b, _ = json.Marshal(chat[0])
	sameJSON(t, b, json.RawMessage(`{"type":"function","function":{"name":"tool_0","description":"d","parameters":`+closedSchema+`,"strict":false}}`))
	want := "129 tools in one request: OpenAI takes at most 128; send a subset of the tools"
	if _, err := OpenAIResponsesTools(providerTools(t, 129, true, 0, 0)); err == nil || err.Error() != want {
		t.Fatalf("129 Responses tools: %v, want %q", err, want)
	}
	if _, err := OpenAIChatTools(providerTools(t, 129, true, 0, 0)); err == nil || err.Error() != want {
		t.Fatalf("129 Chat Completions tools: %v, want %q", err, want)
	}
}

func TestProviderFormsParsedOnce(t *testing.T) {
	tool := AgentTool{Name: "t", Parameters: json.RawMessage(`{}`)}
	useProviderForms(t, map[string]generatedForms{"t": {tool.Parameters, `{"anthropic":{"type":"object"},"geminiParameters":null}`}})
	if _, err := AnthropicTools([]AgentTool{tool}, false); err != nil {
		t.Fatal(err)
	}
	// A later change to the table is not read again: the entry was parsed.
	toolProviderForms["t"] = generatedForms{tool.Parameters, `not json`}
	got, err := AnthropicTools([]AgentTool{tool}, false)
	if err != nil || string(got[0].InputSchema) != `{"type":"object"}` {
		t.Fatalf("%s, %v", got[0].InputSchema, err)
	}
	toolProviderForms["u"] = generatedForms{nil, `not json`}
	_, err = AnthropicTools([]AgentTool{{Name: "u"}}, false)
	if err == nil || !strings.HasPrefix(err.Error(), `tool "u": its generated provider forms are not valid JSON`) {
		t.Fatalf("bad forms: %v", err)
	}
}

func TestAnthropicStrictFormLeftOut(t *testing.T) {
	// Forms without anthropicStrict (equal to Parameters), counts present:
	// Parameters go out with strict, and the counts still add up.
	tool := AgentTool{Name: "t", Strict: true, Parameters: json.RawMessage(closedSchema)}
	useProviderForms(t, map[string]generatedForms{"t": {tool.Parameters, `{"anthropicStrictCounts":{"optional":0,"unions":9},"geminiParameters":null}`}})
	got, err := AnthropicTools([]AgentTool{tool}, true)
	if err != nil || !got[0].Strict || string(got[0].InputSchema) != closedSchema {
		t.Fatalf("%+v, %v", got, err)
	}
	_, err = AnthropicTools([]AgentTool{tool, tool}, true)
	if err == nil || !strings.HasPrefix(err.Error(), "18 parameters with a union type") {
		t.Fatalf("two tools: %v", err)
	}
}

func TestProviderFormsOnlyForTheGeneratedTool(t *testing.T) {
	generated := AgentTool{Name: "t", Strict: true, Parameters: json.RawMessage(closedSchema)}
	useProviderForms(t, map[string]generatedForms{"t": {generated.Parameters, `{"anthropicStrictCounts":{"optional":0,"unions":0},"geminiParameters":` + closedGemini + `}`}})
	// The same Parameters text in another slice is the generated tool.
	same := generated
	same.Parameters = json.RawMessage(closedSchema)
	if got, err := GeminiFunctionDeclarations([]AgentTool{same}, true); err != nil || string(got[0].Parameters) != closedGemini {
		t.Fatalf("same parameters: %+v, %v", got, err)
	}
	// Other Parameters under the generated name: a tool written by hand.
	trimmed := generated
	trimmed.Parameters = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	want := `tool "t" has no generated provider forms: generate it with protoc-gen-ai-tools`
	if _, err := GeminiFunctionDeclarations([]AgentTool{trimmed}, true); err == nil || err.Error() != want {
		t.Fatalf("trimmed parameters, Gemini: %v, want %q", err, want)
	}
	if _, err := AnthropicTools([]AgentTool{trimmed}, true); err == nil || err.Error() != want {
		t.Fatalf("trimmed parameters, Anthropic strict: %v, want %q", err, want)
	}
	got, err := OpenAIChatTools([]AgentTool{trimmed})
	if err != nil || string(got[0].Function.Parameters) != string(trimmed.Parameters) {
		t.Fatalf("trimmed parameters, OpenAI: %+v, %v", got, err)
	}
}
