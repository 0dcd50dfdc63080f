//aitools:inline aliases

package aitools

import "strings"

// isUUID reports whether s is 8-4-4-4-12 hexadecimal digits.
func isUUID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	for i := 0; i < 36; i++ {
		if !isHex[s[i]] && i != 8 && i != 13 && i != 18 && i != 23 {
			return false
		}
	}
	return true
}

// isHex marks the hexadecimal digits, either case.
var isHex = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

// isUUIDByte reports whether c may touch a UUID: a hex digit or '-'.
func isUUIDByte(c byte) bool {
	return c == '-' || isHex[c]
}

// nextUUID returns the index of the first UUID in s at or after from that no
// hex digit or '-' touches, or -1. It jumps from one '-' to the next: a UUID
// starts 8 bytes before its first '-'.
func nextUUID(s string, from int) int {
	for dash := from + 8; dash+28 <= len(s); dash++ {
		next := strings.IndexByte(s[dash:len(s)-27], '-')
		if next < 0 {
			return -1
		}
		dash += next
		i := dash - 8
		if !isUUID(s[i : i+36]) {
			continue
		}
		if (i > 0 && isUUIDByte(s[i-1])) || (i+36 < len(s) && isUUIDByte(s[i+36])) {
			continue
		}
		return i
	}
	return -1
}
