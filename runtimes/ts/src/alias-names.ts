// Names: the values of response alias fields that take any value
// (ResponseAliasField.anyValue, google.longrunning.Operation.name). The
// alias manager registers them though they are not UUIDs and shows them as
// aliases where they stand as a whole token (docs/runtime.md, "Long-running
// operations"; e2e/vectors/aliases/any-value.json).

/** The longest name an alias stands for, in UTF-8 bytes. */
const maxNameBytes = 1024;

const utf8 = new TextEncoder();

/**
 * Report whether s may be registered as the value of an alias when it is
 * not a UUID (a field with `anyValue`, a restored state): not empty, at
 * most 1024 bytes of UTF-8, no control character (U+0000 to U+001F,
 * U+007F to U+009F).
 */
export function isAliasName(s: string): boolean {
  return (
    s !== "" &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f-\u009f]/.test(s) &&
    (s.length <= maxNameBytes / 3 || utf8.encode(s).length <= maxNameBytes)
  );
}

/**
 * Report whether c may not touch a name in text: an ASCII letter or digit,
 * `_`, `.`, `/` or `-`.
 */
function isNameChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2f ||
    c === 0x2d
  );
}

/**
 * Up to how many names, all of name characters, are each searched for in
 * the text (a native search each) rather than found in one scan of it.
 */
const maxSearched = 32;

/** The registered names, indexed for {@link NameIndex.aliasify}. */
export class NameIndex {
  /** How many names are registered. */
  private count = 0;
  /**
   * The names holding a character that is not a name character (a space, a
   * non-ASCII letter), by their first UTF-16 unit, longest first: they reach
   * past the run of name characters they start with. The others are found
   * as that run itself.
   */
  private spaced = new Map<number, string[]>();
  /**
   * The lengths of the other names: a run of name characters of another
   * length is no name, and is not looked up.
   */
  private lengths = new Set<number>();
  /** Those other names themselves. */
  private plain: string[] = [];

  /** Forget every name. */
  clear(): void {
    this.count = 0;
    this.spaced = new Map();
    this.lengths = new Set();
    this.plain = [];
  }

  /** Index a registered value that is not a UUID. */
  add(name: string): void {
    this.count++;
    for (let i = 0; i < name.length; i++) {
      if (!isNameChar(name.charCodeAt(i))) {
        const first = name.charCodeAt(0);
        const list = this.spaced.get(first) ?? [];
        list.push(name);
        list.sort((a, b) => b.length - a.length);
        this.spaced.set(first, list);
        return;
      }
    }
    this.lengths.add(name.length);
    this.plain.push(name);
  }

  /**
   * Replace each registered name standing as a whole token in text by its
   * alias (`aliasOf`), in one scan from left to right, the longest name at
   * each place: the character before it and the one after it, when there
   * is one, are not name characters.
   */
  aliasify(text: string, aliasOf: (name: string) => string | undefined) {
    if (this.count === 0) {
      return text;
    }
    if (this.spaced.size === 0 && this.plain.length <= maxSearched) {
      return this.aliasifyPlain(text, aliasOf);
    }
    let out = "";
    let done = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      if (i > 0 && isNameChar(text.charCodeAt(i - 1))) {
        continue;
      }
      let end = i;
      while (end < n && isNameChar(text.charCodeAt(end))) {
        end++;
      }
      const [alias, length] = this.nameAt(text, i, end, aliasOf);
      if (alias === undefined) {
        i = Math.max(i, end - 1);
        continue;
      }
      out += text.slice(done, i) + alias;
      done = i + length;
      i = done - 1;
    }
    return done === 0 ? text : out + text.slice(done);
  }

  /**
   * {@link NameIndex.aliasify} when every name is made of name characters
   * only, by a native search for each: each stands exactly where it is a
   * whole run of name characters, so no two overlap and the order of the
   * searches does not matter.
   */
  private aliasifyPlain(
    text: string,
    aliasOf: (name: string) => string | undefined,
  ): string {
    const found: [at: number, name: string][] = [];
    for (const name of this.plain) {
      for (
        let i = text.indexOf(name);
        i >= 0;
        i = text.indexOf(name, i + name.length)
      ) {
        const end = i + name.length;
        if (
          (i === 0 || !isNameChar(text.charCodeAt(i - 1))) &&
          (end === text.length || !isNameChar(text.charCodeAt(end)))
        ) {
          found.push([i, name]);
        }
      }
    }
    if (found.length === 0) {
      return text;
    }
    found.sort((a, b) => a[0] - b[0]);
    let out = "";
    let done = 0;
    for (const [at, name] of found) {
      out += text.slice(done, at) + (aliasOf(name) ?? name);
      done = at + name.length;
    }
    return out + text.slice(done);
  }

  /**
   * The alias and length of the longest name standing at `text[i]`, whose
   * run of name characters ends at `end`; no alias when none stands there.
   */
  private nameAt(
    text: string,
    i: number,
    end: number,
    aliasOf: (name: string) => string | undefined,
  ): [alias: string | undefined, length: number] {
    for (const name of this.spaced.get(text.charCodeAt(i)) ?? []) {
      const after = i + name.length;
      if (
        text.startsWith(name, i) &&
        (after === text.length || !isNameChar(text.charCodeAt(after)))
      ) {
        return [aliasOf(name), name.length];
      }
    }
    return this.lengths.has(end - i)
      ? [aliasOf(text.slice(i, end)), end - i]
      : [undefined, 0];
  }
}
