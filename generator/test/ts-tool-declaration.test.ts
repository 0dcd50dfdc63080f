import fc from "fast-check";
import { util } from "prettier";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/schema/canonical-json.js";
import type { JsonValue } from "../src/schema/json-schema.js";
import { tsToolDeclarationDoc } from "../src/targets/ts/build-ts-view.js";
import {
  printTs,
  tsConst,
  tsJson,
  tsObject,
  tsObjectKey,
  tsProperty,
  tsStringExpr,
} from "../src/targets/ts/ts-doc.js";
import {
  createTsToolDeclarations,
  layJsonStatement,
  narrowCharacters,
} from "../src/targets/ts/ts-tool-declaration.js";

// ts-tool-declaration.ts lays a tool out from the bytes of its JSON schema;
// the document ts-doc.ts builds, printed by prettier's document printer, is
// what it must equal (test/ts-format.test.ts holds that to prettier).

const keys = fc.constantFrom(
  "a",
  "ab",
  "abcd",
  "abcde",
  "type",
  "description",
  "properties",
  "additionalProperties",
  "a_rather_long_property_name_that_pushes_values_to_the_next_line",
  "kebab-case",
  "with space",
  'quote"d',
  "it's",
  "$ref",
  "_x$",
  "__proto__",
  "10",
  "0",
  "01",
  "é",
);

// Of any length up to 100 (fast-check keeps lengths small otherwise): the
// layout's decisions are at the width of 80.
const strings = fc.oneof(
  fc
    .integer({ min: 0, max: 100 })
    .chain((n) => fc.string({ minLength: n, maxLength: n })),
  fc.constantFrom(
    "",
    'quote " and back \\ slash',
    'single \' and "double"',
    'more "double" than \'single\' "quotes"',
    "template ${x} and $ alone and $$",
    "ends with $",
    "</script> & <b>",
    "tab\there\nnew line\u0007\u007f",
    "\u2028 and \u2029",
    "unicode é",
    "^([a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)*)?$",
    // One column each as prettier measures them (narrowCharacters)…
    "en – dash, em — dash, “curly” ‘quotes’ and ≤ ≥ × ± ° § € £ ¥ …",
    "café naïve Ωμέγα Привет → ← ░▒▓█ ⌘ ⁰¹²",
    "a long one to be laid out at the width: “données” — mesure ≥ 10⁶ • fin",
    "with the stand-ins ~ ^ | too: é",
    "and all four ~^|` with é",
    // … and others, left to the document printer.
    "wide 漢字 and emoji 😀",
    "combining e\u0301 and soft\u00adhyphen",
  ),
);

const numbers = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e21, 1e-7, -1e300, 0.5, -0),
);

const { value } = fc.letrec<{
  value: JsonValue;
  array: JsonValue[];
  object: { [key: string]: JsonValue };
}>((tie) => ({
  value: fc.oneof(
    { depthSize: "medium", maxDepth: 8 },
    strings,
    numbers,
    fc.boolean(),
    fc.constant(null),
    tie("array"),
    tie("object"),
    tie("object"),
  ),
  array: fc.oneof(
    fc.array(tie("value"), { maxLength: 5 }),
    fc.array(numbers, { maxLength: 30 }),
    fc.array(tie("object"), { maxLength: 3 }),
  ),
  // Object.fromEntries makes "__proto__" an own property, as JSON.parse does.
  object: fc
    .uniqueArray(fc.tuple(keys, tie("value")), {
      maxLength: 8,
      selector: (e) => e[0],
    })
    .map((entries) => Object.fromEntries(entries)),
}));

const tools = fc.record({
  constName: fc.constantFrom(
    "x",
    "linksCreate",
    "aVeryLongToolConstantNameThatStillFitsWithTheCall",
    "aVeryLongToolConstantNameThatDoesNotFitWithTheCallOpen",
    "anExtremelyLongToolConstantNameThatDoesNotEvenFitWithoutTheBraces",
  ),
  name: fc.string({ maxLength: 64 }),
  description: strings,
  strict: fc.boolean(),
  schema: value,
});

describe("narrowCharacters", () => {
  it("are each one column wide as prettier measures text", () => {
    const narrow = new RegExp(`^[${narrowCharacters}]$`);
    let count = 0;
    for (let code = 0x80; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (!narrow.test(c)) {
        continue;
      }
      count++;
      expect(code < 0xd800 || code > 0xdfff).toBe(true);
      expect([
        util.getStringWidth(c),
        util.getStringWidth(`a${c}${c}b`),
      ]).toEqual([1, 4]);
      // Written raw in a TypeScript literal.
      expect(tsStringExpr(c).doc).toBe(`"${c}"`);
    }
    expect(count).toBeGreaterThan(1500);
  });
});

describe("createTsToolDeclarations", () => {
  it("lays a tool out as the document printer prints it", () => {
    const declarations = createTsToolDeclarations();
    let laid = 0;
    let laidNarrow = 0;
    const samples = fc.sample(tools, { numRuns: 1500, seed: 13 });
    for (const t of samples) {
      const tool = {
        name: t.name,
        description: t.description,
        strict: t.strict,
        schemaJson: canonicalJson(t.schema),
      };
      const text = declarations.lay(tool, t.constName);
      if (text === undefined) {
        continue;
      }
      laid++;
      if (/[\u0080-\uffff]/.test(tool.schemaJson + tool.description)) {
        laidNarrow++;
      }
      const expected = printTs(
        tsToolDeclarationDoc(tool, t.constName, () => {}),
      );
      expect(text).toBe(expected);
      // Again, from the memory of layouts.
      expect(declarations.lay(tool, t.constName)).toBe(expected);
    }
    // Most samples are laid out directly (the rest: text outside ASCII,
    // array-index keys, long arrays of numbers).
    expect(laid).toBeGreaterThan(samples.length / 3);
    // Text outside ASCII among them (narrow characters, see above).
    expect(laidNarrow).toBeGreaterThan(50);
  });

  it("leaves text outside ASCII, array-index keys and long number arrays to the document", () => {
    const declarations = createTsToolDeclarations();
    const lay = (schema: JsonValue, description = "d") =>
      declarations.lay(
        {
          name: "n",
          description,
          strict: false,
          schemaJson: canonicalJson(schema),
        },
        "n",
      );
    expect(lay({ type: "object" })).toBeDefined();
    // Narrow characters are laid out, in values and descriptions.
    expect(lay({ type: "object" }, "é — “x”")).toBeDefined();
    expect(lay({ description: "é — “x” ≤ 3" })).toBeDefined();
    expect(lay({ enum: ["A–B", "C→D"] })).toBeDefined();
    // Others are not, nor any in a key.
    expect(lay({ type: "object" }, "漢")).toBeUndefined();
    expect(lay({ description: "😀" })).toBeUndefined();
    expect(lay({ description: "e\u0301" })).toBeUndefined();
    expect(lay({ properties: { é: {} } })).toBeUndefined();
    expect(lay({ description: "é ~^|`" })).toBeUndefined();
    expect(lay({ description: "\u2028" })).toBeUndefined();
    expect(lay({ "10": true })).toBeUndefined();
    expect(
      lay({ enum: Array.from({ length: 40 }, (_, i) => i) }),
    ).toBeUndefined();
    expect(lay({ enum: [1, 2, 3] })).toBeDefined();
  });

  it("refuses text that is not canonical JSON", () => {
    const declarations = createTsToolDeclarations();
    for (const schemaJson of ['{ "a": 1 }', '{"a":1', '{"a":1}x', '{"a":"\\']) {
      expect(
        declarations.lay(
          { name: "n", description: "d", strict: false, schemaJson },
          "n",
        ),
      ).toBeUndefined();
    }
  });
});

describe("layJsonStatement", () => {
  const head = "export const responseAliases: ResponseAliases =";
  const names = fc.oneof(
    fc.constantFrom(
      "a",
      "pkg.v1.Message",
      "kebab-name",
      "10",
      "é",
      "__proto__",
    ),
    fc
      .integer({ min: 1, max: 90 })
      .map((n) => "pkg.v1.Message_name".repeat(5).slice(0, n)),
  );
  const fields = fc.record(
    {
      field: names,
      prefix: names,
      message: names,
      map: fc.constant(true),
    },
    { requiredKeys: ["field"] },
  );
  const data = fc.record({
    types: fc.uniqueArray(fc.tuple(names, fc.array(fields, { maxLength: 4 })), {
      maxLength: 5,
      selector: (e) => e[0],
    }),
    tools: fc.uniqueArray(
      fc.tuple(
        names,
        fc.record({ message: names, idPrefix: names, idField: names }),
      ),
      { maxLength: 4, selector: (e) => e[0] },
    ),
  });

  it("lays out an object of expanded objects as the document printer prints it", () => {
    let laid = 0;
    const samples = fc.sample(data, { numRuns: 1000, seed: 17 });
    for (const d of samples) {
      const json = `{"types":${canonicalOrdered(d.types)},"tools":${canonicalOrdered(d.tools)}}`;
      const text = layJsonStatement(head, json);
      if (text === undefined) {
        continue;
      }
      laid++;
      const unsure = () => {};
      const doc = tsConst(
        true,
        "responseAliases",
        "ResponseAliases",
        tsObject(
          (["types", "tools"] as const).map((s) =>
            tsProperty(
              s,
              tsObject(
                (d[s] as [string, JsonValue][]).map(([k, v]) =>
                  tsProperty(tsObjectKey(k, unsure), tsJson(v, unsure)),
                ),
                true,
              ),
            ),
          ),
          true,
        ),
      );
      expect(text).toBe(printTs(doc));
    }
    // The rest: keys outside ASCII or array indexes.
    expect(laid).toBeGreaterThan(samples.length / 10);
  });
});

/** A JSON object of `entries`, in their order. */
function canonicalOrdered(entries: [string, unknown][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`;
}
