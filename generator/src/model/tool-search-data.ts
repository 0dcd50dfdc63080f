import { canonicalJson } from "../schema/canonical-json.js";
import type { JsonValue } from "../schema/json-schema.js";
import { buildToolSearchIndex } from "../search/tool-search-index.js";
import type { ToolModel } from "./model.js";
import { toolNamespaces } from "./tool-namespaces.js";

/** The version of the tool-search data's layout (docs/tool-search.md). */
export const toolSearchDataVersion = 1;

/**
 * The tool-search data of `tools` (option tool_search=true), in its
 * canonical serialization, identical in every target: `{"version": 1,
 * "namespaces": [{"name", "description", "tools": [{"tool", "function"}]}],
 * "index": {...}}`, the namespaces of tool-namespaces.ts and the search
 * index of search/tool-search-index.ts. Deterministic: the same tools give
 * the same text.
 */
export function toolSearchJson(tools: readonly ToolModel[]): string {
  const namespaces = toolNamespaces(tools).map((ns) => ({
    name: ns.name,
    description: ns.description,
    tools: ns.tools.map((t) => ({ tool: t.tool, function: t.function })),
  }));
  return canonicalJson({
    version: toolSearchDataVersion,
    namespaces,
    index: buildToolSearchIndex(tools) as unknown as JsonValue,
  });
}
