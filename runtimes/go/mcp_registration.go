//aitools:inline mcp

package aitools

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// Provider names a model provider whose generated schema form a
// registration serves (WithProvider).
type Provider string

// The providers whose forms the generator writes (docs/compat.md, "What
// providers accept").
const (
	ProviderOpenAI    Provider = "openai"    // the OpenAI form (strict mode's)
	ProviderAnthropic Provider = "anthropic" // the Anthropic form (input_schema)
	ProviderGemini    Provider = "gemini"    // the Gemini form (parametersJsonSchema)
)

// WithProvider makes the tools of this registration (one
// Register...Handler or ForwardTo...Client) list the generated form of
// provider p as their input schema instead of their Parameters (docs/mcp.md,
// "Serving a provider's form"); the calls are the same. It applies to that
// registration only, so two registrations on one server may differ.
func WithProvider(p Provider) MCPOption {
	return func(o *mcpOptions) { o.reg.provider, o.reg.given = p, true }
}

// WithNamePrefix names the tools of this registration prefix + "_" + their
// name (protoc-gen-go-mcp's rule), so one service can be registered twice on
// one server, with two clients; an empty prefix adds nothing. It applies to
// that registration only.
func WithNamePrefix(prefix string) MCPOption {
	return func(o *mcpOptions) { o.reg.namePrefix, o.reg.given = prefix, true }
}

// providerStandard is the value protoc-gen-go-mcp gives the default form
// (go_mcp_compat declares it), taken as "" is.
const providerStandard Provider = "standard"

// mcpRegistration is what one registration sets for its own tools only.
type mcpRegistration struct {
	provider   Provider
	namePrefix string
	given      bool // set by WithProvider and WithNamePrefix
}

// mcpMaxToolName is the longest tool name the MCP specification allows.
const mcpMaxToolName = 64

var namePrefixPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// checkProvider panics for a provider the generator writes no form of.
func (r mcpRegistration) checkProvider() {
	switch r.provider {
	case "", providerStandard, ProviderOpenAI, ProviderAnthropic, ProviderGemini:
	default:
		panic(fmt.Sprintf("unknown provider %s: use ProviderOpenAI, ProviderAnthropic or ProviderGemini, or leave WithProvider out for the default form", quote(string(r.provider))))
	}
}

// toolName is the name a tool is served under; a name the prefix makes
// invalid panics, naming the tool.
func (r mcpRegistration) toolName(name string) string {
	if r.namePrefix == "" {
		return name
	}
	served := r.namePrefix + "_" + name
	if !namePrefixPattern.MatchString(r.namePrefix) {
		panic(fmt.Sprintf("name prefix %s of tool %s: use only letters, digits, \"_\" and \"-\" in a name prefix", quote(r.namePrefix), quote(name)))
	}
	if len(served) > mcpMaxToolName {
		panic(fmt.Sprintf("tool %s would be named %s, %d characters, over the %d an MCP tool name takes: use a shorter name prefix", quote(name), quote(served), len(served), mcpMaxToolName))
	}
	return served
}

// parameters is the input schema tool is listed with: its Parameters, or the
// generated form of the registration's provider.
func (r mcpRegistration) parameters(tool AgentTool) json.RawMessage {
	if r.provider == "" || r.provider == providerStandard {
		return tool.Parameters
	}
	forms, err := formsOf(tool)
	if err != nil {
		panic(err.Error())
	}
	if forms == nil {
		p := string(r.provider)
		panic(fmt.Sprintf("provider %s: tool %s has no generated %s form; generate with providers=%s (or without providers=), or register a tool written by hand without a provider", quote(p), quote(tool.Name), quote(p), p))
	}
	switch r.provider {
	case ProviderOpenAI:
		return formOr(forms.OpenAI, tool)
	case ProviderAnthropic:
		return formOr(forms.Anthropic, tool)
	default:
		return formOr(forms.Gemini, tool)
	}
}
