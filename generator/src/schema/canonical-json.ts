import type { JsonValue } from "./json-schema.js";
import { flatString } from "../flat-string.js";
import { createStringMemo } from "../string-memo.js";

/**
 * Compare two strings by their UTF-8 bytes, the order Go's encoding/json
 * uses for map keys. Comparing code points gives the same order.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      // Surrogates (0xD800-0xDFFF) encode code points above every BMP
      // character, although they sort below 0xE000-0xFFFF as UTF-16 units.
      const sa = ca >= 0xd800 && ca <= 0xdfff;
      const sb = cb >= 0xd800 && cb <= 0xdfff;
      if (sa !== sb) {
        return sa ? 1 : -1;
      }
      return ca - cb;
    }
  }
  return a.length - b.length;
}

// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds, to escape them
const needsEscape = /["\\\u0000-\u001f<>&\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds, to escape them
const escapeAll = /["\\\u0000-\u001f<>&\u2028\u2029]/g;

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
  }
  return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
}

/**
 * Quote a string exactly as Go's encoding/json does (HTML-safe). `s` is
 * well-formed (model text goes through wellFormed).
 */
export function quoteJsonString(s: string): string {
  if (!needsEscape.test(s)) {
    return `"${s}"`;
  }
  return `"${s.replace(escapeAll, escapeChar)}"`;
}

const nonAsciiChar = /[\u0080-\uffff]/;

function isAscii(s: string): boolean {
  return !nonAsciiChar.test(s);
}

/**
 * The canonical serialization (README, Schemas): no white space, object keys in
 * byte order, strings escaped as Go's encoding/json escapes them.
 */
export function canonicalJson(value: JsonValue): string {
  return flatString(write(value));
}

/**
 * `value` serialized. A node a schema holds at several places (a oneof's
 * branches share the other properties; a nested message shared by many
 * tools, build-schema.ts) is written again at each: its text is in the
 * output at each place anyway, and remembering texts by node (a map keyed
 * by objects, within a call or across calls) cost more than it saved
 * (bench/README.md, a seventh pass).
 */
function write(value: JsonValue): string {
  if (value === null) {
    return "null";
  }
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) {
        throw new Error(`cannot serialize ${String(value)} as JSON`);
      }
      return JSON.stringify(value);
    case "string":
      return quoteValue(value);
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) {
        out += ",";
      }
      // A hole is written as nothing, as Array.prototype.join writes it.
      if (i in value) {
        out += write(value[i]!);
      }
    }
    return out + "]";
  }
  const keys = Object.keys(value);
  // For ASCII keys (all of a schema's keywords and proto field names) the
  // engine's default order is byte order, and much faster.
  let ascii = true;
  for (const key of keys) {
    if (!quotedKey(key).ascii) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    sortAscii(keys);
  } else {
    keys.sort(compareUtf8);
  }
  let text = "{";
  let first = true;
  for (const key of keys) {
    const v = value[key];
    if (v !== undefined) {
      if (!first) {
        text += ",";
      }
      first = false;
      text += quotedKey(key).text + write(v);
    }
  }
  return text + "}";
}

/**
 * Sorts `keys` in place as `keys.sort()` would: schema objects have a few
 * keys, which an insertion sort orders without the sort's allocations
 * (the engine's sort allocates a work area per call: a third of the
 * serialization's garbage).
 */
function sortAscii(keys: string[]): void {
  if (keys.length > 24) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
}

// Schemas repeat the same strings (descriptions, types, enum names) across
// tools: each is quoted once.
const quoteValue = createStringMemo(quoteJsonString);

interface QuotedKey {
  /** `"key":` */
  readonly text: string;
  readonly ascii: boolean;
}

// Schemas repeat a few keys ("type", "properties", field names) endlessly.
/** A key quoted once per distinct key. */
const quotedKey = createStringMemo((key): QuotedKey => ({
  text: quoteJsonString(key) + ":",
  ascii: isAscii(key),
}));
