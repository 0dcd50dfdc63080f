import { describe, expect, it } from "vitest";
import type { AliasConfig } from "../../src/index.js";
import { mergeAliasConfigs } from "../../src/mcp/merge-alias-configs.js";
import { aitestAliases } from "../support/aitest-tools.js";

const other: AliasConfig = {
  knownAliasPrefixes: ["acct", "zone"],
  responseAliases: {
    types: { "z.v1.Zone": [{ field: "id", prefix: "zone" }] },
    tools: { zones_get: { message: "z.v1.Zone", idPrefix: "", idField: "" } },
  },
};

describe("mergeAliasConfigs", () => {
  it("returns one config as it is", () => {
    expect(mergeAliasConfigs([aitestAliases, aitestAliases])).toBe(
      aitestAliases,
    );
  });

  it("unites the prefixes, types and tools of two generated files", () => {
    const merged = mergeAliasConfigs([aitestAliases, other]);
    expect(merged.knownAliasPrefixes).toEqual([
      "acct",
      "contact",
      "note",
      "user",
      "zone",
    ]);
    expect(merged.responseAliases.types["z.v1.Zone"]).toBeDefined();
    expect(merged.responseAliases.types["aitest.v1.Account"]).toBeDefined();
    expect(Object.keys(merged.responseAliases.tools)).toContain("zones_get");
    expect(Object.keys(merged.responseAliases.tools)).toContain(
      "accounts_create",
    );
  });

  it("refuses two files that register one tool differently", () => {
    const clash: AliasConfig = {
      ...other,
      responseAliases: {
        types: {},
        tools: {
          accounts_create: { message: "z.v1.Zone", idPrefix: "", idField: "" },
        },
      },
    };
    expect(() => mergeAliasConfigs([aitestAliases, clash])).toThrow(
      'tool "accounts_create" registers its response ids differently in two generated files',
    );
  });
});
