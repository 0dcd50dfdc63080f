// Package testkit holds what the golden packages' tests share: the shared
// vectors of e2e/vectors (loaded by the Go runtime's vectortest package) and
// recognisable test ids.
package testkit

import (
	"fmt"
	"testing"

	"github.com/ai-tools/runtime-go/vectortest"
)

// LoadVectors decodes every e2e/vectors/<sub>/*.json file, by base name.
// It fails the test when there is none.
func LoadVectors[T any](t *testing.T, sub string) map[string]T {
	t.Helper()
	return vectortest.Load[T](t, sub)
}

// UUID is a valid, recognisable UUID for test entity n.
func UUID(n int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", n) }
