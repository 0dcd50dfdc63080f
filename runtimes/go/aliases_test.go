package aitools

// AliasManager behaviour beyond the shared vectors: exactness over many
// fresh managers (map order varies per run), free text, unknown aliases,
// concurrency (run with -race), export/restore.

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestExactResolutionManyRuns(t *testing.T) {
	useTables(t, nil, []string{"acct"}, nil)
	args := `{"a":"acct-1","b":"acct-10","c":"acct-11","d":"acct-12","e":"acct-2"}`
	want := fmt.Sprintf(`{"a":"%s","b":"%s","c":"%s","d":"%s","e":"%s"}`,
		testUUID(1), testUUID(10), testUUID(11), testUUID(12), testUUID(2))
	for run := 0; run < 200; run++ {
		m := NewAliasManager()
		for i := 1; i <= 12; i++ {
			if got := m.Register("acct", testUUID(i)); got != fmt.Sprintf("acct-%d", i) {
				t.Fatalf("run %d: Register #%d = %q", run, i, got)
			}
		}
		got, err := m.ResolveJSONChecked("t", args)
		if err != nil || got != want {
			t.Fatalf("run %d: ResolveJSONChecked = %s, %v; want %s", run, got, err, want)
		}
		if got := m.ResolveJSON("t", args); got != want {
			t.Fatalf("run %d: ResolveJSON = %s; want %s", run, got, want)
		}
		back := m.AliasifyJSON("t", want)
		if back != `{"a":"acct-1","b":"acct-10","c":"acct-11","d":"acct-12","e":"acct-2"}` {
			t.Fatalf("run %d: AliasifyJSON = %s", run, back)
		}
	}
}

func TestFreeTextUntouched(t *testing.T) {
	useTables(t, nil, []string{"acct"}, nil)
	m := NewAliasManager()
	m.Register("acct", testUUID(1))
	m.Register("acct", testUUID(2))
	got, err := m.ResolveJSONChecked("t", `{"note":"merge acct-1 into acct-2 (acct-7 is gone)","id":"acct-2"}`)
	want := `{"id":"` + testUUID(2) + `","note":"merge acct-1 into acct-2 (acct-7 is gone)"}`
	if err != nil || got != want {
		t.Fatalf("got %s, %v; want %s", got, err, want)
	}
}

func TestUnknownAliasListsValidOnes(t *testing.T) {
	useTables(t, nil, []string{"acct"}, nil)
	m := NewAliasManager()
	for i := 1; i <= 3; i++ {
		m.Register("acct", testUUID(i))
	}
	_, err := m.ResolveJSONChecked("t", `{"steps":[{"x":1},{"accountId":"acct-0"}]}`)
	want := `unknown alias "acct-0" in field "steps[1].accountId"; valid acct aliases: acct-1, acct-2, acct-3`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v; want %s", err, want)
	}
	// The unchecked form keeps the old behaviour: left as written.
	if got := m.ResolveJSON("t", `{"a":"acct-0"}`); got != `{"a":"acct-0"}` {
		t.Fatalf("ResolveJSON = %s", got)
	}
}

func TestUnknownAliasMessageShowsNoUUID(t *testing.T) {
	useTables(t, nil, []string{"acct"}, nil)
	m := NewAliasManager()
	m.Register("acct", testUUID(1))
	_, err := m.ResolveJSONChecked("t", `{"`+testUUID(1)+`":{"id":"acct-9"}}`)
	want := `unknown alias "acct-9" in field "acct-1.id"; valid acct aliases: acct-1`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v; want %s", err, want)
	}
}

func TestConcurrentUse(t *testing.T) {
	useTables(t, map[string]string{"id": ""}, []string{"acct"}, nil)
	m := NewAliasManager()
	const workers, per = 16, 200
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				u := testUUID(w*per + i)
				var alias string
				if i%2 == 0 {
					alias = m.Register("acct", u)
				} else {
					m.RegisterFieldsFromJSON("acct", `{"id":"`+u+`"}`)
					alias = m.AliasifyJSON("t", u)
				}
				if got, err := m.ResolveJSONChecked("t", `"`+alias+`"`); err != nil || got != `"`+u+`"` {
					t.Errorf("resolve %s = %s, %v; want %s", alias, got, err, u)
					return
				}
				if m.ResolveAlias(alias) != u {
					t.Errorf("ResolveAlias(%s) != %s", alias, u)
					return
				}
				if i%50 == 0 {
					if _, err := m.ExportState(); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	// Every UUID got its own alias, numbered 1..N without gaps.
	seen := map[string]bool{}
	for i := 0; i < workers*per; i++ {
		a := m.AliasifyJSON("t", testUUID(i))
		if !strings.HasPrefix(a, "acct-") || seen[a] {
			t.Fatalf("UUID %d: alias %q (duplicate or missing)", i, a)
		}
		seen[a] = true
	}
	for n := 1; n <= workers*per; n++ {
		if !seen[fmt.Sprintf("acct-%d", n)] {
			t.Fatalf("alias acct-%d never assigned", n)
		}
	}
}

func TestExportRestoreContinuesNumbering(t *testing.T) {
	useTables(t, nil, []string{"acct"}, nil)
	a := NewAliasManager()
	a.Register("acct", testUUID(1))
	a.Register("acct", testUUID(2))
	a.Register("user", testUUID(3))
	state, err := a.ExportState()
	if err != nil {
		t.Fatal(err)
	}
	b := NewAliasManager()
	b.Register("acct", testUUID(99))
	if err := b.RestoreState(state); err != nil {
		t.Fatal(err)
	}
	if got := b.Register("acct", testUUID(4)); got != "acct-3" {
		t.Fatalf("next acct alias after restore = %s; want acct-3", got)
	}
	if got := b.Register("user", testUUID(3)); got != "user-1" {
		t.Fatalf("restored UUID got %s; want user-1", got)
	}
	if got := b.AliasifyJSON("t", testUUID(99)); got != testUUID(99) {
		t.Fatalf("state before restore survived: %s", got)
	}
	// A refused restore leaves the state as it was.
	before, _ := b.ExportState()
	if err := b.RestoreState([]byte(`{"aliases":{"acct-1":"x\u0085y"},"counters":{"acct":1},"version":1}`)); err == nil {
		t.Fatal("restore of a value with a control character succeeded")
	}
	long := `{"aliases":{"acct-1":"` + strings.Repeat("x", 1025) + `"},"counters":{"acct":1},"version":1}`
	if err := b.RestoreState([]byte(long)); err == nil || !strings.Contains(err.Error(), "neither a UUID nor a name") {
		t.Fatalf("restore of a 1025-byte value: %v", err)
	}
	twice := `{"aliases":{"operation-1":"ops/1","operation-2":"ops/1"},"counters":{"operation":2},"version":1}`
	want := `restore alias state: name "ops/1" has two aliases: "operation-1" and "operation-2"`
	if err := b.RestoreState([]byte(twice)); err == nil || err.Error() != want {
		t.Fatalf("restore of a name under two aliases: %v; want %s", err, want)
	}
	after, _ := b.ExportState()
	if string(before) != string(after) {
		t.Fatalf("refused restore changed the state:\n%s\n%s", before, after)
	}
}

func TestRegisterNewUUIDsDeprecated(t *testing.T) {
	useTables(t, nil, []string{"acct"}, nil)
	m := NewAliasManager()
	m.RegisterNewUUIDs("acct", fmt.Sprintf(`{"x":"%s","y":["%s","%s"],"z":"a%s"}`, testUUID(5), testUUID(6), testUUID(5), testUUID(7)))
	if got := m.AliasifyJSON("t", testUUID(5)+" "+testUUID(6)+" "+testUUID(7)); got != "acct-1 acct-2 "+testUUID(7) {
		t.Fatalf("got %s", got)
	}
}

// testUUID is a valid, recognisable UUID for test entity n.
func testUUID(n int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", n) }

// TestNamesBelowTheResponse: a response without a UUID is read when a
// field that takes any value lies below its message (an Operation inside
// it), and not otherwise.
func TestNamesBelowTheResponse(t *testing.T) {
	resp := &responseAliasesJSON{}
	if err := json.Unmarshal([]byte(`{
		"types": {
			"t.Wrapper": [{"field": "op", "message": "google.longrunning.Operation"}],
			"google.longrunning.Operation": [{"field": "name", "prefix": "operation", "anyValue": true}],
			"t.Plain": [{"field": "name", "prefix": "operation"}]
		},
		"tools": {"wrapped": {"message": "t.Wrapper"}, "plain": {"message": "t.Plain"}}
	}`), resp); err != nil {
		t.Fatal(err)
	}
	useTables(t, nil, []string{"operation"}, resp)
	m := NewAliasManager()
	m.RegisterResponseJSON("plain", `{"name":"ops/1"}`)
	m.RegisterResponseJSON("wrapped", `{"op":{"name":"ops/2"}}`)
	if got := m.AliasifyJSON("t", "ops/1 ops/2"); got != "ops/1 operation-1" {
		t.Fatalf("got %s", got)
	}
}

// TestNamesWithSpaces: names holding bytes that may touch a name are found
// too, the longest first at each place; a token name only as a whole run.
func TestNamesWithSpaces(t *testing.T) {
	useTables(t, nil, []string{"n"}, nil)
	m := NewAliasManager()
	for _, name := range []string{"a b", "a b c", "x.y"} {
		m.Register("n", name)
	}
	in := `"a b c" a b! x.y x.yz (a b) a bc`
	if got, want := m.AliasifyJSON("t", in), `"n-2" n-1! n-3 x.yz (n-1) a bc`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
