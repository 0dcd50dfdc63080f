/**
 * RE2 patterns (protovalidate's `string.pattern`) as ECMA-262 patterns (JSON
 * Schema's `pattern`), for the subset both read the same way, with or
 * without the `u` flag. Anything else is refused, with the reason, and the
 * caller describes the rule instead of emitting a keyword a provider would
 * parse differently.
 *
 * Sources: RE2 syntax (github.com/google/re2/wiki/Syntax: `.` excludes only
 * `\n`; `\s` is `[\t\n\f\r ]`; `$` without `m` matches only at the end of
 * the text; `\pN`, `(?P<name>`, `(?i)`, `\C`, `\Q…\E`, `[[:alpha:]]`, octal
 * escapes; no lookaround, backreferences or possessive quantifiers) and
 * ECMA-262 (`.` also excludes `\r`, U+2028 and U+2029; `\s` also matches
 * `\v` and Unicode spaces; a lone `]`, `{` or `}`, or an identity escape of
 * a letter, is a syntax error with `u`).
 */

/** The translation of a pattern, or why it has none. */
export type PatternTranslation =
  | { readonly ok: true; readonly pattern: string }
  | { readonly ok: false; readonly reason: string };

/** Characters ECMA-262 lets a `\` escape outside a class with `u`. */
const syntaxChars = new Set("^$\\.*+?()[]{}|/");

/** RE2 escapes that read the same in ECMA-262. */
const sameEscapes = new Set("dDwWbBtnrfv");

const reSpace = "\\t\\n\\f\\r ";

/** Why a pattern has no translation. */
type Refusal = { readonly ok: false; readonly reason: string };

function refuse(reason: string): Refusal {
  return { ok: false, reason };
}

/**
 * Translate the RE2 pattern `re2` to an ECMA-262 pattern that matches the
 * same strings, or say why it cannot.
 */
export function translateRe2Pattern(re2: string): PatternTranslation {
  let out = "";
  let i = 0;
  // Whether the previous item can take a quantifier.
  let quantifiable = false;
  let depth = 0;
  while (i < re2.length) {
    const c = re2[i]!;
    if (c === ")" && depth === 0) {
      return refuse("unbalanced )");
    }
    const piece = pieceAt(re2, i, quantifiable);
    if (!piece.ok) {
      return piece;
    }
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    out += piece.text;
    i = piece.next;
    quantifiable = piece.quantifiable;
  }
  if (depth !== 0) {
    return refuse("unbalanced (");
  }
  for (const flags of ["", "u"]) {
    try {
      new RegExp(out, flags);
    } catch {
      return refuse(`the translation ${JSON.stringify(out)} is not valid`);
    }
  }
  return { ok: true, pattern: out };
}

/** The item of `re2` at `i` (after an item that takes a quantifier or not), translated. */
function pieceAt(
  re2: string,
  i: number,
  quantifiable: boolean,
): Piece | Refusal {
  const c = re2[i]!;
  const code = re2.codePointAt(i)!;
  if (code > 0xffff) {
    return refuse(
      `${JSON.stringify(String.fromCodePoint(code))} is outside the BMP (one character in RE2, two without the u flag)`,
    );
  }
  switch (c) {
    case "\\":
      return escapeOutside(re2, i);
    case "[": {
      const cls = characterClass(re2, i);
      return cls.ok ? { ...cls, quantifiable: true } : cls;
    }
    case "(":
      return group(re2, i);
    case ")":
      return literal(")", i, true);
    case "*":
    case "+":
    case "?":
    case "{":
      return repetition(re2, i, quantifiable);
    case ".":
      return literal("[^\\n]", i, true);
    case "^":
    case "$":
    case "|":
      return literal(c, i, false);
    case "]":
    case "}":
      return literal(`\\${c}`, i, true);
    default:
      return literal(c, i, true);
  }
}

/** `text` for the one character at `i`. */
function literal(text: string, i: number, quantifiable: boolean): Piece {
  return { ok: true, text, next: i + 1, quantifiable };
}

/** A group's opening at `i`: `(` or `(?:`; RE2's other groups refused. */
function group(re2: string, i: number): Piece | Refusal {
  if (re2[i + 1] !== "?") {
    return literal("(", i, false);
  }
  if (re2[i + 2] !== ":") {
    return refuse(
      `group ${JSON.stringify(re2.slice(i, i + 4))} (flags, named groups and lookaround differ or are RE2-only)`,
    );
  }
  return { ok: true, text: "(?:", next: i + 3, quantifiable: false };
}

/**
 * A repetition at `i` after an item that takes one (`quantifiable`) or
 * not, with its lazy `?`; a `{` that starts none is a literal, as in RE2.
 */
function repetition(
  re2: string,
  i: number,
  quantifiable: boolean,
): Piece | Refusal {
  const c = re2[i]!;
  const q = quantifier(re2, i);
  if (q === undefined) {
    if (c === "{") {
      // RE2 reads a `{` that starts no repetition as a literal.
      return literal("\\{", i, true);
    }
    return refuse(`${JSON.stringify(c)} repeats nothing`);
  }
  if (q === "invalid") {
    return refuse("repeat count above 1000 or going down");
  }
  if (!quantifiable) {
    return refuse(`${JSON.stringify(q)} repeats nothing`);
  }
  let next = i + q.length;
  let text = q;
  if (re2[next] === "?") {
    text += "?";
    next++;
  } else if (re2[next] === "+") {
    return refuse("possessive quantifier");
  }
  if (re2[next] === "*" || re2[next] === "+" || re2[next] === "?") {
    return refuse("repeated quantifier");
  }
  return { ok: true, text, next, quantifiable: false };
}

/**
 * A repetition `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}` at `i`, as written;
 * undefined for a `{` that starts none, "invalid" for counts RE2 refuses.
 */
function quantifier(re2: string, i: number): string | undefined {
  const c = re2[i];
  if (c !== "{") {
    return c;
  }
  const m = /^\{(\d{1,4})(,(\d{1,4})?)?\}/.exec(re2.slice(i));
  if (m === null) {
    return undefined;
  }
  const lo = Number(m[1]);
  const hi = m[3] === undefined ? lo : Number(m[3]);
  // RE2 refuses counts above 1000 and ranges that go down.
  if (lo > 1000 || hi > 1000 || hi < lo) {
    return "invalid";
  }
  return m[0];
}

interface Piece {
  readonly ok: true;
  readonly text: string;
  readonly next: number;
  readonly quantifiable: boolean;
}

/** An escape outside a character class. */
function escapeOutside(
  re2: string,
  i: number,
): Piece | { ok: false; reason: string } {
  const e = re2[i + 1];
  if (e === undefined) {
    return { ok: false, reason: "trailing \\" };
  }
  if (e === "s") {
    return { ok: true, text: `[${reSpace}]`, next: i + 2, quantifiable: true };
  }
  if (e === "S") {
    return { ok: true, text: `[^${reSpace}]`, next: i + 2, quantifiable: true };
  }
  if (e === "b" || e === "B") {
    return { ok: true, text: `\\${e}`, next: i + 2, quantifiable: false };
  }
  const inner = escapeCommon(re2, i);
  if (!inner.ok) {
    return inner;
  }
  return { ...inner, quantifiable: true };
}

/** An escape inside a character class. */
function escapeInClass(
  re2: string,
  i: number,
): Piece | { ok: false; reason: string } {
  const e = re2[i + 1];
  if (e === "s") {
    return { ok: true, text: reSpace, next: i + 2, quantifiable: true };
  }
  if (e === "S" || e === "b" || e === "B") {
    return {
      ok: false,
      reason: `\\${e} inside a character class`,
    };
  }
  if (e === "-") {
    return { ok: true, text: "\\-", next: i + 2, quantifiable: true };
  }
  const inner = escapeCommon(re2, i);
  if (!inner.ok) {
    return inner;
  }
  return { ...inner, quantifiable: true };
}

/** Escapes that read the same inside and outside a class. */
function escapeCommon(
  re2: string,
  i: number,
): { ok: true; text: string; next: number } | { ok: false; reason: string } {
  const e = re2[i + 1]!;
  if (sameEscapes.has(e)) {
    return { ok: true, text: `\\${e}`, next: i + 2 };
  }
  if (e === "x") {
    const hex2 = /^[0-9a-fA-F]{2}/.exec(re2.slice(i + 2));
    if (hex2 !== null) {
      return { ok: true, text: `\\x${hex2[0]}`, next: i + 4 };
    }
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(re2.slice(i + 2));
    if (braced !== null) {
      const cp = parseInt(braced[1]!, 16);
      if (cp > 0xffff) {
        return { ok: false, reason: `\\x{${braced[1]}} is outside the BMP` };
      }
      return {
        ok: true,
        text: `\\u${cp.toString(16).padStart(4, "0")}`,
        next: i + 2 + braced[0].length,
      };
    }
    return { ok: false, reason: "malformed \\x escape" };
  }
  if (/[a-zA-Z0-9]/.test(e)) {
    // \A \z \C \pN \PN \Q \E, octal and the like: RE2-only or read
    // differently (a backreference in ECMA-262).
    return {
      ok: false,
      reason: `escape \\${e} is RE2-only or reads differently in ECMA-262`,
    };
  }
  if (e.codePointAt(0)! > 0x7f) {
    return { ok: false, reason: `escape of ${JSON.stringify(e)}` };
  }
  // Escaped punctuation: a literal. ECMA-262 with `u` escapes only its
  // syntax characters; the others are written as they are.
  return {
    ok: true,
    text: syntaxChars.has(e) ? `\\${e}` : e,
    next: i + 2,
  };
}

/** A character class `[…]` starting at `i`. */
function characterClass(
  re2: string,
  i: number,
): { ok: true; text: string; next: number } | { ok: false; reason: string } {
  let j = i + 1;
  let text = "[";
  if (re2[j] === "^") {
    text += "^";
    j++;
  }
  if (re2[j] === "]") {
    // RE2: a literal `]`; ECMA-262: an empty class.
    text += "\\]";
    j++;
  }
  while (j < re2.length) {
    const c = re2[j]!;
    if (re2.codePointAt(j)! > 0xffff) {
      return { ok: false, reason: "a character outside the BMP in a class" };
    }
    if (c === "]") {
      return { ok: true, text: text + "]", next: j + 1 };
    }
    if (c === "[") {
      if (re2[j + 1] === ":") {
        return { ok: false, reason: "POSIX class [[:name:]]" };
      }
      text += "\\[";
      j++;
      continue;
    }
    if (c === "\\") {
      const e = escapeInClass(re2, j);
      if (!e.ok) {
        return e;
      }
      text += e.text;
      j = e.next;
      continue;
    }
    if (c === "-" && re2[j + 1] !== "]" && text !== "[" && text !== "[^") {
      // A range: both ends must be single characters (checked by RegExp).
      text += "-";
      j++;
      continue;
    }
    text += c === "-" ? "\\-" : c;
    j++;
  }
  return { ok: false, reason: "unterminated character class" };
}
