import { deepFreeze } from "./deep-freeze.js";

/** One function of a {@link ToolSearchNamespace}: a tool and its name there. */
export interface ToolSearchFunction {
  /** The tool's name (an `AgentTool` name of the generated file). */
  readonly tool: string;
  /** The function's name inside its namespace: the RPC method's name. */
  readonly function: string;
}

/**
 * A group of tools shown to a model as one searchable unit: one gRPC
 * service, or one resource of a big service (docs/tool-search.md).
 */
export interface ToolSearchNamespace {
  /** The namespace name (`^[a-zA-Z0-9_-]{1,64}$`), e.g. `LinkService`. */
  readonly name: string;
  /** What the model reads before any search: what the namespace holds. */
  readonly description: string;
  /** Its functions, in the generated tools' order. */
  readonly tools: readonly ToolSearchFunction[];
}

/**
 * The BM25 index the generator built (format version 2; docs/tool-search.md,
 * "Search index"): everything {@link rankTools} needs, precomputed.
 */
export interface ToolSearchIndex {
  /** The format's version: 2. */
  readonly version: number;
  /** BM25's term-frequency saturation (1.2). */
  readonly k1: number;
  /** BM25's length normalization (0.75). */
  readonly b: number;
  /** The tool names, sorted by bytes: a document is an index into it. */
  readonly names: readonly string[];
  /** Per document: `k1 * (1 - b + b * length / averageLength)`. */
  readonly norms: readonly number[];
  /** Per term: its inverse document frequency. */
  readonly idf: Readonly<Record<string, number>>;
  /** Per term: its `[document, term frequency]` pairs. */
  readonly postings: Readonly<
    Record<string, readonly (readonly [number, number])[]>
  >;
  /** Query tokens dropped before the lookup. */
  readonly stopWords: readonly string[];
  /** Query token → the index terms it stands for. */
  readonly queryTerms: Readonly<Record<string, readonly string[]>>;
}

/**
 * The tool-search data of a generated file (`toolSearch`, written with
 * `tool_search=true`): the namespaces the deferred provider forms group the
 * tools in, and the search index.
 */
export interface ToolSearch {
  /** The data's format version: 1. */
  readonly version: number;
  /** The namespaces, in the generated tools' order. */
  readonly namespaces: readonly ToolSearchNamespace[];
  /** The BM25 index over every tool. */
  readonly index: ToolSearchIndex;
}

/** One tool {@link rankTools} found: its name and BM25 score. */
export interface ToolHit {
  /** The tool's name. */
  readonly name: string;
  /** Its score (> 0); higher is better. */
  readonly score: number;
}

/**
 * The tool-search data of a generated file, from its JSON text: parsed and
 * checked on first read (the same frozen object on every read), as
 * `defineTool` does for schemas. Data that is not version 1 with a version
 * 2 index throws an error naming the problem on that first read.
 */
export function defineToolSearch(json: string): ToolSearch {
  let text: string | undefined = json;
  let value: ToolSearch | undefined;
  const data = (): ToolSearch => {
    if (text !== undefined) {
      value = deepFreeze(checkToolSearch(JSON.parse(text) as unknown));
      text = undefined;
    }
    return value as ToolSearch;
  };
  return Object.freeze({
    get version(): number {
      return data().version;
    },
    get namespaces(): readonly ToolSearchNamespace[] {
      return data().namespaces;
    },
    get index(): ToolSearchIndex {
      return data().index;
    },
  });
}

/** The data, when it has the layout of version 1; else an error. */
function checkToolSearch(data: unknown): ToolSearch {
  const bad = (what: string): Error =>
    new Error(
      `tool search data: ${what}; regenerate the file with protoc-gen-ai-tools (tool_search=true)`,
    );
  const d = data as Partial<Record<string, unknown>> | null;
  if (d === null || typeof d !== "object" || d["version"] !== 1) {
    throw bad(`version ${JSON.stringify(d?.["version"])} is not 1`);
  }
  if (!Array.isArray(d["namespaces"])) {
    throw bad("no namespaces list");
  }
  const index = d["index"] as Partial<Record<string, unknown>> | null;
  if (index === null || typeof index !== "object" || index["version"] !== 2) {
    throw bad("the index is not version 2");
  }
  for (const key of ["names", "norms", "stopWords"]) {
    if (!Array.isArray(index[key])) {
      throw bad(`the index has no ${key} list`);
    }
  }
  for (const key of ["idf", "postings", "queryTerms"]) {
    if (index[key] === null || typeof index[key] !== "object") {
      throw bad(`the index has no ${key} table`);
    }
  }
  if (typeof index["k1"] !== "number") {
    throw bad("the index has no k1");
  }
  return data as ToolSearch;
}

/** The index's tables as maps (an index key such as `constructor` is data). */
interface CompiledIndex {
  readonly stop: ReadonlySet<string>;
  readonly queryTerms: ReadonlyMap<string, readonly string[]>;
  readonly idf: ReadonlyMap<string, number>;
  readonly postings: ReadonlyMap<
    string,
    readonly (readonly [number, number])[]
  >;
}

const compiled = new WeakMap<ToolSearchIndex, CompiledIndex>();

function compile(index: ToolSearchIndex): CompiledIndex {
  let c = compiled.get(index);
  if (c === undefined) {
    c = {
      stop: new Set(index.stopWords),
      queryTerms: new Map(Object.entries(index.queryTerms)),
      idf: new Map(Object.entries(index.idf)),
      postings: new Map(Object.entries(index.postings)),
    };
    compiled.set(index, c);
  }
  return c;
}

/**
 * The words of a query, as the index was built with (docs/tool-search.md,
 * "Search index"): boundaries inside camelCase (`([a-z0-9])([A-Z])`, then
 * `([A-Z])([A-Z][a-z])`), every run of characters other than ASCII letters
 * and digits separates, ASCII lower case.
 */
export function tokenizeQuery(text: string): string[] {
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

/**
 * The tools of `search` that best match `query`, best first, at most
 * `limit` (5 by default), by the pipeline every runtime implements
 * identically (shared vectors e2e/vectors/tool-search/ranking.json):
 * tokenize; drop stop words; map each token through `queryTerms`; keep
 * each distinct indexed term once, in first-appearance order; score each
 * document by the sum over those terms, in that order, of
 * `idf * (tf * (k1 + 1)) / (tf + norm)`; keep scores above 0, best first,
 * ties by name bytes. Throws when `limit` is not a whole number of at
 * least 1.
 */
export function rankTools(
  search: ToolSearch,
  query: string,
  limit = 5,
): ToolHit[] {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error(
      `limit ${JSON.stringify(String(limit))}: ask for at least 1 tool`,
    );
  }
  const index = search.index;
  const c = compile(index);
  const terms = new Set<string>();
  for (const token of tokenizeQuery(query)) {
    if (c.stop.has(token)) {
      continue;
    }
    for (const term of c.queryTerms.get(token) ?? [token]) {
      if (c.postings.has(term)) {
        terms.add(term);
      }
    }
  }
  const k1 = index.k1;
  const scores = new Map<number, number>();
  for (const term of terms) {
    const weight = c.idf.get(term) ?? 0;
    for (const [doc, tf] of c.postings.get(term) ?? []) {
      const add = (weight * (tf * (k1 + 1))) / (tf + (index.norms[doc] ?? 0));
      scores.set(doc, (scores.get(doc) ?? 0) + add);
    }
  }
  return [...scores]
    .filter(([, score]) => score > 0)
    .sort(([da, sa], [db, sb]) => sb - sa || da - db)
    .slice(0, limit)
    .map(([doc, score]) => ({ name: index.names[doc] ?? "", score }));
}
