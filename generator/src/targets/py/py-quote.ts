import { pyConfusableRanges } from "./py-confusables.js";

/**
 * Python string literals, written the way `ruff format` writes them, so the
 * generated module is formatter-stable as generated, and so that `ruff
 * check` finds no ambiguous character in them (RUF001).
 *
 * The quote is ruff's choice for a normal (non-raw, single-line) string:
 * double quotes, unless the value holds more `"` than `'`. Inside, only
 * what must be escaped is: the backslash, the chosen quote, and every
 * character Python's `str.isprintable()` rejects (controls, format
 * characters, line and paragraph separators, spaces other than U+0020,
 * surrogates, private-use and unassigned code points), as `\n`, `\r`, `\t`
 * or a lower-case `\xhh`, `\uhhhh`, `\Uhhhhhhhh` escape (ruff lower-cases
 * hex escapes). Every other character, including non-ASCII letters and
 * emoji, is written as itself: the module is UTF-8, except the characters
 * ruff would report as ambiguous (an en dash or curly quote from a proto
 * comment; see escapeConfusables). `value` is well-formed (model text goes
 * through wellFormed).
 */
export function pyQuote(value: string): string {
  if (!nonPrintableAscii.test(value)) {
    return quotePrintableAscii(value);
  }
  let doubles = 0;
  let singles = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22) doubles++;
    else if (c === 0x27) singles++;
  }
  const quote = doubles > singles ? "'" : '"';
  // One pass of a regular expression over what may need an escape (the
  // rest is written as itself), not a test per character: a schema's JSON
  // is long (issue 13, point 3).
  const mayEscape = quote === '"' ? mayEscapeInDouble : mayEscapeInSingle;
  const body = value.replace(mayEscape, (c) => escapeChar(c, quote));
  if (!anyConfusable.test(body)) {
    return quote + body + quote;
  }
  return quote + escapeConfusables(body) + quote;
}

const nonPrintableAscii = /[^\x20-\x7e]/;
const backslashOrSingle = /[\\']/g;

/**
 * pyQuote of printable ASCII, where only the backslash and the quote are
 * escaped: native searches and at most one replacement, no callback per
 * character (a schema's JSON is long and full of `"`; issue 13, point 3).
 */
function quotePrintableAscii(value: string): string {
  // Only whether `"` outnumber `'` matters: count the (rarer) `'`, then
  // the `"` only up to one more.
  const singles = countUpTo(value, "'", Infinity);
  if (countUpTo(value, '"', singles + 1) > singles) {
    return "'" + value.replace(backslashOrSingle, "\\$&") + "'";
  }
  // Between double quotes, JSON.stringify escapes exactly `\` and `"` of
  // printable ASCII, as `\\` and `\"`.
  return JSON.stringify(value);
}

/** How many times `c` occurs in `s`, counting no further than `limit`. */
function countUpTo(s: string, c: string, limit: number): number {
  let n = 0;
  for (let i = s.indexOf(c); i >= 0 && n < limit; i = s.indexOf(c, i + 1)) {
    n++;
  }
  return n;
}

// Characters str.isprintable() rejects: categories Cc, Cf, Cs, Co, Cn, Zl,
// Zp and Zs (U+0020 excepted, below).
const nonPrintable = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
// Every character escapeChar changes between double (single) quotes: the
// backslash, the quote and the non-printable ones, U+0020 aside.
const mayEscapeInDouble =
  /(?! )[\\"\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;
const mayEscapeInSingle =
  /(?! )[\\'\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;

function escapeChar(c: string, quote: string): string {
  switch (c) {
    case "\\":
      return "\\\\";
    case quote:
      return "\\" + quote;
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case " ":
      return c;
  }
  // A lone surrogate is one UTF-16 unit; \p{Cs} matches it only with the
  // u flag, so test its code unit directly too.
  const code = c.codePointAt(0)!;
  if (!nonPrintable.test(c) && !(code >= 0xd800 && code <= 0xdfff)) {
    return c;
  }
  return hexEscape(code);
}

/** `\xhh`, `\uhhhh` or `\Uhhhhhhhh`, lower-case as ruff writes them. */
function hexEscape(code: number): string {
  const hex = code.toString(16);
  if (code <= 0xff) return "\\x" + hex.padStart(2, "0");
  if (code <= 0xffff) return "\\u" + hex.padStart(4, "0");
  return "\\U" + hex.padStart(8, "0");
}

/** One character class of the characters ruff reports as ambiguous. */
function confusableClass(): string {
  let set = "";
  for (let i = 0; i < pyConfusableRanges.length; i += 2) {
    const start = pyConfusableRanges[i]!;
    const end = pyConfusableRanges[i + 1]!;
    set += `\\u{${start.toString(16)}}`;
    if (end > start) set += `-\\u{${end.toString(16)}}`;
  }
  return `[${set}]`;
}

const confusableSet = confusableClass();
const anyConfusable = new RegExp(confusableSet, "u");
const isConfusable = new RegExp(`^${confusableSet}$`, "u");
// A letter or digit, as Rust's char::is_alphanumeric (which ruff uses to
// cut words) sees it.
const isAlphanumeric = /^[\p{Alphabetic}\p{N}]$/u;

/**
 * The literal's body with the characters ruff would report as ambiguous
 * written as escapes. ruff reads the body as written (an escape is ASCII)
 * and cuts it into words, runs of letters and digits. It reports an
 * ambiguous character that is not a letter or digit (an en dash, a curly
 * quote) wherever it is, and the ambiguous letters of a word that holds an
 * ASCII letter or digit, or only ambiguous ones: "а" alone, or the "е" of
 * "vаlue", but not the "р" of "Привет" (a Russian word, whose "П" is
 * unambiguous). Escaping the first ambiguous letter of a reported word
 * puts hex digits (ASCII) before the rest of it, so every ambiguous letter
 * of that word is escaped, and the word after an escaped character gains
 * the escape's last digit. A Russian or Greek word stays as written unless
 * it follows an escape or is all ambiguous.
 */
function escapeConfusables(body: string): string {
  let out = "";
  let wordStart = 0;
  let ascii = false; // the word holds an ASCII letter or digit
  let unambiguous = false; // … a letter or digit outside ASCII, not ambiguous
  let ambiguous = false; // … an ambiguous letter or digit
  const endWord = (end: number) => {
    const word = body.slice(wordStart, end);
    out += ambiguous && (ascii || !unambiguous) ? escapeAll(word) : word;
  };
  for (let i = 0; i < body.length;) {
    const code = body.codePointAt(i)!;
    const c = String.fromCodePoint(code);
    const next = i + c.length;
    if (code < 0x80 ? !/[0-9A-Za-z]/.test(c) : !isAlphanumeric.test(c)) {
      endWord(i);
      if (code >= 0x80 && isConfusable.test(c)) {
        out += hexEscape(code);
        ascii = true; // the escape's last hex digit starts the next word
      } else {
        out += c;
        ascii = false;
      }
      unambiguous = ambiguous = false;
      wordStart = next;
    } else if (code < 0x80) {
      ascii = true;
    } else if (isConfusable.test(c)) {
      ambiguous = true;
    } else {
      unambiguous = true;
    }
    i = next;
  }
  endWord(body.length);
  return out;
}

/** `word` with each ambiguous character written as an escape. */
function escapeAll(word: string): string {
  let out = "";
  for (const c of word) {
    out += isConfusable.test(c) ? hexEscape(c.codePointAt(0)!) : c;
  }
  return out;
}
