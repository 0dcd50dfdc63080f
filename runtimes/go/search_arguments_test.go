package aitools

import (
	"errors"
	"testing"
)

// TestParseSearchArguments: the search tool's arguments (the shared cases
// are in e2e/vectors/tool-search/requests.json, TestDeferredVectors).
func TestParseSearchArguments(t *testing.T) {
	const head = "invalid arguments, nothing was sent:\n"
	for _, c := range []struct {
		args string
		want SearchArguments
		err  string
	}{
		{`{"query":"shorten a url"}`, SearchArguments{Query: "shorten a url"}, ""},
		{`{"query":"x","limit":3.0}`, SearchArguments{Query: "x", Limit: 3}, ""},
		{`{"query":"x","limit":null}`, SearchArguments{Query: "x"}, ""},
		{`"{\"query\":\"x\"}"`, SearchArguments{}, head + `- expected a JSON object, got a string`},
		{`{"query":"x","limit":NaN}`, SearchArguments{}, head + `- invalid JSON; send the arguments as one JSON object`},
		{`{"query":`, SearchArguments{}, head + `- invalid JSON; send the arguments as one JSON object`},
		{`[1]`, SearchArguments{}, head + `- expected a JSON object, got an array`},
		{`{"z":1,"query":2,"a":3,"limit":1e400}`, SearchArguments{}, head + "- \"z\": unknown field; valid fields: query, limit\n- \"a\": unknown field; valid fields: query, limit\n- \"query\": must be a string\n- \"limit\": must be a whole number from 1 to 20"},
		{`{"query":"x","limit":2.5}`, SearchArguments{}, head + `- "limit": must be a whole number from 1 to 20`},
		{`{"query":"x","limit":true}`, SearchArguments{}, head + `- "limit": must be a whole number from 1 to 20`},
	} {
		got, err := ParseSearchArguments(c.args)
		if c.err == "" {
			if err != nil || got != c.want {
				t.Errorf("ParseSearchArguments(%s) = %v, %v", c.args, got, err)
			}
			continue
		}
		var te *ToolError
		if !errors.As(err, &te) || te.Reason != "invalid-arguments" || te.Message != c.err {
			t.Errorf("ParseSearchArguments(%s): %v\nwant %s", c.args, err, c.err)
		}
	}
	if got := string(SearchParameters(7, true)); got != `{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words."},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"The most tools to find; 7 by default."}},"required":["query"]}` {
		t.Errorf("SearchParameters(7, true) = %s", got)
	}
}
