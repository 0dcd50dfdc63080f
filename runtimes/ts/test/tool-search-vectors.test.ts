// The shared ranking vectors (e2e/vectors/tool-search/ranking.json, written
// by generator/scripts/tool-search-vectors.mjs): the same query gives the
// same names and the same scores, exactly, in TypeScript, Go and Python.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defineToolSearch, rankTools, type ToolHit } from "../src/index.js";

interface RankingQuery {
  readonly query: string;
  readonly limit: number;
  readonly expected?: ToolHit[];
  readonly error?: string;
}

const file = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/tool-search/ranking.json",
);
const vectors = JSON.parse(readFileSync(file, "utf8")) as {
  cases: { name: string; index: string; queries: RankingQuery[] }[];
};

describe.each(vectors.cases)("ranking vectors: $name", (c) => {
  const search = defineToolSearch(
    `{"version":1,"namespaces":[],"index":${c.index}}`,
  );
  it.each(c.queries)("$query (limit $limit)", (q) => {
    if (q.error !== undefined) {
      expect(() => rankTools(search, q.query, q.limit)).toThrow(
        new Error(q.error),
      );
      return;
    }
    expect(rankTools(search, q.query, q.limit)).toEqual(q.expected);
  });
});

it("holds the three cases", () => {
  expect(vectors.cases.map((c) => c.name)).toEqual([
    "linkhub",
    "vertex-ai",
    "tables",
  ]);
});
