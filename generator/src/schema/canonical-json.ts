import type { JsonValue } from "./json-schema.js";
import { flatString } from "./flat-string.js";
import { createStringMemo } from "./string-memo.js";

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
 * The text of frozen objects and arrays written so far, in any schema:
 * the schema builder freezes the nested messages it shares between tools
 * all the way down (build-schema.ts, the only place that freezes), so
 * their text cannot change, and each is written once per run. Only a
 * frozen node met outside another frozen one keeps its text: one met
 * inside is written into that one's text, and kept only if it is met on
 * its own later (a text per level would hold every level's characters
 * again). A value frozen on its top only, with a child changed later,
 * would keep its old text.
 */
const frozenText = new WeakMap<object, string>();

/**
 * The canonical serialization (docs/schemas.md): no white space, object keys in
 * byte order, strings escaped as Go's encoding/json escapes them.
 */
export function canonicalJson(value: JsonValue): string {
  return flatString(write(value, new Map(), false));
}

/**
 * `value` serialized; `written` holds the text of the objects written so
 * far in this call: a schema holds the same node at several places (a
 * oneof's branches share the other properties), written once.
 * `inFrozen`: `value` is being written into the text of a frozen node.
 */
function write(
  value: JsonValue,
  written: Map<object, string>,
  inFrozen: boolean,
): string {
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
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const text = frozenText.get(value);
    if (text !== undefined) {
      return text;
    }
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) {
        out += ",";
      }
      // A hole is written as nothing, as Array.prototype.join writes it.
      if (i in value) {
        out += write(value[i]!, written, inFrozen || frozen);
      }
    }
    out += "]";
    return frozen && !inFrozen ? keepFrozenText(value, out) : out;
  }
  let text = frozen && !inFrozen ? undefined : written.get(value);
  if (text !== undefined) {
    return text;
  }
  const keys = Object.keys(value);
  // For ASCII keys (all of a schema's keywords and proto field names) the
  // engine's default order is byte order, and much faster.
  let ascii = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
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
  text = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = value[key];
    if (v !== undefined) {
      if (!first) {
        text += ",";
      }
      first = false;
      text += quotedKey(key).text + write(v, written, inFrozen || frozen);
    }
  }
  text += "}";
  if (frozen && !inFrozen) {
    return keepFrozenText(value, text);
  }
  written.set(value, text);
  return text;
}

/** `text`, flattened, as the text of the frozen `value` from now on. */
function keepFrozenText(value: object, text: string): string {
  const flat = flatString(text);
  frozenText.set(value, flat);
  return flat;
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
