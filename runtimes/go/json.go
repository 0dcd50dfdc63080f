//aitools:inline aliases executors toolsearch

package aitools

import (
	"encoding/json"
	"sort"
	"strings"
)

// decodeJSON decodes exactly one JSON value, keeping numbers as written.
func decodeJSON(s string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, strings.Trim(s[dec.InputOffset():], " \t\r\n") == ""
}

// encodeJSON writes v with object keys sorted and numbers as decoded.
func encodeJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// sortedKeys returns the keys of obj in byte order.
func sortedKeys[V any](obj map[string]V) []string {
	keys := make([]string, 0, len(obj))
	for key := range obj {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// quote writes s as a JSON string for a message: '"' and '\' escaped, \b \f
// \n \r \t for those controls, other characters below U+0020 as \u00XX, and
// everything else as it is (unlike %q, which escapes some non-ASCII).
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// joinPath is the path of key below path, as every message writes field
// paths: keys joined by ".", the root's keys alone.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
