import { describe, expect, it } from "vitest";
import {
  checkOpenAiStrict,
  formatViolations,
  openAiStrictFormats,
  type StrictViolation,
} from "../src/providers/openai-strict.js";
import {
  checkToolName,
  safeToolNamePattern,
} from "../src/providers/provider-names.js";
import { deepFreeze } from "./support/deep-freeze.js";

type Schema = Record<string, unknown>;

/** A strict object schema with every property required. */
function obj(properties: Record<string, unknown>, extra: Schema = {}): Schema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  };
}

function nullable(s: Schema): Schema {
  return { anyOf: [s, { type: "null" }] };
}

/** The violations for a schema whose property `p` is `prop`. */
function checkProp(prop: unknown): StrictViolation[] {
  return checkOpenAiStrict(obj({ p: prop }));
}

function messages(v: readonly StrictViolation[]): string[] {
  return v.map((x) => `${x.path}: ${x.message}`);
}

describe("checkOpenAiStrict: valid schemas", () => {
  const valid: Array<[string, unknown]> = [
    ["empty object", obj({})],
    [
      "all scalar types",
      obj({
        s: { type: "string", description: "a string" },
        n: { type: "number" },
        i: { type: "integer" },
        b: { type: "boolean" },
        z: { type: "null" },
      }),
    ],
    [
      "nullable forms",
      obj({
        a: { type: ["string", "null"] },
        b: nullable({ type: "integer" }),
        c: {
          anyOf: [
            obj({ x: { type: "string" } }),
            obj({ y: { type: "number" } }),
            { type: "null" },
          ],
        },
      }),
    ],
    [
      "arrays, enums and const",
      obj({
        list: {
          type: "array",
          items: { type: "string", enum: ["A", "B"] },
          minItems: 0,
          maxItems: 3,
        },
        mixed: { type: ["string", "null"], enum: ["X", null] },
        num: { type: "number", enum: [1, 2.5] },
        k: { type: "string", const: "fixed" },
      }),
    ],
    [
      "string and number keywords",
      obj({
        d: { type: "string", pattern: "^-?[0-9]{1,11}(\\.[0-9]{1,9})?s$" },
        t: { type: "string", format: "date-time" },
        n: { type: "integer", minimum: 0, maximum: 10, multipleOf: 2 },
        x: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      }),
    ],
    [
      "every allowed format",
      obj(
        Object.fromEntries(
          openAiStrictFormats.map((f) => [f, { type: "string", format: f }]),
        ),
      ),
    ],
    [
      "recursion and definitions",
      obj(
        {
          self: nullable({ $ref: "#" }),
          node: { anyOf: [{ $ref: "#/$defs/Node" }], description: "a node" },
        },
        {
          title: "Root",
          $defs: {
            Node: obj({
              children: { type: "array", items: { $ref: "#/$defs/Node" } },
            }),
          },
        },
      ),
    ],
    [
      "map as key/value entries",
      obj({
        labels: {
          type: "array",
          items: obj({ key: { type: "string" }, value: { type: "string" } }),
        },
      }),
    ],
    [
      "ten levels of objects",
      (() => {
        let s: Schema = obj({});
        for (let i = 0; i < 9; i++) s = obj({ next: s });
        return s;
      })(),
    ],
  ];
  it.each(valid)("accepts %s", (_, schema) => {
    expect(messages(checkOpenAiStrict(schema))).toEqual([]);
  });
});

describe("checkOpenAiStrict: violations", () => {
  it("rejects a root that is not an object schema", () => {
    expect(messages(checkOpenAiStrict(null))).toEqual([
      "#: schema must be an object, got null",
    ]);
    expect(messages(checkOpenAiStrict(true))).toEqual([
      "#: schema must be an object, got true",
    ]);
  });

  it("rejects a root anyOf", () => {
    const v = checkOpenAiStrict({
      anyOf: [obj({ a: { type: "string" } }), obj({ b: { type: "string" } })],
    });
    expect(messages(v)).toEqual([
      '#: the root must have type "object", not an "anyOf"',
    ]);
  });

  it("rejects a root of another type", () => {
    expect(messages(checkOpenAiStrict({ type: "string" }))).toEqual([
      '#: the root must have type "object", got "string"',
    ]);
    expect(
      messages(checkOpenAiStrict(obj({}, { type: ["object", "null"] }))),
    ).toEqual(['#: the root must have type "object", got ["object","null"]']);
  });

  it("rejects a root $ref", () => {
    expect(messages(checkOpenAiStrict({ $ref: "#" }))).toEqual([
      '#: the root must have type "object", not a "$ref"',
    ]);
  });

  it("needs additionalProperties: false", () => {
    const open = { type: "object", properties: {}, required: [] };
    expect(messages(checkOpenAiStrict(open))).toEqual([
      '#: an object needs "additionalProperties": false',
    ]);
    expect(
      messages(
        checkProp({ ...obj({}), additionalProperties: { type: "string" } }),
      ),
    ).toEqual([
      '#/properties/p: "additionalProperties" must be false, got {"type":"string"}',
    ]);
    expect(
      messages(checkProp({ ...obj({}), additionalProperties: true })),
    ).toEqual([
      '#/properties/p: "additionalProperties" must be false, got true',
    ]);
  });

  it("needs properties on every object", () => {
    expect(
      messages(
        checkProp({
          type: "object",
          additionalProperties: false,
          required: [],
        }),
      ),
    ).toEqual(['#/properties/p: an object needs "properties"']);
    expect(messages(checkProp({ type: "object" }))).toEqual([
      '#/properties/p: an object needs "additionalProperties": false',
      '#/properties/p: an object needs "properties"',
      '#/properties/p: an object needs "required" listing every property',
    ]);
  });

  it("needs required to list exactly every property", () => {
    const props = { a: { type: "string" }, b: { type: "string" } };
    expect(
      messages(checkOpenAiStrict({ ...obj(props), required: ["a"] })),
    ).toEqual(['#: property "b" is missing from "required"']);
    expect(
      messages(checkOpenAiStrict({ ...obj(props), required: ["a", "b", "c"] })),
    ).toEqual(['#: "required" lists "c", which is not a property']);
    expect(
      messages(checkOpenAiStrict({ ...obj(props), required: ["a", "b", "a"] })),
    ).toEqual(['#: "required" lists "a" twice']);
    expect(
      messages(checkOpenAiStrict({ ...obj(props), required: "a" })),
    ).toEqual(['#: "required" must be an array of property names, got "a"']);
    const { required: _, ...noRequired } = obj(props);
    expect(messages(checkOpenAiStrict(noRequired))).toEqual([
      '#: an object needs "required" listing every property',
    ]);
  });

  it("needs a type on every node", () => {
    expect(messages(checkProp({}))).toEqual([
      '#/properties/p: missing "type": every schema needs a "type" or an "anyOf"',
    ]);
    expect(messages(checkProp({ description: "anything" }))).toEqual([
      '#/properties/p: missing "type": every schema needs a "type" or an "anyOf"',
    ]);
    expect(messages(checkProp({ enum: ["A"] }))).toEqual([
      '#/properties/p: missing "type": every schema needs a "type" or an "anyOf"',
    ]);
  });

  it("rejects unknown and malformed types", () => {
    expect(messages(checkProp({ type: "enum" }))).toEqual([
      '#/properties/p: type "enum" is not supported; use one of string, number, boolean, integer, object, array, null',
    ]);
    expect(messages(checkProp({ type: ["string", "string"] }))).toEqual([
      '#/properties/p: type "string" is listed twice',
    ]);
    expect(messages(checkProp({ type: [] }))).toEqual([
      '#/properties/p: "type" must be a string or a non-empty array of strings, got []',
    ]);
  });

  it("checks every anyOf branch", () => {
    expect(
      messages(checkProp({ anyOf: [{ type: "string", format: "byte" }, {}] })),
    ).toEqual([
      '#/properties/p/anyOf/0: format "byte" is not supported; use one of date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid',
      '#/properties/p/anyOf/1: missing "type": every schema needs a "type" or an "anyOf"',
    ]);
    expect(messages(checkProp({ anyOf: [] }))).toEqual([
      '#/properties/p: "anyOf" must be a non-empty array, got []',
    ]);
  });

  it("rejects a nested anyOf", () => {
    const v = checkProp({
      anyOf: [
        { anyOf: [{ type: "string" }, { type: "integer" }] },
        { type: "null" },
      ],
    });
    expect(messages(v)).toEqual([
      '#/properties/p/anyOf/0: nested "anyOf" is not supported: merge its branches into the enclosing "anyOf"',
    ]);
  });

  it("accepts an anyOf inside an object inside an anyOf", () => {
    const v = checkProp({
      anyOf: [obj({ q: nullable({ type: "string" }) }), { type: "null" }],
    });
    expect(messages(v)).toEqual([]);
  });

  it("rejects keywords beside anyOf and $ref", () => {
    expect(
      messages(checkProp({ type: "string", anyOf: [{ type: "string" }] })),
    ).toEqual(['#/properties/p: "anyOf" cannot be combined with "type"']);
    expect(messages(checkProp({ $ref: "#", type: "object" }))).toEqual([
      '#/properties/p: "$ref" cannot be combined with "type"',
    ]);
  });

  it("rejects a description beside $ref (the API refuses it)", () => {
    expect(
      messages(checkProp({ $ref: "#", description: "the parent" })),
    ).toEqual([
      '#/properties/p: "$ref" cannot be combined with "description": wrap the reference, {"anyOf": [{"$ref": …}], "description": …}',
    ]);
  });

  it("checks $ref targets", () => {
    expect(messages(checkProp({ $ref: "#/definitions/X" }))).toEqual([
      '#/properties/p: $ref "#/definitions/X" must be "#" or "#/$defs/<name>"',
    ]);
    expect(messages(checkProp({ $ref: "#/$defs/Missing" }))).toEqual([
      '#/properties/p: $ref "#/$defs/Missing" names no definition in "$defs"',
    ]);
    expect(messages(checkProp({ $ref: "https://example.com/s.json" }))).toEqual(
      [
        '#/properties/p: $ref "https://example.com/s.json" must be "#" or "#/$defs/<name>"',
      ],
    );
  });

  it("checks definitions", () => {
    const v = checkOpenAiStrict(
      obj(
        { n: { $ref: "#/$defs/N" } },
        { $defs: { N: { type: "object" }, Unused: {} } },
      ),
    );
    expect(messages(v)).toEqual([
      '#/$defs/N: an object needs "additionalProperties": false',
      '#/$defs/N: an object needs "properties"',
      '#/$defs/N: an object needs "required" listing every property',
      '#/$defs/Unused: missing "type": every schema needs a "type" or an "anyOf"',
    ]);
    expect(messages(checkProp({ ...obj({}), $defs: {} }))).toEqual([
      '#/properties/p: keyword "$defs" is only allowed at the root',
    ]);
  });

  it("checks enum values against the type", () => {
    expect(
      messages(checkProp({ type: "string", enum: ["A", 1, null] })),
    ).toEqual([
      '#/properties/p: enum value 1 does not match type "string"',
      '#/properties/p: enum value null does not match type "string"',
    ]);
    expect(messages(checkProp({ type: "integer", enum: [1, 2.5] }))).toEqual([
      '#/properties/p: enum value 2.5 does not match type "integer"',
    ]);
    expect(messages(checkProp({ type: "string", enum: [{ a: 1 }] }))).toEqual([
      '#/properties/p: enum value {"a":1} must be a string, number, boolean or null',
    ]);
    expect(messages(checkProp({ type: "string", enum: [] }))).toEqual([
      '#/properties/p: "enum" must be a non-empty array, got []',
    ]);
    expect(messages(checkProp({ type: "string", enum: null }))).toEqual([
      '#/properties/p: "enum" must be a non-empty array, got null',
    ]);
  });

  it("checks const against the type", () => {
    expect(messages(checkProp({ type: "boolean", const: "yes" }))).toEqual([
      '#/properties/p: const value "yes" does not match type "boolean"',
    ]);
  });

  it("rejects formats outside the list", () => {
    for (const format of ["byte", "uri", "int64", "date-time "]) {
      expect(messages(checkProp({ type: "string", format }))).toEqual([
        `#/properties/p: format ${JSON.stringify(format)} is not supported; use one of date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid`,
      ]);
    }
  });

  it("rejects an invalid pattern", () => {
    expect(messages(checkProp({ type: "string", pattern: "([a-z]" }))).toEqual([
      '#/properties/p: pattern "([a-z]" is not a valid regular expression',
    ]);
  });

  it("rejects unsupported keywords", () => {
    const unsupported: Record<string, unknown> = {
      allOf: [{ type: "string" }],
      oneOf: [{ type: "string" }],
      not: { type: "integer" },
      if: { type: "string" },
      then: { type: "string" },
      else: { type: "string" },
      dependentRequired: {},
      dependentSchemas: {},
      patternProperties: {},
      propertyNames: { pattern: "^a" },
      minLength: 1,
      maxLength: 2,
      minProperties: 1,
      uniqueItems: true,
      default: "x",
      nullable: true,
    };
    for (const [keyword, value] of Object.entries(unsupported)) {
      expect(messages(checkProp({ type: "string", [keyword]: value }))).toEqual(
        [
          `#/properties/p: keyword ${JSON.stringify(keyword)} is not supported in strict mode`,
        ],
      );
    }
  });

  it("rejects unknown keywords", () => {
    expect(messages(checkProp({ type: "string", examplez: ["a"] }))).toEqual([
      '#/properties/p: unknown keyword "examplez"',
    ]);
  });

  it("rejects keywords that do not fit the type", () => {
    expect(messages(checkProp({ type: "integer", pattern: "^1$" }))).toEqual([
      '#/properties/p: keyword "pattern" needs type "string", got "integer"',
    ]);
    expect(messages(checkProp({ type: "string", minimum: 1 }))).toEqual([
      '#/properties/p: keyword "minimum" needs type "number" or "integer", got "string"',
    ]);
    expect(
      messages(checkProp({ type: "string", items: { type: "string" } })),
    ).toEqual([
      '#/properties/p: keyword "items" needs type "array", got "string"',
    ]);
  });

  it("checks keyword values", () => {
    expect(
      messages(checkProp({ type: "number", minimum: "0", multipleOf: 0 })),
    ).toEqual([
      '#/properties/p: "minimum" must be a number, got "0"',
      '#/properties/p: "multipleOf" must be a number greater than 0, got 0',
    ]);
    expect(
      messages(
        checkProp({
          type: "array",
          items: { type: "string" },
          minItems: -1,
          maxItems: 1.5,
        }),
      ),
    ).toEqual([
      '#/properties/p: "minItems" must be a non-negative integer, got -1',
      '#/properties/p: "maxItems" must be a non-negative integer, got 1.5',
    ]);
    expect(
      messages(
        checkProp({
          type: "array",
          items: { type: "string" },
          minItems: 3,
          maxItems: 1,
        }),
      ),
    ).toEqual(['#/properties/p: "minItems" 3 is greater than "maxItems" 1']);
    expect(messages(checkProp({ type: "string", description: 3 }))).toEqual([
      '#/properties/p: "description" must be a string, got 3',
    ]);
  });

  it("needs items on arrays and checks them", () => {
    expect(messages(checkProp({ type: "array" }))).toEqual([
      '#/properties/p: an array needs "items"',
    ]);
    expect(
      messages(checkProp({ type: "array", items: { type: "object" } })),
    ).toEqual([
      '#/properties/p/items: an object needs "additionalProperties": false',
      '#/properties/p/items: an object needs "properties"',
      '#/properties/p/items: an object needs "required" listing every property',
    ]);
  });

  it("escapes property names in paths", () => {
    expect(messages(checkOpenAiStrict(obj({ "a/b~c": {} })))).toEqual([
      '#/properties/a~1b~0c: missing "type": every schema needs a "type" or an "anyOf"',
    ]);
  });
});

describe("checkOpenAiStrict: limits", () => {
  // OpenAI's SDK count (openai-java, JsonSchemaValidator.kt): the root is
  // depth 0; every property value, `items`, `anyOf` branch and `$defs` entry
  // is one level deeper; a `$ref` is not followed. At most 10.
  const deepMessage =
    '(every property, "items", "anyOf" branch and "$defs" entry is one level, as OpenAI\'s SDK counts)';

  it("allows sub-schemas 10 levels deep, not 11", () => {
    // Nine nested objects and a string: the string is at depth 10.
    let s: Schema = obj({ leaf: { type: "string" } });
    for (let i = 0; i < 9; i++) s = obj({ next: s });
    expect(checkOpenAiStrict(s)).toEqual([]);
    const deeper = obj({ next: s });
    expect(messages(checkOpenAiStrict(deeper))).toEqual([
      `#${"/properties/next".repeat(10)}/properties/leaf: nested 11 levels deep; the limit is 10 ${deepMessage}`,
    ]);
  });

  it("counts an optional message as two levels (anyOf branch)", () => {
    // Five optional messages: each costs a property and an anyOf branch.
    let s: Schema = obj({ leaf: { type: "string" } });
    for (let i = 0; i < 4; i++) s = obj({ next: nullable(s) });
    expect(checkOpenAiStrict(s)).toEqual([]); // string at depth 9
    s = obj({ next: nullable(s) }); // string at depth 11
    const v = checkOpenAiStrict(s);
    expect(messages(v)).toEqual([
      `#${"/properties/next/anyOf/0".repeat(5)}/properties/leaf: nested 11 levels deep; the limit is 10 ${deepMessage}`,
    ]);
  });

  it("counts items as a level", () => {
    let s: Schema = { type: "string" };
    for (let i = 0; i < 5; i++) s = obj({ a: { type: "array", items: s } });
    // five properties and five items: the string is at depth 10.
    expect(checkOpenAiStrict(s)).toEqual([]);
    expect(
      messages(checkOpenAiStrict(obj({ a: { type: "array", items: s } })))[0],
    ).toMatch(
      /^#(\/properties\/a\/items){5}\/properties\/a: nested 11 levels deep/,
    );
  });

  it("counts a definition from the root, wherever it is referred to", () => {
    // The reference sits 9 levels deep; the definition's own depth counts
    // from 1 ($defs entry), not from the reference.
    let inner: Schema = obj({ leaf: { type: "string" } });
    for (let i = 0; i < 8; i++) inner = obj({ next: inner });
    let outer: Schema = { $ref: "#/$defs/Deep" };
    for (let i = 0; i < 9; i++) outer = obj({ next: outer });
    // Deep: string at 1 + 8 + 1 = 10; the reference at depth 9.
    expect(checkOpenAiStrict({ ...outer, $defs: { Deep: inner } })).toEqual([]);
    const deeper = obj({ next: inner });
    expect(
      messages(checkOpenAiStrict({ ...outer, $defs: { Deep: deeper } })),
    ).toEqual([
      `#/$defs/Deep${"/properties/next".repeat(9)}/properties/leaf: nested 11 levels deep; the limit is 10 ${deepMessage}`,
    ]);
  });

  it("does not follow recursive references", () => {
    const node = obj({
      children: { type: "array", items: { $ref: "#/$defs/Node" } },
      parent: nullable({ $ref: "#" }),
    });
    expect(
      checkOpenAiStrict(
        obj({ root: { $ref: "#/$defs/Node" } }, { $defs: { Node: node } }),
      ),
    ).toEqual([]);
  });

  it("allows at most 5000 object properties", () => {
    const props = (n: number, prefix: string) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `${prefix}${i}`,
          { type: "boolean" },
        ]),
      );
    expect(
      checkOpenAiStrict(
        obj({ a: obj(props(2500, "a")), b: obj(props(2498, "b")) }),
      ),
    ).toEqual([]);
    expect(
      messages(
        checkOpenAiStrict(
          obj({ a: obj(props(2500, "a")), b: obj(props(2499, "b")) }),
        ),
      ),
    ).toEqual(["#: schema has 5001 object properties; the limit is 5000"]);
  });

  it("allows at most 1000 enum values", () => {
    const e = (n: number, p: string) => ({
      type: "string",
      enum: Array.from({ length: n }, (_, i) => `${p}${i}`),
    });
    expect(
      checkOpenAiStrict(
        obj({
          a: e(200, "a"),
          b: e(200, "b"),
          c: e(200, "c"),
          d: e(200, "d"),
          f: e(200, "f"),
        }),
      ),
    ).toEqual([]);
    expect(
      messages(
        checkOpenAiStrict(
          obj({
            a: e(200, "a"),
            b: e(200, "b"),
            c: e(200, "c"),
            d: e(200, "d"),
            f: e(201, "f"),
          }),
        ),
      ),
    ).toEqual(["#: schema has 1001 enum values; the limit is 1000"]);
  });

  it("caps a string enum of more than 250 values at 15000 characters", () => {
    // 251 values of 60 characters: 15060.
    const long = Array.from({ length: 251 }, (_, i) =>
      String(i).padStart(60, "x"),
    );
    expect(messages(checkProp({ type: "string", enum: long }))).toEqual([
      "#/properties/p: string enum of 251 values has 15060 characters; an enum of more than 250 values may have at most 15000",
    ]);
    // 250 values of 70 characters: no cap applies.
    const many = Array.from({ length: 250 }, (_, i) =>
      String(i).padStart(70, "x"),
    );
    expect(checkProp({ type: "string", enum: many })).toEqual([]);
  });

  it("allows at most 120000 characters of names and values", () => {
    const props = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [
        String(i).padStart(1000, "p"),
        { type: "string", const: "c".repeat(200) },
      ]),
    );
    // 100 × (1000 + 200) = 120000: at the limit.
    expect(checkOpenAiStrict(obj(props))).toEqual([]);
    const more = { ...props, extra: { type: "string", const: "1" } };
    expect(messages(checkOpenAiStrict(obj(more)))).toEqual([
      "#: property names, definition names, enum and const values have 120006 characters; the limit is 120000",
    ]);
  });
});

describe("checkOpenAiStrict: frozen sub-schemas shared between schemas", () => {
  // A frozen sub-schema found clean in one schema is not walked again in
  // the next (the schema builder shares them between tools): what depends
  // on where it sits must still be judged there.
  const deepMessage =
    '(every property, "items", "anyOf" branch and "$defs" entry is one level, as OpenAI\'s SDK counts)';

  it("judges the depth where it sits, deeper than where it was clean", () => {
    // Four levels: a string at depth 4 below the shared node.
    let shared: Schema = obj({ leaf: { type: "string" } });
    for (let i = 0; i < 3; i++) shared = obj({ next: shared });
    deepFreeze(shared);
    expect(checkOpenAiStrict(obj({ s: shared }))).toEqual([]);
    let deep: Schema = obj({ s: shared });
    for (let i = 0; i < 6; i++) deep = obj({ d: deep });
    // The string: 7 levels to the shared node, 4 below it.
    expect(messages(checkOpenAiStrict(deep))).toEqual([
      `#${"/properties/d".repeat(6)}/properties/s${"/properties/next".repeat(3)}/properties/leaf: nested 11 levels deep; the limit is 10 ${deepMessage}`,
    ]);
    expect(checkOpenAiStrict(obj({ again: shared }))).toEqual([]);
  });

  it("judges an anyOf where it sits, after it was clean outside one", () => {
    const shared = deepFreeze(nullable({ type: "string" }));
    expect(checkOpenAiStrict(obj({ s: shared }))).toEqual([]);
    const inAnyOf = obj({ o: { anyOf: [shared, { type: "integer" }] } });
    expect(messages(checkOpenAiStrict(inAnyOf))).toEqual([
      '#/properties/o/anyOf/0: nested "anyOf" is not supported: merge its branches into the enclosing "anyOf"',
    ]);
  });

  it("judges a $ref below it against each schema's own definitions", () => {
    const shared = deepFreeze(obj({ x: { $ref: "#/$defs/X" } }));
    const defs = { $defs: { X: { type: "string" } } };
    expect(checkOpenAiStrict(obj({ s: shared }, defs))).toEqual([]);
    expect(messages(checkOpenAiStrict(obj({ s: shared })))).toEqual([
      '#/properties/s/properties/x: $ref "#/$defs/X" names no definition in "$defs"',
    ]);
    expect(checkOpenAiStrict(obj({ t: shared }, defs))).toEqual([]);
  });

  it("adds what it holds to each schema's totals", () => {
    // 2,500 properties in the shared node, twice in one schema: over 5,000.
    const shared = deepFreeze(
      obj(
        Object.fromEntries(
          Array.from({ length: 2500 }, (_, i) => [
            `p${i}`,
            { type: "boolean" },
          ]),
        ),
      ),
    );
    expect(checkOpenAiStrict(obj({ a: shared }))).toEqual([]);
    expect(messages(checkOpenAiStrict(obj({ a: shared, b: shared })))).toEqual([
      "#: schema has 5002 object properties; the limit is 5000",
    ]);
  });
});

describe("formatViolations", () => {
  it("renders one line per violation", () => {
    const v = checkOpenAiStrict({
      type: "object",
      properties: { a: { type: "string", format: "byte" } },
    });
    expect(formatViolations("pages_update", v)).toBe(
      [
        'tool "pages_update" is not accepted by OpenAI strict mode (3 problems):',
        '  #: an object needs "additionalProperties": false',
        '  #: an object needs "required" listing every property',
        '  #/properties/a: format "byte" is not supported; use one of date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid',
      ].join("\n"),
    );
  });

  it("says so when there is nothing wrong", () => {
    expect(formatViolations("x", [])).toBe(
      'tool "x" passes the OpenAI strict mode checks',
    );
    expect(formatViolations("x", [{ path: "#", message: "m" }])).toBe(
      'tool "x" is not accepted by OpenAI strict mode (1 problem):\n  #: m',
    );
  });
});

describe("checkToolName", () => {
  it("accepts safe names", () => {
    for (const name of ["get_page", "_x", "A-b_9", "a".repeat(64)]) {
      expect(checkToolName(name)).toEqual([]);
      expect(safeToolNamePattern.test(name)).toBe(true);
    }
  });

  it("names the providers that refuse a name", () => {
    expect(checkToolName("pages.get").map((v) => v.provider)).toEqual([
      "openai",
      "anthropic",
    ]);
    expect(checkToolName("1tool").map((v) => v.provider)).toEqual(["gemini"]);
    expect(checkToolName("a".repeat(65)).map((v) => v.provider)).toEqual([
      "openai",
      "anthropic",
      "gemini",
    ]);
    expect(checkToolName("").map((v) => v.provider)).toEqual([
      "openai",
      "anthropic",
      "gemini",
      "mcp",
    ]);
    expect(checkToolName("a b")[0]?.message).toBe(
      'tool name "a b" is refused by openai: it must be 1 to 64 of [a-zA-Z0-9_-]',
    );
  });
});
