import type { ToolSearchIndex } from "./bm25-index.js";
import { tokenize } from "./tokenize.js";

/** One search result: a tool and its BM25 score. */
export interface RankedTool {
  readonly name: string;
  readonly score: number;
}

/**
 * The tools of `index` that match `query`, best first, at most `limit`:
 * the query pipeline every runtime implements identically (docs/tool-search.md,
 * "Search index"), the reference the shared vectors
 * (e2e/vectors/tool-search/ranking.json) are written with.
 *
 * 1. tokenize(query) (tokenize.ts).
 * 2. Drop the tokens in `stopWords`.
 * 3. Replace each token t by `queryTerms[t]` when listed, else by `[t]`.
 * 4. Keep each distinct term once, in first-appearance order, and only
 *    terms `postings` holds.
 * 5. A document's score is the sum, over those terms in that order, of
 *    `idf[t] * (tf * (k1 + 1)) / (tf + norms[doc])` (IEEE doubles, that
 *    operation order, starting from 0).
 * 6. Keep scores > 0, sort by score descending and equal scores by
 *    document index ascending (names are sorted by bytes), first `limit`.
 *
 * Throws when `limit` is not a whole number of at least 1.
 */
export function rankTools(
  index: ToolSearchIndex,
  query: string,
  limit = 5,
): RankedTool[] {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error(
      `limit ${JSON.stringify(String(limit))}: ask for at least 1 tool`,
    );
  }
  const { k1, names, norms, idf, postings } = index;
  const stop = new Set(index.stopWords);
  const terms = new Set<string>();
  for (const token of tokenize(query)) {
    if (stop.has(token)) {
      continue;
    }
    const mapped = Object.hasOwn(index.queryTerms, token)
      ? index.queryTerms[token]!
      : [token];
    for (const term of mapped) {
      if (Object.hasOwn(postings, term)) {
        terms.add(term);
      }
    }
  }
  const scores = new Map<number, number>();
  for (const term of terms) {
    const weight = idf[term]!;
    for (const [doc, tf] of postings[term]!) {
      const add = (weight * (tf * (k1 + 1))) / (tf + norms[doc]!);
      scores.set(doc, (scores.get(doc) ?? 0) + add);
    }
  }
  return [...scores]
    .filter(([, score]) => score > 0)
    .sort(([da, sa], [db, sb]) => sb - sa || da - db)
    .slice(0, limit)
    .map(([doc, score]) => ({ name: names[doc]!, score }));
}
