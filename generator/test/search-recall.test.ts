import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rankTools } from "../src/search/rank.js";
import { buildToolSearchIndex } from "../src/search/tool-search-index.js";
import { modelOf } from "./support/model.js";
import { realApiRequest } from "./support/real-apis.js";

// Search quality of the tool-search index on two of the query sets of
// e2e/vectors/tool-search (issue 36, part 2): recall@5, the mean share of
// each query's relevant tools found in its first 5 results, must not fall
// below the figure measured when the index data was last tuned, less 2
// points (docs/tool-search.md, "Measured"; scripts/bench/search-recall.mjs
// prints every set, Temporal's too). Raise a floor when a change raises
// recall; a change that lowers it needs its measurement.

const floors = [
  { api: "vertex-ai", dir: "google/cloud/aiplatform/v1", floor: 53.7 },
  { api: "compute", dir: "google/cloud/compute/v1", floor: 43.0 },
] as const;

interface QuerySet {
  readonly options: string;
  readonly queries: readonly {
    readonly query: string;
    readonly relevant: readonly string[];
  }[];
}

const setsDir = join(
  import.meta.dirname,
  "..",
  "..",
  "e2e",
  "vectors",
  "tool-search",
  "queries",
);

describe("tool search recall@5 (google-proto-files)", () => {
  for (const { api, dir, floor } of floors) {
    it(`${api}: at least ${floor}%`, () => {
      const set = JSON.parse(
        readFileSync(join(setsDir, `${api}.json`), "utf8"),
      ) as QuerySet;
      const model = modelOf(realApiRequest(dir, set.options));
      const index = buildToolSearchIndex(model.tools);
      const names = new Set(index.names);
      expect(
        set.queries.flatMap((q) => q.relevant).filter((n) => !names.has(n)),
      ).toEqual([]);
      let sum = 0;
      for (const q of set.queries) {
        const top = rankTools(index, q.query, 5).map((hit) => hit.name);
        sum +=
          q.relevant.filter((n) => top.includes(n)).length / q.relevant.length;
      }
      const recall = (100 * sum) / set.queries.length;
      expect(recall).toBeGreaterThanOrEqual(floor);
    }, 300_000);
  }
});
