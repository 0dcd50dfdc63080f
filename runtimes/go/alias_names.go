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

// addName keeps value for aliasify's second pass when it is not a UUID:
// names by first byte, longer first, then in byte order.
func (m *AliasManager) addName(value string) {
	if value == "" || isUUID(value) {
		return
	}
	list := m.names[value[0]]
	i := sort.Search(len(list), func(i int) bool {
		return len(list[i]) < len(value) || len(list[i]) == len(value) && list[i] >= value
	})
	m.names[value[0]] = append(list[:i], append([]string{value}, list[i:]...)...)
}

// aliasifyNames replaces each registered name standing as a whole token in
// s by its alias, left to right, the longest name first at each place.
func (m *AliasManager) aliasifyNames(s string) string {
	if len(m.names) == 0 {
		return s
	}
	var b strings.Builder
	done := 0
	for i := 0; i < len(s); i++ {
		if i > 0 && isTokenByte(s[i-1]) {
			continue
		}
		for _, name := range m.names[s[i]] {
			end := i + len(name)
			if !strings.HasPrefix(s[i:], name) || (end < len(s) && isTokenByte(s[end])) {
				continue
			}
			b.WriteString(s[done:i])
			b.WriteString(m.uuids[name])
			done = end
			i = end - 1
			break
		}
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// isTokenByte reports whether c may not touch a name: a letter, a digit,
// '_', '.', '/' or '-'.
func isTokenByte(c byte) bool {
	return c == '_' || c == '.' || c == '/' || c == '-' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
