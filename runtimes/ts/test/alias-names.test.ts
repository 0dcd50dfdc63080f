// Values other than UUIDs behind aliases (anyValue fields, restored states)
// beyond the shared vector e2e/vectors/aliases/any-value.json: what counts
// as a name, and that registration takes only what a restore accepts.
import { describe, expect, it } from "vitest";
import { createAliasManager, isAliasName } from "../src/index.js";

const config = {
  knownAliasPrefixes: ["operation"],
  responseAliases: {
    types: {
      "google.longrunning.Operation": [
        { field: "name", prefix: "operation", anyValue: true },
      ],
    },
    tools: {
      links_export: {
        message: "google.longrunning.Operation",
        idPrefix: "",
        idField: "",
      },
    },
  },
};

describe("alias names", () => {
  it("are non-empty, at most 1024 bytes of UTF-8, without control characters", () => {
    expect(isAliasName("workspaces/w1/operations/7")).toBe(true);
    expect(isAliasName("é".repeat(512))).toBe(true);
    expect(isAliasName("é".repeat(513))).toBe(false);
    expect(isAliasName("a".repeat(1025))).toBe(false);
    for (const bad of ["", "a\nb", "a\u0000", "a\u007f", "a\u0085"]) {
      expect(isAliasName(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it("register from an anyValue field only when a restore would accept them", () => {
    const m = createAliasManager(config);
    for (const name of ["", "a\tb", "x".repeat(1025), "ops/1"]) {
      m.registerResponse("links_export", JSON.stringify({ name }));
    }
    expect(m.exportState()).toBe(
      '{"aliases":{"operation-1":"ops/1"},"counters":{"operation":1},"version":1}',
    );
    const other = createAliasManager(config);
    other.restoreState(m.exportState());
    expect(other.aliasifyJson("(ops/1)")).toBe("(operation-1)");
  });

  it("are found alike by one search each (32 names or fewer) and by one scan (more)", () => {
    for (const count of [3, 40]) {
      const m = createAliasManager(config);
      for (let i = 1; i <= count; i++) {
        m.registerResponse(
          "links_export",
          JSON.stringify({ name: `ops/${i}` }),
        );
      }
      expect(
        m.aliasifyJson('"ops/3" ops/30 xops/3 ops/3. ops/3,ops/1'),
        `${count}`,
      ).toBe(
        count === 3
          ? '"operation-3" ops/30 xops/3 ops/3. operation-3,operation-1'
          : '"operation-3" operation-30 xops/3 ops/3. operation-3,operation-1',
      );
    }
  });

  it("are replaced as whole tokens, one occurrence after another", () => {
    const m = createAliasManager(config);
    m.registerResponse("links_export", '{"name":"op"}');
    expect(m.aliasifyJson("op op,op op1 op")).toBe(
      "operation-1 operation-1,operation-1 op1 operation-1",
    );
  });
});
