package aitools

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
)

// vectorsArguments are the argument tables of the tools of vectors.proto,
// as the generator writes them (docs/runtime.md, "Arguments"); fixup_strict
// has none here, so that the fix-up vectors, which use JSON names, reach
// the fix-up through it.
var vectorsArguments = map[string]string{
	"accounts_list":  `{"nodes":[{"fields":{"count":{},"contacts_per_account":{}},"required":["count","contacts_per_account"]}]}`,
	"accounts_merge": `{"nodes":[{"fields":{"source_id":{},"target_id":{},"note":{}},"required":["source_id","target_id","note"]}]}`,
	"accounts_watch": `{"nodes":[{"fields":{"count":{}}}]}`,
	"fixup_loose": `{"nodes":[{"fields":{"labels":{},"items_by_num":{"node":1,"map":true},"flags":{},"attrs":{},"extra":{},"list":{},` +
		`"item":{"node":1},"items":{"node":1,"list":true},"text":{},"number":{},"nested":{"node":1},"other_text":{},"note":{},"values":{},` +
		`"value_map":{},"display_name":{},"count":{},"enabled":{},"timeout":{},"data":{},"level":{},"levels":{}}},` +
		`{"fields":{"name":{},"counts":{},"payload":{},"children":{"node":1,"list":true},"owner_id":{}}}]}`,
}

// useArguments installs argument tables (nil: none) until the test ends.
func useArguments(t testing.TB, tables map[string]string) {
	t.Helper()
	saved := toolArguments
	t.Cleanup(func() { toolArguments = saved; argTables.Clear() })
	toolArguments = tables
	if tables == nil {
		toolArguments = map[string]string{}
	}
	argTables.Clear()
}

// TestLenientArguments: with lenient_arguments=true unknown keys are
// dropped and JSON names accepted, as the replaced plugin did; required
// fields are still checked.
func TestLenientArguments(t *testing.T) {
	conn, srv := startServer(t)
	lenientArguments = true
	t.Cleanup(func() { lenientArguments = false })
	// The table as the generator writes it with lenient_arguments=true.
	useArguments(t, map[string]string{
		"accounts_merge": `{"nodes":[{"fields":{"source_id":{"json":"sourceId"},"target_id":{"json":"targetId"},"note":{}},"required":["source_id","target_id","note"]}]}`,
	})
	e := NewExecutor(conn)
	source := e.GetAliasManager().Register("acct", testUUID(1))
	out, err := e.Execute(context.Background(), "accounts_merge", `{"sourceId":"`+source+`","targetId":"acct-1","note":"","zzz":1}`)
	if err != nil || !strings.Contains(out, `"received_source_id":"acct-1"`) {
		t.Fatalf("lenient: %s %v", out, err)
	}
	calls := srv.calls.Load()
	_, err = e.Execute(context.Background(), "accounts_merge", `{"sourceId":"acct-1","zzz":1}`)
	wantToolError(t, err, "invalid-arguments", codes.InvalidArgument, "invalid arguments, nothing was sent:\n- \"target_id\": missing required field\n- \"note\": missing required field")
	if srv.calls.Load() != calls {
		t.Error("a refused call reached the server")
	}
}

// TestLenientJSONNamesFromTable: a lenient check accepts the JSON name the
// table gives (a custom json_name too) and derives none itself.
func TestLenientJSONNamesFromTable(t *testing.T) {
	table, err := parseArgTable(`{"nodes":[{"fields":{"custom":{"json":"renamed"},"target_url":{}},"required":["custom","target_url"]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := parseArguments(`{"renamed":"x","targetUrl":"y"}`)
	got := table.check(obj, nil, true)
	if len(got) != 1 || got[0].Field != "target_url" || got[0].Reason != "required" {
		t.Errorf("lenient: %q", got)
	}
	got = table.check(obj, nil, false)
	if len(got) != 4 || got[0].Field != "renamed" || got[0].Reason != "unknown-field" {
		t.Errorf("strict: %q", got)
	}
}
