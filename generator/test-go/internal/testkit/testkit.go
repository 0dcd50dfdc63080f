// Package testkit holds what the golden packages' tests share: the shared
// vectors of e2e/vectors and recognisable test ids.
package testkit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// VectorsDir is e2e/vectors (the tests run from golden/<case>), or
// $AITOOLS_VECTORS.
func VectorsDir(t testing.TB) string {
	if dir := os.Getenv("AITOOLS_VECTORS"); dir != "" {
		return dir
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "e2e", "vectors"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// LoadVectors decodes every e2e/vectors/<sub>/*.json file, by base name.
// It fails the test when there is none.
func LoadVectors[T any](t *testing.T, sub string) map[string]T {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(VectorsDir(t), sub, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s (set AITOOLS_VECTORS): %v", filepath.Join(VectorsDir(t), sub), err)
	}
	out := map[string]T{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out[filepath.Base(file)] = v
	}
	return out
}

// UUID is a valid, recognisable UUID for test entity n.
func UUID(n int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", n) }
