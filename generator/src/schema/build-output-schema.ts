import { ScalarType } from "@bufbuild/protobuf";
import type { DescEnum, DescField, DescMessage } from "../read/descriptors.js";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { fieldDescription } from "./field-description.js";
import type { JsonSchema } from "./json-schema.js";
import { bytesSchema } from "./well-known.js";

/**
 * How the response is written as JSON: which field names, and whether fields
 * without presence are written when they hold their default value.
 */
export interface OutputEncoding {
  /**
   * Proto field names (`link_id`; Go `UseProtoNames`, Python
   * `preserving_proto_field_name`, protobuf-es `useProtoFieldName`) rather
   * than JSON names (`linkId`).
   */
  readonly protoNames: boolean;
  /**
   * Scalars, enums, lists and maps without presence are written even when
   * they hold their default (Go `EmitDefaultValues` or `EmitUnpopulated`,
   * Python `always_print_fields_with_no_presence`, protobuf-es
   * `alwaysEmitImplicit`), so the schema lists them in `required`.
   */
  readonly emitDefaults: boolean;
}

/** The encoding of MCP results (docs/mcp.md): proto names, defaults written. */
export const mcpOutputEncoding: OutputEncoding = {
  protoNames: true,
  emitDefaults: true,
};

/**
 * The key under which a result's JSON is wrapped in an object, so that
 * every structured result is a JSON object: `"messages"` for the collected
 * messages of a server stream, `"value"` for a response type whose JSON is
 * not an object (a well-known type such as Timestamp), `""` when the
 * response's JSON is the result as it is.
 */
export type OutputWrapKey = "" | "messages" | "value";

/** The JSON Schema of a tool's result, and how the result is wrapped. */
export interface OutputSchema {
  /** A JSON Schema (draft 2020-12) whose top level is `"type": "object"`. */
  readonly schema: JsonSchema;
  readonly wrapKey: OutputWrapKey;
}

const int64Pattern = "^-?[0-9]+$";
const uint64Pattern = "^[0-9]+$";
/** Duration as the encoders write it: up to 315,576,000,000 s, 0/3/6/9 digits. */
const durationPattern =
  "^-?(0|[1-9][0-9]{0,11})(\\.[0-9]{3}|\\.[0-9]{6}|\\.[0-9]{9})?s$";

/** A root whose JSON is an object: an ordinary message, Empty, Struct, Any. */
const objectWellKnownTypes = new Set([
  "google.protobuf.Empty",
  "google.protobuf.Struct",
  "google.protobuf.Any",
]);

/**
 * Build the schema of exactly what a protobuf JSON encoder writes for
 * `message` with the given encoding (by default the MCP one): 64-bit
 * integers as strings, NaN and infinities as strings, enums by name (or by
 * number for a value an open enum does not declare), bytes as base64, maps
 * as objects, well-known types in their JSON form, every field included
 * (output-only and skipped ones too). Fields with presence are never
 * required; those outside a oneof (proto3 `optional` is one) may be null,
 * as Go's `EmitUnpopulated` writes them when unset.
 * Recursive messages are defined once under `$defs`. A server stream's
 * messages are wrapped as `{"messages": [...]}`. `shared` keeps the
 * schemas of messages with no recursion below them, by full name, for the
 * next calls with the same encoding (the schemas are never modified).
 */
export function buildOutputSchema(
  message: DescMessage,
  serverStreaming: boolean,
  encoding: OutputEncoding = mcpOutputEncoding,
  shared: Map<string, JsonSchema> = new Map(),
): OutputSchema {
  const body = createBuilder(message, encoding, shared);
  const wrapKey = outputWrapKey(message, serverStreaming);
  let schema =
    wrapKey === ""
      ? body.root()
      : wrapped(
          wrapKey,
          serverStreaming ? { type: "array", items: body.root() } : body.root(),
        );
  const defs = body.defs();
  if (defs !== undefined) {
    schema = { ...schema, $defs: defs };
  }
  return { schema, wrapKey };
}

/** How the result of a tool with this response type is wrapped. */
export function outputWrapKey(
  message: DescMessage,
  serverStreaming: boolean,
): OutputWrapKey {
  if (serverStreaming) {
    return "messages";
  }
  return wellKnownOutput(message.typeName) !== undefined &&
    !objectWellKnownTypes.has(message.typeName)
    ? "value"
    : "";
}

function wrapped(key: string, value: JsonSchema): JsonSchema {
  return { type: "object", properties: { [key]: value }, required: [key] };
}

interface Builder {
  /** The schema of the root message, expanded in place. */
  root(): JsonSchema;
  /** The definitions the schema refers to, if any. */
  defs(): JsonSchema | undefined;
}

function createBuilder(
  root: DescMessage,
  encoding: OutputEncoding,
  shared: Map<string, JsonSchema>,
): Builder {
  const recursive = recursiveMessages(root);
  const defs = new Map<string, JsonSchema>();
  let refs = 0;

  const messageValue = (message: DescMessage): JsonSchema => {
    const wkt = wellKnownOutput(message.typeName);
    if (wkt !== undefined) {
      return wkt;
    }
    if (!recursive.has(message.typeName)) {
      let schema = shared.get(message.typeName);
      if (schema === undefined) {
        const before = refs;
        schema = expand(message);
        if (refs === before) {
          shared.set(message.typeName, schema); // no recursion below it
        }
      }
      return schema;
    }
    refs++;
    if (!defs.has(message.typeName)) {
      defs.set(message.typeName, {}); // placeholder: stops the recursion
      defs.set(message.typeName, expand(message));
    }
    return { $ref: `#/$defs/${message.typeName}` };
  };

  const singular = (field: DescField): JsonSchema => {
    switch (field.fieldKind) {
      case "scalar":
        return scalarOutput(field.scalar);
      case "enum":
        return enumOutput(field.enum);
      case "message":
        return messageValue(field.message);
      case "list":
        return {
          type: "array",
          items:
            field.listKind === "message"
              ? messageValue(field.message)
              : field.listKind === "enum"
                ? enumOutput(field.enum)
                : scalarOutput(field.scalar),
        };
      case "map": {
        const map: JsonSchema = {
          type: "object",
          additionalProperties:
            field.mapKind === "message"
              ? messageValue(field.message)
              : field.mapKind === "enum"
                ? enumOutput(field.enum)
                : scalarOutput(field.scalar),
        };
        const names = mapKeyNames(field.mapKey);
        if (names !== undefined) {
          map["propertyNames"] = names;
        }
        return map;
      }
    }
  };

  function expand(message: DescMessage): JsonSchema {
    // No prototype: a field named `__proto__` is an ordinary key.
    const properties = Object.create(null) as JsonSchema;
    const required: string[] = [];
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const name = encoding.protoNames ? field.name : field.jsonName;
      let schema = singular(field);
      if (encoding.emitDefaults && writesNull(field)) {
        schema = nullable(schema);
      }
      const description = fieldDescription(field);
      if (description !== "") {
        schema = { ...schema, description };
      }
      properties[name] = schema;
      if (encoding.emitDefaults && alwaysWritten(field)) {
        required.push(name);
      }
    }
    const result: JsonSchema = { type: "object", properties };
    if (required.length > 0) {
      result["required"] = required;
    }
    return result;
  }

  return {
    root() {
      const wkt = wellKnownOutput(root.typeName);
      return wkt ?? expand(root);
    },
    defs() {
      if (defs.size === 0) {
        return undefined;
      }
      return Object.fromEntries(defs);
    },
  };
}

/**
 * The messages reachable from `root` that a schema must define once and
 * refer to: the targets of the back edges of a depth-first walk over
 * message-typed fields. Every cycle holds one, so expanding every other
 * message in place terminates.
 */
function recursiveMessages(root: DescMessage): Set<string> {
  const marked = new Set<string>();
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (message: DescMessage): void => {
    if (wellKnownOutput(message.typeName) !== undefined) {
      return;
    }
    if (onPath.has(message.typeName)) {
      marked.add(message.typeName);
      return;
    }
    if (done.has(message.typeName)) {
      return;
    }
    onPath.add(message.typeName);
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const target =
        field.fieldKind === "message"
          ? field.message
          : (field.fieldKind === "list" && field.listKind === "message") ||
              (field.fieldKind === "map" && field.mapKind === "message")
            ? field.message
            : undefined;
      if (target !== undefined) {
        visit(target);
      }
    }
    onPath.delete(message.typeName);
    done.add(message.typeName);
  };
  visit(root);
  return marked;
}

/** A singular field with presence outside any oneof: Go writes null when unset. */
function writesNull(field: DescField): boolean {
  return (
    (field.fieldKind === "message" ||
      field.fieldKind === "scalar" ||
      field.fieldKind === "enum") &&
    field.presence !== FeatureSet_FieldPresence.IMPLICIT &&
    field.oneof === undefined &&
    field.proto.proto3Optional !== true
  );
}

/** A field every encoder writes when defaults are written: no presence. */
function alwaysWritten(field: DescField): boolean {
  if (field.fieldKind === "list" || field.fieldKind === "map") {
    return true;
  }
  return (
    field.fieldKind !== "message" &&
    field.oneof === undefined &&
    field.presence === FeatureSet_FieldPresence.IMPLICIT
  );
}

/** `anyOf` with null; a schema that already admits anything stays as it is. */
function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0 || schema["type"] === "null") {
    return schema;
  }
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf) && Object.keys(schema).length === 1) {
    return { anyOf: [...anyOf, { type: "null" }] };
  }
  return { anyOf: [schema, { type: "null" }] };
}

/** float and double: a number, or NaN and the infinities as strings. */
function floatOutput(): JsonSchema {
  return {
    anyOf: [
      { type: "number" },
      { type: "string", enum: ["NaN", "Infinity", "-Infinity"] },
    ],
  };
}

function scalarOutput(scalar: ScalarType): JsonSchema {
  switch (scalar) {
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return bytesSchema(false);
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      return floatOutput();
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: "string", pattern: int64Pattern };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "string", pattern: uint64Pattern };
    default:
      return { type: "integer" };
  }
}

/**
 * Every value name, in declaration order, or an integer: an open enum's
 * field can hold a number the enum does not declare (a newer server), and
 * encoders write it as a number. A closed enum's field too, in a Go
 * server or executor: protobuf-go reads every enum as open (its known
 * non-conformance), and the output schema is the same for every target.
 * NullValue is written as null.
 */
function enumOutput(desc: DescEnum): JsonSchema {
  if (desc.typeName === "google.protobuf.NullValue") {
    return { type: "null" };
  }
  const names: JsonSchema = {
    type: "string",
    enum: desc.values.map((v) => v.name),
  };
  return { anyOf: [names, { type: "integer" }] };
}

/** The object keys encoders write for a map's key type. */
function mapKeyNames(key: ScalarType): JsonSchema | undefined {
  switch (key) {
    case ScalarType.STRING:
      return undefined;
    case ScalarType.BOOL:
      return { enum: ["false", "true"] };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { pattern: uint64Pattern };
    default:
      return { pattern: int64Pattern };
  }
}

/** The JSON form of a well-known type, or undefined for other messages. */
function wellKnownOutput(typeName: string): JsonSchema | undefined {
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time" };
    case "google.protobuf.Duration":
      return { type: "string", pattern: durationPattern };
    case "google.protobuf.FieldMask":
      return { type: "string" };
    case "google.protobuf.Empty":
    case "google.protobuf.Struct":
      return { type: "object" };
    case "google.protobuf.Value":
      return {};
    case "google.protobuf.ListValue":
      return { type: "array" };
    case "google.protobuf.Any":
      // Encoders write an Any with no type URL as {}.
      return {
        type: "object",
        anyOf: [
          { properties: { "@type": { type: "string" } }, required: ["@type"] },
          { maxProperties: 0 },
        ],
      };
    case "google.protobuf.StringValue":
      return { type: "string" };
    case "google.protobuf.Int32Value":
    case "google.protobuf.UInt32Value":
      return { type: "integer" };
    case "google.protobuf.Int64Value":
      return { type: "string", pattern: int64Pattern };
    case "google.protobuf.UInt64Value":
      return { type: "string", pattern: uint64Pattern };
    case "google.protobuf.FloatValue":
    case "google.protobuf.DoubleValue":
      return floatOutput();
    case "google.protobuf.BoolValue":
      return { type: "boolean" };
    case "google.protobuf.BytesValue":
      return bytesSchema(false);
  }
  return undefined;
}
