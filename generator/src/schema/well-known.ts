import type { DescMessage } from "../read/descriptors.js";
import type { JsonSchema } from "./json-schema.js";

/**
 * Patterns that make a string decodable by every target's protobuf JSON
 * decoder (see docs/compat.md).
 */
export const patterns = {
  /** google.protobuf.Duration: seconds with up to 9 fractional digits, "s". */
  duration: "^-?(0|[1-9][0-9]{0,10})(\\.[0-9]{1,9})?s$",
  /** bytes in strict tools: standard base64 with padding. */
  base64: "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
} as const;

/** A strict google.protobuf.Value: JSON text, or plain text taken as a string. */
export function strictValueSchema(): JsonSchema {
  return { type: "string", description: "JSON-encoded value" };
}

let base64Made = 0;

/**
 * How many times a schema builder has written the strict bytes pattern
 * ({@link bytesSchema}, a validate pattern equal to it, a shared
 * expansion holding it) since the process started. When unchanged over a
 * tool's build, its schema holds no strict bytes schema, and
 * shareBase64 need not look for one.
 */
export function base64PatternsWritten(): number {
  return base64Made;
}

/** Count one writing of the strict bytes pattern (see base64PatternsWritten). */
export function noteBase64Pattern(): void {
  base64Made += 1;
}

/** bytes (and BytesValue) in the given mode. */
export function bytesSchema(strict: boolean): JsonSchema {
  if (strict) {
    base64Made += 1;
    return { type: "string", pattern: patterns.base64 };
  }
  return { type: "string", format: "byte" };
}

/** The full names of the well-known types with a JSON form of their own. */
const wellKnownNames: ReadonlySet<string> = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.Empty",
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
  "google.protobuf.Any",
  "google.protobuf.StringValue",
  "google.protobuf.Int32Value",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt32Value",
  "google.protobuf.UInt64Value",
  "google.protobuf.FloatValue",
  "google.protobuf.DoubleValue",
  "google.protobuf.BoolValue",
  "google.protobuf.BytesValue",
]);

/**
 * True for a message of package `google.protobuf` (its own JSON forms):
 * one that field-mask paths and alias registration never go into.
 */
export function isProtobufType(message: DescMessage): boolean {
  return message.typeName.startsWith("google.protobuf.");
}

/**
 * True when {@link wellKnownSchema} has a schema (or `null`) for the type:
 * a message the schema builder never expands.
 */
export function isWellKnown(typeName: string): boolean {
  return wellKnownNames.has(typeName);
}

/**
 * The schema of a well-known type, or undefined when the type is expanded
 * as an ordinary message. google.protobuf.Any yields `null`: it has no JSON
 * shape a model could fill without knowing the server's type registry, so
 * its fields are left out of the schema.
 */
export function wellKnownSchema(
  typeName: string,
  strict: boolean,
): JsonSchema | null | undefined {
  if (!wellKnownNames.has(typeName)) {
    return undefined;
  }
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time" };
    case "google.protobuf.Duration":
      return { type: "string", pattern: patterns.duration };
    case "google.protobuf.FieldMask":
      // No pattern: snake_case and lowerCamel paths are both taken, and
      // the argument check names a wrong one (mask-target.ts, the hint).
      return { type: "string" };
    case "google.protobuf.Empty":
      return strict
        ? {
            type: "object",
            properties: {},
            additionalProperties: false,
            required: [],
          }
        : { type: "object", properties: {} };
    case "google.protobuf.Struct":
      return strict
        ? {
            type: "array",
            description: "JSON object as key/value entries",
            items: {
              type: "object",
              properties: {
                key: { type: "string" },
                value: strictValueSchema(),
              },
              required: ["key", "value"],
              additionalProperties: false,
            },
          }
        : { type: "object" };
    case "google.protobuf.Value":
      return strict ? strictValueSchema() : {};
    case "google.protobuf.ListValue":
      return { type: "array", items: strict ? strictValueSchema() : {} };
    case "google.protobuf.Any":
      return null;
    case "google.protobuf.StringValue":
      return { type: "string" };
    case "google.protobuf.Int32Value":
    case "google.protobuf.Int64Value":
    case "google.protobuf.UInt32Value":
    case "google.protobuf.UInt64Value":
      return { type: "integer" };
    case "google.protobuf.FloatValue":
    case "google.protobuf.DoubleValue":
      return { type: "number" };
    case "google.protobuf.BoolValue":
      return { type: "boolean" };
    case "google.protobuf.BytesValue":
      return bytesSchema(strict);
  }
  return undefined;
}
