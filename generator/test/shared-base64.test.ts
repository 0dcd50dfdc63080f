import { describe, expect, it } from "vitest";
import { validateAgainst, valuesFor } from "@protoc-gen-ai-tools/testkit";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import { canonicalJson } from "../src/schema/canonical-json.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { base64DefKey, shareBase64 } from "../src/schema/shared-base64.js";
import { bytesSchema, patterns } from "../src/schema/well-known.js";

// The strict bytes schema written once per tool (issue 11, point 6).

function object(properties: JsonSchema): JsonSchema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const ref = { $ref: `#/$defs/${base64DefKey}` };
const definition = { type: "string", pattern: patterns.base64 };

describe("shareBase64", () => {
  it("leaves a schema with one bytes field as it is", () => {
    const schema = object({ a: bytesSchema(true), b: { type: "string" } });
    expect(shareBase64(schema)).toBe(schema);
  });

  it("writes the pattern once when it is used twice or more", () => {
    const schema = object({
      a: bytesSchema(true),
      list: { type: "array", items: bytesSchema(true) },
      maybe: { anyOf: [bytesSchema(true), { type: "null" }] },
    });
    const shared = shareBase64(schema);
    expect(JSON.parse(canonicalJson(shared))).toEqual({
      ...object({
        a: ref,
        list: { type: "array", items: ref },
        maybe: { anyOf: [ref, { type: "null" }] },
      }),
      $defs: { [base64DefKey]: definition },
    });
    expect(checkOpenAiStrict(shared)).toEqual([]);
    // The input is not changed.
    expect(schema["properties"]).toHaveProperty("a", bytesSchema(true));
  });

  it("costs fewer characters from two uses on", () => {
    const two = object({ a: bytesSchema(true), b: bytesSchema(true) });
    expect(canonicalJson(shareBase64(two)).length).toBeLessThan(
      canonicalJson(two).length,
    );
  });

  it("keeps a described bytes field inline (OpenAI refuses keywords beside $ref)", () => {
    const described = { ...bytesSchema(true), description: "The payload." };
    const shared = shareBase64(
      object({ a: bytesSchema(true), b: bytesSchema(true), c: described }),
    );
    expect(shared["properties"]).toEqual({ a: ref, b: ref, c: described });
  });

  it("adds to definitions already there, and walks them", () => {
    const schema: JsonSchema = {
      ...object({
        a: bytesSchema(true),
        m: { $ref: "#/$defs/t.v1.M" },
      }),
      $defs: { "t.v1.M": object({ data: bytesSchema(true) }) },
    };
    expect(shareBase64(schema)["$defs"]).toEqual({
      "t.v1.M": object({ data: ref }),
      [base64DefKey]: definition,
    });
  });

  it("keeps a property named __proto__", () => {
    const properties = Object.create(null) as JsonSchema;
    properties["__proto__"] = bytesSchema(true);
    properties["b"] = bytesSchema(true);
    const shared = shareBase64(object(properties));
    expect(canonicalJson(shared)).toContain(
      `"properties":{"__proto__":{"$ref":"#/$defs/${base64DefKey}"},"b":`,
    );
  });

  it("admits only base64 values, as the inline pattern does", () => {
    const shared = shareBase64(
      object({
        a: bytesSchema(true),
        list: { type: "array", items: bytesSchema(true) },
      }),
    );
    const values = valuesFor(shared, { count: 50, seed: 7 });
    const base64 = new RegExp(patterns.base64);
    for (const value of values) {
      expect(validateAgainst(shared, value, [])).toEqual([]);
      const v = value as { a: string; list: string[] };
      expect(v.a).toMatch(base64);
      for (const item of v.list) {
        expect(item).toMatch(base64);
      }
    }
    expect(validateAgainst(shared, { a: "***", list: [] }, [])).not.toEqual([]);
  });
});
