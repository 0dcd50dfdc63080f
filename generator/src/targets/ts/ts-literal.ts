import type { JsonValue } from "../../schema/json-schema.js";

// Characters a double-quoted TypeScript string literal must not hold raw, or
// that would be invisible or misread in a source file:
//   "  \            the quote and the escape character;
//   C0, DEL, C1     control characters (a raw line break ends the literal);
//   U+2028/2029     line terminators for older parsers and many editors;
//   U+FEFF          a byte-order mark inside the file;
//   ${              harmless between double quotes, but a literal pasted into
//                   a template string would start a substitution.
const special =
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern finds, to escape them
  /["\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|\$\{/;
const specialAll =
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern finds, to escape them
  /["\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|\$\{/g;

function escapeChar(c: string): string {
  switch (c) {
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case "\b":
      return "\\b";
    case "\f":
      return "\\f";
    case "\v":
      return "\\v";
    case "${":
      return "$\\{";
  }
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? "\\x" + code.toString(16).padStart(2, "0")
    : "\\u" + code.toString(16).padStart(4, "0");
}

/**
 * A double-quoted TypeScript string literal of `s`: printable characters
 * raw, the rest escaped (see `special`). Evaluates to `s`, which is
 * well-formed (model text goes through wellFormed).
 */
export function tsString(s: string): string {
  if (!special.test(s)) {
    return `"${s}"`;
  }
  return `"${s.replace(specialAll, escapeChar)}"`;
}

const specialSingleAll =
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern finds, to escape them
  /['\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|\$\{/g;

/**
 * A single-quoted TypeScript string literal of `s`, escaped as
 * {@link tsString} escapes, with `'` escaped instead of `"`: what prettier
 * makes of a literal holding more double than single quotes (JSON text).
 */
export function tsSingleQuoted(s: string): string {
  return `'${s.replace(specialSingleAll, (c) => (c === "'" ? "\\'" : escapeChar(c)))}'`;
}

const identifierKey = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A property key of an object literal: bare when it is an identifier, quoted
 * otherwise. `__proto__` is written as a computed key: in an object literal,
 * `__proto__: x` and `"__proto__": x` set the prototype instead of creating
 * a property.
 */
export function tsKey(key: string): string {
  if (key === "__proto__") {
    return `["__proto__"]`;
  }
  return identifierKey.test(key) ? key : tsString(key);
}

/**
 * A JSON value as a TypeScript expression (object and array literals), on
 * one line: the formatter breaks it up.
 */
export function tsLiteral(value: JsonValue): string {
  if (value === null) {
    return "null";
  }
  switch (typeof value) {
    case "string":
      return tsString(value);
    case "number":
      if (!Number.isFinite(value)) {
        throw new Error(`not a JSON number: ${value}`);
      }
      // JSON and TypeScript write numbers alike; a negative one is a unary
      // minus on a literal, which a JSON object type accepts.
      return JSON.stringify(value);
    case "boolean":
      return String(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map(tsLiteral).join(", ")}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) {
    return "{}";
  }
  return `{ ${entries.map(([k, v]) => `${tsKey(k)}: ${tsLiteral(v)}`).join(", ")} }`;
}
