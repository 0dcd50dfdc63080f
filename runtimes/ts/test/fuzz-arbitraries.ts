// Random inputs of the runtime fuzz tests (fuzz.test.ts): UUIDs from a small
// pool (so that inputs meet registered ones) and fresh, aliases of known and
// unknown prefixes, JSON documents whose keys are mostly field names of the
// vectors' messages (so that the fix-up walks deep), and their text with
// numbers written in every JSON spelling.
import fc from "fast-check";

/** UUIDs shared by registrations and inputs. */
export const uuidPool = [
  "0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
  "11111111-2222-4333-8444-555555555555",
  "AABBCCDD-EEFF-4011-8233-445566778899",
  "deadbeef-dead-beef-dead-beefdeadbeef",
  "00000000-0000-0000-0000-000000000000",
  "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
];

/** The alias prefixes of the vectors' proto, and a few others. */
export const prefixes = ["acct", "contact", "note", "user", "team-x", "a"];

export const uuid: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...uuidPool),
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
);

export const prefix: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...prefixes) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
);

export const alias: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(prefix, fc.integer({ min: 0, max: 12 }))
    .map(([p, n]) => `${p}-${n}`),
  fc.constantFrom("acct-01", "acct-", "-1", "acct--1", "user-1.5", "acct-1 "),
);

/** Strings a model might write: aliases, UUIDs, UUIDs in text, anything. */
export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: alias },
  { weight: 3, arbitrary: uuid },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 3 }), uuid, fc.string({ maxLength: 3 }))
      .map((p) => p.join("")),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: "grapheme" }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: "binary" }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "1.5s",
      "-3s",
      "YQ==",
      "_-8",
      "+/8=",
      "NaN",
      "Infinity",
      "1e3",
      "42",
      "true",
      '{"a":1}',
      "[1,2]",
      "2026-12-01T05:00:00Z",
      "__proto__",
    ),
  },
);

/** The request and response field names of e2e/vectors/proto (both spellings). */
export const fieldNames = [
  "labels",
  "items_by_num",
  "itemsByNum",
  "flags",
  "attrs",
  "extra",
  "list",
  "item",
  "items",
  "text",
  "number",
  "nested",
  "other_text",
  "otherText",
  "note",
  "values",
  "value_map",
  "valueMap",
  "display_name",
  "displayName",
  "count",
  "enabled",
  "timeout",
  "data",
  "name",
  "counts",
  "payload",
  "children",
  "owner_id",
  "ownerId",
  "key",
  "value",
  "id",
  "account",
  "accounts",
  "notes",
  "contacts",
  "contactsByRole",
  "memberIds",
  "primaryContact",
  "primaryUserId",
  "tags",
  "__proto__",
  "constructor",
];

export const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...fieldNames) },
  { weight: 1, arbitrary: fc.constantFrom("1", "-7", "true", "false", "x") },
  { weight: 1, arbitrary: text },
);

/** A JSON number, as text: every spelling the grammar allows, and some it does not. */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom(
    "0",
    "-0",
    "1e400",
    "-1e400",
    "1E-7",
    "12345678901234567890",
    "9007199254740993",
    "2147483648",
    "-2147483649",
    "0.0000001",
    "1.0",
    "4294967296",
  ),
);

/** A JSON value; numbers are held as {@link Num} to keep their text. */
export type Doc = null | boolean | string | Num | Obj | Doc[];

/** A number as it is written. */
export class Num {
  constructor(readonly text: string) {}
}

/** An object is a list of entries, so that keys may repeat and keep their order. */
export class Obj {
  constructor(readonly entries: [string, Doc][]) {}
}

const { doc } = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: "small", maxDepth: 6 },
    text,
    numberText.map((t) => new Num(t)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("doc"), { maxLength: 4 }),
    fc
      .array(fc.tuple(key, tie("doc")), { maxLength: 5 })
      .map((e): Doc => new Obj(e)),
  ),
}));

/** A JSON object document, the shape of tool arguments and responses. */
export const object: fc.Arbitrary<Doc> = fc
  .array(fc.tuple(key, doc), { maxLength: 6 })
  .map((e): Doc => new Obj(e));

/** Write a document as JSON text, with or without white space. */
export function write(d: Doc, space = false): string {
  const sep = space ? " " : "";
  if (d === null) return "null";
  if (typeof d === "boolean") return String(d);
  if (typeof d === "string") return JSON.stringify(d);
  if (d instanceof Num) return d.text;
  if (d instanceof Obj) {
    return `{${d.entries.map(([k, v]) => `${JSON.stringify(k)}:${sep}${write(v, space)}`).join(`,${sep}`)}}`;
  }
  return `[${d.map((v) => write(v, space)).join(`,${sep}`)}]`;
}

/** Text that is mostly JSON: a document, or one with a character cut, added or swapped. */
export const jsonText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(object, fc.boolean()).map(([d, s]) => write(d, s)),
  },
  { weight: 1, arbitrary: doc.map((d) => write(d)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(object, fc.nat(), fc.string({ maxLength: 2 }), fc.nat({ max: 2 }))
      .map(([d, at, insert, cut]) => {
        const t = write(d);
        const i = t.length === 0 ? 0 : at % t.length;
        return t.slice(0, i) + insert + t.slice(i + cut);
      }),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** Registrations: (prefix, UUID) pairs, registered in order. */
export const registrations: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(prefix, uuid),
  { maxLength: 12 },
);
