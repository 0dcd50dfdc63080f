package gentools

import (
	"testing"

	"example.com/aitools/e2e/internal/casevalues"
)

// TestCaseValues: the values of the golden case compact (schema=compact:
// messages under $defs, recursion through $ref) decode, and reach the
// server intact through the executor.
func TestCaseValues(t *testing.T) {
	s := casevalues.Serve(t)
	e := NewExecutor(s.Conn)
	var tools []casevalues.Tool
	for _, tool := range AllTools() {
		tools = append(tools, casevalues.Tool{Name: tool.Name, Strict: tool.Strict, Parameters: tool.Parameters})
	}
	casevalues.Run(t, s, casevalues.Case{Name: "compact", Tools: tools, Execute: e.Execute, CanExecute: e.CanExecute, Decode: e.decode})
}
