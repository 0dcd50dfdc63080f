//aitools:inline aliases

package aitools

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Names are the ids of response alias fields that take any value
// (responseAliasField.anyValue, google.longrunning.Operation.name): the
// alias manager registers them though they are not UUIDs, and shows them as
// aliases where they stand as a whole token (docs/runtime.md, "Response
// registration").

// maxNameBytes is the longest name a restored state may hold.
const maxNameBytes = 1024

// isAliasName reports whether s may be registered as a name: not empty, at most
// 1024 bytes of UTF-8, no control character (C0, DEL, C1).
func isAliasName(s string) bool {
	if s == "" || len(s) > maxNameBytes || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return false
		}
	}
	return true
}

// addName counts value for aliasify's names pass when it is not a UUID,
// and keeps it in spaced when it holds a byte that may touch a name.
func (m *AliasManager) addName(value string) {
	if value == "" || isUUID(value) {
		return
	}
	m.names++
	if strings.IndexFunc(value, func(r rune) bool { return r >= utf8.RuneSelf || !isTokenByte(byte(r)) }) < 0 {
		return
	}
	list := m.spaced[value[0]]
	i := sort.Search(len(list), func(i int) bool {
		return len(list[i]) < len(value) || len(list[i]) == len(value) && list[i] >= value
	})
	m.spaced[value[0]] = append(list[:i], append([]string{value}, list[i:]...)...)
}

// aliasifyNames replaces each registered name standing as a whole token in
// s by its alias, left to right, the longest name first at each place.
// A name of token bytes only stands at i exactly when it is the run of
// token bytes starting there (one map lookup); a spaced one, which must
// then reach past that run, is tried first.
func (m *AliasManager) aliasifyNames(s string) string {
	if m.names == 0 {
		return s
	}
	var b strings.Builder
	done := 0
	for i := 0; i < len(s); i++ {
		if i > 0 && isTokenByte(s[i-1]) {
			continue
		}
		end := i
		for end < len(s) && isTokenByte(s[end]) {
			end++
		}
		alias, n := m.nameAt(s, i, end)
		if n == 0 {
			i = max(i, end-1)
			continue
		}
		b.WriteString(s[done:i])
		b.WriteString(alias)
		done = i + n
		i = done - 1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// nameAt is the alias and length of the longest name standing at s[i:],
// whose run of token bytes ends at end; n is 0 when none.
func (m *AliasManager) nameAt(s string, i, end int) (alias string, n int) {
	for _, name := range m.spaced[s[i]] {
		after := i + len(name)
		if strings.HasPrefix(s[i:], name) && (after == len(s) || !isTokenByte(s[after])) {
			return m.uuids[name], len(name)
		}
	}
	if run := s[i:end]; run != "" && !isUUID(run) {
		if alias, ok := m.uuids[run]; ok {
			return alias, len(run)
		}
	}
	return "", 0
}

// isTokenByte reports whether c may not touch a name: a letter, a digit,
// '_', '.', '/' or '-'.
func isTokenByte(c byte) bool {
	return c == '_' || c == '.' || c == '/' || c == '-' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
