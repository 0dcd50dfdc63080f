import type { DescEnum, DescEnumValue } from "../read/descriptors.js";
import { cleanComment, enumValueLeadingComment } from "./comments.js";
import { isDeprecatedValue } from "./field-behavior.js";
import type { JsonSchema } from "./json-schema.js";
import { schemaRulesKey, type SchemaRules } from "./schema-rules.js";
import { wellFormed } from "./well-formed.js";

/** True for a 0 value named `*UNSPECIFIED`: the server's default. */
function isUnspecifiedZero(value: DescEnumValue): boolean {
  return value.number === 0 && value.name.endsWith("UNSPECIFIED");
}

/**
 * True when the enum's 0 value is named `*UNSPECIFIED` and some other
 * value remains for the schema to list: a field of it may be left unset
 * (the server then reads the 0 value).
 */
export function hasUnspecifiedZero(desc: DescEnum): boolean {
  return desc.values.some(isUnspecifiedZero) && desc.values.length > 1;
}

/**
 * The values an input schema lists, in declaration order: every value but
 * a 0 named `*UNSPECIFIED` and, unless `deprecated=keep`, the deprecated
 * ones. Deprecated values stay when nothing else would; the UNSPECIFIED
 * zero when it is the only value.
 */
function keptValues(desc: DescEnum, rules: SchemaRules): DescEnumValue[] {
  const named = desc.values.filter((v) => !isUnspecifiedZero(v));
  if (named.length === 0) {
    return [...desc.values];
  }
  if (rules.keepDeprecated) {
    return named;
  }
  const current = named.filter((v) => !isDeprecatedValue(v));
  return current.length > 0 ? current : named;
}

/** Longest note on a value, in characters; a longer sentence is cut. */
const maxNoteLength = 100;

/**
 * Words a note must have that neither the value's name nor its enum's name
 * has (stems compared, empty words aside) to be written: measured on
 * Temporal's API, one such word let through notes that restate the name
 * ("A timer has fired") at 3,000 tokens more; three dropped useful ones.
 */
const minFreshWords = 2;

/** Words a note may use that say nothing the value's name does not. */
const emptyWords = new Set(
  [
    "a an the this that these those it its of to for in on at by with as",
    "and or is are be been being was were has have had will would can may",
    "value values enum type kind state status default means indicates",
  ]
    .join(" ")
    .split(" "),
);

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** A word's stem for comparing names and notes: its first 5 letters. */
function stem(word: string): string {
  return word.replace(/ll/g, "l").slice(0, 5);
}

/**
 * The first sentence of a cleaned comment, on one line, without its final
 * period: up to the first `.`, `!` or `?` followed by white space or the
 * end (not in `e.g.`, `i.e.`, `etc.`), the first blank line, or the end of
 * a line that has no punctuation at its end when the next line starts
 * with an upper-case letter (a sentence without its period); cut at a
 * word boundary past {@link maxNoteLength} characters, with `…`.
 */
export function firstSentence(comment: string): string {
  const lines = comment.split("\n");
  let text = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") {
      if (text !== "") break;
      continue;
    }
    text = text === "" ? line : `${text} ${line}`;
    const next = lines[i + 1]?.trim() ?? "";
    if (/^[A-Z]/.test(next) && !/[,;:(-]$/.test(line) && !/[.!?]$/.test(line)) {
      break;
    }
  }
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs))[.!?](?=\s|$)/.exec(text);
  let sentence = (end === null ? text : text.slice(0, end.index)).trim();
  if (sentence.length > maxNoteLength) {
    const cut = sentence.lastIndexOf(" ", maxNoteLength);
    sentence = `${sentence.slice(0, cut > 0 ? cut : maxNoteLength)}…`;
  }
  return sentence;
}

/**
 * The note a value's comment gives it, or "" when the comment's first
 * sentence says little its name (and the enum's name) does not: fewer
 * than {@link minFreshWords} of its words are neither words of those names
 * (compared by {@link stem}) nor empty words ("the", "has", …).
 * A comment starting with the value's name (`RED: …`, `RED - …`) loses it.
 */
export function valueNote(value: DescEnumValue): string {
  let comment = cleanComment(enumValueLeadingComment(value));
  if (comment.startsWith(value.name)) {
    comment = comment.slice(value.name.length).replace(/^[\s:=-]+/, "");
  }
  const sentence = firstSentence(comment);
  if (sentence === "") {
    return "";
  }
  const known = new Set(
    [
      ...words(value.name.replaceAll("_", " ")),
      ...words(value.parent.name.replace(/([a-z0-9])([A-Z])/g, "$1 $2")),
    ].map(stem),
  );
  const fresh = new Set(
    words(sentence).filter((w) => !emptyWords.has(w) && !known.has(stem(w))),
  );
  return fresh.size >= minFreshWords ? wellFormed(sentence) : "";
}

/**
 * The notes of the values a schema lists: `NAME: note` for each that has
 * one, `NAME: deprecated` (then `. ` and its note) for a deprecated one,
 * joined with `; `; "" when none.
 */
function valueNotes(values: readonly DescEnumValue[]): string {
  const notes: string[] = [];
  for (const value of values) {
    const note = valueNote(value);
    const deprecated = isDeprecatedValue(value);
    if (deprecated) {
      notes.push(`${value.name}: deprecated${note === "" ? "" : `. ${note}`}`);
    } else if (note !== "") {
      notes.push(`${value.name}: ${note}`);
    }
  }
  return notes.join("; ");
}

/** Enum schemas, per rules key (schema-rules.ts), by enum. */
const cache = [0, 1, 2, 3].map(() => new WeakMap<DescEnum, JsonSchema>());

/**
 * An enum's input schema: a string of the value names
 * ({@link keptValues}), with a description holding the values' notes
 * when any value has one. A new object each time: callers change it.
 */
export function enumSchema(desc: DescEnum, rules: SchemaRules): JsonSchema {
  const byEnum = cache[schemaRulesKey(rules)]!;
  let schema = byEnum.get(desc);
  if (schema === undefined) {
    const values = keptValues(desc, rules);
    schema = { type: "string", enum: values.map((v) => v.name) };
    const notes = valueNotes(values);
    if (notes !== "") {
      schema["description"] = notes;
    }
    byEnum.set(desc, schema);
  }
  return { ...schema, enum: [...(schema["enum"] as string[])] };
}
