package aitools

// Native fuzzing of the alias manager, the argument fix-up and the executor
// (issue 12, point 6; docs/runtime.md is the contract). `go test` runs the
// seeds (f.Add, the shared vectors) and the cases kept in testdata/fuzz/;
// scripts/run.mjs --fuzz runs each target with -fuzz for its share of
// FUZZ_SECONDS.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// fuzzPool holds the UUIDs a fuzz case may register, with their prefixes:
// bit i of a case's mask registers entry i.
var fuzzPool = [][2]string{
	{"acct", "0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b"},
	{"user", "11111111-2222-4333-8444-555555555555"},
	{"contact", "AABBCCDD-EEFF-4011-8233-445566778899"},
	{"note", "deadbeef-dead-beef-dead-beefdeadbeef"},
	{"acct", "00000000-0000-0000-0000-000000000000"},
	{"team-x", "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"},
	{"user", "0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b"},
	{"a", "12345678-90ab-cdef-1234-567890abcdef"},
}

// fuzzSeeds are argument and response texts every target starts from.
var fuzzSeeds = []string{
	`{"a":"acct-1","b":"0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b"}`,
	`{"item":{"owner_id":"user-1","children":[{"ownerId":"user-2"}]}}`,
	`{"value_map":{"labels":1e400}}`,
	`{"extra":"{\"a\":1}","list":["1","x"],"data":"YQ=","timeout":"1.5s"}`,
	`{"labels":[{"key":"a","value":"acct-1"}],"flags":[{"key":true,"value":"x"}]}`,
	`{"account":{"id":"0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b","contacts":[{"id":"AABBCCDD-EEFF-4011-8233-445566778899","ownerId":"0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b"}],"memberIds":{"b":"11111111-2222-4333-8444-555555555555"}}}`,
	`{"aliases":{"acct-1":"0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b"},"counters":{"acct":1},"version":1}`,
	`[1,"acct-01",null,true,{"x":"acct-"}]`,
	`{"text":"a","number":"7"}`,
	`not json`,
}

var uuidRun = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// uuidsIn returns the UUID-shaped runs of s that no hex digit or '-' touches.
func uuidsIn(s string) []string {
	var out []string
	for i := nextUUID(s, 0); i >= 0; i = nextUUID(s, i+36) {
		out = append(out, s[i:i+36])
	}
	return out
}

// fuzzManager registers the pool entries of mask, in order.
func fuzzManager(mask uint16) *AliasManager {
	m := NewAliasManager()
	for i, e := range fuzzPool {
		if mask&(1<<i) != 0 {
			m.Register(e[0], e[1])
		}
	}
	return m
}

type fuzzState struct {
	Aliases  map[string]string `json:"aliases"`
	Counters map[string]int    `json:"counters"`
}

func stateOf(t *testing.T, m *AliasManager) fuzzState {
	t.Helper()
	b, err := m.ExportState()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	var s fuzzState
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("export wrote %s: %v", b, err)
	}
	return s
}

func registeredUUIDs(t *testing.T, m *AliasManager) map[string]bool {
	out := map[string]bool{}
	for _, u := range stateOf(t, m).Aliases {
		out[u] = true
	}
	return out
}

// expectConsistent checks one alias per UUID and, per prefix, exactly the
// aliases 1..counter.
func expectConsistent(t *testing.T, m *AliasManager) {
	t.Helper()
	s := stateOf(t, m)
	seen := map[string]string{}
	for a, u := range s.Aliases {
		if other, ok := seen[u]; ok {
			t.Fatalf("UUID %s has two aliases: %s and %s", u, other, a)
		}
		seen[u] = a
	}
	var want, got []string
	for p, n := range s.Counters {
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprintf("%s-%d", p, i))
		}
	}
	for a := range s.Aliases {
		got = append(got, a)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, " ") != strings.Join(got, " ") {
		t.Fatalf("numbering has gaps: aliases %v, counters %v", got, s.Counters)
	}
}

// aliasesPlain reports whether every registered alias is written by the JSON
// encoder as itself and holds no UUID: then aliasify undoes resolve.
func aliasesPlain(t *testing.T, m *AliasManager) bool {
	for a := range stateOf(t, m).Aliases {
		if encodeJSON(a) != `"`+a+`"` || uuidRun.MatchString(a) {
			return false
		}
	}
	return true
}

// canonical is text as resolve re-encodes it, with nothing resolved.
func canonical(s string) string { return NewAliasManager().ResolveJSON("", s) }

func addSeeds(f *testing.F, add func(mask uint16, text string)) {
	for i, s := range fuzzSeeds {
		add(uint16(i*37), s)
	}
	for _, vec := range loadVectors[fixupVector](f, "fixup") {
		for _, c := range vec.Cases {
			add(0x13, string(c.Args))
		}
	}
}

// FuzzResolveJSON: resolve never fails but for an unknown alias, invents no
// UUID, and aliasify after resolve gives the input back (as resolve
// re-encodes it).
func FuzzResolveJSON(f *testing.F) {
	useTables(f, nil, []string{"acct", "contact", "note", "user"}, nil)
	addSeeds(f, func(mask uint16, s string) { f.Add(mask, s) })
	f.Fuzz(func(t *testing.T, mask uint16, input string) {
		m := fuzzManager(mask)
		registered := registeredUUIDs(t, m)
		canon := canonical(input)
		unchecked := m.ResolveJSON("", input)
		known := map[string]bool{}
		for _, u := range uuidsIn(canon) {
			known[u] = true
		}
		for _, u := range uuidsIn(unchecked) {
			if !known[u] && !registered[u] {
				t.Fatalf("resolve invented %s: %q → %q", u, input, unchecked)
			}
		}
		resolved, err := m.ResolveJSONChecked("", input)
		if err != nil {
			if !strings.HasPrefix(err.Error(), `unknown alias "`) {
				t.Fatalf("resolve failed with %v", err)
			}
			return
		}
		if resolved != unchecked {
			t.Fatalf("checked %q, unchecked %q", resolved, unchecked)
		}
		if !aliasesPlain(t, m) {
			return
		}
		if m.AliasifyJSON("", canon) == canon {
			if back := m.AliasifyJSON("", resolved); back != canon {
				t.Fatalf("aliasify(resolve(x)) = %q, want %q", back, canon)
			}
		}
		for _, u := range uuidsIn(m.AliasifyJSON("", input)) {
			if registered[u] {
				t.Fatalf("aliasify left registered %s in %q", u, input)
			}
		}
	})
}

// FuzzRegisterResponse: registration never fails, numbers without gaps, and
// registers only UUIDs of the response.
func FuzzRegisterResponse(f *testing.F) {
	vec := loadVectors[aliasVector](f, "aliases")["register-response-nested.json"]
	useTables(f, nil, vec.KnownPrefixes, vec.ResponseAliases)
	tools := []string{"no_such_tool"}
	for name := range toolResponseAliases {
		tools = append(tools, name)
	}
	sort.Strings(tools)
	addSeeds(f, func(mask uint16, s string) { f.Add(mask, uint8(len(s)), s) })
	f.Fuzz(func(t *testing.T, mask uint16, tool uint8, response string) {
		m := fuzzManager(mask)
		offered := registeredUUIDs(t, m)
		for _, u := range append(uuidsIn(canonical(response)), uuidsIn(response)...) {
			offered[u] = true
		}
		m.RegisterResponseJSON(tools[int(tool)%len(tools)], response)
		expectConsistent(t, m)
		for u := range registeredUUIDs(t, m) {
			if !offered[u] {
				t.Fatalf("registered %s, not in %q", u, response)
			}
		}
		b, _ := m.ExportState()
		copy := NewAliasManager()
		if err := copy.RestoreState(b); err != nil {
			t.Fatalf("restore of an export: %v", err)
		}
		if c, _ := copy.ExportState(); string(c) != string(b) {
			t.Fatalf("restore changed the state: %s → %s", b, c)
		}
	})
}

// FuzzRestoreState: a state is taken (and then consistent) or refused with
// "restore alias state: …", the state left as it was.
func FuzzRestoreState(f *testing.F) {
	useTables(f, nil, []string{"acct"}, nil)
	for i := range fuzzPool {
		b, _ := fuzzManager(uint16(1<<(i+1) - 1)).ExportState()
		f.Add(uint16(i), b)
	}
	addSeeds(f, func(mask uint16, s string) { f.Add(mask, []byte(s)) })
	f.Fuzz(func(t *testing.T, mask uint16, data []byte) {
		m := fuzzManager(mask)
		before, _ := m.ExportState()
		if err := m.RestoreState(data); err != nil {
			if !strings.HasPrefix(err.Error(), "restore alias state: ") {
				t.Fatalf("refused with %v", err)
			}
			if after, _ := m.ExportState(); string(after) != string(before) {
				t.Fatalf("a refused restore changed the state: %s → %s", before, after)
			}
			return
		}
		s := stateOf(t, m)
		seen := map[string]bool{}
		for a, u := range s.Aliases {
			if seen[u] || !isUUID(u) {
				t.Fatalf("restored %s → %q twice or not a UUID", a, u)
			}
			seen[u] = true
			prefix, digits, _ := splitAlias(a)
			var n int
			fmt.Sscan(digits, &n)
			if s.Counters[prefix] < n {
				t.Fatalf("restored %s above its counter %d", a, s.Counters[prefix])
			}
		}
		fresh := "ffffffff-ffff-4fff-bfff-ffffffffffff"
		if seen[fresh] {
			return
		}
		for _, p := range append([]string{"acct"}, sortedKeys(s.Counters)...) {
			b, _ := m.ExportState()
			copy := NewAliasManager()
			if err := copy.RestoreState(b); err != nil {
				t.Fatalf("restore of an export: %v", err)
			}
			if got := copy.Register(p, fresh); s.Aliases[got] != "" {
				t.Fatalf("register reissued %s", got)
			}
		}
	})
}

// FuzzExecute: a call returns a result or a ToolError of a documented
// reason, shows no registered UUID and none it was not given.
func FuzzExecute(f *testing.F) {
	conn, _ := startServer(f)
	addSeeds(f, func(mask uint16, s string) { f.Add(mask, mask%3 == 0, s) })
	f.Fuzz(func(t *testing.T, mask uint16, strict bool, args string) {
		e := NewExecutor(conn)
		m := e.GetAliasManager()
		for i, p := range fuzzPool {
			if mask&(1<<i) != 0 {
				m.Register(p[0], p[1])
			}
		}
		tool := "fixup_loose"
		if strict {
			tool = "fixup_strict"
		}
		out, err := e.Execute(context.Background(), tool, args)
		if err != nil {
			var te *ToolError
			if !errors.As(err, &te) || (te.Reason != "unknown-alias" && te.Reason != "invalid-arguments") {
				t.Fatalf("%s(%q) failed with %#v", tool, args, err)
			}
			out = te.Message
		}
		registered := registeredUUIDs(t, m)
		given := map[string]bool{}
		for _, u := range uuidsIn(canonical(args)) {
			given[u] = true
		}
		plain := aliasesPlain(t, m)
		for _, u := range uuidsIn(out) {
			if plain && registered[u] {
				t.Fatalf("%s(%q) shows registered %s: %s", tool, args, u, out)
			}
			if !given[u] && !registered[u] {
				t.Fatalf("%s(%q) shows %s, never given: %s", tool, args, u, out)
			}
		}
	})
}
