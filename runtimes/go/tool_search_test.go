package aitools

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// smallToolSearch is a hand-made index of three tools: "a_links_create"
// (create 1, link 2), "b_links_get" (get 1, link 1), "c_notes_get"
// (get 1, note 1); "remove" means "delete", "links" means "link".
const smallToolSearch = `{"version":1,
 "namespaces":[
  {"name":"LinkService","description":"Links.","tools":[{"tool":"a_links_create","function":"CreateLink"},{"tool":"b_links_get","function":"GetLink"}]},
  {"name":"NoteService","description":"Notes.","tools":[{"tool":"c_notes_get","function":"GetNote"}]}],
 "index":{"version":2,"k1":1.2,"b":0.75,
  "names":["a_links_create","b_links_get","c_notes_get"],
  "norms":[1.5,1.2,1.2],
  "idf":{"create":1.0,"get":0.5,"link":0.25,"note":1.0},
  "postings":{"create":[[0,1]],"get":[[1,1],[2,1]],"link":[[0,2],[1,1]],"note":[[2,1]]},
  "stopWords":["a","the"],
  "queryTerms":{"links":["link"],"fetch":["get"],"make":["create","link"]}}}`

func TestTokenizeToolQuery(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"listInstances", []string{"list", "instances"}},
		{"HTTPServer", []string{"http", "server"}},
		{"get_link-by ID v1", []string{"get", "link", "by", "id", "v1"}},
		{"ipv6Address2FA", []string{"ipv6", "address2", "fa"}},
		{"ABCdEFg", []string{"ab", "cd", "e", "fg"}},
		{"caf\u00e9 Stra\u00dfe na\u00efve", []string{"caf", "stra", "e", "na", "ve"}},
		{"  ", nil},
		{"", nil},
	} {
		if got := tokenizeToolQuery(c.text); !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("tokenizeToolQuery(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestRankTools(t *testing.T) {
	s := DefineToolSearch(smallToolSearch)
	score := func(idf, tf, norm float64) float64 { return idf * (tf * 2.2) / (tf + norm) }
	for _, c := range []struct {
		query string
		limit int
		want  []ToolHit
	}{
		// "get" ties b and c (same norm): the document order breaks it.
		{"get", 5, []ToolHit{{"b_links_get", score(0.5, 1, 1.2)}, {"c_notes_get", score(0.5, 1, 1.2)}}},
		{"get", 1, []ToolHit{{"b_links_get", score(0.5, 1, 1.2)}}},
		// "links" becomes "link"; "the" is a stop word; "get" counts once.
		{"the links GET get", 5, []ToolHit{
			{"b_links_get", score(0.25, 1, 1.2) + score(0.5, 1, 1.2)},
			{"c_notes_get", score(0.5, 1, 1.2)},
			{"a_links_create", score(0.25, 2, 1.5)},
		}},
		// "make" stands for two terms; "link" after it adds nothing more.
		{"makeLink", 5, []ToolHit{
			{"a_links_create", score(1, 1, 1.5) + score(0.25, 2, 1.5)},
			{"b_links_get", score(0.25, 1, 1.2)},
		}},
		{"the a", 5, []ToolHit{}},
		{"unknown words", 5, []ToolHit{}},
		{"", 5, []ToolHit{}},
	} {
		got, err := RankTools(s, c.query, c.limit)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("RankTools(%q, %d) = %v, %v; want %v", c.query, c.limit, got, err, c.want)
		}
	}
	if got, err := RankTools(s, "get", 0); err == nil || err.Error() != `limit "0": ask for at least 1 tool` {
		t.Errorf("limit 0: %v, %v", got, err)
	}
	ns, err := s.Namespaces()
	if err != nil || len(ns) != 2 || ns[1].Tools[0] != (ToolNamespaceTool{"c_notes_get", "GetNote"}) {
		t.Errorf("Namespaces() = %v, %v", ns, err)
	}
}

func TestToolSearchRefusesBadData(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{`, "tool search data: invalid JSON"},
		{`{"version":2}`, "tool search data: version 2, this runtime reads 1"},
		{`{"version":1,"namespaces":[],"index":{"version":1}}`, "tool search index: version 1, this runtime reads 2"},
		{strings.Replace(smallToolSearch, `"norms":[1.5,1.2,1.2]`, `"norms":[1.5]`, 1), "tool search index: 1 norms for 3 names"},
		{strings.Replace(smallToolSearch, `"note":[[2,1]]`, `"note":[[3,1]]`, 1), `tool search index: term "note" has the posting [3, 1] outside the 3 documents`},
		{strings.Replace(smallToolSearch, `"note":1.0}`, `"nothing":1.0}`, 1), `tool search index: term "note" has postings but no idf`},
		{strings.Replace(smallToolSearch, `"GetNote"`, `"GetLink"`, 1), ""},
		{strings.Replace(smallToolSearch, `"c_notes_get","function"`, `"b_links_get","function"`, 1), `tool search data: tool "b_links_get" is in two namespaces`},
		{strings.Replace(smallToolSearch, `"function":"GetLink"`, `"function":"CreateLink"`, 1), `tool search data: namespace "LinkService" holds the function "CreateLink" twice`},
	} {
		_, err := RankTools(DefineToolSearch(c.text), "get", 5)
		if c.want == "" {
			if err != nil {
				t.Errorf("%.40s...: %v", c.text, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.60s...: error %v, want %q...", c.text, err, c.want)
		}
	}
	if _, err := RankTools(nil, "get", 5); err == nil {
		t.Error("nil ToolSearch: no error")
	}
}

// TestRankToolsFloat checks the score of a document is the sum in query
// term order, each term's share rounded as written.
func TestRankToolsFloat(t *testing.T) {
	hits, err := RankTools(DefineToolSearch(smallToolSearch), "link create", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := 0 + 0.25*(2*2.2)/(2+1.5)
	want += 1 * (1 * 2.2) / (1 + 1.5)
	if hits[0].Score != want || math.IsNaN(hits[0].Score) {
		t.Errorf("score %v, want %v", hits[0].Score, want)
	}
}

// rankingVectors is e2e/vectors/tool-search/ranking.json: per case an index
// (JSON text) and queries with the expected names and scores, or an error.
type rankingVectors struct {
	Cases []struct {
		Name    string `json:"name"`
		Index   string `json:"index"`
		Queries []struct {
			Query    string    `json:"query"`
			Limit    int       `json:"limit"`
			Expected []ToolHit `json:"expected"`
			Error    string    `json:"error"`
		} `json:"queries"`
	} `json:"cases"`
}

// TestRankingVectors ranks every query of the shared vectors: the names in
// order and the scores exactly (as parsed doubles), or the error text.
func TestRankingVectors(t *testing.T) {
	vectors := loadVectors[rankingVectors](t, "tool-search")["ranking.json"]
	queries := 0
	for _, c := range vectors.Cases {
		s := DefineToolSearch(`{"version":1,"namespaces":[],"index":` + c.Index + `}`)
		for _, q := range c.Queries {
			queries++
			got, err := RankTools(s, q.Query, q.Limit)
			if q.Error != "" {
				if err == nil || err.Error() != q.Error {
					t.Errorf("%s: RankTools(%q, %d): error %v, want %q", c.Name, q.Query, q.Limit, err, q.Error)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: RankTools(%q, %d): %v", c.Name, q.Query, q.Limit, err)
				continue
			}
			if len(got) != len(q.Expected) {
				t.Errorf("%s: RankTools(%q, %d): %d hits %v, want %d %v", c.Name, q.Query, q.Limit, len(got), got, len(q.Expected), q.Expected)
				continue
			}
			for i := range got {
				if got[i] != q.Expected[i] {
					t.Errorf("%s: RankTools(%q, %d)[%d] = %v (%b), want %v (%b)", c.Name, q.Query, q.Limit, i, got[i], got[i].Score, q.Expected[i], q.Expected[i].Score)
				}
			}
		}
	}
	if len(vectors.Cases) < 3 || queries < 50 {
		t.Errorf("ranking.json: %d cases, %d queries; want the 3 cases and their queries", len(vectors.Cases), queries)
	}
}
