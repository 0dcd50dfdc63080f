/**
 * The English words the tool-search index drops from queries and
 * documents (the index's `stopWords`): articles, pronouns, prepositions and
 * auxiliaries that queries are full of and that say nothing about which
 * tool is meant. Lower case, ASCII, sorted. The runtimes read the list from
 * the index data; they never hold their own copy.
 */
export const stopWords: readonly string[] = [
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
];

/**
 * The tokenizer of tool search (issue 36, part 2): step 1 of the query
 * pipeline (rank.ts), and the first step of indexing a document. One rule
 * set, simple enough to mirror byte for byte in Go and Python:
 *
 * 1. Word boundaries are put inside camelCase, by two replacements applied
 *    in this order, each left to right without overlaps (as JavaScript's
 *    `replace(/…/g)`, Go's `ReplaceAllString` and Python's `re.sub` do):
 *    `([a-z0-9])([A-Z])` → `$1 $2` (`listInstances` → `list Instances`),
 *    then `([A-Z])([A-Z][a-z])` → `$1 $2` (`HTTPServer` → `HTTP Server`).
 * 2. Every run of characters that are not ASCII letters or digits
 *    (`[^A-Za-z0-9]+`) separates tokens: `_` of snake_case, `.`, `-`,
 *    spaces, punctuation, and every non-ASCII character. Letters and
 *    digits stay together (`v1`, `ipv6`). Empty tokens are dropped.
 * 3. Tokens are lower-cased (they are ASCII).
 *
 * No stop words and no stemming here: the index's data does the rest.
 */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2");
  const tokens: string[] = [];
  for (const word of spaced.split(/[^A-Za-z0-9]+/)) {
    if (word !== "") {
      tokens.push(word.toLowerCase());
    }
  }
  return tokens;
}
