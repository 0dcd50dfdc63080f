import type { ProblemCollector } from "../errors.js";
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

/**
 * The tools tool_search=true adds beside the generated ones, by name, and
 * what each is: a generated tool of that name would clash with it.
 */
const toolSearchOwnTools: ReadonlyMap<string, string> = new Map([
  [
    "search_tools",
    "the search function of deferred requests and of the search-first MCP server",
  ],
  ["call_tool", "the search-first MCP server's tool that calls a found tool"],
]);

/**
 * Refuse, with tool_search=true, each tool named as a tool the tool search
 * adds (`search_tools`, `call_tool`): the runtimes would refuse it at run
 * time. Added to `problems`, reported with the others.
 */
export function toolSearchNameProblems(
  tools: readonly ToolModel[],
  problems: ProblemCollector,
): void {
  for (const tool of tools) {
    const what = toolSearchOwnTools.get(tool.name);
    if (what === undefined) {
      continue;
    }
    const leaveOut = `exclude=${tool.method.parent.typeName}.${tool.method.name}`;
    problems.add({
      file: tool.file,
      element: tool.element,
      message: `tool name ${JSON.stringify(tool.name)} clashes with the tool search's own tool of that name (tool_search=true: ${what}); rename the tool with an rpc_tool option or name_prefix, or leave it out with ${leaveOut}`,
    });
  }
}
