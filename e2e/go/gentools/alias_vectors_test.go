package gentools

// The shared alias vectors (e2e/vectors/aliases/*.json, format in
// e2e/vectors/README.md) against this generated file. A vector stands in for
// the declarations of the generated code: its responseFieldPrefixes,
// knownPrefixes and responseAliases replace the package variables of the
// same role while it runs, so no test of this package may run in parallel
// with it.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type vectorFile struct {
	Name                  string            `json:"name"`
	ResponseFieldPrefixes map[string]string `json:"responseFieldPrefixes"`
	KnownPrefixes         []string          `json:"knownPrefixes"`
	ResponseAliases       struct {
		Types map[string][]struct {
			Field, Prefix, Message string
			Map                    bool
		}
		Tools map[string]struct{ Message, IDPrefix, IDField string }
	} `json:"responseAliases"`
	Steps []vectorStep `json:"steps"`
}

type vectorStep struct {
	Op            string  `json:"op"`
	Prefix        string  `json:"prefix"`
	UUID          string  `json:"uuid"`
	Alias         string  `json:"alias"`
	PrimaryPrefix string  `json:"primaryPrefix"`
	Tool          string  `json:"tool"`
	JSON          string  `json:"json"`
	Expect        *string `json:"expect"`
	ExpectError   *string `json:"expectError"`
}

func vectorsDir() string {
	root := os.Getenv("E2E_REPO_ROOT")
	if root == "" {
		root = filepath.Join("..", "..", "..")
	}
	return filepath.Join(root, "e2e", "vectors", "aliases")
}

// useDeclarations installs a vector's declarations until the test ends.
func useDeclarations(t *testing.T, v vectorFile) {
	savedFields, savedKnown := responseFieldPrefixes, knownAliasPrefixes
	savedTypes, savedTools := responseAliasTypes, toolResponseAliases
	t.Cleanup(func() {
		responseFieldPrefixes, knownAliasPrefixes = savedFields, savedKnown
		responseAliasTypes, toolResponseAliases = savedTypes, savedTools
	})
	responseFieldPrefixes = make(map[string]string, len(v.ResponseFieldPrefixes))
	for k, p := range v.ResponseFieldPrefixes {
		responseFieldPrefixes[k] = p
	}
	knownAliasPrefixes = make(map[string]bool, len(v.KnownPrefixes))
	for _, p := range v.KnownPrefixes {
		knownAliasPrefixes[p] = true
	}
	responseAliasTypes = map[string][]responseAliasField{}
	for name, fields := range v.ResponseAliases.Types {
		for _, f := range fields {
			responseAliasTypes[name] = append(responseAliasTypes[name], responseAliasField{field: f.Field, prefix: f.Prefix, message: f.Message, isMap: f.Map})
		}
	}
	toolResponseAliases = map[string]responseAliasTool{}
	for name, tool := range v.ResponseAliases.Tools {
		toolResponseAliases[name] = responseAliasTool{message: tool.Message, idPrefix: tool.IDPrefix, idField: tool.IDField}
	}
}

func TestAliasVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(vectorsDir(), "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no alias vectors in %s: %v", vectorsDir(), err)
	}
	sort.Strings(files)
	steps := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v vectorFile
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			if len(v.Steps) == 0 {
				t.Fatal("no steps")
			}
			useDeclarations(t, v)
			runVector(t, v.Steps)
			steps += len(v.Steps)
		})
	}
	t.Logf("%d vector files, %d steps", len(files), steps)
}

func runVector(t *testing.T, steps []vectorStep) {
	m := NewAliasManager()
	for i, s := range steps {
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
			m.RegisterResponseJSON(s.Tool, s.JSON)
			continue
		case "registerFields":
			m.RegisterFieldsFromJSON(s.PrimaryPrefix, s.JSON)
			continue
		case "aliasify":
			got = m.AliasifyJSON("any_tool", s.JSON)
		case "resolve":
			got, err = m.ResolveJSONChecked("any_tool", s.JSON)
		case "resolveUnchecked":
			got = m.ResolveJSON("any_tool", s.JSON)
		case "export":
			var b []byte
			b, err = m.ExportState()
			got = string(b)
		case "restore":
			err = m.RestoreState([]byte(s.JSON))
		default:
			t.Fatalf("step %d: unknown op %q", i, s.Op)
		}
		where := func() string { return s.Op + " " + s.Prefix + s.Alias + s.UUID + s.JSON }
		switch {
		case s.ExpectError != nil:
			ok := err != nil && err.Error() == *s.ExpectError
			if s.Op == "restore" { // matched by substring
				ok = err != nil && strings.Contains(err.Error(), *s.ExpectError)
			}
			if !ok {
				t.Fatalf("step %d (%s): error %v, want %q", i, where(), err, *s.ExpectError)
			}
		case err != nil:
			t.Fatalf("step %d (%s): %v", i, where(), err)
		case s.Expect != nil && got != *s.Expect:
			t.Fatalf("step %d (%s):\n got  %s\n want %s", i, where(), got, *s.Expect)
		}
	}
}
