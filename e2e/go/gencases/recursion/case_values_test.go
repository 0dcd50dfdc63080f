package gentools

import (
	"testing"

	"example.com/aitools/e2e/internal/casevalues"
)

// TestCaseValues: the values of the golden case recursion (schema=compact
// with providers=openai: strict tools recurse through $ref too) decode, and
// reach the server intact through the executor.
func TestCaseValues(t *testing.T) {
	s := casevalues.Serve(t)
	e := NewExecutor(s.Conn)
	var tools []casevalues.Tool
	for _, tool := range AllTools() {
		tools = append(tools, casevalues.Tool{Name: tool.Name, Strict: tool.Strict, Parameters: tool.Parameters})
	}
	casevalues.Run(t, s, casevalues.Case{Name: "recursion", Tools: tools, Execute: e.Execute, CanExecute: e.CanExecute, Decode: e.decode})
}
