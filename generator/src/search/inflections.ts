// English inflection by rule, for the query tables of the tool-search index
// (query-terms.ts): a query may say "deleting" or "instance" where the
// tools' text says "delete" or "instances". Regular rules only; irregular
// forms are left out (they are rare in API text).

const vowels = /[aeiou]/;

/**
 * Whether `word` ends consonant, vowel, consonant (not w, x or y), the
 * shape that doubles its last letter before -ed and -ing (stop → stopped).
 */
function doublesLast(word: string): boolean {
  const [a, b, c] = word.slice(-3);
  return (
    word.length >= 3 &&
    !vowels.test(a!) &&
    vowels.test(b!) &&
    !vowels.test(c!) &&
    !/[wxy]/.test(c!)
  );
}

/**
 * The regular inflections of `word` (lower-case letters, at least 3):
 * first its plural or third person (-s, -es, -ies), then its past and
 * present participles (-ed or -d or -ied, -ing; a final e dropped before
 * -ing; the last consonant doubled after a short vowel, both ways). Empty
 * for other words (digits, short words).
 */
export function inflections(word: string): string[] {
  if (!/^[a-z]{3,}$/.test(word)) {
    return [];
  }
  const out = new Set<string>();
  const consonantY = /[^aeiou]y$/.test(word);
  if (/(s|x|z|ch|sh)$/.test(word)) {
    out.add(`${word}es`);
  } else if (consonantY) {
    out.add(`${word.slice(0, -1)}ies`);
  } else {
    out.add(`${word}s`);
  }
  if (word.endsWith("e")) {
    out.add(`${word}d`);
    out.add(`${word.slice(0, -1)}ing`);
  } else if (consonantY) {
    out.add(`${word.slice(0, -1)}ied`);
    out.add(`${word}ing`);
  } else {
    out.add(`${word}ed`);
    out.add(`${word}ing`);
    if (doublesLast(word)) {
      const last = word.at(-1)!;
      out.add(`${word}${last}ed`);
      out.add(`${word}${last}ing`);
    }
  }
  return [...out];
}

const suffixes: readonly (readonly [string, string])[] = [
  ["s", ""],
  ["es", ""],
  ["ed", ""],
  ["d", ""],
  ["ing", ""],
  ["ing", "e"],
];

/**
 * `word` itself and the words it may be a regular inflection of, each
 * checked against {@link inflections}: "stopped" → "stop" (a doubled
 * consonant is undone, and then nothing else is tried), "policies" →
 * "policy" (likewise -ies and -ied), "deleting" → "delete" and "delet"
 * (without a dictionary both are possible; the second only costs a
 * query-table key nobody types).
 */
export function baseWords(word: string): string[] {
  const out = new Set([word]);
  const candidates: string[] = [];
  const doubled = /(.)\1(ed|ing)$/.exec(word);
  if (
    doubled !== null &&
    inflections(word.slice(0, doubled.index + 1)).includes(word)
  ) {
    candidates.push(word.slice(0, doubled.index + 1));
  } else if (/ie[sd]$/.test(word) && word.length >= 6) {
    candidates.push(`${word.slice(0, -3)}y`);
  } else {
    for (const [suffix, replace] of suffixes) {
      // -ss, -us, -is end singular nouns (address, status, analysis).
      const singular = suffix === "s" && /(ss|us|is)$/.test(word);
      if (
        !singular &&
        word.endsWith(suffix) &&
        word.length - suffix.length >= 3
      ) {
        candidates.push(word.slice(0, -suffix.length) + replace);
      }
    }
  }
  for (const base of candidates) {
    if (inflections(base).includes(word)) {
      out.add(base);
    }
  }
  return [...out];
}
