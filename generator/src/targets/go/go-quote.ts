import { goPrintableRanges } from "./go-printable.js";

/** Go's strconv.IsPrint for a non-ASCII code point (binary search). */
function isPrintable(cp: number): boolean {
  let lo = 0;
  let hi = goPrintableRanges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < goPrintableRanges[2 * mid]!) {
      hi = mid - 1;
    } else if (cp > goPrintableRanges[2 * mid + 1]!) {
      lo = mid + 1;
    } else {
      return true;
    }
  }
  return false;
}

function quoteRune(c: string): string {
  switch (c) {
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\x07":
      return "\\a";
    case "\b":
      return "\\b";
    case "\f":
      return "\\f";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case "\v":
      return "\\v";
  }
  const cp = c.codePointAt(0)!;
  if (cp < 0x80) {
    return cp >= 0x20 && cp < 0x7f
      ? c
      : "\\x" + cp.toString(16).padStart(2, "0");
  }
  if (isPrintable(cp)) {
    return c;
  }
  return cp < 0x10000
    ? "\\u" + cp.toString(16).padStart(4, "0")
    : "\\U" + cp.toString(16).padStart(8, "0");
}

// Everything that is not plain printable ASCII.
const nonPrintableAscii = /[^\x20-\x7e]/;
// A control character: below U+0020.
const control = /[^\x20-\uffff]/;
// What JSON.stringify leaves as is and strconv.Quote may escape: DEL and
// every non-ASCII rune.
const delOrNonAscii = /[\x7f-\u{10ffff}]/gu;
const specialAll = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/gu;

/**
 * A double-quoted Go string literal, exactly as Go's strconv.Quote writes
 * it: printable runes raw, the rest escaped. `s` is well-formed (model text
 * goes through wellFormed).
 */
export function goQuote(s: string): string {
  // A schema's JSON is long and full of quotes (issue 13, point 3): quote
  // with the native JSON.stringify where strconv.Quote agrees with it, not
  // with a callback per character. Both escape `"` and `\` as `\"` and
  // `\\`; JSON.stringify writes every other rune but the controls (and
  // lone surrogates, which `s` has none of) as itself.
  if (!nonPrintableAscii.test(s)) {
    return JSON.stringify(s);
  }
  if (!control.test(s)) {
    return JSON.stringify(s).replace(delOrNonAscii, quoteRune);
  }
  return `"${s.replace(specialAll, quoteRune)}"`;
}

/**
 * A Go string literal of `s`: a raw one (`` `…` ``) when every rune of `s`
 * is printable (strconv.IsPrint) and none is a backquote, as JSON text
 * mostly is (shorter than escaping its quotes, and readable), else as
 * {@link goQuote} writes it.
 */
export function goRawQuote(s: string): string {
  const printable =
    !control.test(s) &&
    !s.includes("`") &&
    (s.match(delOrNonAscii) ?? []).every((c) => quoteRune(c) === c);
  return printable ? `\`${s}\`` : goQuote(s);
}
