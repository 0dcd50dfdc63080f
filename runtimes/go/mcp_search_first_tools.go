//aitools:inline mcp

package aitools

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//aitools:if toolsearch

// The meta tools of a search-first tool set (docs/mcp.md, "Search-first
// tool sets"): their listings and the reading of their arguments, the same
// texts in every language.

// The meta tools' names, and the largest and default number of tools a
// search finds: the search tool's (search_arguments.go).
const (
	searchToolsName    = SearchToolsName
	callToolName       = "call_tool"
	searchFirstMax     = MaxSearchLimit
	searchFirstDefault = DefaultSearchLimit
)

// searchTool is search_tools' listing: stateless, the tools found come
// with their input schemas for call_tool. Its description names the groups
// (namespaces) of the tools served. f.mu is held, or f is being set up.
func (f *mcpSearchFirst) searchTool(stateless bool) *mcp.Tool {
	if f.search == nil {
		f.search = map[bool]*mcp.Tool{}
	}
	if t := f.search[stateless]; t != nil {
		return t
	}
	then := "The tools found are added to your tool list: call them as any other tool."
	item := `{"type":"object","properties":{"name":{"type":"string"},"description":{"type":"string"}},"required":["name","description"]}`
	if stateless {
		then = "Each tool found comes with its input schema: call it with " + callToolName + "."
		item = `{"type":"object","properties":{"name":{"type":"string"},"description":{"type":"string"},"inputSchema":{"type":"object"}},"required":["name","description","inputSchema"]}`
	}
	var groups strings.Builder
	for _, ns := range f.namespaces {
		for _, t := range ns.Tools {
			if len(f.byName[t.Tool]) > 0 {
				groups.WriteString("\n- " + ns.Name + ": " + ns.Description)
				break
			}
		}
	}
	t := &mcp.Tool{
		Name:         searchToolsName,
		Description:  "Find this server's tools by what you want to do, in a few words. " + then + "\nTool groups:" + groups.String(),
		InputSchema:  SearchParameters(f.limit, false),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"tools":{"type":"array","items":` + item + `}},"required":["tools"]}`),
	}
	f.search[stateless] = t
	return t
}

// callToolDefinition is call_tool's listing.
func callToolDefinition() *mcp.Tool {
	return &mcp.Tool{
		Name:        callToolName,
		Description: "Call a tool that " + searchToolsName + " found, by its name, with its arguments.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The tool's name, as ` + searchToolsName + ` gave it."},"arguments":{"type":"object","description":"The tool's arguments, following its input schema."}},"required":["name"],"additionalProperties":false}`),
	}
}

// searchArguments reads search_tools' arguments with the search tool's
// one reader (ParseSearchArguments): the query, and the limit (def when not
// given); problem is the error text of bad ones. MCP arguments are an
// object (or nothing), never a string holding one.
func searchArguments(raw json.RawMessage, def int) (query string, limit int, problem string) {
	text := strings.TrimSpace(string(raw))
	if text == "" || text == "null" {
		text = "{}"
	}
	if text[0] != '{' {
		_, _, problem = metaArguments(raw)
		return "", 0, problem
	}
	args, err := ParseSearchArguments(text)
	if err != nil {
		return "", 0, err.Error()
	}
	if args.Limit == 0 {
		args.Limit = def
	}
	return args.Query, args.Limit, ""
}

// callArguments reads call_tool's arguments: the tool's name and its
// arguments (JSON, nothing when not given).
func callArguments(raw json.RawMessage) (name string, args json.RawMessage, problem string) {
	parsed, violations, problem := metaArguments(raw, "name", "arguments")
	if problem != "" {
		return "", nil, problem
	}
	name, ok := parsed["name"].(string)
	if !ok {
		violations = append(violations, metaViolation("name", parsed["name"]))
	}
	switch inner := parsed["arguments"].(type) {
	case nil, map[string]any:
	default:
		violations = append(violations, Violation{Field: "arguments", Reason: "invalid-value", Message: "expected a JSON object, got " + jsonKind(inner)})
	}
	if len(violations) > 0 {
		return "", nil, (&Executor{}).refuse("invalid-arguments", violations, nil).Error()
	}
	if parsed["arguments"] != nil {
		var whole struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(raw, &whole)
		args = whole.Arguments
	}
	return name, args, ""
}

// metaArguments decodes the arguments of a meta tool (an object, or
// nothing): their values, and a violation per key not in known, in the
// order given; problem is the error of arguments that are no object.
func metaArguments(raw json.RawMessage, known ...string) (map[string]any, []Violation, string) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return map[string]any{}, nil, ""
	}
	v, _ := decodeJSON(string(raw))
	args, ok := v.(map[string]any)
	if !ok {
		return nil, nil, argumentsError(Violation{Reason: "not-an-object", Message: "expected a JSON object, got " + jsonKind(v)}).Error()
	}
	return args, unknownFields(string(raw), known...), ""
}

// metaViolation is the violation of a meta tool's string argument that is
// missing (or null) or not a string.
func metaViolation(field string, v any) Violation {
	if v == nil {
		return Violation{Field: field, Reason: "required", Message: "missing required field"}
	}
	return Violation{Field: field, Reason: "invalid-value", Message: "must be a string"}
}

//aitools:end
