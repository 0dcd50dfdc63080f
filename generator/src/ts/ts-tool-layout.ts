import type { JsonValue } from "../schema/json-schema.js";
import { tsObjectKey, tsStringExpr, type TsUnsure } from "./ts-doc.js";

// The statement of one tool, `export const x: AgentTool = defineTool({…});`,
// laid out directly, without building a document: the same decisions
// prettier's printer makes for the document ts-doc.ts builds (which
// build-ts-view.ts uses when this returns undefined), taken from the
// widths of each part printed flat. It covers what nearly every tool is:
// ASCII text, no array of numbers too long for its line (prettier fills
// those); test/ts-format.test.ts holds both to prettier's output.

const width = 80;
// eslint-disable-next-line no-control-regex -- any character outside ASCII
const nonAscii = /[^\u0000-\u007f]/;

/** A JSON value with its flat text and whether it must break. */
interface Laid {
  readonly value: JsonValue;
  /** The value on one line. */
  readonly flat: string;
  /** Holds an array prettier always breaks (two or more objects of two or more keys). */
  readonly forced: boolean;
  readonly entries?: readonly (readonly [string, Laid])[];
  readonly elements?: readonly Laid[];
  readonly kind: "string" | "atom" | "short" | "container";
}

class Bail extends Error {}

function lay(value: JsonValue, unsure: TsUnsure): Laid {
  if (value === null) {
    return { value, flat: "null", forced: false, kind: "atom" };
  }
  switch (typeof value) {
    case "string":
      if (nonAscii.test(value)) {
        throw new Bail();
      }
      return {
        value,
        flat: tsStringExpr(value).doc as string,
        forced: false,
        kind: "string",
      };
    case "number": {
      const flat = JSON.stringify(value).replace("e+", "e");
      // A non-negative literal never breaks after `key:`; `-1` (a unary
      // expression) may, like null.
      return { value, flat, forced: false, kind: value < 0 ? "atom" : "short" };
    }
    case "boolean":
      return { value, flat: String(value), forced: false, kind: "short" };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return { value, flat: "[]", forced: false, kind: "atom" };
    }
    const elements = value.map((v) => lay(v, unsure));
    if (elements.every((e) => typeof e.value === "number")) {
      // Prettier fills such an array when it breaks: left to ts-doc.ts.
      return {
        value,
        flat: `[${elements.map((e) => e.flat).join(", ")}]`,
        forced: false,
        kind: "container",
      };
    }
    const first = elements[0]!.value;
    const firstIsArray = Array.isArray(first);
    const forced =
      elements.length > 1 &&
      elements.every(
        (e) =>
          e.value !== null &&
          typeof e.value === "object" &&
          Array.isArray(e.value) === firstIsArray &&
          (Array.isArray(e.value)
            ? e.value.length
            : Object.keys(e.value).length) > 1,
      );
    return {
      value,
      flat: `[${elements.map((e) => e.flat).join(", ")}]`,
      forced: forced || elements.some((e) => e.forced),
      kind: "container",
      elements,
    };
  }
  const keys = Object.keys(value);
  if (keys.length === 0) {
    return { value, flat: "{}", forced: false, kind: "atom" };
  }
  const entries = keys.map((k) => {
    if (nonAscii.test(k)) {
      throw new Bail();
    }
    return [tsObjectKey(k, unsure), lay(value[k]!, unsure)] as const;
  });
  return {
    value,
    flat: `{ ${entries.map(([k, v]) => `${k}: ${v.flat}`).join(", ")} }`,
    forced: entries.some(([, v]) => v.forced),
    kind: "container",
    entries,
  };
}

const spaces = (n: number): string => " ".repeat(n);

/** `v` starting at column `col`, its lines after the first at `indent`, followed by a comma. */
function printValue(v: Laid, indent: number, col: number): string {
  if (!v.forced && col + v.flat.length + 1 <= width) {
    return v.flat;
  }
  if (v.entries !== undefined) {
    const inner = indent + 2;
    let out = "{\n";
    for (const [key, value] of v.entries) {
      out += `${spaces(inner)}${printProperty(key, value, inner)},\n`;
    }
    return `${out}${spaces(indent)}}`;
  }
  if (v.elements !== undefined) {
    const inner = indent + 2;
    let out = "[\n";
    for (const e of v.elements) {
      out += `${spaces(inner)}${printValue(e, inner, inner)},\n`;
    }
    return `${out}${spaces(indent)}]`;
  }
  if (v.kind === "container") {
    throw new Bail();
  }
  return v.flat;
}

/** `key: value` at column `indent`, followed by a comma. */
function printProperty(key: string, v: Laid, indent: number): string {
  if (!v.forced && indent + key.length + 2 + v.flat.length + 1 <= width) {
    return `${key}: ${v.flat}`;
  }
  // A key shorter than the indentation plus 3 never breaks after `:`.
  const shortKey = key.length < 5;
  switch (v.kind) {
    case "short":
      return `${key}: ${v.flat}`;
    case "string":
    case "atom":
      return shortKey
        ? `${key}: ${v.flat}`
        : `${key}:\n${spaces(indent + 2)}${v.flat}`;
    case "container": {
      const col = indent + key.length + 2;
      if (shortKey || col + 1 <= width) {
        return `${key}: ${printValue(v, indent, col)}`;
      }
      return `${key}:\n${spaces(indent + 2)}${printValue(v, indent + 2, indent + 2)}`;
    }
  }
}

/**
 * The printed `export const constName: AgentTool = defineTool({…});` of a
 * tool, as prettier writes it; undefined when it holds text outside ASCII
 * (whose width prettier measures its own way) or an array of numbers too
 * long for its line.
 */
export function layToolDeclaration(
  tool: {
    readonly name: string;
    readonly description: string;
    readonly strict: boolean;
    readonly schemaJson: string;
  },
  constName: string,
  unsure: TsUnsure,
): string | undefined {
  if (nonAscii.test(constName)) {
    return undefined;
  }
  const head = `export const ${constName}: AgentTool =`;
  // prettier: `= defineTool({` on the first line when it fits; else the
  // object alone on the next lines (`defineTool(\n  {`); when not even
  // `= defineTool(` fits, `defineTool({` on the next line.
  let open: string;
  let indent: number;
  let close: string;
  if (head.length + " defineTool({".length <= width) {
    open = `${head} defineTool({\n`;
    indent = 2;
    close = "});";
  } else if (head.length + " defineTool(".length <= width) {
    open = `${head} defineTool(\n  {\n`;
    indent = 4;
    close = "  },\n);";
  } else {
    open = `${head}\n  defineTool({\n`;
    indent = 4;
    close = "  });";
  }
  try {
    const props: [string, Laid][] = [
      ["name", lay(tool.name, unsure)],
      ["description", lay(tool.description, unsure)],
      ["strict", lay(tool.strict, unsure)],
      ["parameters", lay(JSON.parse(tool.schemaJson) as JsonValue, unsure)],
    ];
    let out = open;
    for (const [key, value] of props) {
      out += `${spaces(indent)}${printProperty(key, value, indent)},\n`;
    }
    return `${out}${close}`;
  } catch (e) {
    if (e instanceof Bail) {
      return undefined;
    }
    throw e;
  }
}
