import type { Bm25Index } from "./bm25-index.js";
import { tokenize } from "./tokenize.js";

/** One search result: a tool and its BM25 score. */
export interface RankedTool {
  readonly name: string;
  readonly score: number;
}

/**
 * The tools of `index` that match `query`, best first, at most `limit`.
 *
 * The query is tokenized as the documents were (tokenize.ts); each distinct
 * term, in the order it first appears, adds to a document holding it
 *
 *   idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / averageLength))
 *
 * with idf = ln(1 + (N − df + 0.5) / (df + 0.5)) (never negative), N the
 * documents and df those holding the term. Terms the index lacks add
 * nothing; documents scoring 0 are left out. Equal scores are ordered by
 * the tools' names, in bytes. A pure function of (index, query, limit).
 */
export function rankTools(
  index: Bm25Index,
  query: string,
  limit = Number.POSITIVE_INFINITY,
): RankedTool[] {
  const { k1, b, names, lengths, averageLength, postings } = index;
  const scores = new Map<number, number>();
  for (const term of new Set(tokenize(query))) {
    const list = Object.hasOwn(postings, term) ? postings[term] : undefined;
    if (list === undefined) {
      continue;
    }
    const idf = Math.log(
      1 + (names.length - list.length + 0.5) / (list.length + 0.5),
    );
    for (const [doc, tf] of list) {
      const norm = k1 * (1 - b + (b * lengths[doc]!) / averageLength);
      const add = (idf * tf * (k1 + 1)) / (tf + norm);
      scores.set(doc, (scores.get(doc) ?? 0) + add);
    }
  }
  // names are sorted by bytes, so the document index breaks ties.
  return [...scores]
    .filter(([, score]) => score > 0)
    .sort(([da, sa], [db, sb]) => sb - sa || da - db)
    .slice(0, limit)
    .map(([doc, score]) => ({ name: names[doc]!, score }));
}
