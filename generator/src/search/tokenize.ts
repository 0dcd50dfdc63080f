/**
 * The English words {@link tokenize} drops: articles, pronouns,
 * prepositions and auxiliaries that queries are full of and that say
 * nothing about which tool is meant. Lower case, ASCII; a fixed list that
 * the Go and Python runtimes copy.
 */
export const stopWords: ReadonlySet<string> = new Set([
  "a",
  "all",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "can",
  "do",
  "for",
  "from",
  "i",
  "in",
  "is",
  "it",
  "its",
  "me",
  "my",
  "no",
  "not",
  "of",
  "on",
  "or",
  "so",
  "that",
  "the",
  "this",
  "to",
  "what",
  "which",
  "with",
]);

/**
 * The tokenizer of the tool-search index (issue 36, part 2): one rule set,
 * simple enough to mirror byte for byte in Go and Python.
 *
 * 1. Word boundaries are put inside camelCase: between an ASCII lower-case
 *    letter or digit and an upper-case letter (`listInstances` → `list`,
 *    `Instances`), and before the last upper-case letter of a run that a
 *    lower-case letter follows (`HTTPServer` → `HTTP`, `Server`).
 * 2. Every character that is not an ASCII letter or digit separates tokens
 *    (`_` of snake_case, `.`, `-`, spaces, punctuation, and any non-ASCII
 *    character). Letters and digits stay together (`v1`, `ipv6`).
 * 3. Tokens are lower-cased (ASCII only).
 * 4. Tokens in {@link stopWords} are dropped. Nothing is stemmed: on the
 *    query sets, folding plurals (`instances` → `instance`) lowered
 *    recall@5, and the stop words raised it (GEN-NOTES36, BM25-CORE).
 *
 * The same function tokenizes the tools' documents and the queries.
 */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2");
  const tokens: string[] = [];
  for (const word of spaced.split(/[^A-Za-z0-9]+/)) {
    if (word !== "") {
      const token = word.toLowerCase();
      if (!stopWords.has(token)) {
        tokens.push(token);
      }
    }
  }
  return tokens;
}
