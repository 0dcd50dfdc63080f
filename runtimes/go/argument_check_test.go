package aitools

// The argument vectors (e2e/vectors/arguments/*.json): stages 1 and 2 of a
// call, the text parsed and its structure checked against a table, give
// exactly the violations and the model's text each case expects.

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type argumentsVector struct {
	Arguments json.RawMessage `json:"arguments"`
	Cases     []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Args      string          `json:"args"`
		Lenient   bool            `json:"lenient"`
		ExtraRoot []string        `json:"extraRoot"`
		Expect    []struct {
			Field   string `json:"field"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"expect"`
		Text *string `json:"text"`
		// Checked is the arguments object after the check (FieldMask paths
		// rewritten), compared as JSON values.
		Checked json.RawMessage `json:"checked"`
	} `json:"cases"`
}

func TestArgumentVectors(t *testing.T) {
	vectors := loadVectors[argumentsVector](t, "arguments")
	for _, file := range sortedKeys(vectors) {
		vec := vectors[file]
		t.Run(file, func(t *testing.T) {
			if len(vec.Cases) == 0 {
				t.Fatal("no cases")
			}
			for _, c := range vec.Cases {
				text := vec.Arguments
				if c.Arguments != nil {
					text = c.Arguments
				}
				table, err := parseArgTable(string(text))
				if err != nil {
					t.Fatalf("%s: table: %v", c.Name, err)
				}
				obj, got := parseArguments(c.Args)
				if got == nil {
					got = table.check(obj, c.ExtraRoot, c.Lenient)
				}
				want := []Violation{}
				for _, v := range c.Expect {
					want = append(want, Violation(v))
				}
				if len(got) == 0 {
					got = []Violation{}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got  %q\n want %q", c.Name, got, want)
				}
				if c.Checked != nil {
					var want any
					if err := json.Unmarshal(c.Checked, &want); err != nil {
						t.Fatalf("%s: checked: %v", c.Name, err)
					}
					var have any
					_ = json.Unmarshal([]byte(encodeJSON(obj)), &have)
					if !reflect.DeepEqual(have, want) {
						t.Errorf("%s: checked\n got  %s\n want %s", c.Name, encodeJSON(obj), c.Checked)
					}
				}
				if c.Text != nil {
					e := &Executor{aliases: NewAliasManager()}
					if msg := e.refuse("invalid-arguments", got, nil).Error(); msg != *c.Text {
						t.Errorf("%s: text\n got  %q\n want %q", c.Name, msg, *c.Text)
					}
				} else if len(want) > 0 {
					t.Errorf("%s: a case with violations has no text", c.Name)
				}
			}
		})
	}
}

func TestUnknownFieldListIsCut(t *testing.T) {
	var fields []string
	for i := 0; i < 27; i++ {
		fields = append(fields, "field_"+string(rune('a'+i%26))+strings.Repeat("x", i/26))
	}
	got := unknownFieldMessage("zzzzzzzzzz", fields)
	if !strings.HasSuffix(got, ", field_t, and 7 more") || strings.Contains(got, "did you mean") {
		t.Errorf("message %q", got)
	}
	if got := unknownFieldMessage("a", nil); got != "unknown field; no fields are valid here" {
		t.Errorf("no fields: %q", got)
	}
}

func TestArgumentTableRefused(t *testing.T) {
	for _, text := range []string{`{}`, `{"nodes":[{"fields":{"a":{"node":3}}}]}`, `{"nodes":[{"fields":{"a":{"mask":0}}}]}`, `{"nodes":[{"fields":{}}],"masks":[{"fields":{"a":{"node":1}}}]}`, `{"nodes":[{"fields":[]}]}`, `x`} {
		if _, err := parseArgTable(text); err == nil {
			t.Errorf("%s: accepted", text)
		}
	}
}
