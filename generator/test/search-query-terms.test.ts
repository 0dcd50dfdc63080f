import { describe, expect, it } from "vitest";
import { baseWords, inflections } from "../src/search/inflections.js";
import { buildQueryTerms } from "../src/search/query-terms.js";
import { synonyms } from "../src/search/synonyms.js";

// The query tables of the tool-search index: regular English inflections
// by rule, and the generic synonym table, both applied only to words the
// vocabulary has.

describe("inflections", () => {
  it("gives plural or third person first, then the participles", () => {
    expect(inflections("delete")).toEqual(["deletes", "deleted", "deleting"]);
    expect(inflections("policy")).toEqual([
      "policies",
      "policied",
      "policying",
    ]);
    expect(inflections("address")).toEqual([
      "addresses",
      "addressed",
      "addressing",
    ]);
    expect(inflections("stop")).toEqual([
      "stops",
      "stoped",
      "stoping",
      "stopped",
      "stopping",
    ]);
    expect(inflections("patch")).toEqual(["patches", "patched", "patching"]);
  });

  it("leaves short words and words with digits alone", () => {
    expect(inflections("ip")).toEqual([]);
    expect(inflections("ipv6")).toEqual([]);
  });

  it("finds the words a word inflects, and keeps the word", () => {
    expect(baseWords("stopped")).toEqual(["stopped", "stop"]);
    expect(baseWords("deleting")).toContain("delete");
    expect(baseWords("added")).toContain("add");
    expect(baseWords("policies")).toEqual(["policies", "policy"]);
    expect(baseWords("status")).toEqual(["status"]);
    expect(baseWords("instances")).toEqual(["instances", "instance"]);
  });
});

describe("buildQueryTerms", () => {
  const stop = new Set(["the"]);

  it("maps a missing inflection to the vocabulary's word, never a present one", () => {
    const table = buildQueryTerms(
      new Set(["instances", "delete", "zone"]),
      new Set(["delete"]),
      stop,
    );
    expect(table.get("instance")).toEqual(["instances"]);
    expect(table.get("deleting")).toEqual(["delete"]);
    expect(table.get("zones")).toEqual(["zone"]);
    // zone is no action verb: only its plural.
    expect(table.has("zoned")).toBe(false);
    expect(table.has("instances")).toBe(false);
  });

  it("adds synonyms where the vocabulary has their words, to the word itself", () => {
    const table = buildQueryTerms(
      new Set(["delete", "remove", "stops"]),
      new Set(),
      stop,
    );
    expect(table.get("remove")).toEqual(["remove", "delete"]);
    expect(table.get("erasing")).toEqual(["delete"]);
    expect(table.get("halt")).toEqual(["stops"]);
    // create, insert: none in the vocabulary.
    expect(table.has("make")).toBe(false);
  });

  it("never makes a stop word a key", () => {
    const table = buildQueryTerms(new Set(["thes"]), new Set(), stop);
    expect(table.has("the")).toBe(false);
  });

  it("has a synonym table of lower-case words, no key among its own words", () => {
    for (const [key, words] of Object.entries(synonyms)) {
      expect(key).toMatch(/^[a-z]+$/);
      expect(words.length).toBeGreaterThan(0);
      expect(words).not.toContain(key);
    }
  });
});
