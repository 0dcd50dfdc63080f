//aitools:inline toolsearch

package aitools

import (
	"encoding/json"
	"fmt"
	"strings"
)

//aitools:if executors

// The search tool's contract, one for the deferred tools (the search call
// of every provider) and the MCP search-first search_tools
// (docs/tool-search.md, "The search tool"): its name, its input schema and
// the reading of its arguments, the same in the TypeScript and Python
// runtimes (runtimes/ts/src/search-arguments.ts).

// SearchToolsName is the name of the search tool a model calls.
const SearchToolsName = "search_tools"

// MaxSearchLimit is the most tools one search may find (and load).
const MaxSearchLimit = 20

// DefaultSearchLimit is how many tools a search finds when neither the
// model nor the options say.
const DefaultSearchLimit = 5

// SearchArguments are the arguments of a search call, as
// ParseSearchArguments reads them.
type SearchArguments struct {
	// Query is what the model searches for.
	Query string
	// Limit is how many tools to find (1 to MaxSearchLimit), 0 when the
	// model did not say.
	Limit int
}

// SearchParameters returns the search tool's input schema (JSON Schema),
// its limit saying defaultLimit (what a search finds when the model gives
// none). openAPI leaves additionalProperties out (Gemini's OpenAPI form).
func SearchParameters(defaultLimit int, openAPI bool) json.RawMessage {
	closed := `,"additionalProperties":false`
	if openAPI {
		closed = ""
	}
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words."},"limit":{"type":"integer","minimum":1,"maximum":%d,"description":"The most tools to find; %d by default."}},"required":["query"]%s}`, MaxSearchLimit, defaultLimit, closed))
}

// ParseSearchArguments reads the arguments of a search call: the JSON text
// of an object, as a provider sends it (a function call's arguments,
// decoded once; a JSON string, arguments encoded twice, is refused as
// TypeScript and Python refuse it). Anything else, an unknown key, a query
// that is no string or a limit that is no whole number from 1 to
// MaxSearchLimit is the model's mistake: a ToolError "invalid-arguments"
// ("invalid arguments, nothing was sent:" and one line per violation,
// docs/runtime.md "Errors").
func ParseSearchArguments(text string) (SearchArguments, error) {
	v, ok := decodeJSON(text)
	if !ok {
		return SearchArguments{}, searchArgumentsError([]Violation{{Reason: "invalid-json", Message: errInvalidJSON.Error()}})
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return SearchArguments{}, searchArgumentsError([]Violation{{Reason: "not-an-object", Message: "expected a JSON object, got " + jsonKind(v)}})
	}
	violations := unknownFields(text, "query", "limit")
	var out SearchArguments
	switch q := obj["query"].(type) {
	case string:
		out.Query = q
	case nil:
		violations = append(violations, Violation{Field: "query", Reason: "required", Message: "missing required field"})
	default:
		violations = append(violations, Violation{Field: "query", Reason: "invalid-value", Message: "must be a string"})
	}
	if l := obj["limit"]; l != nil {
		n, isNumber := l.(json.Number)
		f, err := n.Float64()
		if !isNumber || err != nil || f < 1 || f > MaxSearchLimit || f != float64(int(f)) {
			violations = append(violations, limitViolation())
		} else {
			out.Limit = int(f)
		}
	}
	if len(violations) > 0 {
		return SearchArguments{}, searchArgumentsError(violations)
	}
	return out, nil
}

// notInSearchData is the refusal of a tool the tool-search data does not
// name and that is not always loaded (no search could find it), one text
// for the deferred tools and MCP search-first.
func notInSearchData(tool string) string {
	return fmt.Sprintf("tool %s is served but not in the tool-search data: generate its file with tool_search=true and pass that file's data, or list it in AlwaysLoaded", quote(tool))
}

// limitViolation is the violation of a limit that is no whole number from
// 1 to MaxSearchLimit.
func limitViolation() Violation {
	return Violation{Field: "limit", Reason: "invalid-value", Message: fmt.Sprintf("must be a whole number from 1 to %d", MaxSearchLimit)}
}

// searchArgumentsError is the ToolError of search arguments the model got
// wrong.
func searchArgumentsError(vs []Violation) *ToolError {
	return (&Executor{}).refuse("invalid-arguments", vs, nil)
}

//aitools:end

// unknownFields is a violation per key of the JSON object text that is not
// in known, in the text's order: the one unknown-field rule of the search
// tool and the MCP meta tools.
func unknownFields(text string, known ...string) []Violation {
	var violations []Violation
	dec := json.NewDecoder(strings.NewReader(text))
	_, _ = dec.Token() // {
	for dec.More() {
		key, _ := dec.Token()
		var skip json.RawMessage
		_ = dec.Decode(&skip)
		k, _ := key.(string)
		if !isKnownField(known, k) {
			violations = append(violations, Violation{Field: k, Reason: "unknown-field", Message: "unknown field; valid fields: " + strings.Join(known, ", ")})
		}
	}
	return violations
}

func isKnownField(known []string, key string) bool {
	for _, k := range known {
		if k == key {
			return true
		}
	}
	return false
}
