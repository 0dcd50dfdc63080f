/**
 * Schema-driven JSON values for property tests: every value produced is one
 * the tool-parameter schema admits, so a test can check that every admitted
 * value decodes (docs/compat.md, invariant 2: "admitted means decodable").
 *
 * Covers the subset of JSON Schema our schemas use: `type` (a name or an
 * array of names), `properties`, `required`, `additionalProperties` (a
 * schema, `false`, or absent), `propertyNames` (`pattern` or `enum`),
 * `items`, `minItems`/`maxItems`, `enum`, `const`, `anyOf`, `oneOf`,
 * `format`, `pattern`, `minLength`/`maxLength`, `minimum`/`maximum` (also
 * exclusive), `multipleOf`, local `$ref` (`#`, `#/$defs/<name>`) and `{}`
 * (any JSON value).
 *
 * Choices made here:
 *
 * - Integers stay within the int32 range unless the schema gives bounds or
 *   `integerRange` says otherwise. Our schemas carry bounds only from
 *   `buf.validate` rules, so a schema `integer` mostly admits any integer,
 *   but values beyond ±2^53 are not exact in JavaScript and the Go/Python
 *   decoders reject values out of a field's range; int32 is what every
 *   integer field accepts. Numbers are finite doubles (never -0).
 * - Strings mix printable Unicode (graphemes, astral code points) with the
 *   characters that are escaped in JSON: `"`, `\`, control characters,
 *   `<`, `>`, `&`, U+2028, U+2029. Never a lone surrogate.
 * - An object that allows extra properties (`additionalProperties` absent or
 *   `true`) sometimes gets up to three extra keys starting with `x_` holding
 *   small JSON values, so they never collide with real field names. With a
 *   `propertyNames` schema the extra keys follow it instead.
 * - `format: "date-time"` is RFC 3339: years 0002–9998 (an offset must not
 *   push a value out of protobuf's Timestamp range), valid calendar
 *   dates, optional fraction of 1–9 digits, `Z` or a `±HH:MM` offset.
 *   `format: "byte"` is standard base64 with padding. `date`, `time`,
 *   `duration` (ISO 8601), `email`, `hostname`, `ipv4`, `ipv6`, `uuid` and
 *   `uri` (http and https URLs) are generated too; any other format is
 *   ignored.
 * - `pattern` is generated with fast-check `stringMatching`; beside a
 *   `format`, the format's values that match it are used. `minLength` and
 *   `maxLength` filter pattern and format values too.
 * - Integer bounds outside `integerRange` (a negative `maximum`) win over
 *   it: they are the field's own.
 * - A `$ref` is followed `maxRefDepth` times on one path (default 3); beyond
 *   that the smallest value of the target is used (null when nullable, no
 *   optional properties, `minItems` items), and a schema with no finite
 *   value is an error.
 * - `minProperties`, `maxProperties`, `allOf`, `not` and conditionals are
 *   not generated for.
 */
import * as fc from "fast-check";
import { isIPv6 } from "node:net";

/**
 * The members of one protobuf oneof, for the object found at `path`. In
 * each generated value at most one member is present and non-null there:
 * the others are set to `null` when the schema requires them (strict
 * schemas make oneof members nullable and required), else left out.
 *
 * `path` names the object from the root of the arguments, one segment per
 * step: a property name, `"[]"` for the items of an array, `"{}"` for the
 * values of a map (`additionalProperties`). `[]` is the root object. A map
 * rendered as key/value entries is `["labels", "[]", "value"]`. `anyOf`
 * branches and `$ref`s add no segment; an object reached through recursion
 * needs one group per depth.
 *
 * Example: `{ path: ["steps", "[]"], members: ["url", "file"] }`.
 */
export interface OneofGroup {
  readonly path: readonly string[];
  readonly members: readonly string[];
  /** The oneof's name, for messages only. */
  readonly name?: string;
}

/** How values are generated; see {@link valuesFor}. */
export interface SchemaValueOptions {
  /** Number of values (default 100). */
  readonly count?: number;
  /** Seed: the same seed gives the same values (default 42). */
  readonly seed?: number;
  /** Oneofs whose members are mutually exclusive. */
  readonly oneofGroups?: readonly OneofGroup[];
  /** How many times one path may follow a `$ref` (default 3). */
  readonly maxRefDepth?: number;
  /**
   * Whether objects with declared properties that allow extra properties
   * get `x_` keys too (default true). Objects with no declared properties
   * (`{"type":"object"}`) get them either way.
   */
  readonly unknownKeys?: boolean;
  /**
   * The range of the integers at a path (same segments as
   * {@link OneofGroup.path}), when int32 is wrong for it: e.g. `{min: 0,
   * max: 2 ** 32 - 1}` for a `uint32` field, which the schema cannot tell
   * apart. Bounds in the schema still apply. Undefined keeps int32.
   */
  readonly integerRange?: (
    path: readonly string[],
  ) => { readonly min: number; readonly max: number } | undefined;
  /**
   * The largest magnitude of a generated number, when every double is wrong:
   * e.g. 3.4e38 to stay inside a protobuf `float`, which the schema cannot
   * tell apart from a `double`. Bounds in the schema still apply.
   */
  readonly numberLimit?: number;
}

/**
 * Returns `count` JSON values that `schema` admits, deterministically for
 * `seed`. Throws for a schema it cannot generate for (a `$ref` it cannot
 * resolve, `false`, recursion with no finite value).
 */
export function valuesFor(
  schema: unknown,
  options: SchemaValueOptions = {},
): unknown[] {
  return fc.sample(arbitraryFor(schema, options), {
    numRuns: options.count ?? 100,
    seed: options.seed ?? 42,
  });
}

/**
 * Returns the fast-check arbitrary behind {@link valuesFor}, for use in
 * `fc.assert` properties. `count` and `seed` are ignored.
 */
export function arbitraryFor(
  schema: unknown,
  options: SchemaValueOptions = {},
): fc.Arbitrary<unknown> {
  return createValueBuilder(schema, options).build(schema, [], 0);
}

/**
 * Validates `value` against `schema` for the subset described above (plus
 * `allOf`, `not`, `minProperties` and `maxProperties`), and, when given,
 * the mutual exclusion of `oneofGroups`. Returns one message per problem,
 * each starting with the value's path (`$`, `$.steps[2].url`); empty when
 * the value is admitted. Unknown formats and keywords are ignored.
 */
export function validateAgainst(
  schema: unknown,
  value: unknown,
  oneofGroups: readonly OneofGroup[] = [],
): string[] {
  const errors: string[] = [];
  createValidator(schema, oneofGroups, errors).validate(schema, value, "$", []);
  return errors;
}

type Schema = Record<string, unknown>;

const annotationKeys = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "default",
  "$defs",
  "$schema",
]);

function isObject(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function resolveRef(root: unknown, ref: unknown): unknown {
  if (ref === "#") return root;
  const prefix = "#/$defs/";
  if (
    typeof ref === "string" &&
    ref.startsWith(prefix) &&
    isObject(root) &&
    isObject(root["$defs"])
  ) {
    const name = ref
      .slice(prefix.length)
      .replaceAll("~1", "/")
      .replaceAll("~0", "~");
    if (Object.hasOwn(root["$defs"], name)) return root["$defs"][name];
  }
  throw new Error(`cannot resolve $ref ${JSON.stringify(ref)}`);
}

function typesOf(node: Schema): string[] | undefined {
  const t = node["type"];
  if (typeof t === "string") return [t];
  if (Array.isArray(t))
    return t.filter((x): x is string => typeof x === "string");
  return undefined;
}

function groupsAt(
  groups: readonly OneofGroup[],
  path: readonly string[],
): OneofGroup[] {
  return groups.filter(
    (g) =>
      g.path.length === path.length && g.path.every((s, i) => s === path[i]),
  );
}

function samePath(a: readonly string[]): string {
  return a.length === 0 ? "the root" : JSON.stringify(a.join("."));
}

// ---------------------------------------------------------------- generation

/** One character of a generated string: printable, escaped or astral. */
const stringUnit: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.string({
      unit: "grapheme-ascii",
      minLength: 1,
      maxLength: 1,
    }),
    weight: 4,
  },
  {
    arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
    weight: 2,
  },
  {
    arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom(
      '"',
      "\\",
      "/",
      "\n",
      "\r",
      "\t",
      "\u0000",
      "\u001f",
      "<",
      ">",
      "&",
      "\u2028",
      "\u2029",
      "é",
      "e\u0301",
      "😀",
      "\u{10ffff}",
    ),
    weight: 2,
  },
);

/** Any JSON value, small. */
const anyJson: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 2, stringUnit })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const extraKey: fc.Arbitrary<string> = fc
  .string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789_"),
    maxLength: 6,
  })
  .map((s) => `x_${s}`);

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

function daysInMonth(year: number, month: number): number {
  if (month === 2)
    return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function dateArbFor(minYear: number, maxYear: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.oneof(
        fc.integer({ min: minYear, max: maxYear }),
        fc.constantFrom(minYear, 1970, 2000, 2024, maxYear),
      ),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
    )
    .map(
      ([y, m, d]) =>
        `${pad(y, 4)}-${pad(m, 2)}-${pad(((d - 1) % daysInMonth(y, m)) + 1, 2)}`,
    );
}

const dateArb: fc.Arbitrary<string> = dateArbFor(1, 9999);
// A date-time with an offset can leave protobuf's Timestamp range
// (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z) by a day at either end,
// so date-times keep a year away from it (docs/compat.md).
const dateTimeDateArb: fc.Arbitrary<string> = dateArbFor(2, 9998);

const offsetArb: fc.Arbitrary<string> = fc.oneof(
  fc.constant("Z"),
  fc
    .tuple(
      fc.constantFrom("+", "-"),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
    )
    .map(([s, h, m]) => `${s}${pad(h, 2)}:${pad(m, 2)}`),
);

const timeArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
    fc.option(
      fc.string({
        unit: fc.constantFrom(..."0123456789"),
        minLength: 1,
        maxLength: 9,
      }),
      { nil: undefined },
    ),
    offsetArb,
  )
  .map(
    ([h, m, s, frac, off]) =>
      `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${frac === undefined ? "" : `.${frac}`}${off}`,
  );

const dateTimeArb: fc.Arbitrary<string> = fc
  .tuple(dateTimeDateArb, timeArb)
  .map(([d, t]) => `${d}T${t}`);

const base64Arb: fc.Arbitrary<string> = fc
  .uint8Array({ maxLength: 16 })
  .map((bytes) => Buffer.from(bytes).toString("base64"));

const isoDurationArb: fc.Arbitrary<string> = fc
  .tuple(fc.nat(99), fc.nat(23), fc.nat(59), fc.nat(59))
  .map(([d, h, m, s]) => `P${d}DT${h}H${m}M${s}S`);

const formatArbs: Readonly<Record<string, fc.Arbitrary<string>>> = {
  "date-time": dateTimeArb,
  date: dateArb,
  time: timeArb,
  duration: isoDurationArb,
  byte: base64Arb,
  email: fc.emailAddress(),
  hostname: fc.domain(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  uuid: fc.uuid(),
  // http(s) URLs: absolute URIs as RFC 3986 (and protovalidate's `uri`)
  // has them.
  uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
};

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

interface ValueBuilder {
  build(
    node: unknown,
    path: readonly string[],
    refDepth: number,
  ): fc.Arbitrary<unknown>;
}

function createValueBuilder(
  root: unknown,
  options: SchemaValueOptions,
): ValueBuilder {
  const groups = options.oneofGroups ?? [];
  const maxRefDepth = options.maxRefDepth ?? 3;
  const unknownKeys = options.unknownKeys ?? true;

  function build(
    node: unknown,
    path: readonly string[],
    refDepth: number,
  ): fc.Arbitrary<unknown> {
    if (node === true) return anyJson;
    if (!isObject(node)) {
      throw new Error(
        `cannot generate values for schema ${JSON.stringify(node)}`,
      );
    }
    if ("$ref" in node) {
      const target = resolveRef(root, node["$ref"]);
      if (refDepth >= maxRefDepth) {
        return fc.constant(minimal(target, path, []));
      }
      return build(target, path, refDepth + 1);
    }
    if ("const" in node) return fc.constant(node["const"]);
    if ("enum" in node) {
      const values = node["enum"];
      if (!Array.isArray(values) || values.length === 0) {
        throw new Error(
          `cannot generate values for enum ${JSON.stringify(values)}`,
        );
      }
      return fc.constantFrom(...(values as unknown[]));
    }
    if (Array.isArray(node["anyOf"])) {
      return fc.oneof(...node["anyOf"].map((b) => build(b, path, refDepth)));
    }
    if (Array.isArray(node["oneOf"])) {
      const branches = node["oneOf"] as unknown[];
      return fc
        .oneof(...branches.map((b) => build(b, path, refDepth)))
        .filter(
          (v) =>
            branches.filter((b) => validateAgainst(withDefs(b), v).length === 0)
              .length === 1,
        );
    }
    const types = typesOf(node);
    if (types === undefined) {
      if (isObject(node["properties"]) || "additionalProperties" in node) {
        return buildObject(node, path, refDepth);
      }
      if (Object.keys(node).every((k) => annotationKeys.has(k))) return anyJson;
      throw new Error(
        `cannot generate values for schema without a type ${JSON.stringify(node)}`,
      );
    }
    if (types.length !== 1) {
      return fc.oneof(
        ...types.map((t) => build({ ...node, type: t }, path, refDepth)),
      );
    }
    switch (types[0]) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return buildInteger(node, options.integerRange?.(path) ?? int32);
      case "number":
        return buildNumber(node);
      case "string":
        return buildString(node);
      case "array":
        return buildArray(node, path, refDepth);
      case "object":
        return buildObject(node, path, refDepth);
      default:
        throw new Error(
          `cannot generate values for type ${JSON.stringify(types[0])}`,
        );
    }
  }

  /** A schema node carrying the root's `$defs`, for validating a branch. */
  function withDefs(node: unknown): unknown {
    if (isObject(node) && isObject(root) && "$defs" in root)
      return { ...node, $defs: root["$defs"] };
    return node;
  }

  function buildInteger(
    node: Schema,
    range: { readonly min: number; readonly max: number },
  ): fc.Arbitrary<unknown> {
    let min = Math.max(
      range.min,
      typeof node["minimum"] === "number"
        ? Math.ceil(node["minimum"])
        : range.min,
    );
    let max = Math.min(
      range.max,
      typeof node["maximum"] === "number"
        ? Math.floor(node["maximum"])
        : range.max,
    );
    const exMin = node["exclusiveMinimum"];
    const exMax = node["exclusiveMaximum"];
    if (typeof exMin === "number") min = Math.max(min, Math.floor(exMin) + 1);
    if (typeof exMax === "number") max = Math.min(max, Math.ceil(exMax) - 1);
    if (min > max) {
      // The schema's own bounds lie outside `range` (a `buf.validate`
      // maximum of -4 on a sint64): they are the field's, so they win.
      ({ min, max } = ownIntegerBounds(node));
    }
    const step = node["multipleOf"];
    if (typeof step === "number" && step > 0) {
      return fc
        .integer({ min: Math.ceil(min / step), max: Math.floor(max / step) })
        .map((k) => k * step);
    }
    return fc.integer({ min, max });
  }

  /** The integers the schema's own bounds admit, within ±2^53. */
  function ownIntegerBounds(node: Schema): { min: number; max: number } {
    const num = (k: string): number | undefined =>
      typeof node[k] === "number" ? node[k] : undefined;
    const exMin = num("exclusiveMinimum");
    const exMax = num("exclusiveMaximum");
    const min = Math.max(
      Math.ceil(num("minimum") ?? -Number.MAX_SAFE_INTEGER),
      exMin === undefined ? -Number.MAX_SAFE_INTEGER : Math.floor(exMin) + 1,
    );
    const max = Math.min(
      Math.floor(num("maximum") ?? Number.MAX_SAFE_INTEGER),
      exMax === undefined ? Number.MAX_SAFE_INTEGER : Math.ceil(exMax) - 1,
    );
    return { min, max };
  }

  function buildNumber(node: Schema): fc.Arbitrary<unknown> {
    const step = node["multipleOf"];
    if (typeof step === "number" && step > 0) {
      const lo = typeof node["minimum"] === "number" ? node["minimum"] : -1e6;
      const hi = typeof node["maximum"] === "number" ? node["maximum"] : 1e6;
      return fc
        .integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) })
        .map((k) => (k * step === 0 ? 0 : k * step));
    }
    const c: fc.DoubleConstraints = { noNaN: true, noDefaultInfinity: true };
    if (options.numberLimit !== undefined) {
      c.min = -options.numberLimit;
      c.max = options.numberLimit;
    }
    const min = node["minimum"];
    const max = node["maximum"];
    const exMin = node["exclusiveMinimum"];
    const exMax = node["exclusiveMaximum"];
    if (typeof min === "number") c.min = min;
    if (typeof max === "number") c.max = max;
    if (typeof exMin === "number" && (c.min === undefined || exMin >= c.min)) {
      c.min = exMin;
      c.minExcluded = true;
    }
    if (typeof exMax === "number" && (c.max === undefined || exMax <= c.max)) {
      c.max = exMax;
      c.maxExcluded = true;
    }
    return fc.double(c).map((x) => (Object.is(x, -0) ? 0 : x));
  }

  function buildString(node: Schema): fc.Arbitrary<unknown> {
    const minLength =
      typeof node["minLength"] === "number" ? node["minLength"] : 0;
    const maxLength =
      typeof node["maxLength"] === "number"
        ? node["maxLength"]
        : Math.max(minLength, 12) + 8;
    const fits = (s: string): boolean => {
      const n = [...s].length;
      return n >= minLength && n <= maxLength;
    };
    // A pattern or format gives the shape; the lengths (and, beside a
    // format, the pattern) filter it.
    const bounded =
      typeof node["minLength"] === "number" ||
      typeof node["maxLength"] === "number";
    const pattern = node["pattern"];
    const format = node["format"];
    const formatArb =
      typeof format === "string" ? formatArbs[format] : undefined;
    if (typeof pattern === "string") {
      const re = new RegExp(pattern, "u");
      if (formatArb !== undefined) {
        return formatArb.filter((s) => re.test(s) && (!bounded || fits(s)));
      }
      const arb = fc.stringMatching(re, {
        maxLength: bounded ? Math.max(maxLength, 1) : 200,
      });
      return bounded ? arb.filter(fits) : arb;
    }
    if (formatArb !== undefined) {
      return bounded ? formatArb.filter(fits) : formatArb;
    }
    return fc.string({ unit: stringUnit, minLength, maxLength }).filter(fits);
  }

  function buildArray(
    node: Schema,
    path: readonly string[],
    refDepth: number,
  ): fc.Arbitrary<unknown> {
    const minLength =
      typeof node["minItems"] === "number" ? node["minItems"] : 0;
    const maxLength =
      typeof node["maxItems"] === "number" ? node["maxItems"] : minLength + 4;
    const items = "items" in node ? node["items"] : true;
    return fc.array(build(items, [...path, "[]"], refDepth), {
      minLength,
      maxLength,
    });
  }

  function keyArb(node: Schema): fc.Arbitrary<string> {
    const names = node["propertyNames"];
    if (isObject(names)) {
      if (Array.isArray(names["enum"])) {
        const keys = names["enum"].filter(
          (k): k is string => typeof k === "string",
        );
        if (keys.length > 0) return fc.constantFrom(...keys);
      }
      if (typeof names["pattern"] === "string") {
        return fc.stringMatching(new RegExp(names["pattern"]), {
          maxLength: 40,
        });
      }
      return buildString(names).map((k) => String(k));
    }
    return fc.string({ unit: stringUnit, maxLength: 10 });
  }

  function buildObject(
    node: Schema,
    path: readonly string[],
    refDepth: number,
  ): fc.Arbitrary<unknown> {
    const properties = isObject(node["properties"]) ? node["properties"] : {};
    const names = Object.keys(properties);
    const required = new Set(
      Array.isArray(node["required"])
        ? node["required"].filter((r): r is string => typeof r === "string")
        : [],
    );
    const fields: Array<fc.Arbitrary<[string, unknown] | undefined>> =
      names.map((name) => {
        const arb = build(properties[name], [...path, name], refDepth).map(
          (v): [string, unknown] => [name, v],
        );
        return required.has(name) ? arb : fc.option(arb, { nil: undefined });
      });
    // Required names that are not properties still need a value.
    for (const name of required) {
      if (!Object.hasOwn(properties, name)) {
        fields.push(anyJson.map((v): [string, unknown] => [name, v]));
      }
    }
    const additional = node["additionalProperties"];
    let extras: fc.Arbitrary<Array<[string, unknown]>> = fc.constant([]);
    if (
      isObject(additional) ||
      additional === undefined ||
      additional === true
    ) {
      const open = !isObject(additional);
      const wanted = !open || unknownKeys || names.length === 0;
      if (wanted) {
        const keys =
          open && !isObject(node["propertyNames"]) ? extraKey : keyArb(node);
        const values = open
          ? anyJson
          : build(additional, [...path, "{}"], refDepth);
        extras = fc.array(fc.tuple(keys, values), { maxLength: 3 });
      }
    }
    const exclusive = groupsAt(groups, path);
    const plans = exclusive.map((g) =>
      planGroup(g, properties, required, path),
    );
    return fc
      .tuple(
        fc.tuple(...fields),
        extras,
        fc.array(fc.nat(), {
          minLength: plans.length,
          maxLength: plans.length,
        }),
      )
      .map(([set, extra, picks]) => {
        const out: Record<string, unknown> = {};
        for (const entry of set) {
          if (entry !== undefined) define(out, entry[0], entry[1]);
        }
        for (const [k, v] of extra) {
          if (!Object.hasOwn(properties, k) && !required.has(k))
            define(out, k, v);
        }
        plans.forEach((plan, i) => plan(out, picks[i] ?? 0));
        return out;
      });
  }

  /**
   * Returns the step that leaves at most one member of `group` set in an
   * object built for `properties`; `pick` chooses which.
   */
  function planGroup(
    group: OneofGroup,
    properties: Schema,
    required: ReadonlySet<string>,
    path: readonly string[],
  ): (out: Record<string, unknown>, pick: number) => void {
    const members = group.members.filter((m) => Object.hasOwn(properties, m));
    const admitsNull = (m: string) =>
      validateAgainst(withDefs(properties[m]), null).length === 0;
    const forced = members.filter((m) => required.has(m) && !admitsNull(m));
    if (forced.length > 1) {
      throw new Error(
        `oneof ${JSON.stringify(group.name ?? group.members.join("|"))} at ${samePath(path)}: ` +
          `members ${forced.map((m) => JSON.stringify(m)).join(", ")} are all required and not nullable`,
      );
    }
    return (out, pick) => {
      const set = members.filter(
        (m) => Object.hasOwn(out, m) && out[m] !== null,
      );
      // One choice more than the set members: keep none.
      const keep = forced[0] ?? set[pick % (set.length + 1)];
      for (const m of set) {
        if (m === keep) continue;
        if (required.has(m)) out[m] = null;
        else delete out[m];
      }
    };
  }

  /** The smallest value `node` admits, to end recursion. */
  function minimal(
    node: unknown,
    path: readonly string[],
    refs: readonly unknown[],
  ): unknown {
    if (node === true) return null;
    if (!isObject(node))
      throw new Error(
        `cannot generate values for schema ${JSON.stringify(node)}`,
      );
    if ("$ref" in node) {
      const ref = node["$ref"];
      if (refs.filter((r) => r === ref).length >= 2) {
        throw new Error(
          `schema at ${samePath(path)} admits no finite value: $ref ${JSON.stringify(ref)} recurses without end`,
        );
      }
      return minimal(resolveRef(root, ref), path, [...refs, ref]);
    }
    if ("const" in node) return node["const"];
    if (Array.isArray(node["enum"]) && node["enum"].length > 0)
      return node["enum"][0];
    const branches: unknown[] | undefined = Array.isArray(node["anyOf"])
      ? node["anyOf"]
      : Array.isArray(node["oneOf"])
        ? node["oneOf"]
        : undefined;
    if (branches !== undefined) {
      const ordered = [
        ...branches.filter((b) => isObject(b) && b["type"] === "null"),
        ...branches.filter((b) => !(isObject(b) && b["type"] === "null")),
      ];
      return firstOf(
        ordered.map((b) => () => minimal(b, path, refs)),
        path,
      );
    }
    const types = typesOf(node);
    if (types === undefined) {
      if (isObject(node["properties"]))
        return minimal({ ...node, type: "object" }, path, refs);
      return null;
    }
    if (types.length !== 1) {
      const ordered = [
        ...types.filter((t) => t === "null"),
        ...types.filter((t) => t !== "null"),
      ];
      return firstOf(
        ordered.map((t) => () => minimal({ ...node, type: t }, path, refs)),
        path,
      );
    }
    if (types[0] === "object") {
      const properties = isObject(node["properties"]) ? node["properties"] : {};
      const out: Record<string, unknown> = {};
      const required = Array.isArray(node["required"]) ? node["required"] : [];
      for (const name of required) {
        if (typeof name === "string") {
          define(
            out,
            name,
            minimal(properties[name] ?? true, [...path, name], refs),
          );
        }
      }
      return out;
    }
    if (types[0] === "array") {
      const n = typeof node["minItems"] === "number" ? node["minItems"] : 0;
      return Array.from({ length: n }, () =>
        minimal(node["items"] ?? true, [...path, "[]"], refs),
      );
    }
    return fc.sample(build(node, path, maxRefDepth), {
      numRuns: 1,
      seed: 0,
    })[0];
  }

  function firstOf(
    tries: Array<() => unknown>,
    path: readonly string[],
  ): unknown {
    let last: unknown;
    for (const t of tries) {
      try {
        return t();
      } catch (e) {
        last = e;
      }
    }
    throw last instanceof Error
      ? last
      : new Error(`schema at ${samePath(path)} admits no value`);
  }

  return { build };
}

/** Sets an own property, even one named `__proto__`. */
function define(
  out: Record<string, unknown>,
  key: string,
  value: unknown,
): void {
  Object.defineProperty(out, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

// ---------------------------------------------------------------- validation

const dateTimeRe =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;
const dateRe = /^(\d{4})-(\d{2})-(\d{2})$/;
const timeRe = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;
const base64Re =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const uuidRe =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ipv4Re =
  /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const isoDurationRe =
  /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
const emailRe = /^[^\s@]+@[^\s@]+$/;
// RFC 3986 absolute URI: a scheme, then unreserved, reserved and
// percent-encoded characters only.
const uriRe =
  /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const hostnameRe =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function validDate(y: number, m: number, d: number): boolean {
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

function validClock(
  h: number,
  mi: number,
  s: number,
  oh?: number,
  om?: number,
): boolean {
  return (
    h <= 23 &&
    mi <= 59 &&
    s <= 59 &&
    (oh === undefined || oh <= 23) &&
    (om === undefined || om <= 59)
  );
}

function checkFormat(format: string, s: string): boolean {
  const num = (x: string | undefined) =>
    x === undefined ? undefined : Number(x);
  switch (format) {
    case "date-time": {
      const m = dateTimeRe.exec(s);
      return (
        m !== null &&
        validDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
        validClock(
          Number(m[4]),
          Number(m[5]),
          Number(m[6]),
          num(m[9]),
          num(m[10]),
        )
      );
    }
    case "date": {
      const m = dateRe.exec(s);
      return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
    }
    case "time": {
      const m = timeRe.exec(s);
      return (
        m !== null &&
        validClock(
          Number(m[1]),
          Number(m[2]),
          Number(m[3]),
          num(m[6]),
          num(m[7]),
        )
      );
    }
    case "byte":
      return base64Re.test(s);
    case "uuid":
      return uuidRe.test(s);
    case "ipv4":
      return ipv4Re.test(s);
    case "ipv6":
      return isIPv6(s);
    case "duration":
      return isoDurationRe.test(s);
    case "email":
      return emailRe.test(s);
    case "hostname":
      return hostnameRe.test(s);
    case "uri":
      return uriRe.test(s);
    default:
      return true;
  }
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

interface Validator {
  validate(
    node: unknown,
    value: unknown,
    path: string,
    segments: readonly string[],
  ): void;
}

function createValidator(
  root: unknown,
  groups: readonly OneofGroup[],
  errors: string[],
): Validator {
  /** Validates into a scratch list; true when the value passed. */
  function passes(
    node: unknown,
    value: unknown,
    path: string,
    segments: readonly string[],
  ): boolean {
    const scratch: string[] = [];
    createValidator(root, groups, scratch).validate(
      node,
      value,
      path,
      segments,
    );
    return scratch.length === 0;
  }

  function validate(
    node: unknown,
    value: unknown,
    path: string,
    segments: readonly string[],
  ): void {
    if (node === true || node === undefined) return;
    if (node === false) {
      errors.push(`${path}: no value is allowed here`);
      return;
    }
    if (!isObject(node)) {
      errors.push(`${path}: invalid schema ${show(node)}`);
      return;
    }
    if ("$ref" in node) {
      let target: unknown;
      try {
        target = resolveRef(root, node["$ref"]);
      } catch (e) {
        errors.push(`${path}: ${(e as Error).message}`);
        return;
      }
      validate(target, value, path, segments);
    }
    const t = jsonType(value);
    const types = typesOf(node);
    if (
      types !== undefined &&
      !types.some((x) => x === t || (x === "number" && t === "integer"))
    ) {
      errors.push(
        `${path}: expected type ${show(node["type"])}, got ${t} ${show(value)}`,
      );
      return;
    }
    if (
      Array.isArray(node["enum"]) &&
      !node["enum"].some((e) => deepEqual(e, value))
    ) {
      errors.push(
        `${path}: ${show(value)} is not one of ${show(node["enum"])}`,
      );
    }
    if ("const" in node && !deepEqual(node["const"], value)) {
      errors.push(`${path}: ${show(value)} is not ${show(node["const"])}`);
    }
    if (
      Array.isArray(node["anyOf"]) &&
      !node["anyOf"].some((b) => passes(b, value, path, segments))
    ) {
      errors.push(`${path}: ${show(value)} matches no "anyOf" branch`);
    }
    if (Array.isArray(node["oneOf"])) {
      const n = node["oneOf"].filter((b) =>
        passes(b, value, path, segments),
      ).length;
      if (n !== 1)
        errors.push(
          `${path}: ${show(value)} matches ${n} "oneOf" branches, not 1`,
        );
    }
    if (Array.isArray(node["allOf"])) {
      for (const b of node["allOf"]) validate(b, value, path, segments);
    }
    if ("not" in node && passes(node["not"], value, path, segments)) {
      errors.push(`${path}: ${show(value)} matches the "not" schema`);
    }
    if (typeof value === "string") validateString(node, value, path);
    if (typeof value === "number") validateNumber(node, value, path);
    if (Array.isArray(value)) validateArray(node, value, path, segments);
    if (isObject(value)) validateObject(node, value, path, segments);
  }

  function validateString(node: Schema, value: string, path: string): void {
    const n = [...value].length;
    if (typeof node["minLength"] === "number" && n < node["minLength"]) {
      errors.push(
        `${path}: ${show(value)} is shorter than ${node["minLength"]}`,
      );
    }
    if (typeof node["maxLength"] === "number" && n > node["maxLength"]) {
      errors.push(
        `${path}: ${show(value)} is longer than ${node["maxLength"]}`,
      );
    }
    if (
      typeof node["pattern"] === "string" &&
      !new RegExp(node["pattern"], "u").test(value)
    ) {
      errors.push(
        `${path}: ${show(value)} does not match pattern ${show(node["pattern"])}`,
      );
    }
    if (
      typeof node["format"] === "string" &&
      !checkFormat(node["format"], value)
    ) {
      errors.push(
        `${path}: ${show(value)} is not a valid ${show(node["format"])}`,
      );
    }
  }

  function validateNumber(node: Schema, value: number, path: string): void {
    if (!Number.isFinite(value))
      errors.push(`${path}: ${value} is not a finite number`);
    const bound = (key: string, ok: (b: number) => boolean) => {
      const b = node[key];
      if (typeof b === "number" && !ok(b))
        errors.push(`${path}: ${value} breaks "${key}" ${b}`);
    };
    bound("minimum", (b) => value >= b);
    bound("maximum", (b) => value <= b);
    bound("exclusiveMinimum", (b) => value > b);
    bound("exclusiveMaximum", (b) => value < b);
    bound("multipleOf", (b) => {
      const q = value / b;
      return Math.abs(q - Math.round(q)) < 1e-9;
    });
  }

  function validateArray(
    node: Schema,
    value: unknown[],
    path: string,
    segments: readonly string[],
  ): void {
    if (
      typeof node["minItems"] === "number" &&
      value.length < node["minItems"]
    ) {
      errors.push(
        `${path}: has ${value.length} items, fewer than ${node["minItems"]}`,
      );
    }
    if (
      typeof node["maxItems"] === "number" &&
      value.length > node["maxItems"]
    ) {
      errors.push(
        `${path}: has ${value.length} items, more than ${node["maxItems"]}`,
      );
    }
    if ("items" in node) {
      value.forEach((item, i) =>
        validate(node["items"], item, childPath(path, i), [...segments, "[]"]),
      );
    }
  }

  function validateObject(
    node: Schema,
    value: Schema,
    path: string,
    segments: readonly string[],
  ): void {
    const properties = isObject(node["properties"]) ? node["properties"] : {};
    const keys = Object.keys(value);
    if (Array.isArray(node["required"])) {
      for (const name of node["required"]) {
        if (typeof name === "string" && !Object.hasOwn(value, name)) {
          errors.push(`${path}: missing required property ${show(name)}`);
        }
      }
    }
    if (
      typeof node["minProperties"] === "number" &&
      keys.length < node["minProperties"]
    ) {
      errors.push(
        `${path}: has ${keys.length} properties, fewer than ${node["minProperties"]}`,
      );
    }
    if (
      typeof node["maxProperties"] === "number" &&
      keys.length > node["maxProperties"]
    ) {
      errors.push(
        `${path}: has ${keys.length} properties, more than ${node["maxProperties"]}`,
      );
    }
    for (const key of keys) {
      const p = childPath(path, key);
      if ("propertyNames" in node)
        validate(node["propertyNames"], key, `${p} (name)`, segments);
      if (Object.hasOwn(properties, key)) {
        validate(properties[key], value[key], p, [...segments, key]);
      } else if (node["additionalProperties"] === false) {
        errors.push(`${path}: unexpected property ${show(key)}`);
      } else if (isObject(node["additionalProperties"])) {
        validate(node["additionalProperties"], value[key], p, [
          ...segments,
          "{}",
        ]);
      }
    }
    for (const group of groupsAt(groups, segments)) {
      const set = group.members.filter(
        (m) => Object.hasOwn(value, m) && value[m] !== null,
      );
      if (set.length > 1) {
        errors.push(
          `${path}: ${set.map((m) => show(m)).join(" and ")} are members of one oneof` +
            `${group.name === undefined ? "" : ` ${show(group.name)}`}: set only one`,
        );
      }
    }
  }

  return { validate };
}
