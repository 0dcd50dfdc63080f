import { baseWords, inflections } from "./inflections.js";
import { synonyms } from "./synonyms.js";

/**
 * The `queryTerms` table of a tool-search index (docs/tool-search.md, "Search index", step 3),
 * computed from the index's vocabulary: what a query token the documents
 * lack, or an everyday word, stands for. Two rules, in this order:
 *
 * 1. Inflections. A token the vocabulary lacks stands for the vocabulary
 *    words of its family: "deleting" for "delete", "instance" for
 *    "instances", "stopped" for "stops". Families are regular inflections
 *    (inflections.ts) of a vocabulary word or of the word it inflects;
 *    every inflection of the API's action verbs (the first word of each
 *    method name, `actionVerbs`), only the plural of other words, which
 *    keeps the table small. A token the vocabulary has stands for itself
 *    (folding "endpoints" into "endpoint" loses what tells a List method
 *    from the others; measured: docs/tool-search.md, "Measured").
 * 2. Synonyms (synonyms.ts). Each key and its inflections stand also for
 *    the key's words, where the vocabulary has them (else for the first
 *    inflection of the word it has).
 *
 * Stop words are never keys. Deterministic: the same inputs, the same
 * table (keys and lists in a fixed order).
 */
export function buildQueryTerms(
  vocabulary: ReadonlySet<string>,
  actionVerbs: ReadonlySet<string>,
  stopWords: ReadonlySet<string>,
): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const add = (token: string, terms: readonly string[]) => {
    if (stopWords.has(token)) {
      return;
    }
    const list =
      table.get(token) ?? (vocabulary.has(token) ? [token] : ([] as string[]));
    for (const term of terms) {
      if (!list.includes(term)) {
        list.push(term);
      }
    }
    table.set(token, list);
  };
  for (const word of [...vocabulary].sort()) {
    for (const base of baseWords(word)) {
      const forms = inflections(base);
      for (const form of [
        base,
        ...(actionVerbs.has(base) ? forms : forms.slice(0, 1)),
      ]) {
        if (!vocabulary.has(form)) {
          add(form, [word]);
        }
      }
    }
  }
  const indexed = (word: string) =>
    [word, ...inflections(word)].find((w) => vocabulary.has(w));
  for (const key of Object.keys(synonyms).sort()) {
    const terms = synonyms[key]!.map(indexed).filter((t) => t !== undefined);
    if (terms.length > 0) {
      for (const form of [key, ...inflections(key)]) {
        add(form, terms);
      }
    }
  }
  return table;
}
