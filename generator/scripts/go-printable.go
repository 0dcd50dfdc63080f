//go:build ignore

// Run with `go run scripts/go-printable.go > /tmp/t` and paste the ranges
// into src/go/go-printable.ts when Go updates its Unicode tables.

package main

import (
	"fmt"
	"strconv"
	"unicode"
)

// Prints the ranges of non-ASCII code points strconv.IsPrint accepts.
func main() {
	fmt.Println(unicode.Version)
	start := -1
	n := 0
	for r := rune(0x80); r <= unicode.MaxRune+1; r++ {
		p := r <= unicode.MaxRune && strconv.IsPrint(r)
		if p && start < 0 {
			start = int(r)
		} else if !p && start >= 0 {
			fmt.Printf("0x%x,0x%x,", start, int(r)-1)
			n++
			start = -1
		}
	}
	fmt.Println()
	fmt.Println(n)
}
