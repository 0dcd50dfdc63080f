import { describe, expect, it } from "vitest";
import {
  arbitraryFor,
  validateAgainst,
  valuesFor,
  type OneofGroup,
} from "../src/schema-values.js";
import * as fc from "fast-check";

type Schema = Record<string, unknown>;

function strictObj(properties: Record<string, unknown>): Schema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function nullable(s: Schema): Schema {
  return { anyOf: [s, { type: "null" }] };
}

const durationPattern = "^-?[0-9]{1,11}(\\.[0-9]{1,9})?s$";
const fieldMaskPattern =
  "^([a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)*(,[a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)*)*)?$";

/** Representative schemas, with the oneof groups of each. */
const cases: Array<{ name: string; schema: Schema; groups?: OneofGroup[] }> = [
  {
    name: "scalars, enum and nullable",
    schema: strictObj({
      name: { type: "string", description: "a name" },
      count: { type: "integer" },
      ratio: { type: "number" },
      on: { type: "boolean" },
      color: { type: "string", enum: ["RED", "GREEN"] },
      note: nullable({ type: "string" }),
      level: { type: ["integer", "null"] },
    }),
  },
  {
    name: "non-strict object with optional fields",
    schema: {
      type: "object",
      properties: {
        id: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        page: { type: "integer" },
      },
      required: ["id"],
    },
  },
  {
    name: "strict map as key/value entries",
    schema: strictObj({
      labels: {
        type: "array",
        items: strictObj({
          key: { type: "string" },
          value: { type: "integer" },
        }),
      },
      byId: {
        type: "array",
        items: strictObj({
          key: { type: "integer" },
          value: strictObj({ title: { type: "string" } }),
        }),
      },
    }),
  },
  {
    name: "non-strict map",
    schema: {
      type: "object",
      properties: {
        labels: { type: "object", additionalProperties: { type: "string" } },
        counts: {
          type: "object",
          propertyNames: { pattern: "^-?[0-9]{1,9}$" },
          additionalProperties: { type: "integer" },
        },
        flags: {
          type: "object",
          propertyNames: { enum: ["true", "false"] },
          additionalProperties: { type: "boolean" },
        },
      },
    },
  },
  {
    name: "oneof as anyOf branches (non-strict, one oneof)",
    schema: {
      anyOf: [
        {
          type: "object",
          properties: { parent: { type: "string" }, url: { type: "string" } },
          required: ["url"],
        },
        {
          type: "object",
          properties: {
            parent: { type: "string" },
            file: { type: "string", format: "byte" },
          },
          required: ["file"],
        },
      ],
    },
    groups: [{ path: [], members: ["url", "file"], name: "source" }],
  },
  {
    name: "strict oneof members nullable and required",
    schema: strictObj({
      parent: { type: "string" },
      url: nullable({ type: "string" }),
      file: nullable({ type: "string" }),
      steps: {
        type: "array",
        items: strictObj({
          click: nullable(strictObj({ x: { type: "integer" } })),
          wait: nullable({ type: "string", pattern: durationPattern }),
          shot: nullable({ type: "boolean" }),
        }),
      },
    }),
    groups: [
      { path: [], members: ["url", "file"], name: "source" },
      {
        path: ["steps", "[]"],
        members: ["click", "wait", "shot"],
        name: "action",
      },
    ],
  },
  {
    name: "non-strict oneof members optional, in a map value",
    schema: {
      type: "object",
      properties: {
        byName: {
          type: "object",
          additionalProperties: {
            type: "object",
            properties: {
              a: { type: "string" },
              b: { type: "integer" },
              c: { type: "boolean" },
            },
          },
        },
      },
    },
    groups: [{ path: ["byName", "{}"], members: ["a", "b"] }],
  },
  {
    name: "well-known types: date-time, byte, duration, field mask",
    schema: strictObj({
      at: { type: "string", format: "date-time" },
      when: nullable({ type: "string", format: "date-time" }),
      data: { type: "string", format: "byte" },
      timeout: { type: "string", pattern: durationPattern },
      mask: { type: "string", pattern: fieldMaskPattern },
    }),
  },
  {
    name: "other formats",
    schema: strictObj({
      d: { type: "string", format: "date" },
      t: { type: "string", format: "time" },
      u: { type: "string", format: "uuid" },
      e: { type: "string", format: "email" },
      h: { type: "string", format: "hostname" },
      i4: { type: "string", format: "ipv4" },
      i6: { type: "string", format: "ipv6" },
      p: { type: "string", format: "duration" },
      w: { type: "string", format: "uri" },
    }),
  },
  {
    name: "Value, Struct and ListValue",
    schema: {
      type: "object",
      properties: {
        any: {},
        anyDescribed: { description: "any JSON value" },
        struct: { type: "object" },
        list: { type: "array", items: {} },
      },
    },
  },
  {
    name: "strict Value as JSON text and Struct as entries",
    schema: strictObj({
      value: { type: "string", description: "JSON-encoded value" },
      struct: {
        type: "array",
        items: strictObj({
          key: { type: "string" },
          value: { type: "string" },
        }),
      },
    }),
  },
  {
    name: "recursion placeholder (base rules)",
    schema: {
      type: "object",
      properties: {
        name: { type: "string" },
        child: { type: "object" },
        children: { type: "array", items: { type: "object" } },
      },
    },
  },
  {
    name: "strict recursion through $ref",
    schema: strictObj({
      name: { type: "string" },
      parent: nullable({ $ref: "#" }),
      children: { type: "array", items: { $ref: "#" } },
    }),
  },
  {
    name: "recursion through $defs",
    schema: {
      ...strictObj({ root: { $ref: "#/$defs/Node" } }),
      $defs: {
        Node: strictObj({
          label: { type: "string" },
          next: nullable({ $ref: "#/$defs/Node" }),
          kids: { type: "array", items: { $ref: "#/$defs/Node" }, maxItems: 2 },
        }),
      },
    },
  },
  {
    name: "numeric bounds and array bounds",
    schema: strictObj({
      small: { type: "integer", minimum: -3, maximum: 3 },
      pos: { type: "number", exclusiveMinimum: 0, maximum: 1 },
      step: { type: "integer", multipleOf: 5, minimum: 0, maximum: 100 },
      some: {
        type: "array",
        items: { type: "boolean" },
        minItems: 1,
        maxItems: 2,
      },
      short: { type: "string", minLength: 2, maxLength: 3 },
      fixed: { type: "string", const: "v1" },
    }),
  },
];

describe("valuesFor", () => {
  it.each(cases)("$name: 200 values all validate", ({ schema, groups }) => {
    const options =
      groups === undefined
        ? { count: 200, seed: 7 }
        : { count: 200, seed: 7, oneofGroups: groups };
    const values = valuesFor(schema, options);
    expect(values).toHaveLength(200);
    for (const v of values) {
      expect(validateAgainst(schema, v, groups)).toEqual([]);
      // Every value survives a JSON round trip unchanged.
      expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    }
  });

  it.each(cases)("$name: deterministic for a seed", ({ schema, groups }) => {
    const opts = (seed: number) =>
      groups === undefined
        ? { count: 50, seed }
        : { count: 50, seed, oneofGroups: groups };
    const a = valuesFor(schema, opts(123));
    expect(JSON.stringify(valuesFor(schema, opts(123)))).toBe(
      JSON.stringify(a),
    );
    expect(JSON.stringify(valuesFor(schema, opts(124)))).not.toBe(
      JSON.stringify(a),
    );
  });

  it("has defaults for count and seed", () => {
    const schema = strictObj({ a: { type: "string" } });
    expect(valuesFor(schema)).toHaveLength(100);
    expect(valuesFor(schema)).toEqual(valuesFor(schema));
  });

  it("sometimes omits optional properties and never required ones", () => {
    const values = valuesFor(cases[1]!.schema, {
      count: 200,
      seed: 1,
    }) as Schema[];
    expect(values.every((v) => "id" in v)).toBe(true);
    expect(values.some((v) => "page" in v)).toBe(true);
    expect(values.some((v) => !("page" in v))).toBe(true);
  });

  it("keeps at most one member of each oneof, and uses each", () => {
    const { schema, groups } = cases[5]!;
    const values = valuesFor(schema, {
      count: 300,
      seed: 3,
      oneofGroups: groups!,
    }) as Schema[];
    const seen = new Set<string>();
    for (const v of values) {
      const set = ["url", "file"].filter((m) => v[m] !== null);
      expect(set.length).toBeLessThanOrEqual(1);
      set.forEach((m) => seen.add(m));
      for (const step of v["steps"] as Schema[]) {
        const actions = ["click", "wait", "shot"].filter(
          (m) => step[m] !== null,
        );
        expect(actions.length).toBeLessThanOrEqual(1);
        actions.forEach((m) => seen.add(m));
      }
    }
    expect([...seen].sort()).toEqual(["click", "file", "shot", "url", "wait"]);
    // Without the groups, both members are set at once in some value.
    const free = valuesFor(schema, { count: 300, seed: 3 }) as Schema[];
    expect(free.some((v) => v["url"] !== null && v["file"] !== null)).toBe(
      true,
    );
  });

  it("deletes optional oneof members rather than nulling them", () => {
    const { schema, groups } = cases[6]!;
    const values = valuesFor(schema, {
      count: 200,
      seed: 5,
      oneofGroups: groups!,
    }) as Schema[];
    let both = 0;
    for (const v of values) {
      for (const entry of Object.values(
        (v["byName"] ?? {}) as Record<string, Schema>,
      )) {
        expect("a" in entry && "b" in entry).toBe(false);
        expect([entry["a"], entry["b"]]).not.toContain(null);
        if ("a" in entry || "b" in entry) both++;
      }
    }
    expect(both).toBeGreaterThan(0);
  });

  it("gives open objects only x_ keys", () => {
    const values = valuesFor(
      { type: "object" },
      { count: 200, seed: 9 },
    ) as Schema[];
    expect(
      values.every((v) => Object.keys(v).every((k) => k.startsWith("x_"))),
    ).toBe(true);
    expect(values.some((v) => Object.keys(v).length > 0)).toBe(true);
  });

  it("adds x_ keys to open objects with properties unless told not to", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const extra = (v: unknown) =>
      Object.keys(v as Schema).filter((k) => k !== "a");
    const values = valuesFor(schema, { count: 200, seed: 2 });
    expect(values.some((v) => extra(v).length > 0)).toBe(true);
    expect(values.every((v) => extra(v).every((k) => k.startsWith("x_")))).toBe(
      true,
    );
    const closed = valuesFor(schema, {
      count: 200,
      seed: 2,
      unknownKeys: false,
    });
    expect(closed.every((v) => extra(v).length === 0)).toBe(true);
  });

  it("generates map keys from propertyNames", () => {
    const values = valuesFor(cases[3]!.schema, {
      count: 200,
      seed: 4,
    }) as Schema[];
    const keys = values.flatMap((v) =>
      Object.keys((v["counts"] ?? {}) as Schema),
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => /^-?[0-9]{1,9}$/.test(k))).toBe(true);
  });

  it("makes RFC 3339 date-times with offsets, fractions inside the Timestamp range, a year from each end", () => {
    const values = valuesFor(
      { type: "string", format: "date-time" },
      { count: 500, seed: 11 },
    ) as string[];
    const re =
      /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
    for (const v of values) {
      const m = re.exec(v);
      expect(m, v).not.toBeNull();
      const year = Number(m![1]);
      expect(year).toBeGreaterThanOrEqual(2);
      expect(year).toBeLessThanOrEqual(9998);
      expect(Number.isNaN(Date.parse(v))).toBe(false);
    }
    expect(values.some((v) => v.endsWith("Z"))).toBe(true);
    expect(values.some((v) => /[+-]\d{2}:\d{2}$/.test(v))).toBe(true);
    expect(values.some((v) => /\.\d{9}/.test(v))).toBe(true);
    expect(values.some((v) => !v.includes("."))).toBe(true);
    expect(values.some((v) => v.startsWith("0002-"))).toBe(true);
    expect(values.some((v) => v.startsWith("9998-"))).toBe(true);
  });

  it("makes valid standard base64", () => {
    const values = valuesFor(
      { type: "string", format: "byte" },
      { count: 200, seed: 12 },
    ) as string[];
    for (const v of values) {
      expect(Buffer.from(v, "base64").toString("base64")).toBe(v);
    }
    expect(values).toContain("");
    expect(values.some((v) => v.endsWith("="))).toBe(true);
  });

  it("keeps integers in int32 and numbers finite", () => {
    const values = valuesFor(
      { type: "array", items: { type: ["integer", "number"] } },
      { count: 200, seed: 13 },
    ) as number[][];
    const all = values.flat();
    expect(all.length).toBeGreaterThan(100);
    for (const n of all) {
      expect(Number.isFinite(n)).toBe(true);
      expect(Object.is(n, -0)).toBe(false);
    }
    const ints = valuesFor(
      { type: "integer" },
      { count: 300, seed: 13 },
    ) as number[];
    expect(
      ints.every(
        (n) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1,
      ),
    ).toBe(true);
    expect(ints.some((n) => Math.abs(n) > 2 ** 24)).toBe(true);
  });

  it("takes integer ranges per path", () => {
    const schema = strictObj({
      u: { type: "integer" },
      s: { type: "integer" },
      list: { type: "array", items: { type: "integer" } },
    });
    const integerRange = (path: readonly string[]) =>
      path[0] === "u" || path.join("/") === "list/[]"
        ? { min: 0, max: 2 ** 32 - 1 }
        : undefined;
    const values = valuesFor(schema, {
      count: 300,
      seed: 8,
      integerRange,
    }) as Array<{ u: number; s: number; list: number[] }>;
    const unsigned = values.flatMap((v) => [v.u, ...v.list]);
    expect(unsigned.every((n) => n >= 0 && n <= 2 ** 32 - 1)).toBe(true);
    expect(unsigned.some((n) => n > 2 ** 31)).toBe(true);
    expect(values.some((v) => v.s < 0)).toBe(true);
  });

  it("lets the schema's own integer bounds win over the range", () => {
    const values = valuesFor(
      strictObj({
        neg: { type: "integer", maximum: -4 },
        low: { type: "integer", exclusiveMaximum: -10, minimum: -20 },
      }),
      { count: 100, seed: 21, integerRange: () => ({ min: 0, max: 100 }) },
    ) as Array<{ neg: number; low: number }>;
    for (const v of values) {
      expect(v.neg).toBeLessThanOrEqual(-4);
      expect(v.neg).toBeGreaterThanOrEqual(-Number.MAX_SAFE_INTEGER);
      expect(v.low >= -20 && v.low <= -11).toBe(true);
    }
  });

  it("keeps patterned and formatted strings within their lengths", () => {
    const schema = strictObj({
      tag: { type: "string", pattern: "^[a-z]+$", maxLength: 3 },
      code: { type: "string", pattern: "^[0-9]+$", minLength: 4 },
      id: { type: "string", format: "uuid", pattern: "^[0-9a-f-]+$" },
      mail: { type: "string", format: "email", maxLength: 40 },
      name: { type: "string", minLength: 3, maxLength: 5 },
    });
    const values = valuesFor(schema, { count: 200, seed: 22 });
    for (const v of values) {
      expect(validateAgainst(schema, v)).toEqual([]);
    }
  });

  it("makes strings with characters JSON must escape and non-ASCII ones", () => {
    const text = (
      valuesFor({ type: "string" }, { count: 500, seed: 14 }) as string[]
    ).join("");
    for (const c of ['"', "\\", "\n", "\u0000", "<", "&", "\u2028"]) {
      expect(text).toContain(c);
    }
    expect(/[\u0080-\uffff]/.test(text)).toBe(true);
    expect(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
        text,
      ),
    ).toBe(false);
  });

  it("produces every kind of JSON value for {}", () => {
    const kinds = new Set(
      valuesFor({}, { count: 300, seed: 15 }).map((v) =>
        v === null ? "null" : Array.isArray(v) ? "array" : typeof v,
      ),
    );
    expect([...kinds].sort()).toEqual([
      "array",
      "boolean",
      "null",
      "number",
      "object",
      "string",
    ]);
  });

  it("follows $ref at most maxRefDepth times", () => {
    const schema = strictObj({ child: nullable({ $ref: "#" }) });
    const depth = (v: unknown): number =>
      v === null ? 0 : 1 + depth((v as Schema)["child"]);
    for (const maxRefDepth of [0, 1, 3]) {
      const values = valuesFor(schema, { count: 200, seed: 16, maxRefDepth });
      const depths = values.map(depth);
      // The root, maxRefDepth expansions, then the smallest value of the
      // target: {"child": null}.
      expect(Math.max(...depths)).toBe(maxRefDepth + 2);
    }
  });

  it("ends recursion with required arrays by leaving them empty", () => {
    const schema = cases[12]!.schema;
    const values = valuesFor(schema, { count: 100, seed: 17, maxRefDepth: 1 });
    for (const v of values) expect(validateAgainst(schema, v)).toEqual([]);
  });

  it("refuses recursion that has no finite value", () => {
    const schema = strictObj({ self: { $ref: "#" } });
    expect(() => valuesFor(schema, { count: 5, seed: 1 })).toThrow(
      /admits no finite value/,
    );
  });

  it("refuses a oneof whose members are all required and not nullable", () => {
    const schema = strictObj({ a: { type: "string" }, b: { type: "string" } });
    expect(() =>
      valuesFor(schema, {
        count: 1,
        seed: 1,
        oneofGroups: [{ path: [], members: ["a", "b"], name: "k" }],
      }),
    ).toThrow(
      'oneof "k" at the root: members "a", "b" are all required and not nullable',
    );
  });

  it("refuses schemas it cannot resolve", () => {
    expect(() => valuesFor({ $ref: "#/$defs/Nope" })).toThrow(
      'cannot resolve $ref "#/$defs/Nope"',
    );
    expect(() => valuesFor(false)).toThrow(
      "cannot generate values for schema false",
    );
  });

  it("exposes the arbitrary for fc.assert", () => {
    const schema = cases[7]!.schema;
    fc.assert(
      fc.property(
        arbitraryFor(schema),
        (v) => validateAgainst(schema, v).length === 0,
      ),
      { numRuns: 50, seed: 1 },
    );
  });
});

describe("validateAgainst", () => {
  const schema = cases[5]!.schema;
  const groups = cases[5]!.groups!;
  const ok = {
    parent: "p",
    url: "u",
    file: null,
    steps: [{ click: { x: 1 }, wait: null, shot: null }],
  };

  it("accepts a valid value", () => {
    expect(validateAgainst(schema, ok, groups)).toEqual([]);
  });

  it("reports wrong types, missing and unexpected properties", () => {
    expect(validateAgainst(schema, { ...ok, parent: 3 })).toEqual([
      '$.parent: expected type "string", got integer 3',
    ]);
    const { parent: _, ...noParent } = ok;
    expect(validateAgainst(schema, noParent)).toEqual([
      '$: missing required property "parent"',
    ]);
    expect(validateAgainst(schema, { ...ok, "x y": 1 })).toEqual([
      '$: unexpected property "x y"',
    ]);
    expect(
      validateAgainst(schema, {
        ...ok,
        steps: [{ ...ok.steps[0], click: { x: 1.5 } }],
      }),
    ).toEqual(['$.steps[0].click: {"x":1.5} matches no "anyOf" branch']);
  });

  it("reports two members of one oneof", () => {
    expect(validateAgainst(schema, { ...ok, file: "f" }, groups)).toEqual([
      '$: "url" and "file" are members of one oneof "source": set only one',
    ]);
    expect(validateAgainst(schema, { ...ok, file: "f" })).toEqual([]);
  });

  it("checks formats and patterns", () => {
    const s = cases[7]!.schema;
    const good = {
      at: "2024-02-29T23:59:59.123456789+05:30",
      when: null,
      data: "AAE=",
      timeout: "-1.5s",
      mask: "a.b,cD",
    };
    expect(validateAgainst(s, good)).toEqual([]);
    expect(validateAgainst(s, { ...good, at: "2023-02-29T00:00:00Z" })).toEqual(
      ['$.at: "2023-02-29T00:00:00Z" is not a valid "date-time"'],
    );
    expect(
      validateAgainst(s, { ...good, at: "2024-01-01T00:00:00.1234567890Z" }),
    ).toHaveLength(1);
    expect(
      validateAgainst(s, { ...good, at: "2024-01-01 00:00:00Z" }),
    ).toHaveLength(1);
    expect(validateAgainst(s, { ...good, data: "AAE" })).toEqual([
      '$.data: "AAE" is not a valid "byte"',
    ]);
    expect(validateAgainst(s, { ...good, data: "AA-_" })).toHaveLength(1);
    expect(validateAgainst(s, { ...good, timeout: "1.5" })).toEqual([
      `$.timeout: "1.5" does not match pattern ${JSON.stringify(durationPattern)}`,
    ]);
    expect(validateAgainst(s, { ...good, mask: "a..b" })).toHaveLength(1);
  });

  it("checks an absolute URI", () => {
    const uri = { type: "string", format: "uri" };
    for (const ok of ["https://a.example/p?q=1#f", "urn:isbn:0451450523"]) {
      expect(validateAgainst(uri, ok), ok).toEqual([]);
    }
    for (const bad of ["", "/relative", "a b:c", "https://a/%zz", "x:é"]) {
      expect(validateAgainst(uri, bad), bad).toHaveLength(1);
    }
  });

  it("checks enums, bounds, and map values", () => {
    expect(validateAgainst({ type: "string", enum: ["A"] }, "B")).toEqual([
      '$: "B" is not one of ["A"]',
    ]);
    expect(validateAgainst({ type: "integer", minimum: 0 }, -1)).toEqual([
      '$: -1 breaks "minimum" 0',
    ]);
    expect(validateAgainst({ type: "integer" }, 1.5)).toEqual([
      '$: expected type "integer", got number 1.5',
    ]);
    expect(
      validateAgainst(
        { type: "array", items: { type: "string" }, maxItems: 1 },
        ["a", 2],
      ),
    ).toEqual([
      "$: has 2 items, more than 1",
      '$[1]: expected type "string", got integer 2',
    ]);
    expect(
      validateAgainst(
        {
          type: "object",
          propertyNames: { pattern: "^[0-9]+$" },
          additionalProperties: { type: "integer" },
        },
        { "1": 1, x: "y" },
      ),
    ).toEqual([
      '$.x (name): "x" does not match pattern "^[0-9]+$"',
      '$.x: expected type "integer", got string "y"',
    ]);
  });

  it("follows $ref", () => {
    const s = cases[13]!.schema;
    expect(
      validateAgainst(s, {
        root: {
          label: "a",
          next: { label: "b", next: null, kids: [] },
          kids: [],
        },
      }),
    ).toEqual([]);
    expect(
      validateAgainst(s, {
        root: {
          label: "a",
          next: { label: 1, next: null, kids: [] },
          kids: [],
        },
      }),
    ).toEqual([
      '$.root.next: {"label":1,"next":null,"kids":[]} matches no "anyOf" branch',
    ]);
  });
});
