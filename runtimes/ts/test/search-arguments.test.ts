// The search tool's contract (src/search-arguments.ts), shared by the
// deferred tools and MCP search-first: its schema and the reading of its
// arguments. The cross-language cases are in
// e2e/vectors/tool-search/requests.json (`searchArguments`).
import { describe, expect, it } from "vitest";
import {
  ToolError,
  parseSearchArguments,
  searchParameters,
} from "../src/index.js";

function refusal(args: unknown): string {
  try {
    parseSearchArguments(args);
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect(e).toMatchObject({ reason: "invalid-arguments" });
    return (e as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(args)}`);
}

describe("parseSearchArguments", () => {
  it("reads an object, or a string holding one, decoded once", () => {
    expect(parseSearchArguments({ query: "get link" })).toEqual({
      query: "get link",
    });
    expect(parseSearchArguments('{"query":"get link","limit":3}')).toEqual({
      query: "get link",
      limit: 3,
    });
    expect(parseSearchArguments({ query: "x", limit: null })).toEqual({
      query: "x",
    });
    expect(parseSearchArguments('{"query":"x","limit":2.0}')).toEqual({
      query: "x",
      limit: 2,
    });
    expect(refusal(JSON.stringify('{"query":"x"}'))).toBe(
      "invalid arguments, nothing was sent:\n- expected a JSON object, got a string",
    );
  });

  it("gives every violation, unknown keys first", () => {
    expect(refusal({ limit: 21, query: 3, extra: true, other: 1 })).toBe(
      [
        "invalid arguments, nothing was sent:",
        '- "extra": unknown field; valid fields: query, limit',
        '- "other": unknown field; valid fields: query, limit',
        '- "query": must be a string',
        '- "limit": must be a whole number from 1 to 20',
      ].join("\n"),
    );
    expect(refusal([])).toBe(
      "invalid arguments, nothing was sent:\n- expected a JSON object, got an array",
    );
    expect(refusal(null)).toBe(
      "invalid arguments, nothing was sent:\n- expected a JSON object, got null",
    );
  });

  it("has a schema that says the default limit", () => {
    const schema = searchParameters(7);
    expect(schema.properties.limit.description).toBe(
      "The most tools to find; 7 by default.",
    );
    expect(schema.additionalProperties).toBe(false);
    expect(searchParameters(7)).not.toBe(schema);
  });
});
