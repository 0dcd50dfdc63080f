package gentools

// Runs every e2e/vectors/aliases/*.json file unchanged against the generated
// AliasManager. Works with any golden whose file has aliases. A vector sets
// the package variables responseFieldPrefixes and knownAliasPrefixes for its
// duration (restored afterwards), so these tests do not run in parallel.

import (
	"example.com/aitools/testgo/internal/testkit"
	"strings"
	"testing"
)

type aliasVector struct {
	Name                  string            `json:"name"`
	ResponseFieldPrefixes map[string]string `json:"responseFieldPrefixes"`
	KnownPrefixes         []string          `json:"knownPrefixes"`
	Steps                 []aliasStep       `json:"steps"`
}

type aliasStep struct {
	Op            string  `json:"op"`
	Prefix        string  `json:"prefix"`
	UUID          string  `json:"uuid"`
	Alias         string  `json:"alias"`
	PrimaryPrefix string  `json:"primaryPrefix"`
	JSON          string  `json:"json"`
	Expect        *string `json:"expect"`
	ExpectError   *string `json:"expectError"`
}

func withPrefixes(t *testing.T, fields map[string]string, known []string) {
	t.Helper()
	oldFields, oldKnown := responseFieldPrefixes, knownAliasPrefixes
	responseFieldPrefixes = map[string]string{}
	for k, v := range fields {
		responseFieldPrefixes[k] = v
	}
	knownAliasPrefixes = map[string]bool{}
	for _, p := range known {
		knownAliasPrefixes[p] = true
	}
	t.Cleanup(func() { responseFieldPrefixes, knownAliasPrefixes = oldFields, oldKnown })
}

func TestAliasVectors(t *testing.T) {
	for file, vec := range testkit.LoadVectors[aliasVector](t, "aliases") {
		t.Run(file, func(t *testing.T) {
			if len(vec.Steps) == 0 {
				t.Fatal("vector has no steps")
			}
			withPrefixes(t, vec.ResponseFieldPrefixes, vec.KnownPrefixes)
			m := NewAliasManager()
			for i, s := range vec.Steps {
				var got string
				var err error
				switch s.Op {
				case "reset":
					m = NewAliasManager()
					continue
				case "register":
					got = m.Register(s.Prefix, s.UUID)
				case "resolveAlias":
					got = m.ResolveAlias(s.Alias)
				case "registerFields":
					m.RegisterFieldsFromJSON(s.PrimaryPrefix, s.JSON)
					continue
				case "aliasify":
					got = m.AliasifyJSON("tool", s.JSON)
				case "resolve":
					got, err = m.ResolveJSONChecked("tool", s.JSON)
				case "resolveUnchecked":
					got = m.ResolveJSON("tool", s.JSON)
				case "export":
					var b []byte
					b, err = m.ExportState()
					got = string(b)
				case "restore":
					err = m.RestoreState([]byte(s.JSON))
				default:
					t.Fatalf("step %d: unknown op %q", i, s.Op)
				}
				switch {
				case s.ExpectError != nil && s.Op == "restore":
					if err == nil || !strings.Contains(err.Error(), *s.ExpectError) {
						t.Fatalf("step %d (%s): error %v, want one containing %q", i, s.Op, err, *s.ExpectError)
					}
				case s.ExpectError != nil:
					if err == nil || err.Error() != *s.ExpectError {
						t.Fatalf("step %d (%s %s): error %v, want %q", i, s.Op, s.JSON, err, *s.ExpectError)
					}
				case err != nil:
					t.Fatalf("step %d (%s): unexpected error %v", i, s.Op, err)
				case s.Expect != nil && got != *s.Expect:
					t.Fatalf("step %d (%s %s%s):\n got  %s\n want %s", i, s.Op, s.Prefix, s.JSON, got, *s.Expect)
				}
			}
		})
	}
}
