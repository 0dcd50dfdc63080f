package gentools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The provider functions on the case's own tools and generated forms
// (docs/compat.md, "What providers accept" and "$defs and $ref"): every
// tool goes out in every form; recursion is a $ref where the provider takes
// it (a loose tool's Parameters, OpenAI and Anthropic without strict) and
// stopped where it does not (Anthropic strict, Gemini).

// recursive reports whether a schema has a $ref cycle: a $ref to the root,
// or an entry of $defs that leads back to itself.
func recursive(schema json.RawMessage) bool {
	if bytes.Contains(schema, []byte(`"$ref":"#"`)) {
		return true
	}
	var root struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &root) != nil {
		return false
	}
	refs := map[string][]string{}
	for name, def := range root.Defs {
		for _, part := range strings.Split(string(def), `"$ref":"#/$defs/`)[1:] {
			refs[name] = append(refs[name], part[:strings.IndexByte(part, '"')])
		}
	}
	var reaches func(from, to string, seen map[string]bool) bool
	reaches = func(from, to string, seen map[string]bool) bool {
		for _, next := range refs[from] {
			if next == to {
				return true
			}
			if !seen[next] {
				seen[next] = true
				if reaches(next, to, seen) {
					return true
				}
			}
		}
		return false
	}
	for name := range root.Defs {
		if reaches(name, name, map[string]bool{}) {
			return true
		}
	}
	return false
}

func TestProviderFormsOfEveryTool(t *testing.T) {
	for _, tool := range AllTools() {
		t.Run(tool.Name, func(t *testing.T) {
			one := []AgentTool{tool}
			chat, err := OpenAIChatTools(one)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := AnthropicTools(one, false)
			if err != nil {
				t.Fatal(err)
			}
			gemini, err := GeminiFunctionDeclarations(one, false)
			if err != nil {
				t.Fatal(err)
			}
			openAPI, err := GeminiFunctionDeclarations(one, true)
			if err != nil {
				t.Fatal(err)
			}
			if recursive(openAPI[0].Parameters) {
				t.Errorf("gemini parameters are recursive: %s", openAPI[0].Parameters)
			}
			if !tool.Strict {
				for _, s := range []json.RawMessage{chat[0].Function.Parameters, plain[0].InputSchema, gemini[0].ParametersJSONSchema} {
					if !bytes.Equal(s, tool.Parameters) {
						t.Errorf("a loose tool goes out with another schema than Parameters: %s", s)
					}
				}
				return
			}
			if recursive(tool.Parameters) || recursive(gemini[0].ParametersJSONSchema) {
				t.Errorf("a strict tool's Parameters or Gemini form is recursive")
			}
			if recursive(chat[0].Function.Parameters) != recursive(plain[0].InputSchema) {
				t.Errorf("OpenAI and Anthropic disagree on recursion:\n%s\n%s", chat[0].Function.Parameters, plain[0].InputSchema)
			}
			strict, err := AnthropicTools(one, true)
			if err != nil && strings.Contains(err.Error(), "Anthropic strict tool use takes at most") {
				return // one tool over the per-request limits: refused, as Anthropic would
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strict[0].Strict || recursive(strict[0].InputSchema) {
				t.Errorf("anthropic strict: %v %s", strict[0].Strict, strict[0].InputSchema)
			}
		})
	}
}

func TestRecursionWhereProvidersTakeIt(t *testing.T) {
	byName := map[string]AgentTool{}
	for _, tool := range AllTools() {
		byName[tool.Name] = tool
	}
	for _, name := range []string{"tree_loose", "recursion_loose"} {
		if !recursive(byName[name].Parameters) {
			t.Errorf("%s: Parameters not recursive: %s", name, byName[name].Parameters)
		}
	}
	for _, name := range []string{"tree_strict", "recursion_strict"} {
		chat, err := OpenAIChatTools([]AgentTool{byName[name]})
		if err != nil {
			t.Fatal(err)
		}
		if !recursive(chat[0].Function.Parameters) || !chat[0].Function.Strict {
			t.Errorf("%s: OpenAI strict form not recursive: %s", name, chat[0].Function.Parameters)
		}
	}
}
