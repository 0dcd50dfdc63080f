// A message's protobuf JSON written byte for byte as Go's protojson writes
// it, compacted (docs/mcp.md, "Calls" step 4: every language writes the same
// text): protobuf-es decides the values; fields follow their declaration
// order (protobuf-es: field numbers), map keys are sorted as Go sorts them,
// Struct keys by their UTF-8 bytes, an Any has `@type` first, -0 is
// written `-0`, and a float field has the shortest digits of its 32-bit
// value.
import {
  clone,
  create,
  createRegistry,
  fromBinary,
  ScalarType,
  toBinary,
  toJson,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type JsonWriteOptions,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { BytesValueSchema, type Any } from "@bufbuild/protobuf/wkt";
import { compareBytes, quote } from "./json.js";

/** Options of {@link toProtoJsonString}. */
export type ProtoJsonOptions = Partial<
  Pick<JsonWriteOptions, "useProtoFieldName" | "alwaysEmitImplicit">
> & {
  /** The message types an `Any` may hold. */
  readonly registry?: Registry | undefined;
};

/**
 * The JSON of message as Go's protojson writes it, without white space,
 * byte for byte. An `Any` of a type the registry does not hold is written
 * as its type URL and its bytes, base64 (`{"@type": url, "value":
 * base64}`; docs/runtime.md, "Responses"), where protobuf-es's `toJson`
 * throws. Throws what `toJson` throws otherwise.
 */
export function toProtoJsonString(
  schema: DescMessage,
  message: Message,
  options: ProtoJsonOptions = {},
): string {
  const { out, renamed } = write(schema, message, options);
  if (options.useProtoFieldName === true) {
    for (const [at, key] of renamed) {
      out[at] = key;
    }
  }
  return out.join("");
}

/**
 * {@link toProtoJsonString} in both namings at once, `alwaysEmitImplicit`
 * as given: the JSON names' text and the proto names' (one encoding; the
 * keys differ, nothing else).
 */
export function toProtoJsonStrings(
  schema: DescMessage,
  message: Message,
  options: Omit<ProtoJsonOptions, "useProtoFieldName"> = {},
): { readonly jsonNames: string; readonly protoNames: string } {
  const { out, renamed } = write(schema, message, options);
  const jsonNames = out.join("");
  for (const [at, key] of renamed) {
    out[at] = key;
  }
  return { jsonNames, protoNames: out.join("") };
}

/**
 * The text of message in pieces, keys in JSON names, with where a proto
 * name differs: the piece's index and the quoted proto name.
 */
function write(
  schema: DescMessage,
  message: Message,
  options: ProtoJsonOptions,
): { out: string[]; renamed: [number, string][] } {
  let registry = options.registry;
  let opaqueUrls: readonly string[] = [];
  let json: JsonValue;
  // Read by JSON name, written by either: protobuf-es writes a proto name
  // `__proto__` into a plain object, where it sets the prototype instead.
  const read = { ...options, useProtoFieldName: false };
  try {
    json = toJson(schema, message, read);
  } catch (e) {
    const opaque = opaqueAnys(schema, message, registry);
    if (opaque === undefined) {
      throw e;
    }
    registry = opaque.registry;
    opaqueUrls = opaque.urls;
    json = toJson(schema, opaque.message, { ...read, registry });
  }
  const ctx: Context = { registry, opaqueUrls, out: [], renamed: [] };
  writeMessage(schema, json, ctx);
  return ctx;
}

/** What the writers share: the registry, the output. */
interface Context {
  readonly registry: Registry | undefined;
  /** The own type URLs of the Anys opaqueAnys rewrote, by marker index. */
  readonly opaqueUrls: readonly string[];
  readonly out: string[];
  /** The pieces of `out` that are a field's JSON name, and its proto name. */
  readonly renamed: [number, string][];
}

const structName = "google.protobuf.Struct";
const valueName = "google.protobuf.Value";
const listValueName = "google.protobuf.ListValue";
const anyName = "google.protobuf.Any";

/**
 * Well-known types whose JSON is not an object of their fields; inside an
 * Any they sit under `"value"`.
 */
const customJson = new Set([
  anyName,
  structName,
  valueName,
  listValueName,
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.Timestamp",
  "google.protobuf.BoolValue",
  "google.protobuf.BytesValue",
  "google.protobuf.DoubleValue",
  "google.protobuf.FloatValue",
  "google.protobuf.Int32Value",
  "google.protobuf.Int64Value",
  "google.protobuf.StringValue",
  "google.protobuf.UInt32Value",
  "google.protobuf.UInt64Value",
]);

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Write the JSON of a desc message. */
function writeMessage(desc: DescMessage, v: JsonValue, ctx: Context): void {
  const { out } = ctx;
  switch (desc.typeName) {
    case structName:
      return writeStruct(v, out);
    case valueName:
    case listValueName:
      return writeStructValue(v, out);
    case anyName:
      return writeAny(v, ctx);
  }
  if (desc.typeName === "google.protobuf.FloatValue") {
    return writePlain(float32Json(v), out);
  }
  if (customJson.has(desc.typeName) || !isObject(v)) {
    return writePlain(v, out);
  }
  out.push("{");
  writeFields(desc, v, ctx, false);
  out.push("}");
}

/**
 * Write the members of a message's JSON object but `@type`: its fields in
 * declaration order, then anything else (extensions; every member of an
 * unknown type) as protobuf-es wrote it; after a member already written
 * when `more`.
 */
function writeFields(
  desc: DescMessage | undefined,
  v: JsonObject,
  ctx: Context,
  more: boolean,
): void {
  const { out } = ctx;
  const done = new Set<string>(["@type"]);
  const member = (key: string, protoName = key) => {
    out.push(more ? "," : "", quote(key), ":");
    if (protoName !== key) {
      ctx.renamed.push([out.length - 2, quote(protoName)]);
    }
    more = true;
    done.add(key);
  };
  for (const field of desc?.fields ?? []) {
    const key = field.jsonName;
    // Own members only: a field named "constructor" or "toString" that is
    // not set must not read the object's prototype.
    const value = Object.prototype.hasOwnProperty.call(v, key)
      ? v[key]
      : undefined;
    if (value !== undefined) {
      member(key, field.name);
      writeField(field, value, ctx);
    }
  }
  for (const [key, value] of Object.entries(v)) {
    if (value !== undefined && !done.has(key)) {
      member(key);
      writePlain(value, out);
    }
  }
}

/** Write the JSON of one field's value. */
function writeField(field: DescField, v: JsonValue, ctx: Context): void {
  const { out } = ctx;
  switch (field.fieldKind) {
    case "message":
      return writeMessage(field.message, v, ctx);
    case "list":
      if (field.listKind !== "message" || !Array.isArray(v)) {
        return writePlain(
          field.listKind === "scalar" && field.scalar === ScalarType.FLOAT
            ? float32Json(v)
            : v,
          out,
        );
      }
      out.push("[");
      v.forEach((item, i) => {
        out.push(i === 0 ? "" : ",");
        writeMessage(field.message, item, ctx);
      });
      out.push("]");
      return;
    case "map": {
      if (!isObject(v)) {
        return writePlain(v, out);
      }
      out.push("{");
      sortMapKeys(Object.keys(v), field.mapKey).forEach((key, i) => {
        out.push(i === 0 ? "" : ",", quote(key), ":");
        const value = v[key] as JsonValue;
        if (field.mapKind === "message") {
          writeMessage(field.message, value, ctx);
        } else {
          writePlain(
            field.scalar === ScalarType.FLOAT ? float32Json(value) : value,
            out,
          );
        }
      });
      out.push("}");
      return;
    }
    default:
      return writePlain(
        field.scalar === ScalarType.FLOAT ? float32Json(v) : v,
        out,
      );
  }
}

/**
 * A float field's value as Go writes it: the shortest decimal that reads
 * back as the same 32-bit float (`0.1`, where protobuf-es writes the
 * float's double value, `0.10000000149011612`); anything else as it is.
 */
function float32Json(v: JsonValue): JsonValue {
  if (Array.isArray(v)) {
    return v.map(float32Json);
  }
  if (typeof v !== "number") {
    return v;
  }
  return shortestFloat32(v);
}

/**
 * The double of the shortest decimal that reads back as the same 32-bit
 * float as `x` (`3e-45` for the float nearest 2.8e-45).
 */
export function shortestFloat32(x: number): number {
  if (!Number.isFinite(x) || x === 0) {
    return x;
  }
  const target = Math.fround(x);
  for (let precision = 1; precision < 10; precision++) {
    const shorter = Number(x.toPrecision(precision));
    if (Math.fround(shorter) === target) {
      return shorter;
    }
  }
  return x;
}

/**
 * Map keys in Go's order: `false` before `true`, integers by value,
 * strings by their UTF-8 bytes.
 */
function sortMapKeys(keys: string[], type: ScalarType): string[] {
  switch (type) {
    case ScalarType.STRING:
      return keys.sort(compareBytes);
    case ScalarType.BOOL:
      return keys.sort((a, b) => (a === b ? 0 : a === "false" ? -1 : 1));
    default:
      return keys.sort((a, b) => {
        const x = BigInt(a);
        const y = BigInt(b);
        return x < y ? -1 : x > y ? 1 : 0;
      });
  }
}

/** A Struct's JSON: keys in byte order, each value a `Value`. */
function writeStruct(v: JsonValue, out: string[]): void {
  if (!isObject(v)) {
    return writePlain(v, out);
  }
  out.push("{");
  Object.keys(v)
    .sort(compareBytes)
    .forEach((key, i) => {
      out.push(i === 0 ? "" : ",", quote(key), ":");
      writeStructValue(v[key] as JsonValue, out);
    });
  out.push("}");
}

/** A `Value`'s JSON (or a `ListValue`'s): objects are Structs. */
function writeStructValue(v: JsonValue, out: string[]): void {
  if (Array.isArray(v)) {
    out.push("[");
    v.forEach((item, i) => {
      out.push(i === 0 ? "" : ",");
      writeStructValue(item, out);
    });
    out.push("]");
    return;
  }
  if (isObject(v)) {
    return writeStruct(v, out);
  }
  writePlain(v, out);
}

/**
 * An Any's JSON, `@type` first: then the packed message's fields, or its
 * JSON under `"value"` for a well-known type written otherwise than as an
 * object of fields.
 */
function writeAny(v: JsonValue, ctx: Context): void {
  const { out } = ctx;
  const type = isObject(v) ? v["@type"] : undefined;
  if (!isObject(v) || typeof type !== "string") {
    return writePlain(v, out);
  }
  const opaque = type.startsWith(opaqueMarker)
    ? ctx.opaqueUrls[parseInt(type.slice(opaqueMarker.length), 10)]
    : undefined;
  out.push('{"@type":', quote(opaque ?? type));
  const desc = ctx.registry?.getMessage(type.slice(type.lastIndexOf("/") + 1));
  if (desc !== undefined && customJson.has(desc.typeName)) {
    out.push(',"value":');
    writeMessage(desc, v["value"] ?? null, ctx);
  } else {
    writeFields(desc, v, ctx, true);
  }
  out.push("}");
}

/** Write v as it is: numbers in their shortest form, `-0` for negative zero. */
function writePlain(v: JsonValue, out: string[]): void {
  if (v === null) {
    out.push("null");
  } else if (typeof v === "number") {
    out.push(Object.is(v, -0) ? "-0" : String(v));
  } else if (typeof v === "string") {
    out.push(quote(v));
  } else if (typeof v === "boolean") {
    out.push(v ? "true" : "false");
  } else if (Array.isArray(v)) {
    out.push("[");
    v.forEach((item, i) => {
      out.push(i === 0 ? "" : ",");
      writePlain(item, out);
    });
    out.push("]");
  } else {
    out.push("{");
    let first = true;
    for (const [key, value] of Object.entries(v)) {
      if (value !== undefined) {
        out.push(first ? "" : ",", quote(key), ":");
        first = false;
        writePlain(value, out);
      }
    }
    out.push("}");
  }
}

/** How deep opaqueAnys looks into Anys inside Anys. */
const maxAnyDepth = 32;

/**
 * The start of the type URL opaqueAnys gives an Any it rewrote: then the
 * index of its own URL in the list it returns, and the name of the type
 * the Any now holds, `\0ai-tools-opaque/3/google.protobuf.BytesValue`
 * (no real type URL holds a NUL).
 */
const opaqueMarker = "\0ai-tools-opaque/";

/**
 * A copy of message in which every Any whose type `registry` does not hold
 * holds its bytes as a google.protobuf.BytesValue under a marked type URL
 * (protojson writes a BytesValue in an Any as `"value": base64`; writeAny
 * writes the Any's own URL back), with their own URLs by marker index and
 * a registry that holds BytesValue. Looks into the Anys it can resolve
 * too. Undefined when there is no such Any.
 */
function opaqueAnys(
  schema: DescMessage,
  message: Message,
  registry: Registry | undefined,
):
  | { message: Message; registry: Registry; urls: readonly string[] }
  | undefined {
  const copy = clone(schema, message);
  const urls: string[] = [];
  rewriteAnys(reflect(schema, copy), registry, urls, 0);
  return urls.length === 0
    ? undefined
    : { message: copy, registry: withBytesValue(registry), urls };
}

/** True when `m` holds an Any whose type `registry` lacks (see opaqueAnys). */
function rewriteAnys(
  m: ReflectMessage,
  registry: Registry | undefined,
  urls: string[],
  depth: number,
): boolean {
  if (m.desc.typeName === anyName) {
    return rewriteAny(m.message as Any, registry, urls, depth);
  }
  let changed = false;
  for (const field of m.fields) {
    if (field.message === undefined || !m.isSet(field)) {
      continue;
    }
    const value = m.get(field);
    const items =
      field.fieldKind === "message"
        ? [value as ReflectMessage]
        : field.fieldKind === "list"
          ? (value as Iterable<ReflectMessage>)
          : (value as ReadonlyMap<unknown, ReflectMessage>).values();
    for (const item of items) {
      changed = rewriteAnys(item, registry, urls, depth) || changed;
    }
  }
  return changed;
}

function rewriteAny(
  any: Any,
  registry: Registry | undefined,
  urls: string[],
  depth: number,
): boolean {
  if (any.typeUrl === "" || depth >= maxAnyDepth) {
    return false;
  }
  const desc = registry?.getMessage(
    any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1),
  );
  if (desc === undefined) {
    any.value = toBinary(
      BytesValueSchema,
      create(BytesValueSchema, { value: any.value }),
    );
    urls.push(any.typeUrl);
    any.typeUrl = `${opaqueMarker}${urls.length - 1}/${BytesValueSchema.typeName}`;
    return true;
  }
  let inner: Message;
  try {
    inner = fromBinary(desc, any.value);
  } catch {
    return false; // toJson reports it
  }
  if (!rewriteAnys(reflect(desc, inner), registry, urls, depth + 1)) {
    return false;
  }
  any.value = toBinary(desc, inner);
  return true;
}

/** `registry` with google.protobuf.BytesValue, which it may lack. */
function withBytesValue(registry: Registry | undefined): Registry {
  return registry === undefined
    ? createRegistry(BytesValueSchema)
    : createRegistry(registry, BytesValueSchema);
}
