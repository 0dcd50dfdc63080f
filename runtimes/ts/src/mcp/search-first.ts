import { deepFreeze } from "../deep-freeze.js";
import {
  defaultSearchLimit,
  maxSearchLimit,
  notInSearchData,
  parseSearchArguments,
  searchParameters,
  searchToolsName,
  unknownFields,
} from "../search-arguments.js";
import { quote } from "../json.js";
import { rankTools, type ToolSearch } from "../tool-search.js";
import { violationError, type Violation } from "../violations.js";
import type { ListedTool } from "./tool-listing.js";

/**
 * The search-first tool set of an MCP server (docs/mcp.md, "Search-first
 * tool sets"): `tools/list` starts with `search_tools` and the
 * always-loaded tools, and the tools a search finds join it.
 */
export interface SearchFirst {
  /** The tool-search data of the generated file (`toolSearch`). */
  readonly search: ToolSearch;
  /**
   * Tools listed from the start, by their generated names (as the search
   * data gives them; with a name prefix, every registration of it). A
   * served tool the data does not hold must be listed here; a name no
   * served tool has is refused at the first list or search.
   */
  readonly alwaysLoaded?: readonly string[] | undefined;
  /** The tools a search finds when the model gives no `limit`: 5 by default, at most 20. */
  readonly limit?: number | undefined;
}

export { searchToolsName };
/** The name of the tool that calls a found tool where the list cannot change. */
export const callToolName = "call_tool";

/**
 * How a connection sees the tools found: `list` (one that can be told of a
 * list change now: 2025-11-25 stdio or HTTP session, 2026-07-28 stdio
 * while it listens) adds them to its `tools/list` and says so with
 * `notifications/tools/list_changed`; `call` (HTTP 2026-07-28, a
 * 2026-07-28 connection that does not listen) gives each with its input
 * schema, to be called through `call_tool`.
 */
export type SearchFirstMode = "list" | "call";

/** Whether a negotiated protocol revision is 2026-07-28 or later. */
export function isModernRevision(revision: string | undefined): boolean {
  return revision !== undefined && revision >= "2026-07-28";
}

/** A served tool as the search sees it: its listing and its generated name. */
export interface SearchableTool {
  readonly listed: ListedTool;
  readonly tool: string;
}

/**
 * Check the option: `limit` a whole number from 1 to 20, each
 * always-loaded name given once. Throws an Error naming the input and the
 * fix.
 */
export function checkSearchFirst(options: SearchFirst): void {
  const limit = options.limit ?? defaultSearchLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxSearchLimit) {
    throw new Error(
      `searchFirst.limit ${String(limit)} is not a whole number from 1 to ${String(maxSearchLimit)}: leave it out for ${String(defaultSearchLimit)}`,
    );
  }
  const seen = new Set<string>();
  for (const name of options.alwaysLoaded ?? []) {
    if (seen.has(name)) {
      throw new Error(
        `searchFirst.alwaysLoaded: ${quote(name)} is given twice: give each tool once`,
      );
    }
    seen.add(name);
  }
}

/**
 * A check of served tools (by generated name): it throws an Error naming a
 * tool that neither the search data nor `alwaysLoaded` names (no list
 * would show it, no search find it), and the fixes.
 */
export function searchableCheck(options: SearchFirst): (tool: string) => void {
  const known = new Set([
    ...options.search.namespaces.flatMap((n) => n.tools.map((t) => t.tool)),
    ...(options.alwaysLoaded ?? []),
  ]);
  return (tool) => {
    if (!known.has(tool)) {
      throw new Error(notInSearchData(tool));
    }
  };
}

/**
 * What a server's search-first connections share, built once per change of
 * its tools: the meta tools' listings, the always-loaded listings and the
 * ranking onto served tools. Listings are the server's frozen ones, never
 * copied.
 */
export interface SearchCatalog {
  /** The listing of `search_tools` in a mode. */
  searchTool(mode: SearchFirstMode): ListedTool;
  /** The always-loaded tools, in the option's order. */
  readonly alwaysLoaded: readonly ListedTool[];
  /**
   * The served tools a query finds, best first, at most `limit`: the
   * search data's ranking, kept to the tools this server serves.
   */
  find(query: string, limit: number): ListedTool[];
  /** The default `limit` of a search. */
  readonly limit: number;
}

/**
 * The catalog of `tools` (the server's, in registration order). Built at
 * the first list or search after the tools change, when every
 * registration is known: an always-loaded name no served tool has throws
 * an Error naming it (a mistyped name would list nothing).
 */
export function createSearchCatalog(
  options: SearchFirst,
  tools: readonly SearchableTool[],
): SearchCatalog {
  const byTool = new Map<string, ListedTool[]>();
  for (const t of tools) {
    const list = byTool.get(t.tool);
    if (list === undefined) {
      byTool.set(t.tool, [t.listed]);
    } else {
      list.push(t.listed);
    }
  }
  for (const name of options.alwaysLoaded ?? []) {
    if (!byTool.has(name)) {
      throw new Error(
        `always-loaded tool ${quote(name)} is not served here: check its name (the generated tool names), or drop it from alwaysLoaded`,
      );
    }
  }
  const groups = options.search.namespaces.filter((n) =>
    n.tools.some((t) => byTool.has(t.tool)),
  );
  const total = options.search.namespaces.reduce(
    (n, ns) => n + ns.tools.length,
    0,
  );
  const listings = {
    list: searchToolListing("list", groups, options.limit),
    call: searchToolListing("call", groups, options.limit),
  };
  return {
    searchTool: (mode) => listings[mode],
    alwaysLoaded: (options.alwaysLoaded ?? []).flatMap(
      (name) => byTool.get(name) ?? [],
    ),
    limit: options.limit ?? defaultSearchLimit,
    find(query, limit) {
      const found: ListedTool[] = [];
      // Every hit, then those served: a tool of the data this server does
      // not serve takes no place.
      for (const hit of rankTools(options.search, query, Math.max(total, 1))) {
        for (const listed of byTool.get(hit.name) ?? []) {
          if (found.length === limit) {
            return found;
          }
          found.push(listed);
        }
      }
      return found;
    },
  };
}

/** The frozen listing of `search_tools`. */
function searchToolListing(
  mode: SearchFirstMode,
  groups: ToolSearch["namespaces"],
  limit: number | undefined,
): ListedTool {
  const then =
    mode === "list"
      ? "The tools found are added to your tool list: call them as any other tool."
      : `Each tool found comes with its input schema: call it with ${callToolName}.`;
  const lines = groups.map((g) => `\n- ${g.name}: ${g.description}`);
  const found: Record<string, unknown> = {
    type: "object",
    properties: {
      name: { type: "string" },
      description: { type: "string" },
      ...(mode === "call" ? { inputSchema: { type: "object" } } : {}),
    },
    required:
      mode === "call"
        ? ["name", "description", "inputSchema"]
        : ["name", "description"],
  };
  const listed: ListedTool = {
    name: searchToolsName,
    description: `Find this server's tools by what you want to do, in a few words. ${then}\nTool groups:${lines.join("")}`,
    inputSchema: searchParameters(limit ?? defaultSearchLimit),
    outputSchema: {
      type: "object",
      properties: { tools: { type: "array", items: found } },
      required: ["tools"],
    },
  };
  return deepFreeze(listed);
}

/**
 * A tool as a search-first `tools/list` lists it: a served tool's listing,
 * or `call_tool`'s, which has no output schema (its result is the called
 * tool's).
 */
export type SearchFirstTool = Omit<ListedTool, "outputSchema"> & {
  readonly outputSchema?: ListedTool["outputSchema"];
};

/** The frozen listing of `call_tool`. */
export const callToolListing: SearchFirstTool = deepFreeze({
  name: callToolName,
  description: `Call a tool that ${searchToolsName} found, by its name, with its arguments.`,
  inputSchema: {
    type: "object",
    properties: {
      name: {
        type: "string",
        description: `The tool's name, as ${searchToolsName} gave it.`,
      },
      arguments: {
        type: "object",
        description: "The tool's arguments, following its input schema.",
      },
    },
    required: ["name"],
    additionalProperties: false,
  },
});

/**
 * One connection's search-first tools: what it lists, and its searches.
 * In `list` mode the tools found join its list in the order found, never
 * reordered (a client's prompt cache survives), each once.
 */
export interface SearchSession {
  /** The connection's `tools/list`. */
  list(): SearchFirstTool[];
  /**
   * Run a `search_tools` call: its result, and whether tools joined the
   * list (then say so with `notifications/tools/list_changed`).
   */
  search(args: Record<string, unknown>): {
    result:
      | ReturnType<typeof searchResult>
      | { content: { type: "text"; text: string }[]; isError: true };
    added: boolean;
  };
}

/**
 * The session of one connection, over the server's current catalog, in the
 * mode `mode()` gives at each list and search.
 */
export function createSearchSession(
  catalog: () => SearchCatalog,
  mode: () => SearchFirstMode,
): SearchSession {
  const loaded: ListedTool[] = [];
  const names = new Set<string>();
  return {
    list() {
      const c = catalog();
      const m = mode();
      return m === "call"
        ? [c.searchTool(m), callToolListing, ...c.alwaysLoaded]
        : [c.searchTool(m), ...c.alwaysLoaded, ...loaded];
    },
    search(args) {
      const c = catalog();
      const taken = searchArguments(args, c.limit);
      if (typeof taken === "string") {
        return {
          result: { content: [{ type: "text", text: taken }], isError: true },
          added: false,
        };
      }
      const found = c.find(taken.query, taken.limit);
      const m = mode();
      let added = false;
      if (m === "list") {
        for (const t of found) {
          if (!names.has(t.name) && !c.alwaysLoaded.includes(t)) {
            names.add(t.name);
            loaded.push(t);
            added = true;
          }
        }
      }
      return { result: searchResult(found, m), added };
    },
  };
}

/**
 * A search's arguments, or the model-facing message refusing them (the
 * search tool's one reader, {@link parseSearchArguments}).
 */
export function searchArguments(
  args: Record<string, unknown>,
  defaultLimit: number,
): { query: string; limit: number } | string {
  try {
    const { query, limit } = parseSearchArguments(args);
    return { query, limit: limit ?? defaultLimit };
  } catch (e) {
    return (e as Error).message;
  }
}

/** A `call_tool`'s target, or the model-facing message refusing it. */
export function callArguments(
  args: Record<string, unknown>,
): { name: string; args: Record<string, unknown> } | string {
  const violations: Violation[] = unknownFields(args, ["name", "arguments"]);
  const { name, arguments: inner } = args;
  if (name === undefined || name === null) {
    violations.push(required("name"));
  } else if (typeof name !== "string") {
    violations.push(invalid("name", "must be a string"));
  }
  const kind =
    inner === undefined || inner === null
      ? undefined
      : Array.isArray(inner)
        ? "an array"
        : typeof inner === "object"
          ? undefined
          : `a ${typeof inner}`;
  if (kind !== undefined) {
    violations.push(
      invalid("arguments", `expected a JSON object, got ${kind}`),
    );
  }
  if (violations.length > 0) {
    return violationError(violations).message;
  }
  return {
    name: name as string,
    args: (inner ?? {}) as Record<string, unknown>,
  };
}

/** The message of a `call_tool` naming no tool of the server. */
export function unknownCalledTool(name: string): string {
  return `unknown tool ${quote(name)}: call ${searchToolsName} to find a tool, then ${callToolName} with one of the names it gives`;
}

/**
 * The result of a search: `{"tools":[{"name","description"}]}`, each with
 * its `inputSchema` in `call` mode, as text and as `structuredContent`.
 */
export function searchResult(
  found: readonly ListedTool[],
  mode: SearchFirstMode,
): {
  content: { type: "text"; text: string }[];
  structuredContent: { [key: string]: unknown };
} {
  const tools = found.map((t) =>
    mode === "call"
      ? {
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
        }
      : { name: t.name, description: t.description },
  );
  const structuredContent = { tools };
  return {
    content: [{ type: "text", text: JSON.stringify(structuredContent) }],
    structuredContent,
  };
}

function required(field: string): Violation {
  return invalidReason(field, "required", "missing required field");
}

function invalid(field: string, message: string): Violation {
  return invalidReason(field, "invalid-value", message);
}

function invalidReason(
  field: string,
  reason: Violation["reason"],
  message: string,
): Violation {
  return { field, reason, message };
}
