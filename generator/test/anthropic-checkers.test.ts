import { describe, expect, it } from "vitest";
import {
  anthropicStrictFormats,
  checkAnthropicStrict,
  countAnthropicStrictParameters,
} from "../src/providers/anthropic-strict.js";
import { checkAnthropicTool } from "../src/providers/anthropic-tools.js";
import { obj, rules } from "./support/provider-schemas.js";

describe("checkAnthropicTool (input_schema)", () => {
  it("accepts the schemas the generator writes", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", description: "a name" },
        tags: { type: "object", additionalProperties: { type: "integer" } },
        keys: {
          type: "object",
          propertyNames: { pattern: "^(0|[1-9][0-9]*)$" },
          additionalProperties: { type: "string" },
        },
        value: {},
        choice: {
          anyOf: [
            obj({ a: { type: "string" } }),
            obj({ b: { type: "number" } }),
          ],
        },
        node: { $ref: "#/$defs/Node" },
      },
      required: ["name"],
      $defs: {
        Node: obj({
          next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] },
        }),
      },
    };
    expect(checkAnthropicTool(schema)).toEqual([]);
  });

  it("root-type-object: the root is an object schema", () => {
    expect(rules(checkAnthropicTool({ type: "array", items: {} }))).toEqual([
      "# root-type-object",
    ]);
    expect(rules(checkAnthropicTool([]))).toEqual(["# root-type-object"]);
  });

  it("top-level-composition: no anyOf, oneOf or allOf at the root", () => {
    const v = checkAnthropicTool({
      type: "object",
      anyOf: [obj({}), obj({})],
      allOf: [obj({})],
    });
    expect(rules(v)).toEqual([
      "# top-level-composition",
      "# top-level-composition",
    ]);
    expect(v[0]!.message).toBe(
      'input_schema does not support "allOf" at the top level',
    );
    // Below the root, they are fine.
    expect(
      checkAnthropicTool(
        obj({ p: { anyOf: [{ type: "string" }, { type: "null" }] } }),
      ),
    ).toEqual([]);
  });

  it("schema-shape: sub-schemas, properties and required are well formed", () => {
    expect(
      rules(
        checkAnthropicTool({
          type: "object",
          properties: { a: 3, b: { type: "object", properties: [] } },
          required: [1],
        }),
      ),
    ).toEqual([
      "# schema-shape",
      "#/properties/a schema-shape",
      "#/properties/b schema-shape",
    ]);
  });

  it("ref-resolves: a $ref names a definition of the schema", () => {
    expect(
      rules(
        checkAnthropicTool(
          obj({
            a: { $ref: "#/$defs/Missing" },
            b: { $ref: "https://example.com/schema" },
            c: { $ref: "#" },
          }),
        ),
      ),
    ).toEqual(["#/properties/a ref-resolves", "#/properties/b ref-resolves"]);
  });
});

describe("checkAnthropicStrict (strict tool use)", () => {
  it("accepts the strict schemas the generator writes", () => {
    const schema = obj({
      id: { type: "string", format: "uuid" },
      when: {
        anyOf: [{ type: "string", format: "date-time" }, { type: "null" }],
      },
      data: {
        type: "string",
        pattern: "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
      },
      kind: { type: "string", enum: ["A", "B"] },
      items: {
        type: "array",
        items: obj({ k: { type: "integer" } }),
        minItems: 1,
      },
      shared: { $ref: "#/$defs/Shared" },
    });
    schema["$defs"] = { Shared: obj({ x: { type: "boolean", const: true } }) };
    expect(checkAnthropicStrict(schema)).toEqual([]);
  });

  it("includes the rules of ordinary tools", () => {
    expect(
      rules(checkAnthropicStrict({ ...obj({}), anyOf: [obj({})] })),
    ).toContain("# top-level-composition");
  });

  it("unsupported-keyword: numeric bounds, lengths, maxItems and the rest", () => {
    const v = checkAnthropicStrict(
      obj({
        n: { type: "integer", minimum: 0, maximum: 9, multipleOf: 3 },
        s: { type: "string", minLength: 1, maxLength: 5 },
        a: { type: "array", items: { type: "string" }, maxItems: 3 },
        m: {
          type: "object",
          properties: {},
          additionalProperties: false,
          propertyNames: { pattern: "^a" },
        },
      }),
    );
    expect(v.map((x) => x.message)).toEqual([
      'keyword "minimum" is not supported in strict tool use',
      'keyword "maximum" is not supported in strict tool use',
      'keyword "multipleOf" is not supported in strict tool use',
      'keyword "minLength" is not supported in strict tool use',
      'keyword "maxLength" is not supported in strict tool use',
      'keyword "maxItems" is not supported in strict tool use',
      'keyword "propertyNames" is not supported in strict tool use',
    ]);
    expect(new Set(v.map((x) => x.rule))).toEqual(
      new Set(["unsupported-keyword"]),
    );
  });

  it("additional-properties-false: every object is closed", () => {
    expect(
      rules(
        checkAnthropicStrict({
          type: "object",
          properties: {
            open: { type: "object", properties: {} },
            map: { type: "object", additionalProperties: { type: "string" } },
          },
          required: [],
          additionalProperties: false,
        }),
      ),
    ).toEqual([
      "#/properties/open additional-properties-false",
      "#/properties/map additional-properties-false",
    ]);
  });

  it("format: only the supported formats", () => {
    for (const format of anthropicStrictFormats) {
      expect(
        checkAnthropicStrict(obj({ s: { type: "string", format } })),
      ).toEqual([]);
    }
    expect(
      rules(
        checkAnthropicStrict(obj({ s: { type: "string", format: "byte" } })),
      ),
    ).toEqual(["#/properties/s format"]);
  });

  it("min-items: minItems is 0 or 1", () => {
    const arr = (minItems: number) =>
      obj({ a: { type: "array", items: { type: "string" }, minItems } });
    expect(checkAnthropicStrict(arr(0))).toEqual([]);
    expect(checkAnthropicStrict(arr(1))).toEqual([]);
    expect(rules(checkAnthropicStrict(arr(2)))).toEqual([
      "#/properties/a min-items",
    ]);
  });

  it("pattern: no lookaround, no backreferences, valid", () => {
    const p = (pattern: string) =>
      rules(checkAnthropicStrict(obj({ s: { type: "string", pattern } })));
    expect(p("^(a|b)+[(?=]\\(?=x$")).toEqual([]);
    expect(p("^(?=a)b")).toEqual(["#/properties/s pattern"]);
    expect(p("^(?<!a)b")).toEqual(["#/properties/s pattern"]);
    expect(p("^(a)\\1$")).toEqual(["#/properties/s pattern"]);
    expect(p("^(?<x>a)\\k<x>$")).toEqual(["#/properties/s pattern"]);
    expect(p("^(a")).toEqual(["#/properties/s pattern"]);
  });

  it("enum-primitive: enum and const values are primitives", () => {
    expect(
      rules(
        checkAnthropicStrict(
          obj({
            e: { type: "string", enum: ["a", { b: 1 }] },
            c: {
              type: "object",
              const: [1],
              properties: {},
              additionalProperties: false,
            },
          }),
        ),
      ),
    ).toEqual([
      "#/properties/e enum-primitive",
      "#/properties/c enum-primitive",
    ]);
  });

  it("no-recursion: a $ref cycle is refused, even through optional properties", () => {
    const schema = obj({ root: { $ref: "#/$defs/Node" } });
    schema["$defs"] = {
      Node: obj({
        next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] },
      }),
    };
    const v = checkAnthropicStrict(schema);
    expect(rules(v)).toEqual([
      "#/$defs/Node/properties/next/anyOf/0 no-recursion",
    ]);
    expect(rules(checkAnthropicStrict(obj({ self: { $ref: "#" } })))).toEqual([
      "#/properties/self no-recursion",
    ]);
  });

  it("counts optional and union parameters at every depth", () => {
    expect(
      countAnthropicStrictParameters({
        type: "object",
        properties: {
          a: { type: ["string", "null"] },
          b: { anyOf: [obj({ c: { type: "string" } }), { type: "null" }] },
          d: { type: "string" },
        },
        required: ["a", "b"],
      }),
    ).toEqual({ optionalParameters: 1, unionParameters: 2 });
  });
});
