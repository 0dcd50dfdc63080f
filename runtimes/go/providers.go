//aitools:inline providers

package aitools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Each provider's form of the tools, and the limits that hold per request
// (docs/compat.md, "What providers accept"). The TypeScript and Python
// runtimes have the same functions; the shared vectors
// e2e/vectors/providers pin what they derive.

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
// request, each with its schema and strict flag. More than OpenAIMaxTools
// is an error, as OpenAI would refuse them.
func OpenAIResponsesTools(tools []AgentTool) ([]OpenAIResponsesTool, error) {
	if err := checkOpenAIRequest(len(tools)); err != nil {
		return nil, err
	}
	out := make([]OpenAIResponsesTool, len(tools))
	for i, t := range tools {
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict}
	}
	return out, nil
}

// OpenAIChatTools returns the tools of one OpenAI Chat Completions request,
// each with its schema and strict flag. More than OpenAIMaxTools is an
// error, as OpenAI would refuse them.
func OpenAIChatTools(tools []AgentTool) ([]OpenAIChatTool, error) {
	if err := checkOpenAIRequest(len(tools)); err != nil {
		return nil, err
	}
	out := make([]OpenAIChatTool, len(tools))
	for i, t := range tools {
		out[i] = OpenAIChatTool{Type: "function", Function: OpenAIChatFunction{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict}}
	}
	return out, nil
}

func checkOpenAIRequest(count int) error {
	if count > OpenAIMaxTools {
		return fmt.Errorf("%d tools in one request: OpenAI takes at most %d; send a subset of the tools", count, OpenAIMaxTools)
	}
	return nil
}

// AnthropicTool is a client tool of the Anthropic Messages API.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Strict      bool            `json:"strict,omitempty"`
}

// AnthropicTools returns the tools of one Anthropic request. With strict,
// the strict tools carry "strict": true and the schema AnthropicStrictSchema
// derives, and a request over the limits of
// strict tool use (AnthropicMaxStrictTools, AnthropicMaxOptionalParameters,
// AnthropicMaxUnionParameters) is an error, as Anthropic would refuse it.
func AnthropicTools(tools []AgentTool, strict bool) ([]AnthropicTool, error) {
	out := make([]AnthropicTool, 0, len(tools))
	strictTools, optional, unions := 0, 0, 0
	for _, t := range tools {
		a := AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.Parameters, Strict: strict && t.Strict}
		if a.Strict {
			o, u, err := CountAnthropicStrictParameters(t.Parameters)
			if err == nil {
				a.InputSchema, err = AnthropicStrictSchema(t.Parameters)
			}
			if err != nil {
				return nil, fmt.Errorf("tool %q: %w", t.Name, err)
			}
			strictTools, optional, unions = strictTools+1, optional+o, unions+u
		}
		out = append(out, a)
	}
	for _, limit := range []struct {
		what         string
		count, limit int
	}{
		{"strict tools", strictTools, AnthropicMaxStrictTools},
		{"optional parameters across the strict tools", optional, AnthropicMaxOptionalParameters},
		{"parameters with a union type across the strict tools", unions, AnthropicMaxUnionParameters},
	} {
		if limit.count > limit.limit {
			return nil, fmt.Errorf("%d %s in one request: Anthropic strict tool use takes at most %d; send fewer tools with strict", limit.count, limit.what, limit.limit)
		}
	}
	return out, nil
}

// AnthropicStrictSchema derives the form of a strict schema that Anthropic
// strict tool use takes, as Anthropic's SDK does: every object closed
// ("additionalProperties": false), and what strict tool use does not take
// (numeric bounds, string lengths, maxItems, a minItems over 1, a format
// outside its list, ...) moved into the description as "(key: value, ...)",
// keys sorted, values as compact JSON. A recursive schema (a $ref cycle: a
// compact strict tool generated with providers=openai) is an error, since
// strict tool use takes no recursion.
func AnthropicStrictSchema(schema json.RawMessage) (json.RawMessage, error) {
	root, err := providerSchema(schema)
	if err != nil {
		return nil, err
	}
	if cycle := providerRefCycle(root, false); cycle != "" {
		return nil, fmt.Errorf("the schema is recursive (a $ref cycle through %q), which Anthropic strict tool use refuses; send the tool without strict, or generate it with providers=anthropic (recursion then stops at an empty object)", cycle)
	}
	return providerJSON(anthropicStrictNode(root))
}

var anthropicStrictFormats = map[string]bool{"date-time": true, "time": true, "date": true, "duration": true, "email": true, "hostname": true, "uri": true, "ipv4": true, "ipv6": true, "uuid": true}

var anthropicStrictKept = map[string]bool{"type": true, "title": true, "description": true, "properties": true, "required": true, "items": true, "enum": true, "const": true, "anyOf": true, "allOf": true, "pattern": true, "$ref": true, "$defs": true}

func anthropicStrictNode(node any) any {
	obj, ok := node.(map[string]any)
	if !ok {
		return node
	}
	out := map[string]any{}
	moved := map[string]any{}
	for key, value := range obj {
		switch {
		case key == "properties" || key == "$defs":
			if m, ok := value.(map[string]any); ok {
				derived := make(map[string]any, len(m))
				for k, v := range m {
					derived[k] = anthropicStrictNode(v)
				}
				value = derived
			}
			out[key] = value
		case key == "items":
			out[key] = anthropicStrictNode(value)
		case key == "anyOf" || key == "allOf":
			if list, ok := value.([]any); ok {
				derived := make([]any, len(list))
				for i, v := range list {
					derived[i] = anthropicStrictNode(v)
				}
				value = derived
			}
			out[key] = value
		case anthropicStrictKept[key]:
			out[key] = value
		case key == "format" && anthropicStrictFormats[fmt.Sprint(value)]:
			out[key] = value
		case key == "minItems" && (value == json.Number("0") || value == json.Number("1")):
			out[key] = value
		case key == "additionalProperties" && value == false:
		default:
			moved[key] = value
		}
	}
	types, _ := obj["type"].([]any)
	_, hasProperties := obj["properties"]
	if obj["type"] == "object" || containsValue(types, "object") || hasProperties {
		out["additionalProperties"] = false
	}
	if len(moved) > 0 {
		keys := make([]string, 0, len(moved))
		for k := range moved {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			text, _ := providerJSON(moved[k])
			parts[i] = k + ": " + string(text)
		}
		text := "(" + strings.Join(parts, ", ") + ")"
		if d, ok := out["description"].(string); ok && d != "" {
			text = d + " " + text
		}
		out["description"] = text
	}
	return out
}

// CountAnthropicStrictParameters counts a schema's properties, at every
// depth, that their object does not require (optional) and whose schema is
// an anyOf or a type list (unions): what a strict tool adds to a request's
// limits.
func CountAnthropicStrictParameters(schema json.RawMessage) (optional, unions int, err error) {
	root, err := providerSchema(schema)
	if err != nil {
		return 0, 0, err
	}
	var walk func(node any)
	walk = func(node any) {
		obj, ok := node.(map[string]any)
		if !ok {
			return
		}
		if props, ok := obj["properties"].(map[string]any); ok {
			required, _ := obj["required"].([]any)
			for name, sub := range props {
				if !containsValue(required, name) {
					optional++
				}
				if s, ok := sub.(map[string]any); ok {
					if _, isList := s["type"].([]any); isList || s["anyOf"] != nil {
						unions++
					}
				}
				walk(sub)
			}
		}
		walk(obj["items"])
		branches, _ := obj["anyOf"].([]any)
		for _, b := range branches {
			walk(b)
		}
		defs, _ := obj["$defs"].(map[string]any)
		for _, d := range defs {
			walk(d)
		}
	}
	walk(root)
	return optional, unions, nil
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
// request: the generated schemas as parametersJsonSchema, or with openAPI
// the form GeminiParameters derives (a tool left without parameters has
// none). More than GeminiMaxFunctionDeclarations is an error, as Gemini
// would refuse them, and so is, without openAPI, a schema with a $ref cycle
// through required properties (a compact strict tool generated with
// providers=openai); the openAPI form leaves the recursion out.
func GeminiFunctionDeclarations(tools []AgentTool, openAPI bool) ([]GeminiFunctionDeclaration, error) {
	if len(tools) > GeminiMaxFunctionDeclarations {
		return nil, fmt.Errorf("%d function declarations in one request: Gemini takes at most %d; send a subset of the tools", len(tools), GeminiMaxFunctionDeclarations)
	}
	out := make([]GeminiFunctionDeclaration, 0, len(tools))
	for _, t := range tools {
		d := GeminiFunctionDeclaration{Name: t.Name, Description: t.Description}
		if openAPI {
			p, err := GeminiParameters(t.Parameters)
			if err != nil {
				return nil, fmt.Errorf("tool %q: %w", t.Name, err)
			}
			d.Parameters = p
		} else {
			root, err := providerSchema(t.Parameters)
			if err != nil {
				return nil, fmt.Errorf("tool %q: %w", t.Name, err)
			}
			if cycle := providerRefCycle(root, true); cycle != "" {
				return nil, fmt.Errorf("tool %q: the schema has a $ref cycle through required properties (%q), which Gemini refuses (a cycle only through properties that are not required; nullable is not enough); use openAPI, which leaves the recursion out, or generate the tool with providers=gemini", t.Name, cycle)
			}
			d.ParametersJSONSchema = t.Parameters
		}
		out = append(out, d)
	}
	return out, nil
}

// GeminiParameters derives Gemini's OpenAPI-subset parameters from a
// generated schema; nil when no parameter remains. $refs are inlined (a
// referring description wins) and recursion left out; a null branch or a
// type list with null becomes "nullable": true; objects keep properties and
// required, strings format, pattern, lengths and enum (a string const as a
// one-value enum), numbers format, minimum and maximum, arrays items,
// minItems and maxItems, every node title and description; types are the
// API's Type names (STRING, OBJECT, ...). What the subset cannot express (a
// free-form value, an object without properties such as a map, an array of
// such, a lone null, several types) is left out of properties and required.
func GeminiParameters(schema json.RawMessage) (json.RawMessage, error) {
	root, err := providerSchema(schema)
	if err != nil {
		return nil, err
	}
	out := geminiConvert(root, root, []string{"#"})
	if out == nil {
		return nil, nil
	}
	return providerJSON(out)
}

// providerJSON encodes v compactly, object keys sorted, HTML left alone.
func providerJSON(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// providerSchema decodes a schema, numbers kept as written.
func providerSchema(schema json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("schema is not a JSON object: %w", err)
	}
	return root, nil
}

func containsValue(list []any, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func geminiConvert(node any, root map[string]any, stack []string) map[string]any {
	obj, ok := node.(map[string]any)
	if !ok {
		return nil
	}
	if ref, ok := obj["$ref"].(string); ok {
		target := geminiResolve(root, ref)
		for _, s := range stack {
			if s == ref {
				target = nil
			}
		}
		if target == nil {
			return nil
		}
		out := geminiConvert(target, root, append(append([]string(nil), stack...), ref))
		if out == nil {
			return nil
		}
		return geminiAnnotate(out, obj, false)
	}
	if anyOf, ok := obj["anyOf"].([]any); ok {
		var branches []any
		nullable := false
		for _, b := range anyOf {
			if m, ok := b.(map[string]any); ok && m["type"] == "null" {
				nullable = true
				continue
			}
			if c := geminiConvert(b, root, stack); c != nil {
				branches = append(branches, c)
			}
		}
		if len(branches) == 0 {
			return nil
		}
		out := map[string]any{"anyOf": branches}
		if len(branches) == 1 {
			out = branches[0].(map[string]any)
		}
		return geminiAnnotate(out, obj, nullable)
	}
	types, ok := obj["type"].([]any)
	if !ok {
		types = []any{obj["type"]}
	}
	var kinds []string
	nullable := false
	for _, t := range types {
		if t == "null" {
			nullable = true
		} else if s, ok := t.(string); ok {
			kinds = append(kinds, s)
		} else {
			return nil
		}
	}
	if len(kinds) != 1 {
		return nil
	}
	out := geminiConvertTyped(kinds[0], obj, root, stack)
	if out == nil {
		return nil
	}
	return geminiAnnotate(out, obj, nullable)
}

func geminiResolve(root map[string]any, ref string) map[string]any {
	if ref == "#" {
		return root
	}
	defs, _ := root["$defs"].(map[string]any)
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok || defs == nil {
		return nil
	}
	target, _ := defs[strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")].(map[string]any)
	return target
}

func geminiAnnotate(out, from map[string]any, nullable bool) map[string]any {
	result := make(map[string]any, len(out)+2)
	for k, v := range out {
		result[k] = v
	}
	for _, key := range []string{"title", "description"} {
		if s, ok := from[key].(string); ok {
			result[key] = s
		}
	}
	if nullable {
		result["nullable"] = true
	}
	return result
}

func geminiCopy(out, from map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		if v, ok := from[k]; ok {
			out[k] = v
		}
	}
	return out
}

func geminiConvertTyped(kind string, obj, root map[string]any, stack []string) map[string]any {
	switch kind {
	case "object":
		source, _ := obj["properties"].(map[string]any)
		props := map[string]any{}
		for name, sub := range source {
			if c := geminiConvert(sub, root, stack); c != nil {
				props[name] = c
			}
		}
		if len(props) == 0 {
			return nil
		}
		out := map[string]any{"type": "OBJECT", "properties": props}
		if required, ok := obj["required"].([]any); ok {
			kept := []any{}
			for _, n := range required {
				if s, ok := n.(string); ok && props[s] != nil {
					kept = append(kept, s)
				}
			}
			out["required"] = kept
		}
		return out
	case "array":
		items := geminiConvert(obj["items"], root, stack)
		if items == nil {
			return nil
		}
		return geminiCopy(map[string]any{"type": "ARRAY", "items": items}, obj, "minItems", "maxItems")
	case "string":
		out := geminiCopy(map[string]any{"type": "STRING"}, obj, "format", "pattern", "minLength", "maxLength")
		if values, ok := obj["enum"].([]any); ok && allStrings(values) {
			out["enum"] = values
		} else if c, ok := obj["const"].(string); ok {
			out["enum"] = []any{c}
		}
		return out
	case "integer", "number":
		return geminiCopy(map[string]any{"type": strings.ToUpper(kind)}, obj, "format", "minimum", "maximum")
	case "boolean":
		return map[string]any{"type": "BOOLEAN"}
	}
	return nil
}

func allStrings(values []any) bool {
	for _, v := range values {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}
