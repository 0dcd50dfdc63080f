//aitools:inline providers

package aitools

import (
	"encoding/json"
	"fmt"
)

// Each provider's form of the tools, and the limits that hold per request
// (docs/compat.md, "What providers accept"). The functions select the forms
// the generator wrote (toolProviderForms, provider_forms.go) and wrap them;
// none transforms a schema. The TypeScript and Python runtimes have the
// same functions; e2e/vectors/providers/adapters.json pins what they build.

// Limits of one model request, which the functions below refuse to exceed.
const (
	// AnthropicMaxStrictTools is the number of strict tools Anthropic strict
	// tool use takes in one request.
	AnthropicMaxStrictTools = 20
	// AnthropicMaxOptionalParameters is the number of optional parameters
	// across the strict tools of one request.
	AnthropicMaxOptionalParameters = 24
	// AnthropicMaxUnionParameters is the number of parameters with a union
	// type (anyOf, a type list) across the strict tools of one request.
	AnthropicMaxUnionParameters = 16
	// GeminiMaxFunctionDeclarations is the number of function declarations
	// Gemini takes in one request.
	GeminiMaxFunctionDeclarations = 512
	// OpenAIMaxTools is the number of tools OpenAI takes in one request
	// ("maxItems": 128 on "tools" in OpenAI's API description).
	OpenAIMaxTools = 128
)

// OpenAIResponsesTool is a function tool of the OpenAI Responses API.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// OpenAIChatTool is a function tool of the OpenAI Chat Completions API.
type OpenAIChatTool struct {
	Type     string             `json:"type"`
	Function OpenAIChatFunction `json:"function"`
}

// OpenAIChatFunction is the function of an OpenAIChatTool.
type OpenAIChatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// OpenAIResponsesTools returns the tools of one OpenAI Responses API
// request, each with its schema (the generated OpenAI form: with $ref where
// a strict tool's request is recursive) and strict flag. More than
// OpenAIMaxTools is an error, as OpenAI would refuse them.
func OpenAIResponsesTools(tools []AgentTool) ([]OpenAIResponsesTool, error) {
	if err := checkOpenAIRequest(len(tools)); err != nil {
		return nil, err
	}
	out := make([]OpenAIResponsesTool, len(tools))
	for i, t := range tools {
		schema, err := openAIParameters(t)
		if err != nil {
			return nil, err
		}
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: schema, Strict: t.Strict}
	}
	return out, nil
}

// OpenAIChatTools returns the tools of one OpenAI Chat Completions request,
// each with its schema (as OpenAIResponsesTools) and strict flag. More than
// OpenAIMaxTools is an error, as OpenAI would refuse them.
func OpenAIChatTools(tools []AgentTool) ([]OpenAIChatTool, error) {
	if err := checkOpenAIRequest(len(tools)); err != nil {
		return nil, err
	}
	out := make([]OpenAIChatTool, len(tools))
	for i, t := range tools {
		schema, err := openAIParameters(t)
		if err != nil {
			return nil, err
		}
		out[i] = OpenAIChatTool{Type: "function", Function: OpenAIChatFunction{Name: t.Name, Description: t.Description, Parameters: schema, Strict: t.Strict}}
	}
	return out, nil
}

func checkOpenAIRequest(count int) error {
	if count > OpenAIMaxTools {
		return fmt.Errorf("%d tools in one request: OpenAI takes at most %d; send a subset of the tools", count, OpenAIMaxTools)
	}
	return nil
}

// openAIParameters is a tool's OpenAI form, its Parameters for a tool
// without generated forms.
func openAIParameters(t AgentTool) (json.RawMessage, error) {
	forms, err := formsOf(t)
	if err != nil || forms == nil {
		return t.Parameters, err
	}
	return formOr(forms.OpenAI, t), nil
}

// AnthropicTool is a client tool of the Anthropic Messages API.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Strict      bool            `json:"strict,omitempty"`
}

// AnthropicTools returns the tools of one Anthropic request, each with the
// generated Anthropic form of its schema. With strict, the strict tools
// carry "strict": true and the strict form (what Anthropic's SDK makes of
// the schema: the keywords strict tool use does not take moved into the
// description, recursion stopped; Parameters where the generator left it
// out), which only the generator computes: a strict tool written by hand
// is an error. A request over the limits of
// strict tool use (AnthropicMaxStrictTools, AnthropicMaxOptionalParameters,
// AnthropicMaxUnionParameters) is an error, as Anthropic would refuse it.
func AnthropicTools(tools []AgentTool, strict bool) ([]AnthropicTool, error) {
	out := make([]AnthropicTool, 0, len(tools))
	strictTools, total := 0, anthropicStrictCounts{}
	for _, t := range tools {
		forms, err := formsOf(t)
		if err != nil {
			return nil, err
		}
		a := AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.Parameters}
		switch {
		case strict && t.Strict:
			if forms == nil {
				return nil, noProviderForms(t)
			}
			a.InputSchema, a.Strict = formOr(forms.AnthropicStrict, t), true
			strictTools++
			total.Optional += forms.AnthropicStrictCounts.Optional
			total.Unions += forms.AnthropicStrictCounts.Unions
		case forms != nil:
			a.InputSchema = formOr(forms.Anthropic, t)
		}
		out = append(out, a)
	}
	if err := checkAnthropicStrictRequest(strictTools, total); err != nil {
		return nil, err
	}
	return out, nil
}

func checkAnthropicStrictRequest(strictTools int, total anthropicStrictCounts) error {
	for _, limit := range []struct {
		what         string
		count, limit int
	}{
		{"strict tools", strictTools, AnthropicMaxStrictTools},
		{"optional parameters across the strict tools", total.Optional, AnthropicMaxOptionalParameters},
		{"parameters with a union type across the strict tools", total.Unions, AnthropicMaxUnionParameters},
	} {
		if limit.count > limit.limit {
			return fmt.Errorf("%d %s in one request: Anthropic strict tool use takes at most %d; send fewer tools with strict", limit.count, limit.what, limit.limit)
		}
	}
	return nil
}

// GeminiFunctionDeclaration is a function declaration of the Gemini API:
// the schema in ParametersJSONSchema (plain JSON Schema), or in Parameters
// (the OpenAPI subset).
type GeminiFunctionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
	Parameters           json.RawMessage `json:"parameters,omitempty"`
}

// GeminiFunctionDeclarations returns the declarations of one Gemini
// request: the generated Gemini form of each schema as
// parametersJsonSchema, or with openAPI the generated OpenAPI-subset form
// as parameters (a tool left without parameters has none), which only the
// generator computes: a tool written by hand is then an error. More than
// GeminiMaxFunctionDeclarations is an error, as Gemini would refuse them.
func GeminiFunctionDeclarations(tools []AgentTool, openAPI bool) ([]GeminiFunctionDeclaration, error) {
	if len(tools) > GeminiMaxFunctionDeclarations {
		return nil, fmt.Errorf("%d function declarations in one request: Gemini takes at most %d; send a subset of the tools", len(tools), GeminiMaxFunctionDeclarations)
	}
	out := make([]GeminiFunctionDeclaration, 0, len(tools))
	for _, t := range tools {
		forms, err := formsOf(t)
		if err != nil {
			return nil, err
		}
		d := GeminiFunctionDeclaration{Name: t.Name, Description: t.Description}
		switch {
		case !openAPI && forms == nil:
			d.ParametersJSONSchema = t.Parameters
		case !openAPI:
			d.ParametersJSONSchema = formOr(forms.Gemini, t)
		case forms == nil || forms.GeminiParameters == nil:
			return nil, noProviderForms(t)
		case string(forms.GeminiParameters) != "null":
			d.Parameters = forms.GeminiParameters
		}
		out = append(out, d)
	}
	return out, nil
}
