// defineToolSearch and rankTools on the fixture's index (scores worked out
// by the formulas here); the shared vectors are in tool-search-vectors.test.ts.
import { describe, expect, it } from "vitest";
import { defineToolSearch, rankTools } from "../src/index.js";
import { tokenizeQuery } from "../src/tool-search.js";
import {
  fixtureIndex,
  fixtureNamespaces,
  fixtureSearch,
  fixtureTools,
} from "./support/deferred-fixture.js";

describe("defineToolSearch", () => {
  it("parses on first read, once, and freezes", () => {
    const search = fixtureSearch();
    expect(search.version).toBe(1);
    expect(search.namespaces).toEqual(fixtureNamespaces);
    expect(search.index).toBe(search.index);
    expect(Object.isFrozen(search.index.names)).toBe(true);
  });

  it.each([
    [{ version: 2 }, "tool search data: version 2 is not 1"],
    [{ version: 1, index: {} }, "tool search data: no namespaces list"],
    [
      { version: 1, namespaces: [], index: { version: 1 } },
      "tool search data: the index is not version 2",
    ],
    [
      {
        version: 1,
        namespaces: [],
        index: { ...fixtureIndex(fixtureTools), postings: null },
      },
      "tool search data: the index has no postings table",
    ],
  ])("refuses bad data on first read: %#", (data, message) => {
    const search = defineToolSearch(JSON.stringify(data));
    expect(() => search.index).toThrow(message);
    expect(() => search.index).toThrow(
      "regenerate the file with protoc-gen-ai-tools (tool_search=true)",
    );
  });
});

describe("rankTools", () => {
  const search = fixtureSearch();
  const index = search.index;

  /** The score of one document by the contract's formula, term by term. */
  function score(name: string, terms: string[]): number {
    const doc = index.names.indexOf(name);
    let s = 0;
    for (const term of terms) {
      const hit = index.postings[term]?.find(([d]) => d === doc);
      if (hit !== undefined) {
        const tf = hit[1];
        s +=
          (index.idf[term]! * (tf * (index.k1 + 1))) / (tf + index.norms[doc]!);
      }
    }
    return s;
  }

  it("scores by the formula, best first, at most limit", () => {
    const hits = rankTools(search, "get the user", 2);
    expect(hits.map((h) => h.name)).toEqual(["users_get", "links_get"]);
    expect(hits[0]!.score).toBe(score("users_get", ["get", "user"]));
    expect(hits[1]!.score).toBe(score("links_get", ["get", "user"]));
  });

  it("maps tokens through queryTerms and drops stop words", () => {
    expect(rankTools(search, "remove the LINKS", 1)).toEqual([
      {
        name: "links_delete",
        score: score("links_delete", ["delete", "link"]),
      },
    ]);
    expect(rankTools(search, "the of to")).toEqual([]);
    expect(rankTools(search, "")).toEqual([]);
  });

  it("counts a repeated word once and breaks ties by name bytes", () => {
    expect(rankTools(search, "short short link", 5)).toEqual(
      rankTools(search, "short link", 5),
    );
    // links_delete is the shortest; the other three score alike.
    const tied = rankTools(search, "short", 5);
    expect(tied.map((h) => h.name)).toEqual([
      "links_delete",
      "links_create",
      "links_get",
      "links_list",
    ]);
    expect(new Set(tied.slice(1).map((h) => h.score)).size).toBe(1);
  });

  it("takes keys such as constructor as words", () => {
    expect(rankTools(search, "constructor toString __proto__")).toEqual([]);
  });

  it("refuses a limit below 1", () => {
    expect(() => rankTools(search, "link", 0)).toThrow(
      'limit "0": ask for at least 1 tool',
    );
    expect(() => rankTools(search, "link", 1.5)).toThrow('limit "1.5"');
  });
});

describe("tokenizeQuery", () => {
  it("splits camelCase, snake_case and punctuation, ASCII lower case", () => {
    expect(tokenizeQuery("getHTTPServer list_links, v1 Ünïcode")).toEqual([
      "get",
      "http",
      "server",
      "list",
      "links",
      "v1",
      "n",
      "code",
    ]);
  });
});
