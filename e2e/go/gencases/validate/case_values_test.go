package gentools

import (
	"testing"

	"example.com/aitools/e2e/internal/casevalues"
)

// TestCaseValues: the values of the golden case validate (buf.validate
// rules as keywords) decode, every other account_id given as an alias, and
// reach the server intact through the executor (the pick tools have none:
// they are decoded only); protovalidate finds only described rules broken.
func TestCaseValues(t *testing.T) {
	s := casevalues.Serve(t)
	e := NewExecutor(s.Conn)
	alias := e.GetAliasManager().Register("acct", casevalues.AccountUUID)
	var tools []casevalues.Tool
	for _, tool := range AllTools() {
		tools = append(tools, casevalues.Tool{Name: tool.Name, Strict: tool.Strict, Parameters: tool.Parameters})
	}
	casevalues.Run(t, s, casevalues.Case{Name: "validate", Tools: tools, Execute: e.Execute, CanExecute: e.CanExecute, Decode: e.decode, Alias: alias, Described: described})
}

// described: the fields whose rules the schemas state in a sentence, not a
// keyword (docs/schemas.md, "buf.validate"): an RE2-only pattern, a reversed range, a
// rule skipped on the zero value, "must be true", the id behind an alias; in
// strict tools also lengths, item lengths, uri and a required string; the
// oneof rules ("" is the message rule over first and second).
var described = map[string][]string{
	"rules_create_loose":  {"code", "delta", "motto", "accepted", "account_id"},
	"rules_create_strict": {"code", "delta", "motto", "accepted", "account_id", "name", "tags", "homepage", "title"},
	"rules_pick_loose":    {"", "target"},
	"rules_pick_strict":   {"", "target"},
}
