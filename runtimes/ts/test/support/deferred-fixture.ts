import {
  defineTool,
  defineToolSearch,
  type AgentTool,
  type ToolSearch,
} from "../../src/index.js";
import { tokenizeQuery } from "../../src/tool-search.js";

/**
 * A tool as the generator writes it: a name, a description, one required
 * string field (or none), and its provider forms.
 */
export function tool(
  name: string,
  description: string,
  field?: string,
): AgentTool {
  const properties = field === undefined ? {} : { [field]: { type: "string" } };
  const required = field === undefined ? [] : [field];
  return defineTool({
    name,
    description,
    strict: true,
    parameters: {
      type: "object",
      properties,
      required,
      additionalProperties: false,
    },
    forms: {
      anthropicStrictCounts: { optional: 0, unions: 0 },
      geminiParameters: { type: "object", properties, required },
    },
  });
}

/** Five tools of two services, as a generated file lists them. */
export const fixtureTools: readonly AgentTool[] = [
  tool("links_create", "Create a short link to a URL.", "url"),
  tool("links_get", "Get a short link by its id.", "link_id"),
  tool("links_delete", "Delete a short link.", "link_id"),
  tool("links_list", "List the short links of a user.", "user_id"),
  tool("users_get", "Get a user by id.", "user_id"),
];

/** The namespaces of the fixture's search data. */
export const fixtureNamespaces = [
  {
    name: "LinkService",
    description:
      "Short links: create, read, list, delete.\nFunctions: CreateLink, GetLink, DeleteLink, ListLinks",
    tools: [
      { tool: "links_create", function: "CreateLink" },
      { tool: "links_get", function: "GetLink" },
      { tool: "links_delete", function: "DeleteLink" },
      { tool: "links_list", function: "ListLinks" },
    ],
  },
  {
    name: "UserService",
    description: "Users.\nFunctions: GetUser",
    tools: [{ tool: "users_get", function: "GetUser" }],
  },
];

/**
 * A version 2 index of `tools` (name and description as the text), built
 * by the formulas of docs/tool-search.md; `queryTerms` maps `remove` to
 * `delete` and `links` to `link`.
 */
export function fixtureIndex(tools: readonly AgentTool[]): object {
  const k1 = 1.2;
  const b = 0.75;
  const names = tools.map((t) => t.name).sort();
  const docs = names.map((n) => {
    const t = tools.find((x) => x.name === n)!;
    return tokenizeQuery(`${t.name} ${t.description}`).filter(
      (w) => !stopWords.includes(w),
    );
  });
  const average = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const postings: Record<string, [number, number][]> = {};
  docs.forEach((terms, doc) => {
    const counts = new Map<string, number>();
    for (const term of terms) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    for (const [term, tf] of counts) {
      (postings[term] ??= []).push([doc, tf]);
    }
  });
  const idf: Record<string, number> = {};
  for (const [term, list] of Object.entries(postings)) {
    idf[term] = Math.log(
      1 + (docs.length - list.length + 0.5) / (list.length + 0.5),
    );
  }
  return {
    version: 2,
    k1,
    b,
    names,
    norms: docs.map((d) => k1 * (1 - b + (b * d.length) / average)),
    idf,
    postings,
    stopWords,
    queryTerms: { links: ["link"], remove: ["delete"] },
  };
}

const stopWords = ["a", "by", "its", "of", "the", "to"];

/** The fixture's tool-search data, as a generated file defines it. */
export function fixtureSearch(
  namespaces: readonly object[] = fixtureNamespaces,
  tools: readonly AgentTool[] = fixtureTools,
): ToolSearch {
  return defineToolSearch(
    JSON.stringify({ version: 1, namespaces, index: fixtureIndex(tools) }),
  );
}
