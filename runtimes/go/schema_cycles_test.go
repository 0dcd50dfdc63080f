package aitools

import (
	"strings"
	"testing"
)

// A compact strict tool generated with providers=openai keeps its
// recursion: the cycle passes through required properties.
const recursiveSchema = `{"$defs":{"t.v1.Folder":{"type":"object","properties":{"name":{"type":"string"},"parent":{"anyOf":[{"$ref":"#/$defs/t.v1.Folder"},{"type":"null"}]}},"required":["name","parent"],"additionalProperties":false}},"type":"object","properties":{"root":{"$ref":"#/$defs/t.v1.Folder"}},"required":["root"],"additionalProperties":false}`

// The same cycle through a property that is not required.
const looseRecursiveSchema = `{"$defs":{"t.v1.Folder":{"type":"object","properties":{"name":{"type":"string"},"parent":{"$ref":"#/$defs/t.v1.Folder"}},"required":["name"]}},"type":"object","properties":{"root":{"$ref":"#/$defs/t.v1.Folder"}},"required":["root"]}`

func TestRecursiveSchemaAnthropicStrict(t *testing.T) {
	_, err := AnthropicTools(providerTools(1, true, recursiveSchema), true)
	want := `tool "tool_0": the schema is recursive (a $ref cycle through "#/$defs/t.v1.Folder"), which Anthropic strict tool use refuses; send the tool without strict, or generate it with providers=anthropic (recursion then stops at an empty object)`
	if err == nil || err.Error() != want {
		t.Fatalf("strict: %v, want %q", err, want)
	}
	// Without strict, Anthropic takes recursion through $ref.
	plain, err := AnthropicTools(providerTools(1, true, recursiveSchema), false)
	if err != nil || string(plain[0].InputSchema) != recursiveSchema {
		t.Fatalf("plain: %v", err)
	}
	if _, err := AnthropicStrictSchema([]byte(looseRecursiveSchema)); err == nil || !strings.Contains(err.Error(), "the schema is recursive") {
		t.Fatalf("loose recursion in the strict form: %v", err)
	}
}

func TestRecursiveSchemaGemini(t *testing.T) {
	_, err := GeminiFunctionDeclarations(providerTools(1, true, recursiveSchema), false)
	if err == nil || !strings.Contains(err.Error(), `tool "tool_0": the schema has a $ref cycle through required properties ("#/$defs/t.v1.Folder"), which Gemini refuses`) {
		t.Fatalf("parametersJsonSchema: %v", err)
	}
	openAPI, err := GeminiFunctionDeclarations(providerTools(1, true, recursiveSchema), true)
	if err != nil || strings.Contains(string(openAPI[0].Parameters), "$ref") {
		t.Fatalf("parameters: %s, %v", openAPI[0].Parameters, err)
	}
	loose, err := GeminiFunctionDeclarations(providerTools(1, false, looseRecursiveSchema), false)
	if err != nil || string(loose[0].ParametersJSONSchema) != looseRecursiveSchema {
		t.Fatalf("a cycle through a property not required: %v", err)
	}
}
