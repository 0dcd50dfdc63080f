package aitools

// The shared vectors of e2e/vectors (format in e2e/vectors/README.md) run
// unchanged against this package. A vector's tables replace the package
// tables (tables.go) while it runs, so no test here runs in parallel.

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/vectortest"
)

// vectorsDir is e2e/vectors, or $AITOOLS_VECTORS.
func vectorsDir(t testing.TB) string { return vectortest.Dir(t) }

// loadVectors decodes every e2e/vectors/<sub>/*.json file.
func loadVectors[T any](t testing.TB, sub string) map[string]T { return vectortest.Load[T](t, sub) }

// responseAliasesJSON is the vectors' form of the registration tables.
type responseAliasesJSON struct {
	Types map[string][]struct {
		Field   string `json:"field"`
		Prefix  string `json:"prefix"`
		Message string `json:"message"`
		Map     bool   `json:"map"`
		// AnyValue: the field registers any name, not only UUIDs.
		AnyValue bool `json:"anyValue"`
	} `json:"types"`
	Tools map[string]struct {
		Message  string `json:"message"`
		IDPrefix string `json:"idPrefix"`
		IDField  string `json:"idField"`
	} `json:"tools"`
}

// useTables installs a vector's tables until the test ends.
func useTables(t testing.TB, fields map[string]string, known []string, resp *responseAliasesJSON) {
	t.Helper()
	savedFields, savedKnown := responseFieldPrefixes, knownAliasPrefixes
	savedTypes, savedTools := responseAliasTypes, toolResponseAliases
	t.Cleanup(func() {
		responseFieldPrefixes, knownAliasPrefixes = savedFields, savedKnown
		responseAliasTypes, toolResponseAliases = savedTypes, savedTools
	})
	responseFieldPrefixes = map[string]string{}
	for k, v := range fields {
		responseFieldPrefixes[k] = v
	}
	knownAliasPrefixes = map[string]bool{}
	for _, p := range known {
		knownAliasPrefixes[p] = true
	}
	responseAliasTypes = map[string][]responseAliasField{}
	toolResponseAliases = map[string]responseAliasTool{}
	if resp == nil {
		return
	}
	for name, fields := range resp.Types {
		for _, f := range fields {
			responseAliasTypes[name] = append(responseAliasTypes[name], responseAliasField{field: f.Field, prefix: f.Prefix, message: f.Message, isMap: f.Map, anyValue: f.AnyValue})
		}
	}
	for name, tool := range resp.Tools {
		toolResponseAliases[name] = responseAliasTool{message: tool.Message, idPrefix: tool.IDPrefix, idField: tool.IDField}
	}
}

type aliasVector struct {
	ResponseFieldPrefixes map[string]string    `json:"responseFieldPrefixes"`
	KnownPrefixes         []string             `json:"knownPrefixes"`
	ResponseAliases       *responseAliasesJSON `json:"responseAliases"`
	Steps                 []struct {
		Op            string  `json:"op"`
		Prefix        string  `json:"prefix"`
		UUID          string  `json:"uuid"`
		Alias         string  `json:"alias"`
		PrimaryPrefix string  `json:"primaryPrefix"`
		Tool          string  `json:"tool"`
		JSON          string  `json:"json"`
		Expect        *string `json:"expect"`
		ExpectError   *string `json:"expectError"`
	} `json:"steps"`
}

func TestAliasVectors(t *testing.T) {
	vectors := loadVectors[aliasVector](t, "aliases")
	for _, file := range sortedKeys(vectors) {
		vec := vectors[file]
		t.Run(file, func(t *testing.T) {
			if len(vec.Steps) == 0 {
				t.Fatal("vector has no steps")
			}
			useTables(t, vec.ResponseFieldPrefixes, vec.KnownPrefixes, vec.ResponseAliases)
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
				case "registerResponse":
					checkCollectRegistrations(t, m, s.Tool, s.JSON)
					m.RegisterResponseJSON(s.Tool, s.JSON)
					continue
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

type fixupVector struct {
	Message string `json:"message"`
	Tool    string `json:"tool"`
	Strict  bool   `json:"strict"`
	Cases   []struct {
		Name        string          `json:"name"`
		Args        json.RawMessage `json:"args"`
		Expect      json.RawMessage `json:"expect"`
		ExpectError *string         `json:"expectError"`
	} `json:"cases"`
}

// TestFixupVectors runs the fix-up on each case's arguments; the executor
// test (TestFixupVectorsThroughExecutor) sends them to a server.
func TestFixupVectors(t *testing.T) {
	vectors := loadVectors[fixupVector](t, "fixup")
	md := (&aitestv1.FixupRequest{}).ProtoReflect().Descriptor()
	for _, file := range sortedKeys(vectors) {
		vec := vectors[file]
		t.Run(file, func(t *testing.T) {
			if string(md.FullName()) != vec.Message || len(vec.Cases) == 0 {
				t.Fatalf("vector for %q with %d cases", vec.Message, len(vec.Cases))
			}
			for _, c := range vec.Cases {
				v, ok := decodeJSON(string(c.Args))
				if !ok {
					t.Fatalf("%s: args are not JSON", c.Name)
				}
				got, err := fixArgs(v, md, vec.Strict)
				if c.ExpectError != nil {
					if err == nil || "failed to parse arguments: "+err.Error() != *c.ExpectError {
						t.Errorf("%s: error %v; want %s", c.Name, err, *c.ExpectError)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				want, _ := decodeJSON(string(c.Expect))
				if !reflect.DeepEqual(any(got), want) {
					t.Errorf("%s:\n got  %s\n want %s", c.Name, encodeJSON(got), c.Expect)
				}
			}
		})
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		`link-7`:            `"link-7"`,
		`a"b\c`:             `"a\"b\\c"`,
		"dé\tjà\n\r\b\f":    `"dé\tjà\n\r\b\f"`,
		"\x00\x1f\x7f":      "\"\\u0000\\u001f\x7f\"",
		"\u2028 ünïcödé 日本": "\"\u2028 ünïcödé 日本\"",
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSortedKeys(t *testing.T) {
	got := sortedKeys(map[string]int{"b": 1, "a": 2, "B": 3})
	if !sort.StringsAreSorted(got) || len(got) != 3 || got[0] != "B" {
		t.Fatalf("sortedKeys = %v", got)
	}
}

// checkCollectRegistrations: the pairs CollectRegistrations gives, each
// registered in order on a copy of m, leave it as RegisterResponseJSON
// leaves m; none of them is known already, none repeats.
func checkCollectRegistrations(t *testing.T, m *AliasManager, tool, jsonStr string) {
	t.Helper()
	state, _ := m.ExportState()
	registered, collected := NewAliasManager(), NewAliasManager()
	_ = registered.RestoreState(state)
	_ = collected.RestoreState(state)
	registered.RegisterResponseJSON(tool, jsonStr)
	seen := map[string]bool{}
	for _, pair := range m.CollectRegistrations(tool, jsonStr) {
		if _, known := m.uuids[pair[1]]; known || seen[pair[1]] {
			t.Fatalf("pair %v repeats or is known", pair)
		}
		seen[pair[1]] = true
		collected.Register(pair[0], pair[1])
	}
	a, _ := registered.ExportState()
	b, _ := collected.ExportState()
	if string(a) != string(b) {
		t.Fatalf("collected then registered: %s\nregistered: %s", b, a)
	}
}
