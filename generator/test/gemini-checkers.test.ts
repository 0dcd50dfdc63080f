import { describe, expect, it } from "vitest";
import {
  checkGeminiJsonSchema,
  geminiIgnoredKeywords,
} from "../src/providers/gemini-json-schema.js";
import { checkGeminiOpenApi } from "../src/providers/gemini-openapi.js";
import { obj, rules, type Schema } from "./support/provider-schemas.js";

/** {@link obj} without `additionalProperties` (Gemini's parameters have none). */
function open(properties: Record<string, unknown>): Schema {
  const { additionalProperties: _, ...rest } = obj(properties);
  return rest;
}

describe("checkGeminiJsonSchema (parametersJsonSchema)", () => {
  it("accepts the schemas the generator writes, strict and not", () => {
    const schema = open({
      name: { type: "string", description: "a name" },
      data: { type: "string", format: "byte" },
      d: {
        type: "string",
        pattern: "^-?(0|[1-9][0-9]{0,10})(\\.[0-9]{1,9})?s$",
      },
      tags: {
        type: "object",
        propertyNames: { pattern: "^(0|-?[1-9][0-9]{0,8})$" },
        additionalProperties: { type: "integer" },
      },
      value: {},
      opt: { anyOf: [{ type: "string" }, { type: "null" }] },
      kind: { type: "string", enum: ["A", "B"] },
      list: {
        type: "array",
        items: { type: ["integer", "null"] },
        minItems: 1,
      },
    });
    schema["additionalProperties"] = false;
    expect(checkGeminiJsonSchema(schema)).toEqual([]);
  });

  it("root-type-object: the schema describes an object", () => {
    expect(rules(checkGeminiJsonSchema({ type: "string" }))).toEqual([
      "# root-type-object",
    ]);
    expect(rules(checkGeminiJsonSchema({ anyOf: [open({})] }))).toEqual([
      "# root-type-object",
    ]);
  });

  it("schema-shape: object sub-schemas only (no boolean schemas)", () => {
    expect(rules(checkGeminiJsonSchema(open({ a: true, b: 3 })))).toEqual([
      "#/properties/a schema-shape",
      "#/properties/b schema-shape",
    ]);
  });

  it("ref-resolves: a $ref names a definition", () => {
    expect(
      rules(checkGeminiJsonSchema(open({ a: { $ref: "#/$defs/Nope" } }))),
    ).toEqual(["#/properties/a ref-resolves"]);
  });

  it("type: JSON Schema's seven types", () => {
    expect(
      rules(
        checkGeminiJsonSchema(
          open({ a: { type: "date" }, b: { type: ["string", 1] } }),
        ),
      ),
    ).toEqual(["#/properties/a type", "#/properties/b type"]);
  });

  it("unsupported-keyword: composition and conditionals are refused, narrowing keywords ignored", () => {
    const v = checkGeminiJsonSchema(
      open({
        a: { allOf: [{ type: "string" }] },
        b: { not: { type: "null" } },
        c: { type: "object", patternProperties: { "^x": { type: "string" } } },
      }),
    );
    expect(rules(v)).toEqual([
      "#/properties/a unsupported-keyword",
      "#/properties/b unsupported-keyword",
      "#/properties/c unsupported-keyword",
    ]);
    const ignored: Schema = {};
    for (const k of geminiIgnoredKeywords) {
      ignored[k] = k === "propertyNames" ? { type: "string" } : 1;
    }
    expect(
      checkGeminiJsonSchema(open({ a: { type: "string", ...ignored } })),
    ).toEqual([]);
  });

  it("enum-values: strings or numbers", () => {
    expect(
      checkGeminiJsonSchema(open({ a: { type: "integer", enum: [1, 2] } })),
    ).toEqual([]);
    expect(
      rules(
        checkGeminiJsonSchema(
          open({ a: { enum: ["a", null] }, b: { enum: [true] } }),
        ),
      ),
    ).toEqual(["#/properties/a enum-values", "#/properties/b enum-values"]);
  });

  it("ref-siblings: nothing but $-keywords beside $ref", () => {
    const schema = open({
      a: { $ref: "#/$defs/A", description: "d" },
      b: { anyOf: [{ $ref: "#/$defs/A" }], description: "d" },
    });
    schema["$defs"] = { A: { type: "string" } };
    expect(rules(checkGeminiJsonSchema(schema))).toEqual([
      "#/properties/a ref-siblings",
    ]);
  });

  it("required-cycle: recursion only through a property that is not required", () => {
    const through = (required: string[]) => {
      const schema = open({ root: { $ref: "#/$defs/Node" } });
      schema["$defs"] = {
        Node: {
          type: "object",
          properties: {
            next: { $ref: "#/$defs/Node" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
          required,
        },
      };
      return rules(checkGeminiJsonSchema(schema));
    };
    expect(through([])).toEqual([]);
    expect(through(["children"])).toEqual([
      "#/$defs/Node/properties/children/items required-cycle",
    ]);
    expect(rules(checkGeminiJsonSchema(open({ self: { $ref: "#" } })))).toEqual(
      ["#/properties/self required-cycle"],
    );
  });
});

describe("checkGeminiOpenApi (parameters)", () => {
  it("accepts the OpenAPI subset", () => {
    expect(
      checkGeminiOpenApi({
        type: "object",
        properties: {
          s: { type: "string", nullable: true, pattern: "^a", minLength: 1 },
          n: { type: "INTEGER", minimum: 0, format: "int64" },
          e: { type: "string", enum: ["A"], format: "enum" },
          a: { type: "array", items: { type: "number" }, maxItems: 3 },
          u: { anyOf: [{ type: "string" }, { type: "integer" }] },
        },
        required: ["s"],
        propertyOrdering: ["s", "n"],
      }),
    ).toEqual([]);
  });

  it("unknown-field: no additionalProperties, $ref, $defs, oneOf, allOf, const", () => {
    const v = checkGeminiOpenApi({
      type: "object",
      properties: {
        a: { type: "string", const: "x" },
        b: { $ref: "#/$defs/B" },
      },
      additionalProperties: false,
      $defs: { B: { type: "string" } },
    });
    expect(v.map((x) => x.message)).toEqual([
      `unknown name "additionalProperties": Gemini's Schema has no such field`,
      `unknown name "$defs": Gemini's Schema has no such field`,
      `unknown name "const": Gemini's Schema has no such field`,
      `unknown name "$ref": Gemini's Schema has no such field`,
    ]);
  });

  it("type: one string of Gemini's Type; null is nullable", () => {
    expect(
      rules(
        checkGeminiOpenApi(
          open({ a: { type: ["string", "null"] }, b: { type: "null" } }),
        ),
      ),
    ).toEqual(["#/properties/a type", "#/properties/b type"]);
  });

  it("root-type-object: the root is an object", () => {
    expect(rules(checkGeminiOpenApi({ type: "string" }))).toEqual([
      "# root-type-object",
    ]);
  });

  it("items: arrays have items, and only arrays", () => {
    expect(
      rules(
        checkGeminiOpenApi(
          open({
            a: { type: "array" },
            b: { type: "string", items: { type: "string" } },
          }),
        ),
      ),
    ).toEqual(["#/properties/a items", "#/properties/b items"]);
  });

  it("enum-strings: enum lists strings", () => {
    expect(
      rules(checkGeminiOpenApi(open({ a: { type: "integer", enum: [1, 2] } }))),
    ).toEqual(["#/properties/a enum-strings"]);
  });

  it("field-shape: properties, required, nullable and anyOf are well formed", () => {
    expect(
      rules(
        checkGeminiOpenApi({
          type: "object",
          properties: {
            a: { type: "string", nullable: "yes" },
            b: { anyOf: [] },
          },
          required: [1],
        }),
      ),
    ).toEqual([
      "# field-shape",
      "#/properties/a field-shape",
      "#/properties/b field-shape",
    ]);
  });
});
