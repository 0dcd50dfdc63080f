import { tsStringExpr } from "./ts-doc.js";

// The statements of ai_tools.gen.ts that grow with the API besides the
// tools (allTools, knownAliasPrefixes, toolMethods), laid out directly, without
// building a document: the same decisions prettier's printer makes for the
// document ts-doc.ts builds (which build-ts-view.ts uses when this returns
// undefined), taken from the widths of each part printed flat. It covers
// ASCII text and values no deeper than the objects and arrays built here;
// test/ts-format.test.ts holds both to prettier's output.

const width = 80;
// eslint-disable-next-line no-control-regex -- any character outside ASCII
const nonAscii = /[^\u0000-\u007f]/;

/**
 * A JSON value ready to print: its width on one line, whether it must
 * break, and its parts.
 */
interface Laid {
  /** Width of the value printed on one line. */
  readonly width: number;
  /** Holds an array prettier always breaks (two or more objects of two or more keys). */
  readonly forced: boolean;
  /**
   * `string`, `chain` (a member expression) and `atom` (null, negative
   * numbers, identifiers, `{}`, `[]`) may move after `key:`; `short`
   * (booleans, other numbers) never does; `object` and `array` are
   * containers.
   */
  readonly kind: "string" | "chain" | "atom" | "short" | "object" | "array";
  /** The text of a string or atom. */
  readonly text?: string;
  /** An object's printed keys and values. */
  readonly entries?: readonly Entry[];
  /** An array's elements. */
  readonly elements?: readonly Laid[];
}

interface Entry {
  readonly key: string;
  readonly value: Laid;
}

class Bail extends Error {}

function atom(text: string, kind: "string" | "chain" | "atom" | "short"): Laid {
  return { width: text.length, forced: false, kind, text };
}

/** A scalar: the values of the statements laid out here are no deeper. */
export type LaidScalar = string | number | boolean | null;

function lay(value: LaidScalar): Laid {
  if (value === null) {
    return atom("null", "atom");
  }
  switch (typeof value) {
    case "string":
      return atom(tsStringExpr(value).doc as string, "string");
    case "number":
      // A non-negative literal never breaks after `key:`; `-1` (a unary
      // expression) may, like null.
      return atom(
        JSON.stringify(value).replace("e+", "e"),
        value < 0 ? "atom" : "short",
      );
    case "boolean":
      return atom(String(value), "short");
  }
}

/** The value on one line. */
function flat(v: Laid): string {
  if (v.text !== undefined) {
    return v.text;
  }
  if (v.entries !== undefined) {
    let out = "{ ";
    v.entries.forEach((e, i) => {
      out += `${i === 0 ? "" : ", "}${e.key}: ${flat(e.value)}`;
    });
    return `${out} }`;
  }
  return `[${v.elements!.map(flat).join(", ")}]`;
}

const indents: string[] = [];
const spaces = (n: number): string => (indents[n] ??= " ".repeat(n));

/** `v` starting at column `col`, its lines after the first at `indent`, followed by a comma. */
function printValue(v: Laid, indent: number, col: number): string {
  if (!v.forced && col + v.width + 1 <= width) {
    return flat(v);
  }
  if (v.entries !== undefined) {
    const inner = indent + 2;
    let out = "{\n";
    for (let i = 0, es = v.entries; i < es.length; i++) {
      const e = es[i]!;
      out += `${spaces(inner)}${printProperty(e.key, e.value, inner)},\n`;
    }
    return `${out}${spaces(indent)}}`;
  }
  if (v.elements !== undefined) {
    const inner = indent + 2;
    let out = "[\n";
    for (let i = 0, es = v.elements; i < es.length; i++) {
      const e = es[i]!;
      out += `${spaces(inner)}${printValue(e, inner, inner)},\n`;
    }
    return `${out}${spaces(indent)}]`;
  }
  return v.text!;
}

/** `key: value` at column `indent`, followed by a comma. */
function printProperty(key: string, v: Laid, indent: number): string {
  if (!v.forced && indent + key.length + 2 + v.width + 1 <= width) {
    return `${key}: ${flat(v)}`;
  }
  // A key shorter than the indentation plus 3 never breaks after `:`.
  const shortKey = key.length < 5;
  switch (v.kind) {
    case "short":
      return `${key}: ${v.text!}`;
    case "chain":
      // Its own parts would break if it does not fit after `key:`.
      if (shortKey || indent + 2 + v.width + 1 > width) {
        throw new Bail();
      }
      return `${key}:\n${spaces(indent + 2)}${v.text!}`;
    case "string":
    case "atom":
      return shortKey
        ? `${key}: ${v.text!}`
        : `${key}:\n${spaces(indent + 2)}${v.text!}`;
    default: {
      const col = indent + key.length + 2;
      if (shortKey || col + 1 <= width) {
        return `${key}: ${printValue(v, indent, col)}`;
      }
      return `${key}:\n${spaces(indent + 2)}${printValue(v, indent + 2, indent + 2)}`;
    }
  }
}

/** Parts of a statement for {@link layStatement}. */
export const laid = {
  /** Text printed as it is: an identifier, a member expression (`chain`). */
  text: (text: string, kind: "chain" | "atom" = "atom"): Laid =>
    atom(text, kind),
  /** A string, number, boolean or null. */
  json: (value: LaidScalar): Laid => lay(value),
  /**
   * An object literal of printed keys; `expanded`: a line break after `{`
   * in the source, which prettier keeps.
   */
  object: (entries: readonly Entry[], expanded: boolean): Laid => {
    if (entries.length === 0) {
      return atom("{}", "atom");
    }
    let w = 2;
    let forced = expanded;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      w += e.key.length + 2 + e.value.width + 2;
      forced ||= e.value.forced;
    }
    return { width: w, forced, kind: "object", entries };
  },
  /** An array literal. */
  array: (elements: readonly Laid[]): Laid => {
    if (elements.length === 0) {
      return atom("[]", "atom");
    }
    const w = elements.reduce((n, e) => n + e.width + 2, 0);
    const forced =
      elements.some((e) => e.forced) ||
      (elements.length > 1 &&
        elements.every(
          (e) =>
            e.kind === elements[0]!.kind &&
            (e.kind === "object" || e.kind === "array") &&
            (e.entries ?? e.elements)!.length > 1,
        ));
    return { width: w, forced, kind: "array", elements };
  },
};

/** A laid value: see {@link laid}. */
export type LaidValue = Laid;

/**
 * `head value;` where `head` ends with `=` (a `const` with a type, which
 * never breaks) or is `return`: the value on the same line from its first
 * line on, as prettier keeps it when that first line fits (an object or
 * array opening there), the statement at `indent` columns. Undefined when
 * the text leaves ASCII or something needs more of prettier's rules than
 * this file has.
 */
export function layStatement(
  head: string,
  value: Laid,
  indent = 0,
): string | undefined {
  if (
    (value.kind !== "object" && value.kind !== "array") ||
    indent + head.length + 2 > width
  ) {
    return undefined;
  }
  try {
    const text = `${spaces(indent)}${head} ${printValue(value, indent, indent + head.length + 1)};`;
    return nonAscii.test(text) ? undefined : text;
  } catch (e) {
    if (e instanceof Bail) {
      return undefined;
    }
    throw e;
  }
}

/**
 * `import { a, b as c } from "module";`, on one line when it fits, else one
 * name per line; undefined when the text leaves ASCII.
 */
export function layImport(
  names: readonly string[],
  from: string,
): string | undefined {
  const source = tsStringExpr(from).doc as string;
  const line = `import { ${names.join(", ")} } from ${source};`;
  if (nonAscii.test(line)) {
    return undefined;
  }
  if (names.length === 1 || line.length <= width) {
    return line;
  }
  return `import {\n${names.map((n) => `  ${n},\n`).join("")}} from ${source};`;
}
