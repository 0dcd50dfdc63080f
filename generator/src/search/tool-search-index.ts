import type { ToolModel } from "../model/model.js";
import { sortUtf8 } from "../model/utf8-order.js";
import { associatedTerms } from "./associations.js";
import { buildBm25Index, type ToolSearchIndex } from "./bm25-index.js";
import { buildQueryTerms } from "./query-terms.js";
import { stopWords, tokenize } from "./tokenize.js";
import { toolSearchText } from "./tool-document.js";

/**
 * The tool-search index of `tools` (docs/tool-search.md, format version 2): what
 * the generator writes, under "index", into the tool-search data of every
 * target. A tool's terms are the tokens of its text (tool-document.ts)
 * less the stop words; the query tables come from the vocabulary
 * (query-terms.ts), then words of the API's comments the index lacks get
 * their associated term (associations.ts). Deterministic: the same tools
 * give the same index.
 */
export function buildToolSearchIndex(
  tools: readonly ToolModel[],
): ToolSearchIndex {
  const stop = new Set(stopWords);
  const documents = tools.map((tool) => ({
    name: tool.name,
    terms: tokenize(toolSearchText(tool)).filter((t) => !stop.has(t)),
  }));
  const vocabulary = new Set(documents.flatMap((d) => d.terms));
  const actionVerbs = new Set(
    tools.map((tool) => tokenize(tool.method.name)[0] ?? ""),
  );
  const queryTerms = buildQueryTerms(vocabulary, actionVerbs, stop);
  const index = buildBm25Index(documents, { stopWords, queryTerms });
  const associated = associatedTerms(
    tools,
    new Map(Object.entries(index.idf)),
    new Set(queryTerms.keys()),
    stop,
  );
  const merged: Record<string, readonly string[]> = {};
  for (const token of sortUtf8([
    ...Object.keys(index.queryTerms),
    ...associated.keys(),
  ])) {
    merged[token] = index.queryTerms[token] ?? associated.get(token)!;
  }
  return { ...index, queryTerms: merged };
}
