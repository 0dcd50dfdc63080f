// Where the tokens of a tool list go: the OpenAI-form tool list
// (tool-tokens.mjs, openAiToolList) written again as fragments, each with a
// category (tool descriptions, field descriptions, property names, the
// `type` keywords, nullable wrappers, `$defs`/`$ref`, patterns, …), and the
// o200k tokens of each fragment summed per category. The fragments join to
// exactly the counted JSON, which is tokenized whole: each token counts for
// the category of the fragment where it starts, so the categories sum to the
// list's count.
import { decodeGenerator, encode } from "gpt-tokenizer/encoding/o200k_base";

const noSpecial = { allowedSpecial: new Set(), disallowedSpecial: new Set() };

/** Which pattern the generator writes `pattern` is (well-known.ts). */
function patternKind(pattern) {
  if (pattern.includes("A-Za-z0-9+/")) return "base64 bytes";
  if (pattern.endsWith(")?s$")) return "Duration";
  if (pattern.includes(",")) return "FieldMask";
  return "other";
}

/** The categories, in the order they are reported. */
export const categories = [
  "envelope (type, function, name, strict)",
  "tool descriptions",
  "field descriptions",
  "property names",
  '"properties" and braces',
  '"type" keywords',
  '"required" lists',
  '"additionalProperties": false',
  "nullable wrappers (anyOf [T, null])",
  "oneof branches (anyOf of objects, less repeats)",
  "entity fields repeated per oneof branch",
  "$defs keys and $ref",
  "enum values",
  "items",
  "formats",
  "patterns: base64 bytes",
  "patterns: Duration",
  "patterns: FieldMask",
  "patterns: map keys (propertyNames)",
  "patterns: other",
  "other keywords",
];

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True for `anyOf [T, {"type": "null"}]` (a nullable wrapper). */
function isNullable(node) {
  const anyOf = node["anyOf"];
  return (
    Array.isArray(anyOf) &&
    anyOf.length >= 2 &&
    anyOf.some((b) => isObject(b) && b["type"] === "null")
  );
}

/**
 * Fragments of one schema node: calls `emit(category, text)` so that the
 * texts join to `JSON.stringify(node)`. `repeat` (a category) overrides
 * every category below: the node repeats what another branch wrote.
 */
function schemaFragments(node, emit, repeat) {
  const put = (category, text) => emit(repeat ?? category, text);
  if (!isObject(node)) {
    put("other keywords", JSON.stringify(node));
    return;
  }
  const keys = Object.keys(node);
  put('"properties" and braces', "{");
  keys.forEach((key, i) => {
    const sep = i === 0 ? "" : ",";
    const value = node[key];
    const head = `${sep}${JSON.stringify(key)}:`;
    switch (key) {
      case "description":
        put("field descriptions", head + JSON.stringify(value));
        return;
      case "type":
        put('"type" keywords', head + JSON.stringify(value));
        return;
      case "required":
        put('"required" lists', head + JSON.stringify(value));
        return;
      case "enum":
        put("enum values", head + JSON.stringify(value));
        return;
      case "format":
        put("formats", head + JSON.stringify(value));
        return;
      case "pattern":
        put(`patterns: ${patternKind(value)}`, head + JSON.stringify(value));
        return;
      case "$ref":
        put("$defs keys and $ref", head + JSON.stringify(value));
        return;
      case "additionalProperties":
        if (value === false) {
          put('"additionalProperties": false', head + "false");
          return;
        }
        put("other keywords", head);
        schemaFragments(value, emit, repeat);
        return;
      case "propertyNames":
        put("patterns: map keys (propertyNames)", head + JSON.stringify(value));
        return;
      case "items":
        put("items", head);
        schemaFragments(value, emit, repeat);
        return;
      case "properties":
      case "$defs": {
        const names = Object.keys(value);
        put('"properties" and braces', head + "{");
        names.forEach((name, j) => {
          const nameText = `${j === 0 ? "" : ","}${JSON.stringify(name)}:`;
          put(
            key === "$defs" ? "$defs keys and $ref" : "property names",
            nameText,
          );
          schemaFragments(value[name], emit, repeat);
        });
        put('"properties" and braces', "}");
        return;
      }
      case "anyOf": {
        const nullable = isNullable(node);
        // A described reference of a strict tool: anyOf [{"$ref": …}].
        const refWrapper =
          value.length === 1 && isObject(value[0]) && "$ref" in value[0];
        const wrapper = nullable
          ? "nullable wrappers (anyOf [T, null])"
          : refWrapper
            ? "$defs keys and $ref"
            : "oneof branches (anyOf of objects, less repeats)";
        put(wrapper, head + "[");
        const first = value[0];
        value.forEach((branch, j) => {
          if (j > 0) put(wrapper, ",");
          if (isObject(branch) && branch["type"] === "null") {
            put(wrapper, JSON.stringify(branch));
            return;
          }
          if (nullable || j === 0 || !isObject(first?.["properties"])) {
            schemaFragments(branch, emit, repeat);
            return;
          }
          branchFragments(branch, first, emit, repeat);
        });
        put(wrapper, "]");
        return;
      }
      default:
        put("other keywords", head + JSON.stringify(value));
    }
  });
  put('"properties" and braces', "}");
}

/**
 * A oneof branch after the first: the properties the first branch has
 * too (the entity's own fields) count as repeats.
 */
function branchFragments(branch, first, emit, repeat) {
  if (!isObject(branch) || !isObject(branch["properties"])) {
    schemaFragments(branch, emit, repeat);
    return;
  }
  const shared = new Set(Object.keys(first["properties"]));
  const put = (category, text) => emit(repeat ?? category, text);
  const again = "entity fields repeated per oneof branch";
  put('"properties" and braces', "{");
  Object.keys(branch).forEach((key, i) => {
    const sep = i === 0 ? "" : ",";
    const value = branch[key];
    const head = `${sep}${JSON.stringify(key)}:`;
    if (key === "properties") {
      put('"properties" and braces', head + "{");
      Object.keys(value).forEach((name, j) => {
        const nameText = `${j === 0 ? "" : ","}${JSON.stringify(name)}:`;
        const category = shared.has(name) ? again : undefined;
        emit(repeat ?? category ?? "property names", nameText);
        schemaFragments(value[name], emit, repeat ?? category);
      });
      put('"properties" and braces', "}");
      return;
    }
    // Keywords of the branch object itself (type, required, closed).
    const one = {};
    one[key] = value;
    const text = JSON.stringify(one).slice(1, -1);
    put(
      key === "required"
        ? '"required" lists'
        : key === "type"
          ? '"type" keywords'
          : key === "additionalProperties"
            ? '"additionalProperties": false'
            : "other keywords",
      sep + text,
    );
  });
  put('"properties" and braces', "}");
}

/**
 * Fragments of the OpenAI-form tool list of `tools` (the generator's
 * model tools: name, description, strict, schemaJson).
 */
export function toolListFragments(tools, emit) {
  const env = categories[0];
  emit(env, "[");
  tools.forEach((t, i) => {
    emit(env, `${i === 0 ? "" : ","}{"type":"function","function":{"name":`);
    emit(env, JSON.stringify(t.name));
    emit(
      "tool descriptions",
      `,"description":${JSON.stringify(t.description)}`,
    );
    emit(env, `,"parameters":`);
    schemaFragments(JSON.parse(t.schemaJson), emit, undefined);
    emit(env, `,"strict":${JSON.stringify(t.strict)}}}`);
  });
  emit(env, "]");
}

/**
 * o200k tokens of the tool list by category (a Map in the order of
 * {@link categories}), their sum (the list's count) and the JSON the
 * fragments join to. The list is tokenized whole; each token counts for
 * the fragment its first character belongs to.
 */
export function tokenBreakdown(tools) {
  const byCategory = new Map(categories.map((c) => [c, 0]));
  const starts = [];
  const owners = [];
  let length = 0;
  const texts = [];
  toolListFragments(tools, (category, text) => {
    if (text === "") return;
    starts.push(length);
    owners.push(category);
    texts.push(text);
    length += text.length;
  });
  const json = texts.join("");
  let at = 0;
  let fragment = 0;
  let sum = 0;
  for (const piece of decodeGenerator(encode(json, noSpecial))) {
    while (fragment + 1 < starts.length && starts[fragment + 1] <= at) {
      fragment += 1;
    }
    const category = owners[fragment];
    byCategory.set(category, (byCategory.get(category) ?? 0) + 1);
    sum += 1;
    at += piece.length;
  }
  return { byCategory, sum, json };
}
