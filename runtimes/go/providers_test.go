package aitools

// The provider forms and per-request limits of providers.go, and the shared
// vectors of e2e/vectors/providers (format in e2e/vectors/README.md).

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

type providerVector struct {
	Cases []struct {
		Name   string          `json:"name"`
		Input  json.RawMessage `json:"input"`
		Expect json.RawMessage `json:"expect"`
	} `json:"cases"`
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

func TestGeminiParametersVectors(t *testing.T) {
	v := loadVectors[providerVector](t, "providers")["gemini-parameters.json"]
	if len(v.Cases) == 0 {
		t.Fatal("no cases in gemini-parameters.json")
	}
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := GeminiParameters(c.Input)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				got = json.RawMessage("null")
			}
			sameJSON(t, got, c.Expect)
		})
	}
}

func TestAnthropicStrictVectors(t *testing.T) {
	v := loadVectors[providerVector](t, "providers")["anthropic-strict.json"]
	if len(v.Cases) == 0 {
		t.Fatal("no cases in anthropic-strict.json")
	}
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := AnthropicStrictSchema(c.Input)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, got, c.Expect)
			tools, err := AnthropicTools([]AgentTool{{Name: "t", Strict: true, Parameters: c.Input}}, true)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, tools[0].InputSchema, c.Expect)
		})
	}
}

func TestAnthropicStrictCountsVectors(t *testing.T) {
	v := loadVectors[providerVector](t, "providers")["anthropic-strict-counts.json"]
	if len(v.Cases) == 0 {
		t.Fatal("no cases in anthropic-strict-counts.json")
	}
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			optional, unions, err := CountAnthropicStrictParameters(c.Input)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf(`{"optional":%d,"unions":%d}`, optional, unions)
			sameJSON(t, json.RawMessage(got), c.Expect)
		})
	}
}

func providerTools(n int, strict bool, schema string) []AgentTool {
	tools := make([]AgentTool, n)
	for i := range tools {
		tools[i] = AgentTool{Name: fmt.Sprintf("tool_%d", i), Description: "d", Strict: strict, Parameters: json.RawMessage(schema)}
	}
	return tools
}

const closedSchema = `{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false}`

func TestAnthropicToolsLimits(t *testing.T) {
	if got, err := AnthropicTools(providerTools(20, true, closedSchema), true); err != nil || len(got) != 20 || !got[0].Strict {
		t.Fatalf("20 strict tools: %v, %v", got, err)
	}
	_, err := AnthropicTools(providerTools(21, true, closedSchema), true)
	want := "21 strict tools in one request: Anthropic strict tool use takes at most 20; send fewer tools with strict"
	if err == nil || err.Error() != want {
		t.Fatalf("21 strict tools: %v, want %q", err, want)
	}
	// Without strict, or with tools that are not strict, no limit applies.
	if got, err := AnthropicTools(providerTools(21, true, closedSchema), false); err != nil || len(got) != 21 || got[0].Strict {
		t.Fatalf("21 tools without strict: %v", err)
	}
	if _, err := AnthropicTools(providerTools(21, false, closedSchema), true); err != nil {
		t.Fatalf("21 tools that are not strict: %v", err)
	}
	union := `{"type":"object","properties":{"note":{"type":["string","null"]}},"required":["note"],"additionalProperties":false}`
	if _, err := AnthropicTools(providerTools(16, true, union), true); err != nil {
		t.Fatalf("16 union parameters: %v", err)
	}
	_, err = AnthropicTools(providerTools(17, true, union), true)
	want = "17 parameters with a union type across the strict tools in one request: Anthropic strict tool use takes at most 16; send fewer tools with strict"
	if err == nil || err.Error() != want {
		t.Fatalf("17 union parameters: %v, want %q", err, want)
	}
	optional := `{"type":"object","properties":{`
	for i := range 25 {
		if i > 0 {
			optional += ","
		}
		optional += fmt.Sprintf(`"p%d":{"type":"string"}`, i)
	}
	optional += `},"required":[],"additionalProperties":false}`
	_, err = AnthropicTools(providerTools(1, true, optional), true)
	want = "25 optional parameters across the strict tools in one request: Anthropic strict tool use takes at most 24; send fewer tools with strict"
	if err == nil || err.Error() != want {
		t.Fatalf("25 optional parameters: %v, want %q", err, want)
	}
}

func TestGeminiFunctionDeclarations(t *testing.T) {
	got, err := GeminiFunctionDeclarations(providerTools(512, false, closedSchema), false)
	if err != nil || len(got) != 512 {
		t.Fatalf("512 declarations: %v", err)
	}
	b, _ := json.Marshal(got[0])
	sameJSON(t, b, json.RawMessage(`{"name":"tool_0","description":"d","parametersJsonSchema":`+closedSchema+`}`))
	_, err = GeminiFunctionDeclarations(providerTools(513, false, closedSchema), false)
	want := "513 function declarations in one request: Gemini takes at most 512; send a subset of the tools"
	if err == nil || err.Error() != want {
		t.Fatalf("513 declarations: %v, want %q", err, want)
	}
	openAPI, err := GeminiFunctionDeclarations(providerTools(1, true, closedSchema), true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(openAPI[0])
	sameJSON(t, b, json.RawMessage(`{"name":"tool_0","description":"d","parameters":{"type":"OBJECT","properties":{"url":{"type":"STRING"}},"required":["url"]}}`))
	empty, err := GeminiFunctionDeclarations(providerTools(1, true, `{"type":"object","properties":{}}`), true)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ = json.Marshal(empty[0]); string(b) != `{"name":"tool_0","description":"d"}` {
		t.Errorf("no parameters: %s", b)
	}
}

func TestOpenAITools(t *testing.T) {
	responses, err := OpenAIResponsesTools(providerTools(128, true, closedSchema))
	if err != nil || len(responses) != 128 {
		t.Fatalf("128 tools: %v", err)
	}
	b, _ := json.Marshal(responses[0])
	sameJSON(t, b, json.RawMessage(`{"type":"function","name":"tool_0","description":"d","parameters":`+closedSchema+`,"strict":true}`))
	chat, err := OpenAIChatTools(providerTools(128, false, closedSchema))
	if err != nil || len(chat) != 128 {
		t.Fatalf("128 tools: %v", err)
	}
	b, _ = json.Marshal(chat[0])
	sameJSON(t, b, json.RawMessage(`{"type":"function","function":{"name":"tool_0","description":"d","parameters":`+closedSchema+`,"strict":false}}`))
	want := "129 tools in one request: OpenAI takes at most 128; send a subset of the tools"
	if _, err := OpenAIResponsesTools(providerTools(129, true, closedSchema)); err == nil || err.Error() != want {
		t.Fatalf("129 Responses tools: %v, want %q", err, want)
	}
	if _, err := OpenAIChatTools(providerTools(129, true, closedSchema)); err == nil || err.Error() != want {
		t.Fatalf("129 Chat Completions tools: %v, want %q", err, want)
	}
}
