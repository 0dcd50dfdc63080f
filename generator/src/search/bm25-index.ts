import { sortUtf8 } from "../model/utf8-order.js";

/** BM25's term-frequency saturation, the issue's k1. */
export const bm25K1 = 1.2;
/** BM25's document-length normalization, the issue's b. */
export const bm25B = 0.75;

/**
 * The tool-search index (version 2 of the format; docs/tool-search.md), plain
 * JSON-serializable data: the generator builds it, writes it into the
 * generated files, and every runtime ranks queries with it by the same six
 * steps (rank.ts) without re-deriving anything. Every object's keys are
 * inserted sorted by bytes.
 */
export interface ToolSearchIndex {
  /** The format's version; bumped when the layout or the pipeline changes. */
  readonly version: 2;
  readonly k1: number;
  readonly b: number;
  /** The tools' names, sorted by bytes; a document is an index into it. */
  readonly names: readonly string[];
  /**
   * Per document, `k1 * (1 - b + b * length / averageLength)`: the length
   * normalization, computed once here (length in terms).
   */
  readonly norms: readonly number[];
  /** Per term, `ln(1 + (N - df + 0.5) / (df + 0.5))`, computed once here. */
  readonly idf: Readonly<Record<string, number>>;
  /** Per term, its `[document, term frequency]` pairs, by document. */
  readonly postings: Readonly<
    Record<string, readonly (readonly [number, number])[]>
  >;
  /** Query tokens dropped before the lookup (step 2), sorted by bytes. */
  readonly stopWords: readonly string[];
  /**
   * Query token → the index terms it stands for (step 3); a token not
   * listed stands for itself. Inflections and synonyms live here.
   */
  readonly queryTerms: Readonly<Record<string, readonly string[]>>;
}

/** One document to index: a tool's name and its terms, in text order. */
export interface IndexedDocument {
  readonly name: string;
  readonly terms: readonly string[];
}

/** The query-side tables an index carries beside its postings. */
export interface QueryTables {
  readonly stopWords: readonly string[];
  readonly queryTerms: ReadonlyMap<string, readonly string[]>;
}

/**
 * Build the index of `documents`. Throws when two documents share a name:
 * names identify the results. `queryTerms` entries keep only terms the
 * postings hold, and entries that change nothing are left out (a token
 * not listed stands for itself).
 */
export function buildBm25Index(
  documents: readonly IndexedDocument[],
  tables: QueryTables,
): ToolSearchIndex {
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
    const terms = byName.get(name)!.terms;
    lengths.push(terms.length);
    const counts = new Map<string, number>();
    for (const term of terms) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    for (const [term, count] of counts) {
      const list = termDocs.get(term) ?? [];
      list.push([doc, count]);
      termDocs.set(term, list);
    }
  });
  const n = names.length;
  const averageLength = lengths.reduce((sum, l) => sum + l, 0) / n;
  const idf: Record<string, number> = {};
  const postings: Record<string, [number, number][]> = {};
  for (const term of sortUtf8([...termDocs.keys()])) {
    const list = termDocs.get(term)!;
    idf[term] = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    postings[term] = list;
  }
  return {
    version: 2,
    k1: bm25K1,
    b: bm25B,
    names,
    norms: lengths.map(
      (length) =>
        bm25K1 *
        (1 -
          bm25B +
          (averageLength === 0 ? 0 : (bm25B * length) / averageLength)),
    ),
    idf,
    postings,
    stopWords: sortUtf8([...new Set(tables.stopWords)]),
    queryTerms: prunedQueryTerms(tables.queryTerms, termDocs),
  };
}

function prunedQueryTerms(
  queryTerms: ReadonlyMap<string, readonly string[]>,
  termDocs: ReadonlyMap<string, unknown>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const token of sortUtf8([...queryTerms.keys()])) {
    const terms = [...new Set(queryTerms.get(token))].filter((t) =>
      termDocs.has(t),
    );
    const itself = termDocs.has(token) ? [token] : [];
    if (terms.join(" ") !== itself.join(" ")) {
      out[token] = terms;
    }
  }
  return out;
}
