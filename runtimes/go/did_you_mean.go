//aitools:inline executors

package aitools

import (
	"strconv"
	"strings"
)

// unknownFieldMessage is the message of an unknown key among fields (the
// node's fields in schema order).
func unknownFieldMessage(key string, fields []string) string {
	return "unknown field; " + fieldChoices(key, fields)
}

// fieldChoices tells the model what an unknown key may have meant among
// fields: the suggestion, if any, and the valid fields, at most 20 then
// ", and N more".
func fieldChoices(key string, fields []string) string {
	if len(fields) == 0 {
		return "no fields are valid here"
	}
	var b strings.Builder
	if s, ok := didYouMean(key, fields); ok {
		b.WriteString("did you mean ")
		b.WriteString(quote(s))
		b.WriteString("? ")
	}
	b.WriteString("valid fields: ")
	for i, f := range fields {
		if i == 20 {
			b.WriteString(", and " + strconv.Itoa(len(fields)-20) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f)
	}
	return b.String()
}

// didYouMean picks the field a key most likely meant (docs/runtime.md,
// "Argument checks"): the first with the same spelling once lower-cased
// without '_' and '-', else the first at the smallest edit distance (code
// points, ASCII lower-cased, an adjacent swap one edit) when that distance
// is at most max(1, n/3) for a key of n code points.
func didYouMean(key string, fields []string) (string, bool) {
	norm := normalizeName(key)
	for _, f := range fields {
		if normalizeName(f) == norm {
			return f, true
		}
	}
	k := []rune(asciiLower(key))
	best, bestDist := "", -1
	for _, f := range fields {
		if d := editDistance(k, []rune(asciiLower(f))); bestDist < 0 || d < bestDist {
			best, bestDist = f, d
		}
	}
	if bestDist >= 0 && bestDist <= max(1, len(k)/3) {
		return best, true
	}
	return "", false
}

// normalizeName is s ASCII-lower-cased without '_' and '-'.
func normalizeName(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(asciiLower(s))
}

// asciiLower lower-cases the ASCII letters of s only.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of two adjacent code
// points cost one each.
func editDistance(a, b []rune) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
