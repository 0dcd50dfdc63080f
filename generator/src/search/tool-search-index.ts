import type { ToolModel } from "../model/model.js";
import { buildBm25Index, type ToolSearchIndex } from "./bm25-index.js";
import { stopWords, tokenize } from "./tokenize.js";
import { toolSearchText } from "./tool-document.js";

/**
 * The tool-search index of `tools` (CONTRACT36 §2, format version 2): what
 * the generator writes, under "index", into the tool-search data of every
 * target. Deterministic: the same tools give the same index.
 */
export function buildToolSearchIndex(
  tools: readonly ToolModel[],
): ToolSearchIndex {
  const stop = new Set(stopWords);
  return buildBm25Index(
    tools.map((tool) => ({
      name: tool.name,
      terms: tokenize(toolSearchText(tool)).filter((t) => !stop.has(t)),
    })),
    { stopWords, queryTerms: new Map() },
  );
}
