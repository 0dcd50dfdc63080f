// Reads {"patterns": [...], "samples": [...]} on stdin and writes, for each
// pattern, whether Go's regexp (RE2 syntax, as protovalidate-go evaluates
// `string.pattern`) compiles it and which samples it matches: the reference
// side of generator/test/validate-pattern.test.ts.
package main

import (
	"encoding/json"
	"os"
	"regexp"
)

type input struct {
	Patterns []string `json:"patterns"`
	Samples  []string `json:"samples"`
}

type result struct {
	Error   string `json:"error,omitempty"`
	Matches []bool `json:"matches"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	out := make([]result, 0, len(in.Patterns))
	for _, p := range in.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			out = append(out, result{Error: err.Error(), Matches: []bool{}})
			continue
		}
		m := make([]bool, len(in.Samples))
		for i, s := range in.Samples {
			m[i] = re.MatchString(s)
		}
		out = append(out, result{Matches: m})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
