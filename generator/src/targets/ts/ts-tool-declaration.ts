import { tsObjectKey, tsStringExpr } from "./ts-doc.js";

// The statement of one tool, `export const x: AgentTool = defineTool({…});`,
// laid out as prettier prints it, straight from the bytes of the tool's
// canonical JSON schema: no JSON.parse, no object or string per value, no
// document. The JSON text is scanned once into a table of its values (flat
// width, kind, whether prettier must break it), then printed into a byte
// buffer with the decisions prettier's printer makes for the document
// ts-doc.ts builds. build-ts-view.ts uses that document when this returns
// undefined: for text outside ASCII other than the narrow characters (one
// column each; see narrowCharacters) in values and descriptions (prettier
// measures the others its own way), an array of numbers too long for its
// line (prettier fills those), an object with a key that is an array index
// (JavaScript orders those first), or text that is not canonical JSON.
// test/ts-format.test.ts holds the result to prettier's output,
// test/ts-tool-declaration.test.ts to the document's.
//
// Bytes rather than strings: the output (about twice the JSON) built from
// a string per token made long chains of string pieces, which cost the
// garbage collector more than the layout itself.

const width = 80;

// Kinds of value, as prettier's layout of `key: value` tells them apart:
// `string` and `atom` (null, negative numbers, `{}`, `[]`) may move after
// `key:`; `short` (booleans, other numbers) never does; `object`, `array`
// and `numbers` (an array of numbers only) are containers.
const kString = 0;
const kAtom = 1;
const kShort = 2;
const kObject = 3;
const kArray = 4;
const kNumbers = 5;
const kindMask = 7;
/** Holds an array prettier always breaks (two or more objects of two or more keys). */
const fForced = 8;
/** A number, signed or not. */
const fNumeric = 16;
/** Printed as `special[count]` rather than its JSON text. */
const fText = 32;
/** Its key is printed as `special[keyStart]` rather than its JSON text. */
const fKeyText = 64;

// Fields of a value in `table`, in pre-order: an object's or array's values
// follow it; `next` is the value after its own.
const oStart = 0; // JSON text from here
const oEnd = 1; // to here
const oWidth = 2; // printed on one line
const oFlags = 3; // kind and flags
const oCount = 4; // a container's entries or elements
const oNext = 5;
const oKeyStart = 6; // an entry's key in the JSON text, after the quote
const oKeyWidth = 7; // the key printed
const stride = 8;

class Bail extends Error {}

// eslint-disable-next-line no-control-regex -- any character outside ASCII
const nonAscii = /[^\u0000-\u007f]/;
// eslint-disable-next-line no-control-regex -- any character outside ASCII
const nonAsciiAll = /[^\u0000-\u007f]/g;

/**
 * The characters outside ASCII that this layout takes: one UTF-16 unit
 * each, one column wide as prettier measures text (its getStringWidth), and
 * written raw in a TypeScript literal. Latin, Greek and Cyrillic letters,
 * dashes, curly quotes, the ellipsis, currency and letterlike symbols,
 * arrows, mathematical and technical symbols, box drawing and geometric
 * shapes, less what prettier measures otherwise (marks, format characters,
 * emoji, wide characters). test/ts-tool-declaration.test.ts measures each
 * with prettier.
 */
export const narrowCharacters =
  "\u00a0-\u00a8\u00aa-\u00ac\u00af-\u02ff\u0370-\u0377\u037a-\u037f" +
  "\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482\u048a-\u052f" +
  "\u2010-\u2027\u2030-\u203b\u203d-\u2048\u204a-\u205e\u2070-\u2071" +
  "\u2074-\u208e\u2090-\u209c\u20a0-\u20c0\u2100-\u2121\u2123-\u2138" +
  "\u213a-\u218b\u2190-\u2193\u219a-\u21a8\u21ab-\u2319\u231c-\u2327" +
  "\u232b-\u23ce\u23d0-\u23e8\u23f4-\u23f7\u23fb-\u23ff\u2500-\u25a9" +
  "\u25ac-\u25b5\u25b7-\u25bf\u25c1-\u25fa\u25ff";
/** A character outside ASCII that is not one of {@link narrowCharacters}. */
const notNarrow = new RegExp(`[^\\u0000-\\u007f${narrowCharacters}]`);
/**
 * ASCII characters that stand in for the narrow characters of a text while
 * it is laid out, the first one the text does not hold: each takes one
 * column and is written raw, as the characters it stands for.
 */
const standIns = ["~", "^", "|", "`"];
/** A JSON string, for finding keys. */
const jsonString = /"(?:[^"\\]|\\.)*"/g;
// A character outside ASCII, or one that canonical JSON escapes into ASCII
// (U+2028, U+2029).
// eslint-disable-next-line no-control-regex -- any character outside ASCII
const nonAsciiJson = /[^\u0000-\u007f]|\\u202[89]/;
const arrayIndex = /^(?:0|[1-9][0-9]*)$/;

// The rest of a key that is an identifier, then the closing quote.
const identifierKey = /[A-Za-z_$][A-Za-z0-9_$]*"/y;
// Control characters, DEL: not in a JSON string (escaped by tsString).
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const controlChar = /[\u0000-\u001f\u007f]/;
/** Characters of a JSON number. */
const numberChars = new Uint8Array(256);
for (const ch of "-+.0123456789eE") {
  numberChars[ch.charCodeAt(0)] = 1;
}

const encoder = new TextEncoder();

// The scanner's state: one tool's JSON text, as a string and as bytes (two
// `"` after its end stop an unterminated string), and the table of its
// values; texts that differ from their JSON are in `special`.
let src = "";
let input = Buffer.alloc(1 << 16);
let length = 0;
let at = 0;
let used = 0;
let depth = 0;
let maxDepth = 0;
let table = new Int32Array(stride * 4096);
// The next `\` and `${` in the JSON text, from where they were last looked
// for.
let nextEscape = 0;
let nextTemplate = 0;
const special: string[] = [];
/** TypeScript literals of the JSON strings with escapes, by JSON text. */
let literals = new Map<string, string>();

// The printer's state.
let output = Buffer.alloc(1 << 16);
let pos = 0;

function newValue(): number {
  const n = used++;
  if ((n + 1) * stride > table.length) {
    const grown = new Int32Array(table.length * 2);
    grown.set(table);
    table = grown;
  }
  return n;
}

function leaf(n: number, start: number, flags: number): void {
  const o = n * stride;
  table[o + oStart] = start;
  table[o + oEnd] = at;
  table[o + oWidth] = at - start;
  table[o + oFlags] = flags;
  table[o + oNext] = n + 1;
}

function specialLeaf(n: number, start: number, flags: number, text: string) {
  leaf(n, start, flags | fText);
  const o = n * stride;
  table[o + oWidth] = text.length;
  table[o + oCount] = special.length;
  special.push(text);
}

/**
 * Move `at` past the JSON string starting there; true when its JSON text is
 * its TypeScript literal (printable ASCII without `"`, `\` and `${`, which
 * tsString escapes). The search is the engine's (indexOf): most strings
 * hold no escape, and code that reads byte by byte is slow until it has
 * been optimized, which takes a good part of a run.
 */
function skipString(): boolean {
  const from = at + 1;
  let end = src.indexOf('"', from);
  if (end < 0) {
    throw new Bail();
  }
  if (nextEscape < from) {
    nextEscape = find("\\", from);
  }
  let plain: boolean;
  if (nextEscape < end) {
    plain = false;
    // An escaped quote does not end the string.
    for (end = from; input[end] !== 0x22; end++) {
      if (input[end] === 0x5c) {
        end++;
      }
    }
    if (end >= length) {
      throw new Bail();
    }
  } else {
    if (nextTemplate < from) {
      nextTemplate = find("${", from);
    }
    plain = nextTemplate > end;
  }
  at = end + 1;
  return plain;
}

/** The index of `s` in the JSON text from `from` on; past its end when absent. */
function find(s: string, from: number): number {
  const i = src.indexOf(s, from);
  return i < 0 ? length + 2 : i;
}

/** The value of the JSON string that ends at `at`, starting at `start`. */
function decodeString(start: number): string {
  const json = src.slice(start, at);
  if (nonAsciiJson.test(json)) {
    throw new Bail();
  }
  return parse(json) as string;
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw new Bail();
  }
}

function scanValue(): number {
  const n = newValue();
  const start = at;
  switch (input[at]) {
    case 0x22: // "
      if (skipString()) {
        leaf(n, start, kString);
      } else {
        // Such strings are few and repeat (descriptions with quotes,
        // patterns): each is converted once.
        const json = src.slice(start, at);
        let text = literals.get(json);
        if (text === undefined) {
          text = tsStringExpr(decodeString(start)).doc as string;
          literals.set(json, text);
        }
        specialLeaf(n, start, kString, text);
      }
      return n;
    case 0x7b: // {
      scanObject(n);
      return n;
    case 0x5b: // [
      scanArray(n);
      return n;
    case 0x74: // t
      word("true");
      leaf(n, start, kShort);
      return n;
    case 0x66: // f
      word("false");
      leaf(n, start, kShort);
      return n;
    case 0x6e: // n
      word("null");
      leaf(n, start, kAtom);
      return n;
  }
  while (numberChars[input[at]!] === 1) {
    at++;
  }
  const value = parse(src.slice(start, at));
  if (typeof value !== "number") {
    throw new Bail();
  }
  // prettier writes an exponent without `+`; a negative number (a unary
  // expression) may break after `key:`, like null.
  const text = JSON.stringify(value).replace("e+", "e");
  specialLeaf(n, start, (value < 0 ? kAtom : kShort) | fNumeric, text);
  return n;
}

function word(w: string): void {
  if (!src.startsWith(w, at)) {
    throw new Bail();
  }
  at += w.length;
}

function scanObject(n: number): void {
  const o = n * stride;
  const start = at++;
  if (input[at] === 0x7d) {
    at++;
    leaf(n, start, kAtom); // {}
    return;
  }
  if (++depth > maxDepth) {
    maxDepth = depth;
  }
  // `{ ` + entries joined by ", " + ` }`
  let w = 2;
  let flags = kObject;
  let count = 0;
  for (;;) {
    if (input[at] !== 0x22) {
      throw new Bail();
    }
    const keyStart = at + 1;
    let keyText: string | undefined;
    let keyWidth: number;
    identifierKey.lastIndex = keyStart;
    if (identifierKey.test(src)) {
      at = identifierKey.lastIndex;
      keyWidth = at - 1 - keyStart;
      if (keyWidth === 9 && src.startsWith("__proto__", keyStart)) {
        keyText = tsObjectKey("__proto__", unsureNever);
      }
    } else {
      skipString();
      const key = decodeString(keyStart - 1);
      if (arrayIndex.test(key)) {
        throw new Bail();
      }
      keyText = tsObjectKey(key, unsureNever);
      keyWidth = keyText.length;
    }
    if (input[at++] !== 0x3a) {
      throw new Bail();
    }
    const v = scanValue();
    const ov = v * stride;
    if (keyText === undefined) {
      table[ov + oKeyStart] = keyStart;
    } else {
      keyWidth = keyText.length;
      table[ov + oKeyStart] = special.length;
      special.push(keyText);
      table[ov + oFlags] = table[ov + oFlags]! | fKeyText;
    }
    table[ov + oKeyWidth] = keyWidth;
    w += keyWidth + 2 + table[ov + oWidth]! + 2;
    flags |= table[ov + oFlags]! & fForced;
    count++;
    const c = input[at++];
    if (c === 0x7d) {
      break;
    }
    if (c !== 0x2c) {
      throw new Bail();
    }
  }
  depth--;
  table[o + oStart] = start;
  table[o + oEnd] = at;
  table[o + oWidth] = w;
  table[o + oFlags] = flags;
  table[o + oCount] = count;
  table[o + oNext] = used;
}

function scanArray(n: number): void {
  const o = n * stride;
  const start = at++;
  if (input[at] === 0x5d) {
    at++;
    leaf(n, start, kAtom); // []
    return;
  }
  if (++depth > maxDepth) {
    maxDepth = depth;
  }
  // `[` + elements joined by ", " + `]`
  let w = 0;
  let forced = 0;
  let numbers = fNumeric;
  // Two or more objects (or arrays) of two or more entries each: one per
  // line.
  let sameKind = true;
  let kind0 = -1;
  let count = 0;
  for (;;) {
    const v = scanValue();
    const ov = v * stride;
    const flags = table[ov + oFlags]!;
    const kind = flags & kindMask;
    if (kind0 === -1) {
      kind0 = kind;
    }
    w += table[ov + oWidth]! + 2;
    forced |= flags & fForced;
    numbers &= flags;
    sameKind &&=
      (kind === kObject
        ? kind0 === kObject
        : (kind === kArray || kind === kNumbers) &&
          (kind0 === kArray || kind0 === kNumbers)) && table[ov + oCount]! > 1;
    count++;
    const c = input[at++];
    if (c === 0x5d) {
      break;
    }
    if (c !== 0x2c) {
      throw new Bail();
    }
  }
  depth--;
  table[o + oStart] = start;
  table[o + oEnd] = at;
  table[o + oWidth] = w;
  table[o + oCount] = count;
  table[o + oNext] = used;
  table[o + oFlags] =
    numbers !== 0
      ? kNumbers
      : kArray | forced | (count > 1 && sameKind ? fForced : 0);
}

function unsureNever(): void {
  // Keys outside ASCII never reach tsObjectKey here.
}

/** Copy the JSON text from `start` to `end`. */
function copy(start: number, end: number): void {
  // Locals: a module's `let` costs a check on every use.
  const from = input;
  const to = output;
  let p = pos;
  for (let i = start; i < end; i++) {
    to[p++] = from[i]!;
  }
  pos = p;
}

/** Write `s` (ASCII). */
function write(s: string): void {
  const to = output;
  let p = pos;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) {
      throw new Bail();
    }
    to[p++] = c;
  }
  pos = p;
}

function spaces(n: number): void {
  const to = output;
  let p = pos;
  for (let i = 0; i < n; i++) {
    to[p++] = 0x20;
  }
  pos = p;
}

/** `, ` `: ` and the like. */
function pair(a: number, b: number): void {
  output[pos++] = a;
  output[pos++] = b;
}

function text(o: number): void {
  if ((table[o + oFlags]! & fText) !== 0) {
    write(special[table[o + oCount]!]!);
  } else {
    copy(table[o + oStart]!, table[o + oEnd]!);
  }
}

function key(o: number): void {
  const start = table[o + oKeyStart]!;
  if ((table[o + oFlags]! & fKeyText) !== 0) {
    write(special[start]!);
  } else {
    copy(start, start + table[o + oKeyWidth]!);
  }
}

/** Value `n` on one line. */
function printFlat(n: number): void {
  const o = n * stride;
  const kind = table[o + oFlags]! & kindMask;
  if (kind === kObject) {
    output[pos++] = 0x7b; // {
    for (let i = table[o + oCount]!, c = n + 1; i > 0; i--) {
      output[pos++] = 0x20;
      const oc = c * stride;
      key(oc);
      pair(0x3a, 0x20); // `: `
      printFlat(c);
      if (i > 1) {
        output[pos++] = 0x2c; // ,
      }
      c = table[oc + oNext]!;
    }
    pair(0x20, 0x7d); // ` }`
  } else if (kind === kArray || kind === kNumbers) {
    output[pos++] = 0x5b; // [
    for (let i = table[o + oCount]!, c = n + 1; i > 0; i--) {
      printFlat(c);
      if (i > 1) {
        pair(0x2c, 0x20); // `, `
      }
      c = table[c * stride + oNext]!;
    }
    output[pos++] = 0x5d; // ]
  } else {
    text(o);
  }
}

/** Value `n` starting at column `col`, its lines after the first at `indent`, followed by a comma. */
function printValue(n: number, indent: number, col: number): void {
  const o = n * stride;
  const flags = table[o + oFlags]!;
  if ((flags & fForced) === 0 && col + table[o + oWidth]! + 1 <= width) {
    printFlat(n);
    return;
  }
  const inner = indent + 2;
  switch (flags & kindMask) {
    case kNumbers:
      throw new Bail();
    case kObject:
      pair(0x7b, 0x0a); // `{\n`
      for (let i = table[o + oCount]!, c = n + 1; i > 0; i--) {
        spaces(inner);
        printProperty(c, inner);
        pair(0x2c, 0x0a); // `,\n`
        c = table[c * stride + oNext]!;
      }
      spaces(indent);
      output[pos++] = 0x7d; // }
      return;
    case kArray:
      pair(0x5b, 0x0a); // `[\n`
      for (let i = table[o + oCount]!, c = n + 1; i > 0; i--) {
        spaces(inner);
        printValue(c, inner, inner);
        pair(0x2c, 0x0a); // `,\n`
        c = table[c * stride + oNext]!;
      }
      spaces(indent);
      output[pos++] = 0x5d; // ]
      return;
  }
  text(o);
}

/** `key: value` of value `n` at column `indent`, followed by a comma. */
function printProperty(n: number, indent: number): void {
  const o = n * stride;
  const flags = table[o + oFlags]!;
  const keyWidth = table[o + oKeyWidth]!;
  key(o);
  if (
    (flags & fForced) === 0 &&
    indent + keyWidth + 2 + table[o + oWidth]! + 1 <= width
  ) {
    pair(0x3a, 0x20); // `: `
    printFlat(n);
    return;
  }
  // A key shorter than the indentation plus 3 never breaks after `:`.
  const shortKey = keyWidth < 5;
  switch (flags & kindMask) {
    case kShort:
      pair(0x3a, 0x20);
      text(o);
      return;
    case kString:
    case kAtom:
      if (shortKey) {
        pair(0x3a, 0x20);
      } else {
        pair(0x3a, 0x0a); // `:\n`
        spaces(indent + 2);
      }
      text(o);
      return;
  }
  const col = indent + keyWidth + 2;
  if (shortKey || col + 1 <= width) {
    pair(0x3a, 0x20);
    printValue(n, indent, col);
  } else {
    pair(0x3a, 0x0a);
    spaces(indent + 2);
    printValue(n, indent + 2, indent + 2);
  }
}

/**
 * Scan the JSON text `json` into the table: the index of its value (0).
 * Its text at `literals` by JSON text of strings with escapes.
 */
function scan(json: string, strings: Map<string, string>): number {
  if (json.length + 2 > input.length) {
    input = Buffer.alloc(2 * json.length + 2);
  }
  const { read, written } = encoder.encodeInto(json, input);
  if (read !== json.length || written !== json.length) {
    throw new Bail(); // outside ASCII
  }
  if (controlChar.test(json)) {
    throw new Bail();
  }
  src = json;
  literals = strings;
  length = json.length;
  nextEscape = 0;
  nextTemplate = 0;
  input[length] = 0x22;
  input[length + 1] = 0x22; // after an escape
  at = 0;
  used = 0;
  depth = 0;
  maxDepth = 0;
  special.length = 0;
  const n = scanValue();
  if (at !== length) {
    throw new Bail();
  }
  return n;
}

/** Make room to print the scanned text at column `indent`; start printing. */
function startPrinting(indent: number): void {
  // Every text at most four times its JSON (escapes); per value at most
  // three indented line starts, 4 columns deeper per level at most.
  const room = 4 * length + 3 * used * (indent + 4 * maxDepth + 8) + 256;
  if (room > output.length) {
    output = Buffer.alloc(2 * room);
  }
  pos = 0;
}

// Buffers grown past these sizes by a large tool are let go once it is
// printed: a long-running process keeps no more than this.
const keptBytes = 1 << 20;
const keptValues = 1 << 16;

/** What was printed, the scanner's text and oversized buffers let go. */
function printed(): string {
  src = "";
  literals = noLiterals;
  const text = output.toString("latin1", 0, pos);
  if (output.length > keptBytes) {
    output = Buffer.alloc(1 << 16);
  }
  if (input.length > keptBytes) {
    input = Buffer.alloc(1 << 16);
  }
  if (table.length > stride * keptValues) {
    table = new Int32Array(stride * 4096);
  }
  return text;
}

const noLiterals = new Map<string, string>();

/**
 * {@link printParameters} of a text that may hold characters outside ASCII
 * in its string values (not in keys, which prettier may write unquoted
 * by rules of its own): when all are narrow (see narrowCharacters), the
 * text is laid out with an ASCII stand-in for each, which the printed text
 * then gives back in order (the layout prints values in the text's order).
 */
function printNarrowParameters(
  json: string,
  indent: number,
  strings: Map<string, string>,
): string {
  if (!nonAscii.test(json)) {
    return printParameters(json, indent, strings);
  }
  const standIn = standIns.find((c) => !json.includes(c));
  if (standIn === undefined || notNarrow.test(json) || nonAsciiKey(json)) {
    throw new Bail();
  }
  const characters: string[] = [];
  const ascii = json.replace(nonAsciiAll, (c) => {
    characters.push(c);
    return standIn;
  });
  const laid = printParameters(ascii, indent, strings);
  let next = 0;
  const restored = laid.replaceAll(
    standIn,
    () => characters[next++] ?? standIn,
  );
  if (next !== characters.length) {
    throw new Bail();
  }
  return restored;
}

/** True when a key of the JSON text `json` holds a character outside ASCII. */
function nonAsciiKey(json: string): boolean {
  for (const m of json.matchAll(jsonString)) {
    if (
      json.charCodeAt(m.index + m[0].length) === 0x3a &&
      nonAscii.test(m[0])
    ) {
      return true;
    }
  }
  return false;
}

/**
 * `parameters: {…}` at column `indent` of the canonical JSON text `json`
 * (no comma).
 */
function printParameters(
  json: string,
  indent: number,
  strings: Map<string, string>,
): string {
  const n = scan(json, strings);
  const o = n * stride;
  table[o + oKeyStart] = special.length;
  table[o + oKeyWidth] = "parameters".length;
  table[o + oFlags] = table[o + oFlags]! | fKeyText;
  special.push("parameters");
  startPrinting(indent);
  printProperty(n, indent);
  return printed();
}

/**
 * `head value;` (head a `const` with a type, ending with `=`) of the JSON
 * text `json`, an object, as prettier writes it: the object and the objects
 * of its values expanded (written with a line break after `{`), the rest as
 * the data leads. Undefined when this layout cannot promise prettier's
 * (see the top of this file; a key `__proto__` is written computed).
 */
export function layJsonStatement(
  head: string,
  json: string,
): string | undefined {
  if (head.length + 2 > width) {
    return undefined;
  }
  try {
    const n = scan(json, new Map());
    if ((table[n * stride + oFlags]! & kindMask) !== kObject) {
      return undefined;
    }
    expand(n);
    for (let i = table[n * stride + oCount]!, c = n + 1; i > 0; i--) {
      if ((table[c * stride + oFlags]! & kindMask) === kObject) {
        expand(c);
      }
      c = table[c * stride + oNext]!;
    }
    startPrinting(0);
    write(head);
    output[pos++] = 0x20;
    printValue(n, 0, head.length + 1);
    output[pos++] = 0x3b; // ;
    return printed();
  } catch (e) {
    if (e instanceof Bail) {
      return undefined;
    }
    throw e;
  }
}

function expand(n: number): void {
  table[n * stride + oFlags] = table[n * stride + oFlags]! | fForced;
}

/** A tool as {@link TsToolDeclarations.lay} reads it. */
export interface TsDeclaredTool {
  readonly name: string;
  readonly description: string;
  readonly strict: boolean;
  readonly schemaJson: string;
}

/** Lays out tool declarations (see {@link createTsToolDeclarations}). */
export interface TsToolDeclarations {
  /**
   * The printed `export const constName: AgentTool = defineTool({…});` of a
   * tool, as prettier writes it; undefined when this layout cannot promise
   * prettier's (see the top of this file).
   */
  lay(tool: TsDeclaredTool, constName: string): string | undefined;
}

/**
 * A layout of tool declarations that remembers the `parameters` property of
 * each schema text: tools often share one (the same request message).
 */
export function createTsToolDeclarations(): TsToolDeclarations {
  // By indentation: 2, or 4 when `defineTool(` breaks.
  const parameters = [new Map<string, string>(), new Map<string, string>()];
  const literals = new Map<string, string>();
  return {
    lay(tool, constName) {
      if (nonAscii.test(constName) || notNarrow.test(tool.description)) {
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
      const cache = parameters[indent === 2 ? 0 : 1]!;
      let laid = cache.get(tool.schemaJson);
      if (laid === undefined) {
        try {
          laid = printNarrowParameters(tool.schemaJson, indent, literals);
        } catch (e) {
          if (e instanceof Bail) {
            return undefined;
          }
          throw e;
        }
        cache.set(tool.schemaJson, laid);
      }
      const pad = " ".repeat(indent);
      return (
        open +
        stringProperty(pad, "name", tool.name, indent) +
        stringProperty(pad, "description", tool.description, indent) +
        `${pad}strict: ${String(tool.strict)},\n` +
        `${pad}${laid},\n${close}`
      );
    },
  };
}

/** `key: "value",` of a string at column `indent`. */
function stringProperty(
  pad: string,
  key: string,
  value: string,
  indent: number,
): string {
  const literal = tsStringExpr(value).doc as string;
  // A key shorter than the indentation plus 3 never breaks after `:`.
  return key.length < 5 || indent + key.length + 2 + literal.length + 1 <= width
    ? `${pad}${key}: ${literal},\n`
    : `${pad}${key}:\n${pad}  ${literal},\n`;
}
