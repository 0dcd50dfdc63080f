import {
  create,
  fromJson,
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonValue,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";

/**
 * Which values a sample holds: `typical` values (two items per list and
 * map, a oneof's first member); `max` values (NaN, the largest integers,
 * an enum number the enum does not declare, one item per list and map, a
 * oneof's last member); `min` values (-Infinity, the smallest integers,
 * defaults, empty lists and maps, unset optional fields and oneofs).
 */
export type SampleVariant = "typical" | "max" | "min";

export const sampleVariants: readonly SampleVariant[] = [
  "typical",
  "max",
  "min",
];

/** How deep messages nest in a sample before fields are left unset. */
const maxDepth = 3;

/**
 * A message of type `desc` with every field set as `variant` says, nested
 * messages to a depth of 3 (recursion stops there).
 */
export function sampleMessage(
  desc: DescMessage,
  variant: SampleVariant,
  registry: Registry,
): Message {
  return fill(desc, variant, registry, 0).message;
}

function fill(
  desc: DescMessage,
  variant: SampleVariant,
  registry: Registry,
  depth: number,
): ReflectMessage {
  const wkt = wellKnownJson(desc.typeName, variant);
  if (wkt !== undefined) {
    return reflect(desc, fromJson(desc, wkt, { registry }));
  }
  const r = reflect(desc, create(desc));
  for (const field of desc.fields) {
    if (field.oneof !== undefined) {
      const members = field.oneof.fields;
      const pick =
        variant === "typical"
          ? members[0]
          : variant === "max"
            ? members[members.length - 1]
            : undefined;
      if (pick !== field) {
        continue;
      }
    } else if (variant === "min" && field.proto.proto3Optional === true) {
      continue;
    }
    setField(r, field, variant, registry, depth);
  }
  return r;
}

function setField(
  r: ReflectMessage,
  field: DescField,
  variant: SampleVariant,
  registry: Registry,
  depth: number,
): void {
  const count = variant === "typical" ? 2 : variant === "max" ? 1 : 0;
  switch (field.fieldKind) {
    case "scalar":
      r.set(field, scalarValue(field.scalar, variant, 0));
      return;
    case "enum":
      r.set(field, enumValue(field, variant));
      return;
    case "message":
      if (depth < maxDepth || isWellKnown(field.message.typeName)) {
        r.set(field, fill(field.message, variant, registry, depth + 1));
      }
      return;
    case "list": {
      const list = r.get(field);
      for (let i = 0; i < count; i++) {
        if (field.listKind === "message") {
          if (depth < maxDepth || isWellKnown(field.message.typeName)) {
            list.add(fill(field.message, variant, registry, depth + 1));
          }
        } else if (field.listKind === "enum") {
          list.add(enumValue(field, variant));
        } else {
          list.add(scalarValue(field.scalar, variant, i));
        }
      }
      return;
    }
    case "map": {
      const map = r.get(field);
      for (let i = 0; i < count; i++) {
        const key = scalarValue(field.mapKey, variant, i);
        if (field.mapKind === "message") {
          if (depth < maxDepth || isWellKnown(field.message.typeName)) {
            map.set(key, fill(field.message, variant, registry, depth + 1));
          }
        } else if (field.mapKind === "enum") {
          map.set(key, enumValue(field, variant));
        } else {
          map.set(key, scalarValue(field.scalar, variant, i));
        }
      }
      return;
    }
  }
}

function enumValue(
  field: DescField & { enum: NonNullable<DescField["enum"]> },
  variant: SampleVariant,
): number {
  const values = field.enum.values;
  switch (variant) {
    case "typical":
      return values[values.length - 1]!.number;
    case "max":
      return field.enum.open ? 99 : values[0]!.number;
    case "min":
      return values[0]!.number;
  }
}

/** A scalar value; `index` varies it within a list or map. */
function scalarValue(
  scalar: ScalarType,
  variant: SampleVariant,
  index: number,
): unknown {
  const typical = variant === "typical";
  const max = variant === "max";
  switch (scalar) {
    case ScalarType.BOOL:
      return typical ? index === 0 : max;
    case ScalarType.STRING:
      return typical ? `héllo "${index}" <&> ☃` : max ? "x" : "";
    case ScalarType.BYTES:
      return typical
        ? new Uint8Array([0, 1, 2, 250, 255, index])
        : max
          ? new Uint8Array([251])
          : new Uint8Array();
    case ScalarType.FLOAT:
      return typical ? 0.1 + index : max ? NaN : -Infinity;
    case ScalarType.DOUBLE:
      return typical ? 0.1 + index : max ? Infinity : -1e308;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return typical ? -7 + index : max ? 2147483647 : -2147483648;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return typical ? 7 + index : max ? 4294967295 : 0;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return typical
        ? -1234567890123n + BigInt(index)
        : max
          ? 9223372036854775807n
          : -9223372036854775808n;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return typical
        ? 1234567890123n + BigInt(index)
        : max
          ? 18446744073709551615n
          : 0n;
  }
}

function isWellKnown(typeName: string): boolean {
  return typeName.startsWith("google.protobuf.");
}

/** A well-known type's value, as JSON, or undefined for other messages. */
function wellKnownJson(
  typeName: string,
  variant: SampleVariant,
): JsonValue | undefined {
  const pick = (typical: JsonValue, max: JsonValue, min: JsonValue) =>
    variant === "typical" ? typical : variant === "max" ? max : min;
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return pick(
        "2026-12-01T02:30:00.123Z",
        "9999-12-31T23:59:59.999999999Z",
        "0001-01-01T00:00:00Z",
      );
    case "google.protobuf.Duration":
      return pick("3.500s", "315576000000s", "-315576000000.999999999s");
    case "google.protobuf.FieldMask":
      return pick("displayName,owner.emailAddress", "a", "");
    case "google.protobuf.Struct":
      return pick(
        { a: 1, b: ["x", true, null], c: { d: "e" } },
        {},
        {
          n: null,
        },
      );
    case "google.protobuf.Value":
      return pick({ k: [1, "two", false] }, null, "text");
    case "google.protobuf.ListValue":
      return pick([1, "two", null, { a: [] }], [], [[]]);
    case "google.protobuf.Any":
      return pick(
        {
          "@type": "type.googleapis.com/google.protobuf.Duration",
          value: "1.5s",
        },
        {},
        {
          "@type": "type.googleapis.com/google.protobuf.Struct",
          value: { a: 1 },
        },
      );
    case "google.protobuf.Empty":
      return {};
    case "google.protobuf.StringValue":
      return pick("s", "", "☃");
    case "google.protobuf.BytesValue":
      return pick("AAEC+v8=", "", "+w==");
    case "google.protobuf.BoolValue":
      return pick(true, false, true);
    case "google.protobuf.Int32Value":
      return pick(-7, 2147483647, -2147483648);
    case "google.protobuf.UInt32Value":
      return pick(7, 4294967295, 0);
    case "google.protobuf.Int64Value":
      return pick("-12", "9223372036854775807", "-9223372036854775808");
    case "google.protobuf.UInt64Value":
      return pick("12", "18446744073709551615", "0");
    case "google.protobuf.FloatValue":
    case "google.protobuf.DoubleValue":
      return pick(1.5, "NaN", "-Infinity");
  }
  return undefined;
}
