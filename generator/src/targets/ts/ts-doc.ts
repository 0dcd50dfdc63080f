import { builders, printer, utils } from "prettier/doc";

/** A document of prettier's printer. */
export type Doc = builders.Doc;
import type { JsonValue } from "../../schema/json-schema.js";
import { tsSingleQuoted, tsString } from "./ts-literal.js";

const {
  breakParent,
  conditionalGroup,
  fill,
  group,
  ifBreak,
  indent,
  indentIfBreak,
  join,
  line,
  lineSuffixBoundary,
  softline,
} = builders;

// The TypeScript of ai_tools.gen.ts is written the way prettier (3, default
// options) writes it, without running prettier: the view builder makes the
// document prettier's JavaScript printer would make for each construct the
// file uses (object and array literals, properties, calls, member
// expressions, `const` and `import` declarations), and prettier's own
// document printer (prettier/doc, no parser) lays it out in 80 columns. The
// rules followed are prettier's, by construct: test/ts-format.test.ts
// compares the result with prettier's output of the same file.

/** A printed expression and what prettier's layout rules look at. */
export interface TsExpr {
  readonly doc: Doc;
  /**
   * `string`, `number` (an unsigned numeric literal), `boolean`, `object`
   * and `array` (with `items` entries), `chain` (a member expression of
   * identifiers, no call), `other` (identifiers, `null`, `-1`, calls).
   */
  readonly kind:
    "string" | "number" | "boolean" | "object" | "array" | "chain" | "other";
  /** Properties of an object, elements of an array. */
  readonly items?: number;
  /** True for a numeric literal, signed or not (arrays of them fill lines). */
  readonly numeric?: boolean;
}

/**
 * Told what the printer cannot promise to write as prettier would; the
 * caller then has prettier format the file (see {@link printTsUnformatted}).
 */
export type TsUnsure = (what: string) => void;

const identifierName = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
// eslint-disable-next-line no-control-regex -- any character outside ASCII
const nonAscii = /[^\u0000-\u007f]/;

/**
 * A string literal as prettier prints it: double quotes, unless the text
 * holds more double than single quotes; then single quotes, the escapes of
 * `"` dropped and `'` escaped.
 */
export function tsStringExpr(value: string): TsExpr {
  let doubles = 0;
  let singles = 0;
  for (let i = value.indexOf('"'); i !== -1; i = value.indexOf('"', i + 1)) {
    doubles++;
  }
  if (doubles > 0) {
    for (let i = value.indexOf("'"); i !== -1; i = value.indexOf("'", i + 1)) {
      singles++;
    }
  }
  return {
    doc: doubles > singles ? tsSingleQuoted(value) : tsString(value),
    kind: "string",
  };
}

/** A JSON number: prettier writes an exponent without `+`. */
function numberExpr(value: number): TsExpr {
  if (!Number.isFinite(value)) {
    throw new Error(`not a JSON number: ${value}`);
  }
  const text = JSON.stringify(value).replace("e+", "e");
  // A negative number is a unary minus on a literal: not a numeric literal
  // to the assignment layout.
  return { doc: text, kind: value < 0 ? "other" : "number", numeric: true };
}

/** An identifier or other expression printed as it is. */
export function tsPlainExpr(text: string): TsExpr {
  return { doc: text, kind: "other" };
}

/**
 * An object key: bare when it is an identifier, which prettier also makes
 * of a quoted key that is one (`"Note"` → `Note`, even `"__proto__"`);
 * quoted otherwise. A key outside ASCII might be an identifier to
 * prettier: `unsure` is told.
 */
export function tsStringKey(key: string, unsure: TsUnsure): string {
  if (identifierName.test(key)) {
    return key;
  }
  if (nonAscii.test(key)) {
    unsure(`object key ${JSON.stringify(key)}`);
  }
  return tsStringExpr(key).doc as string;
}

/**
 * A key of an object literal built from data: as {@link tsStringKey}, but
 * `__proto__` computed (`["__proto__"]`), so that it stays an own property.
 */
export function tsObjectKey(key: string, unsure: TsUnsure): string {
  return key === "__proto__" ? `["__proto__"]` : tsStringKey(key, unsure);
}

/** One property, `key: value`, with prettier's assignment layouts. */
export function tsProperty(key: string, value: TsExpr): Doc {
  // A key shorter than the indentation plus 3 gains nothing from a break.
  const shortKey = key.length < 5;
  if ((value.kind === "string" || value.kind === "chain") && !shortKey) {
    return group([key, ":", group(indent([line, value.doc]))]);
  }
  if (shortKey || value.kind === "boolean" || value.kind === "number") {
    return group([key, ": ", value.doc]);
  }
  const id = Symbol("assignment");
  return group([
    key,
    ":",
    group(indent(line), { id }),
    lineSuffixBoundary,
    indentIfBreak(value.doc, { groupId: id }),
  ]);
}

/**
 * An object literal of `properties` (printed by {@link tsProperty}).
 * `expanded`: written with a line break after `{` in the source, which
 * prettier keeps.
 */
export function tsObject(properties: readonly Doc[], expanded = false): TsExpr {
  if (properties.length === 0) {
    return { doc: "{}", kind: "object", items: 0 };
  }
  return {
    doc: group(
      [
        "{",
        indent([
          line,
          join(
            [",", line],
            properties.map((p) => group(p)),
          ),
        ]),
        ifBreak(","),
        line,
        "}",
      ],
      { shouldBreak: expanded },
    ),
    kind: "object",
    items: properties.length,
  };
}

/** An array literal. */
export function tsArray(elements: readonly TsExpr[]): TsExpr {
  if (elements.length === 0) {
    return { doc: "[]", kind: "array", items: 0 };
  }
  // Two or more objects (or arrays) of two or more entries each: one per line.
  const shouldBreak =
    elements.length > 1 &&
    elements.every(
      (e) =>
        (e.kind === "object" || e.kind === "array") &&
        e.kind === elements[0]!.kind &&
        (e.items ?? 0) > 1,
    );
  const id = Symbol("array");
  // Numbers fill the lines.
  const items = elements.every((e) => e.numeric === true)
    ? fill(
        elements.flatMap((e, i) =>
          i === elements.length - 1
            ? [[e.doc, ifBreak(",", "", { groupId: id })]]
            : [[e.doc, ","], line],
        ),
      )
    : [
        join(
          [",", line],
          elements.map((e) => group(e.doc)),
        ),
        ifBreak(","),
      ];
  return {
    doc: group(["[", indent([softline, items]), softline, "]"], {
      shouldBreak,
      id,
    }),
    kind: "array",
    items: elements.length,
  };
}

/** A JSON value as an expression (objects and arrays on one line in the source). */
export function tsJson(value: JsonValue, unsure: TsUnsure): TsExpr {
  if (value === null) {
    return { doc: "null", kind: "other" };
  }
  switch (typeof value) {
    case "string":
      return tsStringExpr(value);
    case "number":
      return numberExpr(value);
    case "boolean":
      return { doc: String(value), kind: "boolean" };
  }
  if (Array.isArray(value)) {
    return tsArray(value.map((v) => tsJson(v, unsure)));
  }
  return tsObject(
    Object.entries(value).map(([k, v]) =>
      tsProperty(tsObjectKey(k, unsure), tsJson(v, unsure)),
    ),
  );
}

/**
 * `object.method.name` (`object.method["name"]` when the name is no
 * identifier): a member chain without calls.
 */
export function tsMemberChain(
  object: string,
  middle: string,
  name: string,
): TsExpr {
  const head = [object, group(indent([softline, `.${middle}`]))];
  const last = identifierName.test(name)
    ? group(indent([softline, `.${name}`]))
    : group(["[", indent([softline, tsStringExpr(name).doc]), softline, "]"]);
  return { doc: [head, last], kind: "chain" };
}

/** A call whose arguments are `args`, as prettier hugs or breaks them. */
export function tsCall(callee: string, args: readonly TsExpr[]): TsExpr {
  if (args.length === 0) {
    return { doc: `${callee}()`, kind: "other" };
  }
  const last = args[args.length - 1]!;
  const head = args.slice(0, -1).map((a) => [a.doc, ",", line]);
  const brokenOut = group(
    ["(", indent([line, ...head, last.doc]), ",", line, ")"],
    { shouldBreak: true },
  );
  const canHug =
    (last.kind === "object" || last.kind === "array") &&
    (last.items ?? 0) > 0 &&
    (args.length < 2 || args[args.length - 2]!.kind !== last.kind);
  if (!canHug) {
    const all = [...head, last.doc];
    return {
      doc: [
        callee,
        group(["(", indent([softline, ...all]), ifBreak(","), softline, ")"], {
          shouldBreak: all.some(utils.willBreak),
        }),
      ],
      kind: "other",
    };
  }
  if (head.some(utils.willBreak)) {
    return { doc: [callee, brokenOut], kind: "other" };
  }
  const hugged = ["(", ...head, group(last.doc, { shouldBreak: true }), ")"];
  const doc = utils.willBreak(last.doc)
    ? [breakParent, conditionalGroup([hugged, brokenOut])]
    : conditionalGroup([["(", ...head, last.doc, ")"], hugged, brokenOut]);
  return { doc: [callee, doc], kind: "other" };
}

/**
 * `const name: type = value;` (with `export ` before it when `exported`),
 * with prettier's fluid layout: the value moves to the next line only when
 * not even its first line fits after `=`.
 */
export function tsConst(
  exported: boolean,
  name: string,
  type: string,
  value: TsExpr,
): Doc {
  const id = Symbol("assignment");
  return [
    exported ? "export " : "",
    group([
      "const ",
      group([
        `${name}: ${type}`,
        " =",
        group(indent(line), { id }),
        lineSuffixBoundary,
        indentIfBreak(value.doc, { groupId: id }),
      ]),
      ";",
    ]),
  ];
}

/** `import { a, b as c } from "module";` */
export function tsImport(names: readonly string[], from: string): Doc {
  const source = tsStringExpr(from).doc;
  if (names.length === 1) {
    return `import { ${names[0]} } from ${source as string};`;
  }
  return [
    "import ",
    group([
      "{",
      indent([line, join([",", line], [...names])]),
      ifBreak(","),
      line,
      "}",
    ]),
    ` from ${source as string};`,
  ];
}

/** `return value;` */
export function tsReturn(value: TsExpr): Doc {
  return ["return ", value.doc, ";"];
}

/**
 * Print `doc` as prettier would at `level` indentation levels (2 spaces
 * each), the first line indented too.
 */
export function printTs(doc: Doc, level = 0): string {
  let nested: Doc = doc;
  for (let i = 0; i < level; i++) {
    nested = indent(nested);
  }
  return printer.printDocToString(["  ".repeat(level), nested], {
    printWidth: 80,
    tabWidth: 2,
    useTabs: false,
  }).formatted;
}

/**
 * Print `doc` on as few lines as its forced breaks allow: the text a
 * formatter gets when this printer is unsure (see {@link TsUnsure}).
 */
export function printTsUnformatted(doc: Doc, level = 0): string {
  let nested: Doc = doc;
  for (let i = 0; i < level; i++) {
    nested = indent(nested);
  }
  return printer.printDocToString(["  ".repeat(level), nested], {
    printWidth: Number.POSITIVE_INFINITY,
    tabWidth: 2,
    useTabs: false,
  }).formatted;
}
