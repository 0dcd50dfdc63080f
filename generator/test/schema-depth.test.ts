import { describe, expect, it } from "vitest";
import {
  exceedsDepth,
  schemaDepth,
  walkSchemaDepth,
} from "../src/schema/schema-depth.js";
import { deepFreeze } from "./support/deep-freeze.js";

// Nesting as OpenAI's SDK counts it (openai-java, JsonSchemaValidator.kt):
// the root is 0; every property value, `items`, `anyOf` branch and `$defs`
// entry is one level deeper; a `$ref` is not followed.

describe("schemaDepth", () => {
  it("is 0 for the root alone", () => {
    expect(schemaDepth({ type: "object", properties: {} })).toEqual({
      depth: 0,
      path: "#",
    });
  });

  it("counts properties, items and anyOf branches", () => {
    const schema = {
      type: "object",
      properties: {
        a: {
          type: "array",
          items: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
      },
    };
    expect(schemaDepth(schema)).toEqual({
      depth: 3,
      path: "#/properties/a/items/anyOf/0",
    });
  });

  it("counts a $defs entry from level 1 and does not follow $ref", () => {
    const schema = {
      type: "object",
      properties: {
        a: { type: "object", properties: { b: { $ref: "#/$defs/X" } } },
      },
      $defs: {
        "x/y": { type: "object", properties: { c: { type: "string" } } },
        X: { $ref: "#" },
      },
    };
    expect(schemaDepth(schema)).toEqual({
      depth: 2,
      path: "#/properties/a/properties/b",
    });
    const levels: string[] = [];
    walkSchemaDepth(schema, (depth, path) => levels.push(`${depth} ${path}`));
    expect(levels).toEqual([
      "0 #",
      "1 #/properties/a",
      "2 #/properties/a/properties/b",
      "1 #/$defs/x~1y",
      "2 #/$defs/x~1y/properties/c",
      "1 #/$defs/X",
    ]);
  });

  it("ignores $defs below the root", () => {
    const schema = {
      type: "object",
      properties: { a: { $defs: { X: { type: "string" } } } },
    };
    expect(schemaDepth(schema).depth).toBe(1);
  });
});

describe("exceedsDepth", () => {
  it("says whether schemaDepth is over the limit, for every limit", () => {
    const leaf = { type: "string" };
    const schemas: unknown[] = [
      leaf,
      { type: "object", properties: { a: leaf, b: { items: leaf } } },
      {
        anyOf: [
          { type: "object", properties: { x: { anyOf: [leaf, null] } } },
          { type: "null" },
        ],
      },
      {
        type: "object",
        properties: { r: { $ref: "#/$defs/D" } },
        $defs: { D: { type: "object", properties: { d: { items: leaf } } } },
      },
      // `$defs` below the root is not walked; `items` as an array is not.
      { properties: { p: { $defs: { D: { items: leaf } }, items: [leaf] } } },
    ];
    for (const schema of schemas) {
      const { depth } = schemaDepth(schema);
      for (let limit = 0; limit <= 5; limit++) {
        expect(exceedsDepth(schema, limit)).toBe(depth > limit);
      }
    }
  });

  it("counts a shared, frozen sub-schema where it sits", () => {
    // Frozen, as the schema builder shares a message's expansion: it
    // counts from the depth of each place holding it, every time.
    const shared = deepFreeze({
      type: "object",
      properties: {
        a: { type: "object", properties: { b: { items: { type: "string" } } } },
        c: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
    });
    const schemas: unknown[] = [
      { type: "object", properties: { s: shared } },
      { type: "object", properties: { x: { properties: { y: shared } } } },
      { items: { anyOf: [shared, { type: "null" }] } },
      { type: "object", properties: { s: shared }, $defs: { D: shared } },
      shared,
    ];
    for (const schema of [...schemas, ...schemas]) {
      const { depth } = schemaDepth(schema);
      for (let limit = 0; limit <= 8; limit++) {
        expect(exceedsDepth(schema, limit)).toBe(depth > limit);
      }
    }
  });
});
