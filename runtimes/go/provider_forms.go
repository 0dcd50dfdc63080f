//aitools:inline providers

package aitools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
)

// generatedForms is one entry of toolProviderForms: the Parameters the
// generated tool was declared with, and its provider forms as JSON text.
// The forms belong to that tool only: an AgentTool with the same name but
// other Parameters (written or changed by hand) has none.
type generatedForms struct {
	parameters json.RawMessage
	forms      string
}

// providerForms is one tool's entry of toolProviderForms: each provider's
// form of its schema, computed by the generator (docs/compat.md, "What
// providers accept"). A form left out (nil) is the tool's Parameters;
// GeminiParameters is "null" for a declaration without parameters.
type providerForms struct {
	OpenAI                json.RawMessage       `json:"openai"`
	Anthropic             json.RawMessage       `json:"anthropic"`
	AnthropicStrict       json.RawMessage       `json:"anthropicStrict"`
	AnthropicStrictCounts anthropicStrictCounts `json:"anthropicStrictCounts"`
	Gemini                json.RawMessage       `json:"gemini"`
	GeminiParameters      json.RawMessage       `json:"geminiParameters"`
}

// anthropicStrictCounts is what a strict tool adds to the limits of
// Anthropic strict tool use: its optional parameters and those with a
// union type, at every depth.
type anthropicStrictCounts struct {
	Optional int `json:"optional"`
	Unions   int `json:"unions"`
}

// parsedProviderForms holds the entries of toolProviderForms parsed so far,
// by tool name (each is parsed once, when first asked for).
var parsedProviderForms = &sync.Map{}

// formsOf returns the generated provider forms of a tool; nil for a tool
// the file does not generate (an AgentTool written by hand, even under a
// generated tool's name: its Parameters are not the generated ones).
func formsOf(tool AgentTool) (*providerForms, error) {
	entry, ok := toolProviderForms[tool.Name]
	if !ok || !bytes.Equal(tool.Parameters, entry.parameters) {
		return nil, nil
	}
	if f, ok := parsedProviderForms.Load(tool.Name); ok {
		return f.(*providerForms), nil
	}
	f := &providerForms{}
	if err := json.Unmarshal([]byte(entry.forms), f); err != nil {
		return nil, fmt.Errorf("tool %q: its generated provider forms are not valid JSON (%w): generate the file again with protoc-gen-ai-tools", tool.Name, err)
	}
	parsedProviderForms.Store(tool.Name, f)
	return f, nil
}

// formOr returns form, or the tool's Parameters when form is absent.
func formOr(form json.RawMessage, tool AgentTool) json.RawMessage {
	if form == nil {
		return tool.Parameters
	}
	return form
}

// noProviderForms is the error for a tool asked for a form only the
// generator computes.
func noProviderForms(tool AgentTool) error {
	return fmt.Errorf("tool %q has no generated provider forms: generate it with protoc-gen-ai-tools", tool.Name)
}
