// A JSON reader and writer with the properties the runtime contract needs
// (docs/runtime.md) and JSON.parse/JSON.stringify lack: numbers are kept as
// written ("1.50", "12345678901234567890"), objects have no prototype (a
// "__proto__" key is an ordinary key), and output has object keys sorted by
// byte order and the escaping of Go's encoding/json with HTML escaping off.

/** A JSON number, kept as the text it was written as. */
export class JsonNumber {
  /** The number as written in the source text. */
  readonly text: string;

  /** Wrap the text of a JSON number (not checked). */
  constructor(text: string) {
    this.text = text;
  }
}

/** A JSON object read by {@link parseJson}: no prototype, keys as written. */
export interface JsonMap {
  [key: string]: JsonTree;
}

/** A JSON value read by {@link parseJson}. */
export type JsonTree =
  null | boolean | string | JsonNumber | JsonTree[] | JsonMap;

/** Thrown by {@link parseJson} on text that is not exactly one JSON value. */
export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
}

/** Create an empty object without a prototype. */
export function createJsonMap(): JsonMap {
  return Object.create(null) as JsonMap;
}

/** Report whether v is a JSON object of a tree read by {@link parseJson}. */
export function isJsonMap(v: JsonTree | undefined): v is JsonMap {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof JsonNumber)
  );
}

/**
 * Read exactly one JSON value; white space may surround it. Duplicate keys:
 * the last one wins (as in Go). Throws JsonSyntaxError.
 */
export function parseJson(text: string): JsonTree {
  const p = new Parser(text);
  p.space();
  const v = p.value(0);
  p.space();
  if (p.i < text.length) {
    p.fail("invalid character after the top-level value");
  }
  return v;
}

/** Read text as JSON; undefined when it is not exactly one JSON value. */
export function tryParseJson(text: string): JsonTree | undefined {
  try {
    return parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      return undefined;
    }
    throw e;
  }
}

const maxDepth = 10_000;
const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class Parser {
  i = 0;

  constructor(readonly s: string) {}

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at offset ${this.i}`);
  }

  space(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
        break;
      }
      this.i++;
    }
  }

  value(depth: number): JsonTree {
    if (depth > maxDepth) {
      this.fail("exceeded max depth");
    }
    const s = this.s;
    const c = s[this.i];
    switch (c) {
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case undefined:
        this.fail("unexpected end of JSON input");
    }
    numberPattern.lastIndex = this.i;
    const m = numberPattern.exec(s);
    if (m === null) {
      this.fail(
        `invalid character ${JSON.stringify(c)} looking for beginning of value`,
      );
    }
    this.i += m[0].length;
    return new JsonNumber(m[0]);
  }

  literal<T>(word: string, v: T): T {
    if (!this.s.startsWith(word, this.i)) {
      this.fail(`invalid literal, expected ${JSON.stringify(word)}`);
    }
    this.i += word.length;
    return v;
  }

  object(depth: number): JsonMap {
    const obj = createJsonMap();
    this.i++;
    this.space();
    if (this.s[this.i] === "}") {
      this.i++;
      return obj;
    }
    for (;;) {
      this.space();
      if (this.s[this.i] !== '"') {
        this.fail("expected a string object key");
      }
      const key = this.string();
      this.space();
      if (this.s[this.i] !== ":") {
        this.fail("expected ':' after object key");
      }
      this.i++;
      this.space();
      obj[key] = this.value(depth + 1);
      this.space();
      const c = this.s[this.i++];
      if (c === "}") {
        return obj;
      }
      if (c !== ",") {
        this.i--;
        this.fail("expected ',' or '}' after object value");
      }
    }
  }

  array(depth: number): JsonTree[] {
    const arr: JsonTree[] = [];
    this.i++;
    this.space();
    if (this.s[this.i] === "]") {
      this.i++;
      return arr;
    }
    for (;;) {
      this.space();
      arr.push(this.value(depth + 1));
      this.space();
      const c = this.s[this.i++];
      if (c === "]") {
        return arr;
      }
      if (c !== ",") {
        this.i--;
        this.fail("expected ',' or ']' after array element");
      }
    }
  }

  string(): string {
    const s = this.s;
    let out = "";
    let start = ++this.i;
    for (;;) {
      if (this.i >= s.length) {
        this.fail("unexpected end of JSON input in string");
      }
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(start, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) {
        this.fail("invalid control character in string");
      }
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(start, this.i);
      const e = s[this.i + 1];
      this.i += 2;
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hex = s.slice(this.i, this.i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.fail("invalid \\u escape in string");
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 4;
          break;
        }
        default:
          this.i -= 2;
          this.fail("invalid escape in string");
      }
      start = this.i;
    }
  }
}

/**
 * Compare two strings by their UTF-8 bytes (equivalently, by code points),
 * the order Go sorts map keys in.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (0xd800-0xdfff) stand for code points above 0xffff, so they
      // sort after every other UTF-16 unit.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) {
        return xs ? 1 : -1;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/** The keys of obj in byte order. */
export function sortedKeys(obj: object): string[] {
  return Object.keys(obj).sort(compareBytes);
}

/**
 * Write v as JSON like Go's json.Encoder with SetEscapeHTML(false): no white
 * space, object keys sorted by byte order, numbers as written.
 */
export function stringifyJson(v: JsonTree): string {
  if (v === null) {
    return "null";
  }
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "string":
      return quoteJson(v);
  }
  if (v instanceof JsonNumber) {
    return v.text;
  }
  if (Array.isArray(v)) {
    return "[" + v.map(stringifyJson).join(",") + "]";
  }
  const parts: string[] = [];
  for (const key of sortedKeys(v)) {
    parts.push(quoteJson(key) + ":" + stringifyJson(v[key] as JsonTree));
  }
  return "{" + parts.join(",") + "}";
}

/**
 * Quote s as a JSON string, escaping as Go's encoder does: JSON.stringify's
 * escapes, plus U+2028 and U+2029 escaped and an unpaired surrogate (invalid
 * UTF-8 to Go) written as U+FFFD. With escapeHtml, also `<`, `>` and `&`
 * (Go's json.Marshal).
 */
export function quoteJson(s: string, escapeHtml = false): string {
  let q = JSON.stringify(s.replace(loneSurrogate, "\ufffd"));
  if (escapeHtml) {
    q = q.replace(/[<>&]/g, (c) => "\\u00" + c.charCodeAt(0).toString(16));
  }
  return q.replace(/[\u2028\u2029]/g, (c) =>
    c === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

/**
 * Quote a name or value for a model-facing message (docs/runtime.md,
 * "Quoting in messages"): a JSON string with `"`, `\` and the controls below
 * U+0020 escaped (`\b \f \n \r \t`, else `\u00XX`), everything else written
 * as it is (non-ASCII, U+007F, U+2028); an unpaired surrogate becomes
 * U+FFFD, as it would in Go.
 */
export function quote(s: string): string {
  return JSON.stringify(s.replace(loneSurrogate, "\ufffd"));
}

const loneSurrogate =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The JSON kind of a value, as messages name it: `an array`, `null`, … */
export function jsonKind(v: JsonTree): string {
  if (v === null) {
    return "null";
  }
  if (Array.isArray(v)) {
    return "an array";
  }
  if (v instanceof JsonNumber) {
    return "a number";
  }
  switch (typeof v) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
  }
  return "an object";
}
