import {
  ScalarType,
  type DescEnum,
  type DescField,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import {
  JsonNumber,
  createJsonMap,
  isJsonMap,
  quote,
  sortedKeys,
  stringifyJson,
  tryParseJson,
  type JsonMap,
  type JsonTree,
} from "./json.js";
import { ToolError } from "./tool-error.js";
import {
  argumentsError,
  childPath,
  violationError,
  type Violation,
} from "./violations.js";

/**
 * Check a model's arguments and undo the schema fixes of docs/compat.md,
 * walking them alongside the request message (docs/runtime.md, "Argument
 * fix-up"): nulls dropped (except for `google.protobuf.Value`), maps and
 * Structs given as key/value entries rebuilt, Values given as JSON text
 * parsed when strict, and every value's JSON kind checked against its field
 * (bytes must be valid base64). Returns the arguments re-encoded (keys
 * sorted, numbers as written). Text that is not a JSON object is returned
 * unchanged, for the decoder to report. Throws {@link ToolError}
 * (`invalid-arguments`, `failed to parse arguments: …`, the fix-up's
 * message as the shared fix-up vectors pin it), e.g. for two members of
 * one oneof or a string where an integer goes; its one violation
 * (`invalid-value`) has the field apart, as an executor shows it.
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
  try {
    fixMessage(v, schema, strict, "");
  } catch (e) {
    if (e instanceof FixupError) {
      const legacy = e.oneof
        ? `fields ${e.message}`
        : `field ${quote(e.field)}: ${e.message}`;
      throw new ToolError(`failed to parse arguments: ${legacy}`, {
        reason: "invalid-arguments",
        code: Code.InvalidArgument,
        violations: [e.violation()],
      });
    }
    throw e;
  }
  return stringifyJson(v);
}

/**
 * {@link fixArguments} on a decoded object, in place, as an executor runs
 * it: an error is the ToolError `invalid arguments, nothing was sent:` with
 * one violation.
 */
export function fixTree(
  obj: JsonMap,
  schema: DescMessage,
  strict: boolean,
): void {
  try {
    fixMessage(obj, schema, strict, "");
  } catch (e) {
    if (e instanceof FixupError) {
      throw violationError([e.violation()]);
    }
    throw e;
  }
}

/** A ToolError for arguments the decoder refused (no field known). */
export function invalidArguments(what: string, cause?: unknown): ToolError {
  return argumentsError("invalid-value", what, cause);
}

/** What the fix-up refused: the field's path and what is wrong with it. */
class FixupError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly oneof = false,
  ) {
    super(message);
  }

  violation(): Violation {
    return {
      field: this.field,
      reason: "invalid-value",
      message: this.message,
    };
  }
}

/**
 * The field of a JSON key: by proto name (the schema's), then by JSON name.
 */
export function fieldOf(
  schema: DescMessage,
  key: string,
): DescField | undefined {
  return (
    schema.fields.find((f) => f.name === key) ??
    schema.fields.find((f) => f.jsonName === key)
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

/** What one value of a field (an item of a list, a value of a map) is. */
type Element =
  | { readonly kind: "scalar"; readonly scalar: ScalarType }
  | { readonly kind: "enum"; readonly enum: DescEnum }
  | { readonly kind: "message"; readonly message: DescMessage };

function elementOf(field: DescField): Element {
  // Every kind of field (single, list, map) sets exactly one of message,
  // enum and scalar, for its values.
  if (field.message !== undefined) {
    return { kind: "message", message: field.message };
  }
  if (field.enum !== undefined) {
    return { kind: "enum", enum: field.enum };
  }
  return { kind: "scalar", scalar: field.scalar };
}

function isValue(field: DescField): boolean {
  return messageOf(field)?.typeName === "google.protobuf.Value";
}

function fixMessage(
  obj: JsonMap,
  schema: DescMessage,
  strict: boolean,
  path: string,
): void {
  const present = new Map<DescField, string>();
  for (const key of sortedKeys(obj)) {
    const field = fieldOf(schema, key);
    if (field === undefined) {
      continue;
    }
    const v = obj[key] as JsonTree;
    if (v === null) {
      if (field.fieldKind !== "message" || !isValue(field)) {
        delete obj[key];
      }
      continue;
    }
    obj[key] = fixField(v, field, strict, childPath(path, key));
    present.set(field, key);
  }
  // As in Go and Python: the fields' own errors first, then the oneofs.
  for (const oneof of schema.oneofs) {
    const set = oneof.fields.filter((f) => present.has(f));
    if (set.length > 1) {
      throw new FixupError(
        childPath(path, present.get(set[1]!)!),
        `${quote(set[0]!.name)} and ${quote(set[1]!.name)} are members of oneof ${quote(oneof.name)}: set only one`,
        true,
      );
    }
  }
}

function fixField(
  v: JsonTree,
  field: DescField,
  strict: boolean,
  path: string,
): JsonTree {
  if (field.fieldKind === "map") {
    return fixMap(v, field, strict, path);
  }
  const element = elementOf(field);
  if (field.fieldKind !== "list") {
    return fixElement(v, element, strict, path);
  }
  if (!Array.isArray(v)) {
    throw kindError(path, "an array", v);
  }
  for (let i = 0; i < v.length; i++) {
    const item = v[i] as JsonTree;
    if (item !== null) {
      v[i] = fixElement(item, element, strict, `${path}[${i}]`);
    }
  }
  return v;
}

/** Rebuild a map given as `[{"key": k, "value": v}, …]`, then fix its values. */
function fixMap(
  v: JsonTree,
  field: DescField,
  strict: boolean,
  path: string,
): JsonTree {
  const obj = entriesObject(v, path, true);
  const element = elementOf(field);
  for (const key of sortedKeys(obj)) {
    const item = obj[key] as JsonTree;
    if (item === null) {
      if (!isValue(field)) {
        delete obj[key];
      }
      continue;
    }
    obj[key] = fixElement(item, element, strict, `${path}.${key}`);
  }
  return obj;
}

/**
 * v as an object: kept when it is one; rebuilt from an entries array
 * (later entries win; keys in their JSON spelling when anyKey, else
 * strings only).
 */
function entriesObject(v: JsonTree, path: string, anyKey: boolean): JsonMap {
  if (isJsonMap(v)) {
    return v;
  }
  if (!Array.isArray(v)) {
    throw kindError(path, "an object", v);
  }
  const obj = createJsonMap();
  v.forEach((entry, i) => {
    const key = isJsonMap(entry) ? entry["key"] : undefined;
    if (typeof key === "string") {
      obj[key] = entryValue(entry as JsonMap);
    } else if (anyKey && key instanceof JsonNumber) {
      obj[key.text] = entryValue(entry as JsonMap);
    } else if (anyKey && typeof key === "boolean") {
      obj[String(key)] = entryValue(entry as JsonMap);
    } else {
      throw new FixupError(
        path,
        `entry ${i} is not a {"key": …, "value": …} object`,
      );
    }
  });
  return obj;
}

function entryValue(entry: JsonMap): JsonTree {
  return entry["value"] ?? null;
}

/** Fix and check one value (not null) of a field. */
function fixElement(
  v: JsonTree,
  element: Element,
  strict: boolean,
  path: string,
): JsonTree {
  switch (element.kind) {
    case "enum":
      if (typeof v !== "string" && !(v instanceof JsonNumber)) {
        throw kindError(path, "an enum value", v);
      }
      if (
        typeof v === "string" &&
        !element.enum.values.some((e) => e.name === v)
      ) {
        throw enumNameError(path, element.enum, v);
      }
      return v;
    case "scalar":
      checkScalar(v, element.scalar, path);
      return v;
    case "message":
      return fixMessageValue(v, element.message, strict, path);
  }
}

const wrapperScalars: Readonly<Record<string, ScalarType>> = {
  "google.protobuf.BoolValue": ScalarType.BOOL,
  "google.protobuf.StringValue": ScalarType.STRING,
  "google.protobuf.BytesValue": ScalarType.BYTES,
  "google.protobuf.Int32Value": ScalarType.INT32,
  "google.protobuf.UInt32Value": ScalarType.UINT32,
  "google.protobuf.Int64Value": ScalarType.INT64,
  "google.protobuf.UInt64Value": ScalarType.UINT64,
  "google.protobuf.FloatValue": ScalarType.FLOAT,
  "google.protobuf.DoubleValue": ScalarType.DOUBLE,
};

const durationPattern = /^-?[0-9]+(\.[0-9]{1,9})?s$/;
const timestampPattern =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/;

function fixMessageValue(
  v: JsonTree,
  schema: DescMessage,
  strict: boolean,
  path: string,
): JsonTree {
  const typeName = schema.typeName;
  switch (typeName) {
    case "google.protobuf.Value":
      return typeof v === "string" && strict ? parseValue(v) : v;
    case "google.protobuf.ListValue":
      if (!Array.isArray(v)) {
        throw kindError(path, "an array", v);
      }
      if (strict) {
        for (let i = 0; i < v.length; i++) {
          const item = v[i];
          if (typeof item === "string") {
            v[i] = parseValue(item);
          }
        }
      }
      return v;
    case "google.protobuf.Struct": {
      if (isJsonMap(v)) {
        return v;
      }
      const obj = entriesObject(v, path, false);
      for (const key of Object.keys(obj)) {
        const value = obj[key] as JsonTree;
        obj[key] = typeof value === "string" ? parseValue(value) : value;
      }
      return obj;
    }
    case "google.protobuf.Duration":
      if (typeof v !== "string" || !durationPattern.test(v)) {
        throw kindError(path, `a duration such as "1.5s"`, v);
      }
      return v;
    case "google.protobuf.Timestamp":
      if (typeof v !== "string" || !timestampPattern.test(v)) {
        throw kindError(path, "an RFC 3339 timestamp", v);
      }
      return v;
    case "google.protobuf.FieldMask":
      checkScalar(v, ScalarType.STRING, path);
      return v;
  }
  const wrapped = wrapperScalars[typeName];
  if (wrapped !== undefined) {
    checkScalar(v, wrapped, path);
    return v;
  }
  if (!isJsonMap(v)) {
    throw kindError(path, "an object", v);
  }
  if (!typeName.startsWith("google.protobuf.")) {
    fixMessage(v, schema, strict, path);
  }
  return v;
}

const numberPattern = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** Check a scalar's JSON kind; bytes must also be valid base64. */
function checkScalar(v: JsonTree, scalar: ScalarType, path: string): void {
  switch (scalar) {
    case ScalarType.BOOL:
      if (typeof v !== "boolean") {
        throw kindError(path, "a boolean", v);
      }
      return;
    case ScalarType.STRING:
      if (typeof v !== "string") {
        throw kindError(path, "a string", v);
      }
      return;
    case ScalarType.BYTES:
      if (typeof v !== "string") {
        throw kindError(path, "a base64 string", v);
      }
      if (!isBase64(v)) {
        throw new FixupError(path, `invalid base64 ${quote(v)}`);
      }
      return;
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      if (
        !(v instanceof JsonNumber) &&
        !(
          typeof v === "string" &&
          (numberPattern.test(v) ||
            v === "NaN" ||
            v === "Infinity" ||
            v === "-Infinity")
        )
      ) {
        throw kindError(path, "a number", v);
      }
      return;
    default:
      if (
        !(v instanceof JsonNumber) &&
        !(typeof v === "string" && numberPattern.test(v))
      ) {
        throw kindError(path, "an integer", v);
      }
  }
}

const base64Std =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const base64Url =
  /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$/;

/**
 * Report whether s is base64 as Go's protojson reads it: the standard or the
 * URL-safe alphabet (not mixed), padding optional but complete when present.
 */
export function isBase64(s: string): boolean {
  return base64Std.test(s) || base64Url.test(s);
}

/** How many names of an enum an error lists before "and N more". */
const enumNamesListed = 10;

/**
 * A name that is not one of the enum's: the decoders, which skip what they
 * do not know, would leave the field unset instead (docs/runtime.md).
 */
function enumNameError(path: string, e: DescEnum, name: string): FixupError {
  const names = e.values.slice(0, enumNamesListed).map((v) => v.name);
  const more = e.values.length - enumNamesListed;
  return new FixupError(
    path,
    `expected a name of enum ${e.typeName} (${names.join(", ")}${more > 0 ? `, and ${more} more` : ""}), got ${quote(name)}`,
  );
}

/** At path, `expected <kind>, got <value>`. */
function kindError(path: string, kind: string, v: JsonTree): FixupError {
  return new FixupError(path, `expected ${kind}, got ${shown(v)}`);
}

/** A value as a kind error shows it: its JSON text, or its kind. */
function shown(v: JsonTree): string {
  if (typeof v === "string") {
    return quote(v);
  }
  if (v instanceof JsonNumber) {
    return v.text;
  }
  if (v === null || typeof v === "boolean") {
    return String(v);
  }
  return Array.isArray(v) ? "an array" : "an object";
}

/** Read a string given for a google.protobuf.Value as JSON; else keep it. */
function parseValue(text: string): JsonTree {
  const v = tryParseJson(text);
  return v === undefined ? text : v;
}

const int64Types = new Set([
  ScalarType.INT64,
  ScalarType.UINT64,
  ScalarType.SINT64,
  ScalarType.FIXED64,
  ScalarType.SFIXED64,
]);

/**
 * Convert fixed arguments to the JSON value protobuf-es's fromJson reads.
 * An integer written as a number for a 64-bit field becomes a string, so
 * that no digit is lost (protojson reads such numbers exactly). Keys that
 * match no field are left out (the decoder would discard them). Objects
 * have no prototype, so a `__proto__` key is an ordinary key: decoded when
 * the message has a field of that name. A map, Struct or Value key
 * `__proto__` is refused: protobuf-es keeps maps in plain objects, where it
 * would reach a prototype.
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
    // Past the double range (1e400): Go's protojson refuses it; protobuf-es
    // would read Infinity into a Value and send what no response can encode.
    const n = Number(v.text);
    if (!Number.isFinite(n)) {
      throw violationError([
        {
          field: path,
          reason: "invalid-value",
          message: `number ${v.text} is out of range`,
        },
      ]);
    }
    return n;
  }
  if (Array.isArray(v)) {
    return v.map((item, i) => toDecoderJson(item, schema, `${path}[${i}]`));
  }
  const out = Object.create(null) as { [key: string]: JsonValue };
  if (schema === undefined || schema.typeName.startsWith("google.protobuf.")) {
    // A Struct, a Value, or another well-known type's JSON object.
    for (const key of Object.keys(v)) {
      refuseProtoKey(key, path);
      out[key] = toDecoderJson(
        v[key] as JsonTree,
        undefined,
        childPath(path, key),
      );
    }
    return out;
  }
  for (const key of Object.keys(v)) {
    const field = fieldOf(schema, key);
    if (field === undefined) {
      continue;
    }
    const where = childPath(path, key);
    const item = v[key] as JsonTree;
    const int64 = is64BitInteger(field);
    if (int64 && item instanceof JsonNumber) {
      out[key] = int64Json(item);
    } else if (int64 && Array.isArray(item)) {
      out[key] = item.map((x, i) =>
        x instanceof JsonNumber
          ? int64Json(x)
          : toDecoderJson(x, undefined, `${where}[${i}]`),
      );
    } else if (field.fieldKind === "map" && isJsonMap(item)) {
      const map = Object.create(null) as { [key: string]: JsonValue };
      for (const k of Object.keys(item)) {
        refuseProtoKey(k, where);
        const x = item[k] as JsonTree;
        map[k] =
          int64 && x instanceof JsonNumber
            ? int64Json(x)
            : toDecoderJson(x, messageOf(field), childPath(where, k));
      }
      out[key] = map;
    } else {
      out[key] = toDecoderJson(item, messageOf(field), where);
    }
  }
  return out;
}

function refuseProtoKey(key: string, path: string): void {
  if (key === "__proto__") {
    throw violationError([
      {
        field: path,
        reason: "invalid-value",
        message: `map key "__proto__" is not supported`,
      },
    ]);
  }
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
