import {
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import {
  JsonNumber,
  createJsonMap,
  isJsonMap,
  sortedKeys,
  stringifyJson,
  tryParseJson,
  type JsonMap,
  type JsonTree,
} from "./json.js";
import { ToolError } from "./tool-error.js";

/**
 * Undo the schema fixes of docs/compat.md on a model's arguments, walking
 * them alongside the request message (docs/runtime.md, "Argument fix-up"):
 * nulls dropped (except for `google.protobuf.Value`), maps and Structs given
 * as key/value entries rebuilt, and, when strict, Values given as JSON text
 * parsed. Returns the arguments re-encoded (keys sorted, numbers as written).
 * Text that is not a JSON object is returned unchanged, for the decoder to
 * report. Throws {@link ToolError} (`failed to parse arguments: …`), e.g. for
 * two members of one oneof.
 */
export function fixArguments(
  argsJson: string,
  schema: DescMessage,
  strict: boolean,
): string {
  const v = tryParseJson(argsJson);
  if (!isJsonMap(v)) {
    return argsJson;
  }
  fixTree(v, schema, strict);
  return stringifyJson(v);
}

/** {@link fixArguments} on a decoded object, in place. */
export function fixTree(
  obj: JsonMap,
  schema: DescMessage,
  strict: boolean,
): void {
  try {
    fixMessage(obj, schema, strict);
  } catch (e) {
    if (e instanceof FixupError) {
      throw invalidArguments(e.message);
    }
    throw e;
  }
}

/** A ToolError for arguments the decoder or the fix-up refused. */
export function invalidArguments(what: string, cause?: unknown): ToolError {
  return new ToolError(`failed to parse arguments: ${what}`, {
    reason: "invalid-arguments",
    code: Code.InvalidArgument,
    cause,
  });
}

class FixupError extends Error {}

/** The field of a JSON key: by JSON name, then by proto name. */
export function fieldOf(
  schema: DescMessage,
  key: string,
): DescField | undefined {
  return (
    schema.fields.find((f) => f.jsonName === key) ??
    schema.fields.find((f) => f.name === key)
  );
}

/** The message type of a field's values; undefined for scalars and enums. */
export function messageOf(field: DescField): DescMessage | undefined {
  switch (field.fieldKind) {
    case "message":
      return field.message;
    case "list":
      return field.listKind === "message" ? field.message : undefined;
    case "map":
      return field.mapKind === "message" ? field.message : undefined;
    default:
      return undefined;
  }
}

function isWellKnown(schema: DescMessage | undefined, name: string): boolean {
  return schema?.typeName === `google.protobuf.${name}`;
}

function fixMessage(obj: JsonMap, schema: DescMessage, strict: boolean): void {
  const present = new Set<number>();
  for (const key of sortedKeys(obj)) {
    const field = fieldOf(schema, key);
    if (field === undefined) {
      continue;
    }
    const v = obj[key] as JsonTree;
    if (v === null) {
      if (
        field.fieldKind === "list" ||
        field.fieldKind === "map" ||
        !isWellKnown(messageOf(field), "Value")
      ) {
        delete obj[key];
      }
      continue;
    }
    obj[key] = fixField(v, field, strict);
    present.add(field.number);
  }
  for (const oneof of schema.oneofs) {
    const set = oneof.fields
      .filter((f) => present.has(f.number))
      .map((f) => f.jsonName);
    if (set.length > 1) {
      throw new FixupError(
        `fields ${quote(set[0] as string)} and ${quote(set[1] as string)} are members of oneof ${quote(oneof.name)}: set only one`,
      );
    }
  }
}

function fixField(v: JsonTree, field: DescField, strict: boolean): JsonTree {
  if (field.fieldKind === "map") {
    return fixMap(v, field, strict);
  }
  if (field.fieldKind === "list" && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      v[i] = fixValue(v[i] as JsonTree, messageOf(field), strict);
    }
    return v;
  }
  return fixValue(v, messageOf(field), strict);
}

/** Rebuild a map given as `[{"key": k, "value": v}, …]`, then fix its values. */
function fixMap(v: JsonTree, field: DescField, strict: boolean): JsonTree {
  let obj: JsonMap;
  if (Array.isArray(v)) {
    obj = createJsonMap();
    v.forEach((entry, i) => {
      const key = isJsonMap(entry) ? entry["key"] : undefined;
      if (typeof key === "string") {
        obj[key] = entryValue(entry as JsonMap);
      } else if (key instanceof JsonNumber) {
        obj[key.text] = entryValue(entry as JsonMap);
      } else if (typeof key === "boolean") {
        obj[String(key)] = entryValue(entry as JsonMap);
      } else {
        throw new FixupError(
          `field ${quote(field.jsonName)}: entry ${i} is not a {"key": …, "value": …} object`,
        );
      }
    });
  } else if (isJsonMap(v)) {
    obj = v;
  } else {
    return v;
  }
  const valueType = messageOf(field);
  for (const key of sortedKeys(obj)) {
    const item = obj[key] as JsonTree;
    if (item === null) {
      if (!isWellKnown(valueType, "Value")) {
        delete obj[key];
      }
      continue;
    }
    obj[key] = fixValue(item, valueType, strict);
  }
  return obj;
}

function entryValue(entry: JsonMap): JsonTree {
  return entry["value"] ?? null;
}

/** Fix one value of message type schema (undefined: a scalar, kept). */
function fixValue(
  v: JsonTree,
  schema: DescMessage | undefined,
  strict: boolean,
): JsonTree {
  if (schema === undefined || v === null) {
    return v;
  }
  switch (schema.typeName) {
    case "google.protobuf.Value":
      return typeof v === "string" && strict ? parseValue(v) : v;
    case "google.protobuf.ListValue":
      if (Array.isArray(v) && strict) {
        for (let i = 0; i < v.length; i++) {
          const item = v[i];
          if (typeof item === "string") {
            v[i] = parseValue(item);
          }
        }
      }
      return v;
    case "google.protobuf.Struct": {
      if (!Array.isArray(v)) {
        return v;
      }
      const obj = createJsonMap();
      v.forEach((entry, i) => {
        const key = isJsonMap(entry) ? entry["key"] : undefined;
        if (typeof key !== "string") {
          throw new FixupError(
            `entry ${i} of a struct is not a {"key": "…", "value": …} object`,
          );
        }
        const value = entryValue(entry as JsonMap);
        obj[key] = typeof value === "string" ? parseValue(value) : value;
      });
      return obj;
    }
  }
  if (schema.typeName.startsWith("google.protobuf.")) {
    return v;
  }
  if (isJsonMap(v)) {
    fixMessage(v, schema, strict);
  }
  return v;
}

/** Read a string given for a google.protobuf.Value as JSON; else keep it. */
function parseValue(text: string): JsonTree {
  const v = tryParseJson(text);
  return v === undefined ? text : v;
}

function quote(s: string): string {
  return JSON.stringify(s);
}

const int64Types = new Set([
  ScalarType.INT64,
  ScalarType.UINT64,
  ScalarType.SINT64,
  ScalarType.FIXED64,
  ScalarType.SFIXED64,
]);

/**
 * Convert decoded arguments to the JSON value protobuf-es's fromJson reads.
 * An integer written as a number for a 64-bit field becomes a string, so
 * that no digit is lost (protojson reads such numbers exactly). A key
 * `__proto__` is refused: it would reach an object prototype on the way into
 * a message.
 */
export function toDecoderJson(
  v: JsonTree,
  schema: DescMessage | undefined,
  path = "",
): JsonValue {
  if (v === null || typeof v === "boolean" || typeof v === "string") {
    return v;
  }
  if (v instanceof JsonNumber) {
    return Number(v.text);
  }
  if (Array.isArray(v)) {
    return v.map((item, i) => toDecoderJson(item, schema, `${path}[${i}]`));
  }
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(v)) {
    const where = path === "" ? key : `${path}.${key}`;
    if (key === "__proto__") {
      throw invalidArguments(
        `key "__proto__" in field ${quote(path)} is not allowed`,
      );
    }
    const item = v[key] as JsonTree;
    const field =
      schema !== undefined && !schema.typeName.startsWith("google.protobuf.")
        ? fieldOf(schema, key)
        : undefined;
    if (field === undefined) {
      out[key] = toDecoderJson(item, undefined, where);
    } else if (is64BitInteger(field) && item instanceof JsonNumber) {
      out[key] = int64Json(item);
    } else if (is64BitInteger(field) && Array.isArray(item)) {
      out[key] = item.map((x) =>
        x instanceof JsonNumber
          ? int64Json(x)
          : toDecoderJson(x, undefined, where),
      );
    } else if (field.fieldKind === "map" && isJsonMap(item)) {
      const map: { [key: string]: JsonValue } = {};
      for (const k of Object.keys(item)) {
        if (k === "__proto__") {
          throw invalidArguments(
            `key "__proto__" in field ${quote(where)} is not allowed`,
          );
        }
        const x = item[k] as JsonTree;
        map[k] =
          is64BitInteger(field) && x instanceof JsonNumber
            ? int64Json(x)
            : toDecoderJson(x, messageOf(field), `${where}.${k}`);
      }
      out[key] = map;
    } else {
      out[key] = toDecoderJson(item, messageOf(field), where);
    }
  }
  return out;
}

function is64BitInteger(field: DescField): boolean {
  const message = messageOf(field);
  if (message !== undefined) {
    return (
      message.typeName === "google.protobuf.Int64Value" ||
      message.typeName === "google.protobuf.UInt64Value"
    );
  }
  switch (field.fieldKind) {
    case "scalar":
      return int64Types.has(field.scalar);
    case "list":
      return field.listKind === "scalar" && int64Types.has(field.scalar);
    case "map":
      return field.mapKind === "scalar" && int64Types.has(field.scalar);
    default:
      return false;
  }
}

function int64Json(n: JsonNumber): JsonValue {
  return /^-?[0-9]+$/.test(n.text) ? n.text : Number(n.text);
}
