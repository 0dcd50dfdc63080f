import { sortUtf8 } from "../model/utf8-order.js";
import { tokenize } from "./tokenize.js";

/** BM25's term-frequency saturation, the issue's k1. */
export const bm25K1 = 1.2;
/** BM25's document-length normalization, the issue's b. */
export const bm25B = 0.75;

/**
 * A BM25 index over the tools' documents, as plain JSON-serializable data:
 * the generator builds it, and any runtime scores queries with it
 * (rank.ts) without re-tokenizing the tools.
 */
export interface Bm25Index {
  /** The format's version; bumped when the layout or the tokenizer changes. */
  readonly version: 1;
  readonly k1: number;
  readonly b: number;
  /** The tools' names, sorted by bytes; a posting's document is an index into it. */
  readonly names: readonly string[];
  /** Each document's length in tokens, in `names` order. */
  readonly lengths: readonly number[];
  /** The mean of `lengths` (0 without documents). */
  readonly averageLength: number;
  /**
   * Each term's postings: `[document, term frequency]` pairs, by document.
   * Terms are the object's keys, inserted sorted by bytes.
   */
  readonly postings: Readonly<
    Record<string, readonly (readonly [number, number])[]>
  >;
}

/** One document to index: a tool's name and the text it is found by. */
export interface Bm25Document {
  readonly name: string;
  readonly text: string;
}

/**
 * Build the index of `documents` (tokenized by tokenize.ts). Throws when two
 * documents share a name: names identify the results.
 */
export function buildBm25Index(documents: readonly Bm25Document[]): Bm25Index {
  const byName = new Map(documents.map((d) => [d.name, d]));
  if (byName.size !== documents.length) {
    const seen = new Set<string>();
    const twice = documents.find((d) => seen.size === seen.add(d.name).size);
    throw new Error(
      `tool ${JSON.stringify(twice?.name)}: indexed twice; give every tool its own name`,
    );
  }
  const names = sortUtf8([...byName.keys()]);
  const lengths: number[] = [];
  const termDocs = new Map<string, [number, number][]>();
  names.forEach((name, doc) => {
    const tokens = tokenize(byName.get(name)!.text);
    lengths.push(tokens.length);
    const counts = new Map<string, number>();
    for (const token of tokens) {
      counts.set(token, (counts.get(token) ?? 0) + 1);
    }
    for (const [term, count] of counts) {
      const list = termDocs.get(term) ?? [];
      list.push([doc, count]);
      termDocs.set(term, list);
    }
  });
  const postings: Record<string, [number, number][]> = {};
  for (const term of sortUtf8([...termDocs.keys()])) {
    postings[term] = termDocs.get(term)!;
  }
  const total = lengths.reduce((sum, n) => sum + n, 0);
  return {
    version: 1,
    k1: bm25K1,
    b: bm25B,
    names,
    lengths,
    averageLength: names.length === 0 ? 0 : total / names.length,
    postings,
  };
}
