//aitools:inline toolsearch

package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

//aitools:if executors

// Each provider's deferred request (docs/tool-search.md, "Provider
// requests"), and the limits each provider counts, refused before sending
// as the functions of providers.go do ("Limits").

// AnthropicMaxToolSearchTools is the number of tools, deferred or not,
// Anthropic tool search takes in one request (its catalog limit).
const AnthropicMaxToolSearchTools = 10000

// OpenAINamespaceFunction is a function of an OpenAI Responses namespace,
// deferred: its schema loads only when tool search finds it.
type OpenAINamespaceFunction struct {
	OpenAIResponsesTool
	DeferLoading bool `json:"defer_loading"`
}

// OpenAINamespaceTool is an OpenAI Responses namespace: the model sees its
// name and description until a tool search loads its functions.
type OpenAINamespaceTool struct {
	Type        string                    `json:"type"`
	Name        string                    `json:"name"`
	Description string                    `json:"description"`
	Tools       []OpenAINamespaceFunction `json:"tools"`
}

// OpenAIToolSearchTool is OpenAI's tool search: hosted (Type only), or run
// by the application (Execution "client", with the description and
// parameters of the model's search call).
type OpenAIToolSearchTool struct {
	Type        string          `json:"type"`
	Execution   string          `json:"execution,omitempty"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// OpenAIToolSearchOutput is the answer to the model's client tool search
// call, an input item: the found functions, grouped in their namespaces.
type OpenAIToolSearchOutput struct {
	Type      string                `json:"type"`
	CallID    string                `json:"call_id"`
	Execution string                `json:"execution"`
	Status    string                `json:"status"`
	Tools     []OpenAINamespaceTool `json:"tools"`
}

// AnthropicDeferredTool is a client tool of a deferred Anthropic request:
// left out of the context until tool search finds it (DeferLoading), or
// always loaded.
type AnthropicDeferredTool struct {
	AnthropicTool
	DeferLoading bool `json:"defer_loading,omitempty"`
}

// AnthropicToolSearchTool is Anthropic's server tool search (BM25 or
// regex).
type AnthropicToolSearchTool struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// AnthropicToolResultBlock is a content block of the tool_result answering
// a client-side tool search: a found tool (Type "tool_reference"), or a
// text saying that nothing was found (Type "text").
type AnthropicToolResultBlock struct {
	Type     string `json:"type"`
	ToolName string `json:"tool_name,omitempty"`
	Text     string `json:"text,omitempty"`
}

// OpenAIDeferredOptions says which tool search an OpenAI Responses request
// carries.
type OpenAIDeferredOptions struct {
	// Search is "hosted" (OpenAI searches) or "client" (the model asks the
	// application: answer with OpenAIToolSearchOutput).
	Search string
}

// AnthropicDeferredOptions says which tool search an Anthropic request
// carries, and whether it uses strict tool use.
type AnthropicDeferredOptions struct {
	// Search is Anthropic's server search ("bm25", "regex"), or "client":
	// search_tools, answered with AnthropicToolReferences.
	Search string
	// Strict sends "strict": true for the strict tools: every strict tool
	// of the request counts toward Anthropic's limits, deferred or not (20
	// at most).
	Strict bool
}

// OpenAIResponses returns the tools of an OpenAI Responses request
// (gpt-5.4 and later): the always-loaded tools (OpenAIResponsesTool), each
// namespace with its other functions deferred (OpenAINamespaceTool), then
// the tool_search tool (OpenAIToolSearchTool). The same every turn (OpenAI
// keeps what a search loaded in the conversation's items); more than
// OpenAIMaxTools top-level items are refused.
func (d *DeferredTools) OpenAIResponses(ctx context.Context, handle string, opts OpenAIDeferredOptions) ([]any, error) {
	search := OpenAIToolSearchTool{Type: "tool_search"}
	switch opts.Search {
	case "hosted":
	case "client":
		search.Execution = "client"
		search.Description = "Search the functions of the namespaces above by what they do; the best matches are loaded."
		search.Parameters = SearchParameters(d.limit, false)
	default:
		return nil, fmt.Errorf("OpenAIResponses: search %s is not \"hosted\" or \"client\"", quote(opts.Search))
	}
	namespaces, err := d.namespaceTools()
	if err != nil {
		return nil, err
	}
	for _, ns := range namespaces {
		if d.always[ns.Name] {
			return nil, fmt.Errorf("namespace %s has the name of an always-loaded tool: OpenAI could not tell them apart; load another tool always", quote(ns.Name))
		}
	}
	if n := len(d.alwaysLoaded) + len(namespaces) + 1; n > OpenAIMaxTools {
		return nil, fmt.Errorf("%d top-level tools in one request (%d always loaded, %d namespaces, the tool_search tool): OpenAI takes at most %d; load fewer tools always, or split the API into several tool sets (fewer services per generated file)", n, len(d.alwaysLoaded), len(namespaces), OpenAIMaxTools)
	}
	always, err := OpenAIResponsesTools(d.alwaysLoaded)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(always)+len(namespaces)+1)
	for _, t := range always {
		out = append(out, t)
	}
	for _, ns := range namespaces {
		out = append(out, ns)
	}
	return append(out, search), nil
}

// namespaceTools returns the namespaces with their deferred functions
// (always-loaded ones left out, and namespaces left empty).
func (d *DeferredTools) namespaceTools() ([]OpenAINamespaceTool, error) {
	var out []OpenAINamespaceTool
	for _, ns := range d.data.Namespaces {
		var tools []OpenAINamespaceFunction
		for _, f := range ns.Tools {
			if d.always[f.Tool] {
				continue
			}
			fn, err := openAINamespaceFunction(d.byName[f.Tool], f.Function)
			if err != nil {
				return nil, err
			}
			tools = append(tools, fn)
		}
		if len(tools) > 0 {
			out = append(out, OpenAINamespaceTool{Type: "namespace", Name: ns.Name, Description: ns.Description, Tools: tools})
		}
	}
	return out, nil
}

// openAINamespaceFunction is the tool as a deferred function of its
// namespace, named function there.
func openAINamespaceFunction(t AgentTool, function string) (OpenAINamespaceFunction, error) {
	tools, err := OpenAIResponsesTools([]AgentTool{t})
	if err != nil {
		return OpenAINamespaceFunction{}, err
	}
	f := OpenAINamespaceFunction{OpenAIResponsesTool: tools[0], DeferLoading: true}
	f.Name = function
	return f, nil
}

// OpenAIChat returns the tools of an OpenAI Chat Completions request: the
// always-loaded tools, search_tools, then the loaded ones in load order (a
// load only appends: the prefix a provider caches stays the same); more
// than OpenAIMaxTools are refused.
func (d *DeferredTools) OpenAIChat(ctx context.Context, handle string) ([]OpenAIChatTool, error) {
	tools, err := d.requestTools(ctx, handle)
	if err != nil {
		return nil, err
	}
	if err := checkLoadedRequest(len(tools), OpenAIMaxTools, "tools", "OpenAI"); err != nil {
		return nil, err
	}
	return OpenAIChatTools(tools)
}

// Gemini returns the function declarations of a Gemini request: the same
// functions as OpenAIChat, each schema as GeminiFunctionDeclarations
// writes it (with openAPI, in Gemini's OpenAPI subset); more than
// GeminiMaxFunctionDeclarations are refused.
func (d *DeferredTools) Gemini(ctx context.Context, handle string, openAPI bool) ([]GeminiFunctionDeclaration, error) {
	tools, err := d.requestTools(ctx, handle)
	if err != nil {
		return nil, err
	}
	if err := checkLoadedRequest(len(tools), GeminiMaxFunctionDeclarations, "function declarations", "Gemini"); err != nil {
		return nil, err
	}
	at := len(d.alwaysLoaded) // search_tools' place
	out, err := GeminiFunctionDeclarations(append(append([]AgentTool{}, tools[:at]...), tools[at+1:]...), openAPI)
	if err != nil {
		return nil, err
	}
	search := GeminiFunctionDeclaration{Name: SearchToolsName, Description: d.searchTool.Description, ParametersJSONSchema: d.searchTool.Parameters}
	if openAPI {
		search.ParametersJSONSchema, search.Parameters = nil, SearchParameters(d.limit, true)
	}
	return append(out[:at], append([]GeminiFunctionDeclaration{search}, out[at:]...)...), nil
}

// checkLoadedRequest refuses a Chat Completions or Gemini request over its
// provider's limit: the loaded tools make it, so the fix is a lower
// MaxLoaded too.
func checkLoadedRequest(count, limit int, what, provider string) error {
	if count > limit {
		return fmt.Errorf("%d %s in one request: %s takes at most %d; send a subset of the tools, or lower MaxLoaded", count, what, provider, limit)
	}
	return nil
}

// requestTools are the tools of a request without deferral: always
// loaded, then search_tools, then loaded in load order.
func (d *DeferredTools) requestTools(ctx context.Context, handle string) ([]AgentTool, error) {
	loaded, err := d.Loaded(ctx, handle)
	if err != nil {
		return nil, err
	}
	tools := append(append([]AgentTool{}, d.alwaysLoaded...), d.searchTool)
	for _, name := range loaded {
		if t, ok := d.byName[name]; ok && !d.always[name] {
			tools = append(tools, t)
		}
	}
	return tools, nil
}

// Anthropic returns the tools of an Anthropic request: the always-loaded
// tools, every other tool with defer_loading (AnthropicDeferredTool), then
// the search tool (AnthropicToolSearchTool, or for "client" search_tools,
// not deferred). The same every turn (Anthropic expands the tool_reference
// blocks of the history); more than AnthropicMaxToolSearchTools are
// refused.
func (d *DeferredTools) Anthropic(ctx context.Context, handle string, opts AnthropicDeferredOptions) ([]any, error) {
	var server *AnthropicToolSearchTool
	switch opts.Search {
	case "bm25":
		server = &AnthropicToolSearchTool{Type: "tool_search_tool_bm25_20251119", Name: "tool_search_tool_bm25"}
	case "regex":
		server = &AnthropicToolSearchTool{Type: "tool_search_tool_regex_20251119", Name: "tool_search_tool_regex"}
	case "client":
	default:
		return nil, fmt.Errorf("Anthropic: search %s is not \"bm25\", \"regex\" or \"client\"", quote(opts.Search))
	}
	tools := append([]AgentTool{}, d.alwaysLoaded...)
	for _, t := range d.tools {
		if !d.always[t.Name] {
			tools = append(tools, t)
		}
	}
	if server == nil {
		tools = append(tools, d.searchTool)
	}
	count := len(tools)
	if server != nil {
		count++
	}
	if count > AnthropicMaxToolSearchTools {
		return nil, fmt.Errorf("%d tools in one request: Anthropic tool search takes at most %d; send a subset of the tools", count, AnthropicMaxToolSearchTools)
	}
	converted, err := AnthropicTools(tools, opts.Strict)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, count)
	for _, t := range converted {
		out = append(out, AnthropicDeferredTool{AnthropicTool: t, DeferLoading: !d.always[t.Name] && t.Name != SearchToolsName})
	}
	if server != nil {
		out = append(out, *server)
	}
	return out, nil
}

// searchToolOf is the search_tools function, its description naming each
// namespace with the first line of its description.
func searchToolOf(namespaces []ToolNamespace, defaultLimit int) AgentTool {
	listed := make([]string, len(namespaces))
	for i, ns := range namespaces {
		line, _, _ := strings.Cut(ns.Description, "\n")
		listed[i] = ns.Name + " (" + strings.TrimSpace(line) + ")"
	}
	return AgentTool{
		Name:        SearchToolsName,
		Description: "Search this API's tools by what they do and load the best matches: a loaded tool can be called from the next turn on. Searchable: " + strings.Join(listed, "; ") + ".",
		Parameters:  SearchParameters(defaultLimit, false),
	}
}

//aitools:end
