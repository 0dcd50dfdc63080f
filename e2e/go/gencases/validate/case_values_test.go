package gentools

import (
	"testing"

	"example.com/aitools/e2e/internal/casevalues"
)

// TestCaseValues: the values of the golden case validate (buf.validate
// rules as keywords) decode, every other account_id given as an alias, and
// reach the server intact through the executor (the pick tools have none:
// they are decoded only).
func TestCaseValues(t *testing.T) {
	s := casevalues.Serve(t)
	e := NewExecutor(s.Conn)
	alias := e.GetAliasManager().Register("acct", casevalues.AccountUUID)
	var tools []casevalues.Tool
	for _, tool := range AllTools() {
		tools = append(tools, casevalues.Tool{Name: tool.Name, Strict: tool.Strict, Parameters: tool.Parameters})
	}
	casevalues.Run(t, s, casevalues.Case{Name: "validate", Tools: tools, Execute: e.Execute, CanExecute: e.CanExecute, Decode: e.decode, Alias: alias})
}
