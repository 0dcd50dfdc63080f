//aitools:inline toolsearch

package aitools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The tool-search data the generator writes with tool_search=true
// (docs/tool-search.md): the tools grouped in namespaces, one per gRPC
// service (a big service split by resource), and a BM25 index over the
// tools, built at generation. RankTools runs the query pipeline every
// runtime runs the same way (the TypeScript and Python runtimes have the
// same function); e2e/vectors/tool-search/ranking.json pins its names and
// scores.

// ToolSearch is the parsed tool-search data of a generated file. Make one
// with DefineToolSearch; it is safe for concurrent use.
type ToolSearch struct {
	once sync.Once
	text string
	data *toolSearchData
	err  error
}

// ToolNamespace is one namespace of a ToolSearch: a gRPC service, or one
// resource of a big service, with its tools.
type ToolNamespace struct {
	// Name is unique in the data and valid as an OpenAI namespace name.
	Name string `json:"name"`
	// Description is what the model reads before any search.
	Description string              `json:"description"`
	Tools       []ToolNamespaceTool `json:"tools"`
}

// ToolNamespaceTool is one tool of a namespace: its tool name, and its
// function name inside the namespace (the method's name).
type ToolNamespaceTool struct {
	Tool     string `json:"tool"`
	Function string `json:"function"`
}

// ToolHit is one tool RankTools found, and its BM25 score.
type ToolHit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// toolSearchData is the JSON of a ToolSearch, parsed and checked.
type toolSearchData struct {
	Version    int             `json:"version"`
	Namespaces []ToolNamespace `json:"namespaces"`
	Index      toolSearchIndex `json:"index"`
	// byTool is the namespace and function of each tool;
	// byFunction the tool of "<namespace>\x00<function>".
	byTool     map[string]ToolNamespaceTool
	byFunction map[string]string
	namespace  map[string]int // tool -> its namespace's index
	stopWords  map[string]bool
}

// toolSearchIndex is the BM25 index of the tools (version 2): per
// document its precomputed norm, per term its idf and postings
// ([document, term frequency] pairs), and what a query token means.
type toolSearchIndex struct {
	Version    int                 `json:"version"`
	K1         float64             `json:"k1"`
	B          float64             `json:"b"`
	Names      []string            `json:"names"`
	Norms      []float64           `json:"norms"`
	IDF        map[string]float64  `json:"idf"`
	Postings   map[string][][2]int `json:"postings"`
	StopWords  []string            `json:"stopWords"`
	QueryTerms map[string][]string `json:"queryTerms"`
}

// DefineToolSearch returns the tool-search data held by json (what the
// generator writes), parsed on first use; data that does not parse makes
// each use fail with the reason.
func DefineToolSearch(json string) *ToolSearch {
	return &ToolSearch{text: json}
}

// parsed returns the data, parsing it on first use.
func (s *ToolSearch) parsed() (*toolSearchData, error) {
	if s == nil {
		return nil, fmt.Errorf("tool search: no data; pass the generated file's ToolSearchData")
	}
	s.once.Do(func() {
		s.data, s.err = parseToolSearch(s.text)
		s.text = ""
	})
	return s.data, s.err
}

// Namespaces returns the namespaces, in the generated order. Callers must
// not change them.
func (s *ToolSearch) Namespaces() ([]ToolNamespace, error) {
	data, err := s.parsed()
	if err != nil {
		return nil, err
	}
	return data.Namespaces, nil
}

// parseToolSearch parses and checks the generated JSON, so that ranking
// never meets an index out of range.
func parseToolSearch(text string) (*toolSearchData, error) {
	var data toolSearchData
	if err := json.Unmarshal([]byte(text), &data); err != nil {
		return nil, fmt.Errorf("tool search data: invalid JSON (%v); pass the text protoc-gen-ai-tools wrote with tool_search=true", err)
	}
	index := &data.Index
	switch {
	case data.Version != 1:
		return nil, fmt.Errorf("tool search data: version %d, this runtime reads 1; regenerate with the protoc-gen-ai-tools of this runtime", data.Version)
	case index.Version != 2:
		return nil, fmt.Errorf("tool search index: version %d, this runtime reads 2; regenerate with the protoc-gen-ai-tools of this runtime", index.Version)
	case len(index.Norms) != len(index.Names):
		return nil, fmt.Errorf("tool search index: %d norms for %d names; regenerate it", len(index.Norms), len(index.Names))
	}
	for term, list := range index.Postings {
		if _, ok := index.IDF[term]; !ok {
			return nil, fmt.Errorf("tool search index: term %s has postings but no idf; regenerate it", quote(term))
		}
		for _, p := range list {
			if p[0] < 0 || p[0] >= len(index.Names) || p[1] < 1 {
				return nil, fmt.Errorf("tool search index: term %s has the posting [%d, %d] outside the %d documents; regenerate it", quote(term), p[0], p[1], len(index.Names))
			}
		}
	}
	data.stopWords = make(map[string]bool, len(index.StopWords))
	for _, w := range index.StopWords {
		data.stopWords[w] = true
	}
	data.byTool = map[string]ToolNamespaceTool{}
	data.byFunction = map[string]string{}
	data.namespace = map[string]int{}
	for i, ns := range data.Namespaces {
		for _, t := range ns.Tools {
			key := ns.Name + "\x00" + t.Function
			if _, dup := data.byFunction[key]; dup {
				return nil, fmt.Errorf("tool search data: namespace %s holds the function %s twice; regenerate it", quote(ns.Name), quote(t.Function))
			}
			if _, dup := data.byTool[t.Tool]; dup {
				return nil, fmt.Errorf("tool search data: tool %s is in two namespaces; regenerate it", quote(t.Tool))
			}
			data.byFunction[key] = t.Tool
			data.byTool[t.Tool] = t
			data.namespace[t.Tool] = i
		}
	}
	return &data, nil
}

// namespaceOf returns the namespace of tool, nil for a tool in none.
func (data *toolSearchData) namespaceOf(tool string) *ToolNamespace {
	i, ok := data.namespace[tool]
	if !ok {
		return nil
	}
	return &data.Namespaces[i]
}

// RankTools returns the tools of s that match query, best first, at most
// limit (at least 1). The pipeline, the same in every runtime: tokenize
// the query (tokenizeToolQuery), drop the index's stop words, replace each
// token by its query terms (the token itself when it has none), keep each
// term once in first-appearance order and only those the index holds, and
// score each document, adding in that order
// idf * (tf * (k1 + 1)) / (tf + norm). Scores above 0 only, ties broken by
// name bytes (the document order).
func RankTools(s *ToolSearch, query string, limit int) ([]ToolHit, error) {
	if limit < 1 {
		return nil, fmt.Errorf("limit %s: ask for at least 1 tool", quote(strconv.Itoa(limit)))
	}
	data, err := s.parsed()
	if err != nil {
		return nil, err
	}
	index := &data.Index
	scores := map[int]float64{}
	seen := map[string]bool{}
	for _, token := range tokenizeToolQuery(query) {
		if data.stopWords[token] {
			continue
		}
		terms, ok := index.QueryTerms[token]
		if !ok {
			terms = []string{token}
		}
		for _, term := range terms {
			if seen[term] {
				continue
			}
			seen[term] = true
			list, ok := index.Postings[term]
			if !ok {
				continue
			}
			idf := index.IDF[term]
			for _, p := range list {
				tf := float64(p[1])
				// Each operation rounded as written: no fused multiply-add.
				add := float64(idf*float64(tf*float64(index.K1+1))) / float64(tf+index.Norms[p[0]])
				scores[p[0]] = float64(scores[p[0]] + add)
			}
		}
	}
	docs := make([]int, 0, len(scores))
	for doc, score := range scores {
		if score > 0 {
			docs = append(docs, doc)
		}
	}
	sort.Slice(docs, func(i, j int) bool {
		a, b := scores[docs[i]], scores[docs[j]]
		return a > b || a == b && docs[i] < docs[j]
	})
	if len(docs) > limit {
		docs = docs[:limit]
	}
	hits := make([]ToolHit, len(docs))
	for i, doc := range docs {
		hits[i] = ToolHit{Name: index.Names[doc], Score: scores[doc]}
	}
	return hits, nil
}

// tokenizeToolQuery splits text as the generator's tokenizer does
// (generator/src/search/tokenize.ts), without dropping stop words: a
// boundary between an ASCII lower-case letter or digit and an upper-case
// letter, then before an upper-case letter followed by an upper-case and a
// lower-case letter; every byte that is not an ASCII letter or digit
// separates; tokens are lower-cased.
func tokenizeToolQuery(text string) []string {
	var spaced strings.Builder
	for i := 0; i < len(text); i++ {
		if i > 0 && isLowerOrDigit(text[i-1]) && isUpper(text[i]) {
			spaced.WriteByte(' ')
		}
		spaced.WriteByte(text[i])
	}
	s := spaced.String()
	spaced.Reset()
	for i := 0; i < len(s); i++ {
		spaced.WriteByte(s[i])
		if i+2 < len(s) && isUpper(s[i]) && isUpper(s[i+1]) && 'a' <= s[i+2] && s[i+2] <= 'z' {
			spaced.WriteByte(' ')
		}
	}
	words := strings.FieldsFunc(spaced.String(), func(r rune) bool {
		return !(r < 0x80 && (isUpper(byte(r)) || isLowerOrDigit(byte(r))))
	})
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return words
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func isLowerOrDigit(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
