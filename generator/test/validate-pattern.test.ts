import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { translateRe2Pattern } from "../src/schema/validate-pattern.js";

describe("translateRe2Pattern", () => {
  it.each([
    ["^[a-z0-9]+$", "^[a-z0-9]+$"],
    ["^a.b$", "^a[^\\n]b$"],
    ["\\s+", "[\\t\\n\\f\\r ]+"],
    ["\\S", "[^\\t\\n\\f\\r ]"],
    ["[\\s,]", "[\\t\\n\\f\\r ,]"],
    ["[^\\s]", "[^\\t\\n\\f\\r ]"],
    ["\\d{3}-\\d{4}", "\\d{3}-\\d{4}"],
    ["\\w+@\\w+\\.com", "\\w+@\\w+\\.com"],
    ["(?:ab)+?c*?", "(?:ab)+?c*?"],
    ["a{2,}b{1,3}", "a{2,}b{1,3}"],
    ["a{,3}", "a\\{,3\\}"],
    ["x]y}", "x\\]y\\}"],
    ["[]a]", "[\\]a]"],
    ["[a-]", "[a\\-]"],
    ["[[a]", "[\\[a]"],
    ["\\#\\:\\-", "#:-"],
    ["\\x41\\x{263a}", "\\x41\\u263a"],
    ["(a|b)\\b", "(a|b)\\b"],
    ["", ""],
  ])("%j reads as %j", (re2, ecma) => {
    expect(translateRe2Pattern(re2)).toEqual({ ok: true, pattern: ecma });
  });

  it.each([
    ["\\pL+", "escape \\p"],
    ["\\p{Greek}", "escape \\p"],
    ["^abc\\z", "escape \\z"],
    ["\\Aabc", "escape \\A"],
    ["\\C", "escape \\C"],
    ["\\Qa.b\\E", "escape \\Q"],
    ["\\1", "escape \\1"],
    ["(?P<name>a)", "group"],
    ["(?<name>a)", "group"],
    ["(?i)abc", "group"],
    ["(?i:abc)", "group"],
    ["(?=a)", "group"],
    ["a*+", "possessive"],
    ["a**", "repeated quantifier"],
    ["[[:alpha:]]", "POSIX class"],
    ["[\\S]", "\\S inside a character class"],
    ["[\\b]", "\\b inside a character class"],
    ["x{1001}", "repeat count"],
    ["x{3,2}", "repeat count"],
    ["*a", "repeats nothing"],
    ["(a", "unbalanced ("],
    ["a)", "unbalanced )"],
    ["[a", "unterminated"],
    ["\u{1F600}", "outside the BMP"],
    ["\\x{1F600}", "outside the BMP"],
    ["[\\d-z]", "is not valid"],
    ["\\", "trailing"],
  ])("refuses %j (%s)", (re2, reason) => {
    const t = translateRe2Pattern(re2);
    expect(t.ok).toBe(false);
    expect(t.ok ? "" : t.reason).toContain(reason);
  });
});

// The reference: Go's regexp, RE2 syntax, as protovalidate-go evaluates
// `string.pattern` (through CEL's matches()).
const patterns = [
  "^[a-z0-9-]+\\.?$",
  "^a.b$",
  ".",
  "^.{3}$",
  "\\s",
  "\\S+",
  "^[\\s]*$",
  "[^\\s]",
  "\\d",
  "\\w+",
  "\\bfoo\\b",
  "[]a]",
  "[a-]",
  "a{,3}",
  "x]",
  "^(?:ab|cd)+$",
  "^a{2,3}$",
  "\\#\\:",
  "\\x41",
  "\\x{263a}",
  "^$",
  "a|^b",
  "[^a-c]",
  "[\\-]",
  "\\.",
  "\\v\\f",
  "^a$",
  "a\\-b",
];
const samples = [
  "",
  "a\rb",
  "a\nb",
  "a\u2028b",
  "a\u2029b",
  "axb",
  "\v",
  "\u00a0",
  "\ufeff",
  " ",
  "\t",
  "abc-1.",
  "ABC",
  "foo bar",
  "foobar",
  "]",
  "a]",
  "-",
  "a{,3}",
  "aaa",
  "aa",
  "x]",
  "abcd",
  "#:",
  "A",
  "\u263a",
  "\u00e9\u00e9\u00e9",
  "b",
  "d",
  "1",
  "\u0661",
  ".",
  "\v\f",
  "\u00e9",
  "a\n",
  "a-b",
];

interface GoResult {
  readonly error?: string;
  readonly matches: boolean[];
}

describe("translations match what RE2 (Go regexp) matches", () => {
  const script = join(import.meta.dirname, "support", "re2_match.go");
  const results = JSON.parse(
    execFileSync("go", ["run", script], {
      input: JSON.stringify({ patterns, samples }),
      encoding: "utf8",
    }),
  ) as GoResult[];

  it.each(patterns.map((p, i) => [p, i] as const))("%j", (pattern, i) => {
    const go = results[i]!;
    expect(go.error, "go compiles the pattern").toBeUndefined();
    const t = translateRe2Pattern(pattern);
    if (!t.ok) {
      throw new Error(`refused: ${t.reason}`);
    }
    for (const flags of ["", "u"]) {
      const re = new RegExp(t.pattern, flags);
      const got = samples.map((s) => re.test(s));
      expect(
        got.map((m, j) => `${JSON.stringify(samples[j])}: ${m}`),
        `flags ${JSON.stringify(flags)}`,
      ).toEqual(
        go.matches.map((m, j) => `${JSON.stringify(samples[j])}: ${m}`),
      );
    }
  });
});
