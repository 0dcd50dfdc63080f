import { quote } from "./json.js";
import { violationError, type Violation } from "./violations.js";

/**
 * The search tool's contract, one for the deferred tools (the search call
 * of every provider) and the MCP search-first `search_tools`
 * (docs/tool-search.md, "The search tool"): its name, its input schema and
 * the reading of its arguments, the same in the Go and Python runtimes.
 */

/** The name of the search tool a model calls. */
export const searchToolsName = "search_tools";

/** The most tools one search may find (and load). */
export const maxSearchLimit = 20;

/** How many tools a search finds when neither the model nor the options say. */
export const defaultSearchLimit = 5;

/** The arguments of a search call, as {@link parseSearchArguments} reads them. */
export interface SearchArguments {
  /** What the model searches for. */
  readonly query: string;
  /** How many tools to find (1 to 20), when the model said. */
  readonly limit?: number | undefined;
}

/**
 * The search tool's input schema (JSON Schema); a type literal, so that it
 * is a JSON object wherever one is taken.
 */
export type SearchParameters = {
  readonly type: "object";
  readonly properties: {
    readonly query: { readonly type: "string"; readonly description: string };
    readonly limit: {
      readonly type: "integer";
      readonly minimum: 1;
      readonly maximum: typeof maxSearchLimit;
      readonly description: string;
    };
  };
  readonly required: readonly ["query"];
  readonly additionalProperties: false;
};

/**
 * The search tool's input schema, its `limit` saying `defaultLimit` (what a
 * search finds when the model gives none). A fresh object each call.
 */
export function searchParameters(defaultLimit: number): SearchParameters {
  return {
    type: "object",
    properties: {
      query: {
        type: "string",
        description: "What you want to do, in a few words.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: maxSearchLimit,
        description: `The most tools to find; ${String(defaultLimit)} by default.`,
      },
    },
    required: ["query"],
    additionalProperties: false,
  };
}

/**
 * The query and limit of a search call's arguments: a JSON object, or a
 * string holding one (JSON text, decoded once: a function call's
 * arguments; OpenAI's `tool_search_call` sends an object). Anything else,
 * an unknown key, a query that is no string or a limit that is no whole
 * number from 1 to 20 is the model's mistake: a `ToolError`
 * (`invalid-arguments`, `invalid arguments, nothing was sent:` and one line
 * per violation, docs/runtime.md "Errors").
 */
export function parseSearchArguments(args: unknown): SearchArguments {
  let value = args;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw violationError([
        {
          field: "",
          reason: "invalid-json",
          message: "invalid JSON; send the arguments as one JSON object",
        },
      ]);
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw violationError([
      {
        field: "",
        reason: "not-an-object",
        message: `expected a JSON object, got ${kindOf(value)}`,
      },
    ]);
  }
  const obj = value as Record<string, unknown>;
  const violations = unknownFields(obj, ["query", "limit"]);
  const { query, limit } = obj;
  if (query === undefined || query === null) {
    violations.push({
      field: "query",
      reason: "required",
      message: "missing required field",
    });
  } else if (typeof query !== "string") {
    violations.push({
      field: "query",
      reason: "invalid-value",
      message: "must be a string",
    });
  }
  const given = limit !== undefined && limit !== null;
  if (
    given &&
    !(
      typeof limit === "number" &&
      Number.isInteger(limit) &&
      limit >= 1 &&
      limit <= maxSearchLimit
    )
  ) {
    violations.push({
      field: "limit",
      reason: "invalid-value",
      message: `must be a whole number from 1 to ${String(maxSearchLimit)}`,
    });
  }
  if (violations.length > 0) {
    throw violationError(violations);
  }
  return given
    ? { query: query as string, limit: limit as number }
    : { query: query as string };
}

/**
 * The refusal of a tool the tool-search data does not name and that is not
 * always loaded (no search could find it), one text for the deferred tools
 * and MCP search-first.
 */
export function notInSearchData(tool: string): string {
  return `tool ${quote(tool)} is served but not in the tool-search data: generate its file with tool_search=true and pass that file's data, or list it in alwaysLoaded`;
}

/** What a decoded JSON value is, as a violation says it. */
function kindOf(v: unknown): string {
  if (v === null || v === undefined) {
    return "null";
  }
  if (Array.isArray(v)) {
    return "an array";
  }
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/**
 * A violation per key of `args` that is not in `known`, in key order: the
 * one unknown-field rule of the search tool and the MCP meta tools.
 */
export function unknownFields(
  args: Record<string, unknown>,
  known: readonly string[],
): Violation[] {
  return Object.keys(args)
    .filter((k) => !known.includes(k))
    .map((k) => ({
      field: k,
      reason: "unknown-field",
      message: `unknown field; valid fields: ${known.join(", ")}`,
    }));
}
