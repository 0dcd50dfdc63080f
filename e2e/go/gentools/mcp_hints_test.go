package gentools_test

// The MCP hints of every tool as cmd/linkhub-mcp lists them on the wire
// (issue 31, CONTRACT31 H): all four, true or false, from the method's kind
// (Get/List read-only; Create additive; Update, Delete and other methods
// destructive) and its idempotency_level; openWorldHint false, since no
// annotation sets it.

import (
	"encoding/json"
	"slices"
	"testing"

	"example.com/aitools/e2e/gentools"
)

func TestMCPListsEveryHint(t *testing.T) {
	type hints struct{ readOnly, destructive, idempotent bool }
	read, create, change := hints{true, false, true}, hints{false, false, false}, hints{false, true, false}
	want := map[string]hints{
		"links_create":        create,
		"links_get":           read,
		"links_list":          read,
		"links_update":        change,
		"links_delete":        {false, true, true}, // IDEMPOTENT
		"links_export":        change,
		"links_archive":       change, // "Archive" is no AIP read or create verb
		"page_themes_create":  create,
		"page_themes_list":    read,
		"page_themes_update":  change,
		"steps_create":        create,
		"steps_list":          read,
		"ping":                change,
		"samples_echo_strict": change,
		"samples_echo_loose":  change,
		"google_longrunning_Operations_GetOperation": read,
	}
	r := startRawStdio(t)
	r.initialize()
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
	var answer struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				Annotations json.RawMessage `json:"annotations"`
			} `json:"tools"`
		} `json:"result"`
	}
	b, _ := json.Marshal(r.next())
	if err := json.Unmarshal(b, &answer); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tool := range answer.Result.Tools {
		listed = append(listed, tool.Name)
		h, ok := want[tool.Name]
		if !ok {
			t.Errorf("%s: a tool the test does not know", tool.Name)
			continue
		}
		// The hints on the wire, each present (a missing one decodes as
		// nil, not false).
		var got map[string]*bool
		if err := json.Unmarshal(tool.Annotations, &got); err != nil {
			t.Fatalf("%s: annotations %s: %v", tool.Name, tool.Annotations, err)
		}
		for name, value := range map[string]bool{
			"readOnlyHint": h.readOnly, "destructiveHint": h.destructive, "idempotentHint": h.idempotent, "openWorldHint": false,
		} {
			if got[name] == nil || *got[name] != value {
				t.Errorf("%s: %s in %s, want %t", tool.Name, name, tool.Annotations, value)
			}
		}
	}
	var all []string
	for _, at := range gentools.AllTools() {
		all = append(all, at.Name)
	}
	slices.Sort(all)
	if !slices.Equal(listed, all) {
		t.Errorf("tools listed %v, want %v", listed, all)
	}
}
