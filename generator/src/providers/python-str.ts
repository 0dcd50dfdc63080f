import { compareUtf8 } from "../schema/canonical-json.js";

/**
 * Python's `str()` of a JSON value as Python's `json` module reads it: what
 * Anthropic's SDK writes into a description for the keywords strict tool
 * use does not take (anthropic-strict-form.ts). A string is itself, `true`
 * is `True`, `null` is `None`, a number is an int when its JSON text has
 * no fraction or exponent (else a float, in Python's shortest repr), and a
 * list or an object is written as Python's repr of a list or dict (strings
 * quoted as `repr` quotes them, object keys in byte order: canonical
 * JSON's, the order Python reads the generated text in; or as given with
 * `keysAsGiven`).
 */
export function pythonStr(value: unknown, keysAsGiven = false): string {
  return typeof value === "string" ? value : pythonRepr(value, keysAsGiven);
}

/** Python's `repr()` of a JSON value read by Python's `json` module. */
export function pythonRepr(value: unknown, keysAsGiven = false): string {
  if (value === null || value === undefined) {
    return "None";
  }
  switch (typeof value) {
    case "boolean":
      return value ? "True" : "False";
    case "number":
      return pythonNumber(value);
    case "string":
      return pythonStringRepr(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => pythonRepr(v, keysAsGiven)).join(", ")}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).filter((k) => object[k] !== undefined);
  if (!keysAsGiven) {
    keys.sort(compareUtf8);
  }
  const entries = keys.map(
    (k) => `${pythonStringRepr(k)}: ${pythonRepr(object[k], keysAsGiven)}`,
  );
  return `{${entries.join(", ")}}`;
}

/**
 * A number as Python prints what `json.loads` makes of `JSON.stringify`'s
 * text: integers below 1e21 are written without fraction or exponent, so
 * Python reads an int; any other is a float.
 */
function pythonNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    return JSON.stringify(n);
  }
  return pythonFloatRepr(n);
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip (the same
 * digits as JavaScript's), in fixed notation when the decimal point falls
 * after -4 and at most 16 digits in, else `d.ddde±XX`.
 */
export function pythonFloatRepr(n: number): string {
  if (!Number.isFinite(n)) {
    return Number.isNaN(n) ? "nan" : n > 0 ? "inf" : "-inf";
  }
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  const [mantissa, exp] = Math.abs(n).toExponential().split("e");
  const digits = mantissa!.replace(".", "");
  const e = Number(exp);
  const point = e + 1;
  if (point > -4 && point <= 16) {
    if (point <= 0) {
      return `${sign}0.${"0".repeat(-point)}${digits}`;
    }
    if (point >= digits.length) {
      return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
    }
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
  const abs = Math.abs(e);
  return `${sign}${digits[0]}${fraction}e${e < 0 ? "-" : "+"}${abs < 10 ? `0${abs}` : abs}`;
}

// Python's str.isprintable() is false for the categories Other (Cc, Cf,
// Cs, Co, Cn) and Separator (Zl, Zp, Zs), the ASCII space aside. The
// categories are read from Node's Unicode tables (17.0 in Node 20), not
// Python's (14.0 in Python 3.11): a character assigned after Unicode 14
// (U+1F6DC) is written as itself here, where Python 3.11's repr writes
// `\U0001f6dc` (unassigned, Cn, to it). Only a string inside a list or
// dict leftover keyword can hold one; the SDK's output then depends on
// the Python that runs it.
const unprintable = /^[\p{C}\p{Z}]$/u;

/** Python's `repr(str)`. */
export function pythonStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    out += reprChar(ch, quote);
  }
  return out + quote;
}

function reprChar(ch: string, quote: string): string {
  switch (ch) {
    case quote:
    case "\\":
      return `\\${ch}`;
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case " ":
      return ch;
  }
  if (!unprintable.test(ch)) {
    return ch;
  }
  const code = ch.codePointAt(0)!;
  const hex = code.toString(16);
  return code < 0x100
    ? `\\x${hex.padStart(2, "0")}`
    : code < 0x10000
      ? `\\u${hex.padStart(4, "0")}`
      : `\\U${hex.padStart(8, "0")}`;
}
