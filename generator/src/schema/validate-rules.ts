import type { DescField, DescMessage, DescOneof } from "../read/descriptors.js";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import {
  decodeOption,
  messagePayload,
  perFieldOption,
  unknownOf,
  type WithUnknown,
} from "../read/annotations.js";

/**
 * The `buf.validate` rules the schemas use, read by number from the options'
 * unknown fields (like the plugin's own options, see annotations.ts), so the
 * user's own copy of `buf/validate/validate.proto` works. Field numbers are
 * protovalidate's (`buf/validate/validate.proto`, v1.2.2: `FieldRules`,
 * `StringRules`, the numeric rules, `RepeatedRules`, `EnumRules`,
 * `OneofRules`, `MessageRules.oneof`).
 */
export const validateExtension = 1159;

/** `FieldRules.ignore`: rules are skipped for a zero value. */
export const ignoreIfZeroValue = 1;
/** `FieldRules.ignore`: rules are never applied. */
export const ignoreAlways = 3;

/** A numeric bound or value: bigint for integer kinds, number for floats. */
export type RuleNumber = bigint | number;

/** `StringRules`, the part the schemas use. */
export interface StringRules {
  readonly minLen?: bigint;
  readonly maxLen?: bigint;
  readonly pattern?: string;
  readonly uuid: boolean;
  readonly email: boolean;
  readonly uri: boolean;
  readonly in: readonly string[];
}

/** The numeric rules of every integer and float kind. */
export interface NumberRules {
  /** The kind the rules are written for: `int32`, `uint64`, `float`, … */
  readonly kind: NumberKind;
  readonly gt?: RuleNumber;
  readonly gte?: RuleNumber;
  readonly lt?: RuleNumber;
  readonly lte?: RuleNumber;
  readonly in: readonly RuleNumber[];
}

/** `RepeatedRules`, the part the schemas use. */
export interface RepeatedRules {
  readonly minItems?: bigint;
  readonly maxItems?: bigint;
  /** Rules of each item. */
  readonly items?: FieldRules;
}

/** `EnumRules`, the part the schemas use. */
export interface EnumRules {
  /** `const`: the one number accepted. */
  readonly const?: number;
  readonly definedOnly: boolean;
  readonly in: readonly number[];
  readonly notIn: readonly number[];
}

/** `FieldRules`, the part the schemas use. */
export interface FieldRules {
  readonly required: boolean;
  /** `FieldRules.ignore`: 0, {@link ignoreIfZeroValue} or {@link ignoreAlways}. */
  readonly ignore: number;
  readonly string?: StringRules;
  readonly number?: NumberRules;
  readonly repeated?: RepeatedRules;
  readonly enum?: EnumRules;
}

/** A rule over several fields: `MessageRules.oneof`, or a `OneofRules`. */
export interface OneofRule {
  readonly fields: readonly string[];
  readonly required: boolean;
}

/** The numeric kinds, by their `FieldRules` field number. */
const numberKinds = {
  1: "float",
  2: "double",
  3: "int32",
  4: "int64",
  5: "uint32",
  6: "uint64",
  7: "sint32",
  8: "sint64",
  9: "fixed32",
  10: "fixed64",
  11: "sfixed32",
  12: "sfixed64",
} as const;

/** A numeric kind of protovalidate's rules. */
export type NumberKind = (typeof numberKinds)[keyof typeof numberKinds];

/** The extension's payload; several occurrences merge (concatenated). */
function extensionPayload(
  options: WithUnknown | undefined,
): Uint8Array | undefined {
  return messagePayload(unknownOf(options, validateExtension));
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) {
    return parts[0]!;
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Calls `visit` for each field of `payload`; it returns false to skip one. */
function eachField(
  payload: Uint8Array,
  visit: (no: number, wireType: WireType, reader: BinaryReader) => boolean,
): void {
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (!visit(no, wireType, reader)) {
      reader.skip(wireType, no);
    }
  }
}

/** One value of a repeated varint-like field, or all of a packed one. */
function readRepeated<T>(
  wireType: WireType,
  reader: BinaryReader,
  scalarWire: WireType,
  read: (r: BinaryReader) => T,
  out: T[],
): boolean {
  if (wireType === scalarWire) {
    out.push(read(reader));
    return true;
  }
  if (wireType === WireType.LengthDelimited) {
    const packed = new BinaryReader(reader.bytes());
    while (packed.pos < packed.len) {
      out.push(read(packed));
    }
    return true;
  }
  return false;
}

function decodeString(payload: Uint8Array): StringRules {
  let minLen: bigint | undefined;
  let maxLen: bigint | undefined;
  let pattern: string | undefined;
  let uuid = false;
  let email = false;
  let uri = false;
  const values: string[] = [];
  eachField(payload, (no, wireType, r) => {
    if (wireType === WireType.Varint) {
      switch (no) {
        case 2:
          minLen = BigInt(r.uint64());
          return true;
        case 3:
          maxLen = BigInt(r.uint64());
          return true;
        case 12:
          email = r.bool();
          return true;
        case 17:
          uri = r.bool();
          return true;
        case 22:
          uuid = r.bool();
          return true;
      }
    } else if (wireType === WireType.LengthDelimited) {
      switch (no) {
        case 6:
          pattern = r.string();
          return true;
        case 10:
          values.push(r.string());
          return true;
      }
    }
    return false;
  });
  return {
    ...(minLen !== undefined ? { minLen } : {}),
    ...(maxLen !== undefined ? { maxLen } : {}),
    ...(pattern !== undefined ? { pattern } : {}),
    uuid,
    email,
    uri,
    in: values,
  };
}

/** The wire type and reader of one numeric kind. */
function numberReader(
  kind: NumberKind,
): [WireType, (r: BinaryReader) => RuleNumber] {
  switch (kind) {
    case "float":
      return [WireType.Bit32, (r) => r.float()];
    case "double":
      return [WireType.Bit64, (r) => r.double()];
    case "int32":
      return [WireType.Varint, (r) => BigInt(r.int32())];
    case "uint32":
      return [WireType.Varint, (r) => BigInt(r.uint32())];
    case "sint32":
      return [WireType.Varint, (r) => BigInt(r.sint32())];
    case "fixed32":
      return [WireType.Bit32, (r) => BigInt(r.fixed32())];
    case "sfixed32":
      return [WireType.Bit32, (r) => BigInt(r.sfixed32())];
    case "int64":
      return [WireType.Varint, (r) => BigInt(r.int64())];
    case "uint64":
      return [WireType.Varint, (r) => BigInt(r.uint64())];
    case "sint64":
      return [WireType.Varint, (r) => BigInt(r.sint64())];
    case "fixed64":
      return [WireType.Bit64, (r) => BigInt(r.fixed64())];
    case "sfixed64":
      return [WireType.Bit64, (r) => BigInt(r.sfixed64())];
  }
}

function decodeNumber(kind: NumberKind, payload: Uint8Array): NumberRules {
  const [wire, read] = numberReader(kind);
  const bounds: { [k in "gt" | "gte" | "lt" | "lte"]?: RuleNumber } = {};
  const names = { 2: "lt", 3: "lte", 4: "gt", 5: "gte" } as const;
  const values: RuleNumber[] = [];
  eachField(payload, (no, wireType, r) => {
    if (no === 6) {
      return readRepeated(wireType, r, wire, read, values);
    }
    const name = names[no as keyof typeof names];
    if (name === undefined || wireType !== wire) {
      return false;
    }
    // lt/lte and gt/gte are two oneofs: the last one set wins.
    if (name === "lt" || name === "lte") {
      delete bounds.lt;
      delete bounds.lte;
    } else {
      delete bounds.gt;
      delete bounds.gte;
    }
    bounds[name] = read(r);
    return true;
  });
  return { kind, ...bounds, in: values };
}

function decodeRepeated(payload: Uint8Array): RepeatedRules {
  let minItems: bigint | undefined;
  let maxItems: bigint | undefined;
  const items: Uint8Array[] = [];
  eachField(payload, (no, wireType, r) => {
    if (wireType === WireType.Varint && (no === 1 || no === 2)) {
      const n = BigInt(r.uint64());
      if (no === 1) {
        minItems = n;
      } else {
        maxItems = n;
      }
      return true;
    }
    if (wireType === WireType.LengthDelimited && no === 4) {
      items.push(r.bytes());
      return true;
    }
    return false;
  });
  return {
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {}),
    ...(items.length > 0 ? { items: decodeFieldRules(concat(items)) } : {}),
  };
}

function decodeEnum(payload: Uint8Array): EnumRules {
  let constant: number | undefined;
  let definedOnly = false;
  const values: number[] = [];
  const notIn: number[] = [];
  eachField(payload, (no, wireType, r) => {
    if (no === 1 && wireType === WireType.Varint) {
      constant = r.int32();
      return true;
    }
    if (no === 2 && wireType === WireType.Varint) {
      definedOnly = r.bool();
      return true;
    }
    if (no === 3 || no === 4) {
      return readRepeated(
        wireType,
        r,
        WireType.Varint,
        (x) => x.int32(),
        no === 3 ? values : notIn,
      );
    }
    return false;
  });
  return {
    ...(constant !== undefined ? { const: constant } : {}),
    definedOnly,
    in: values,
    notIn,
  };
}

/** Decode a `FieldRules` message. */
export function decodeFieldRules(payload: Uint8Array): FieldRules {
  let required = false;
  let ignore = 0;
  // The `type` oneof: the last member on the wire wins; occurrences of the
  // same member merge.
  let typeNo = 0;
  let typeParts: Uint8Array[] = [];
  eachField(payload, (no, wireType, r) => {
    if (no === 25 && wireType === WireType.Varint) {
      required = r.bool();
      return true;
    }
    if (no === 27 && wireType === WireType.Varint) {
      ignore = r.int32();
      return true;
    }
    // The members of the `type` oneof: 1 to 22 and 28 (23 is `cel`).
    if (
      wireType === WireType.LengthDelimited &&
      ((no >= 1 && no <= 22) || no === 28)
    ) {
      if (no !== typeNo) {
        typeNo = no;
        typeParts = [];
      }
      typeParts.push(r.bytes());
      return true;
    }
    return false;
  });
  const rules: {
    -readonly [K in keyof FieldRules]: FieldRules[K];
  } = { required, ignore };
  if (typeParts.length === 0) {
    return rules;
  }
  const typePayload = concat(typeParts);
  const kind = numberKinds[typeNo as keyof typeof numberKinds];
  if (kind !== undefined) {
    rules.number = decodeNumber(kind, typePayload);
  } else if (typeNo === 14) {
    rules.string = decodeString(typePayload);
  } else if (typeNo === 16) {
    rules.enum = decodeEnum(typePayload);
  } else if (typeNo === 18) {
    rules.repeated = decodeRepeated(typePayload);
  }
  return rules;
}

/** The field's `(buf.validate.field)` rules, or null. */
const fieldRules = perFieldOption<FieldRules | null>(null, (field) => {
  const payload = extensionPayload(field.proto.options);
  return payload === undefined
    ? null
    : decodeOption(
        field.parent.file.proto.name,
        `${field.parent.name}.${field.name}`,
        "(buf.validate.field)",
        () => decodeFieldRules(payload),
      );
});

/** The field's `(buf.validate.field)` rules, or undefined when it has none. */
export function readFieldRules(field: DescField): FieldRules | undefined {
  return fieldRules(field) ?? undefined;
}

/** True when the oneof's `(buf.validate.oneof).required` is set. */
export function readOneofRequired(oneof: DescOneof): boolean {
  return decodeOption(
    oneof.parent.file.proto.name,
    `${oneof.parent.name}.${oneof.name}`,
    "(buf.validate.oneof)",
    () => decodeOneofRequired(oneof),
  );
}

function decodeOneofRequired(oneof: DescOneof): boolean {
  const payload = extensionPayload(oneof.proto.options);
  let required = false;
  if (payload !== undefined) {
    eachField(payload, (no, wireType, r) => {
      if (no === 1 && wireType === WireType.Varint) {
        required = r.bool();
        return true;
      }
      return false;
    });
  }
  return required;
}

const messageOneofsCache = new WeakMap<DescMessage, readonly OneofRule[]>();

/**
 * The rules over several fields of `message`: each real oneof with
 * `(buf.validate.oneof).required`, then each `(buf.validate.message).oneof`.
 */
export function readOneofRules(message: DescMessage): readonly OneofRule[] {
  let rules = messageOneofsCache.get(message);
  if (rules === undefined) {
    rules = decodeOption(
      message.file.proto.name,
      message.name,
      "(buf.validate.message)",
      () => decodeOneofRules(message),
    );
    messageOneofsCache.set(message, rules);
  }
  return rules;
}

function decodeOneofRules(message: DescMessage): OneofRule[] {
  const rules: OneofRule[] = [];
  for (let i = 0, oneofs = message.oneofs; i < oneofs.length; i++) {
    const oneof = oneofs[i]!;
    if (readOneofRequired(oneof)) {
      rules.push({ fields: oneof.fields.map((f) => f.name), required: true });
    }
  }
  const payload = extensionPayload(message.proto.options);
  if (payload === undefined) {
    return rules;
  }
  eachField(payload, (no, wireType, r) => {
    if (no !== 4 || wireType !== WireType.LengthDelimited) {
      return false;
    }
    const fields: string[] = [];
    let required = false;
    eachField(r.bytes(), (n, w, inner) => {
      if (n === 1 && w === WireType.LengthDelimited) {
        fields.push(inner.string());
        return true;
      }
      if (n === 2 && w === WireType.Varint) {
        required = inner.bool();
        return true;
      }
      return false;
    });
    rules.push({ fields, required });
    return true;
  });
  return rules;
}

const rulesReached = new WeakMap<DescMessage, boolean>();

/**
 * True when a value of `message` carries `buf.validate` rules anywhere: a
 * field, oneof or message option (extension 1159) on it or on a message
 * its fields hold, transitively. A tool whose request does gets its
 * request validated before the call (protovalidate, docs/runtime.md).
 */
export function reachesValidateRules(message: DescMessage): boolean {
  let found = rulesReached.get(message);
  if (found === undefined) {
    found = walkForRules(message, new Set());
    rulesReached.set(message, found);
  }
  return found;
}

function walkForRules(message: DescMessage, seen: Set<DescMessage>): boolean {
  if (seen.has(message)) {
    return false;
  }
  seen.add(message);
  const known = rulesReached.get(message);
  if (known !== undefined) {
    return known;
  }
  if (
    extensionPayload(message.proto.options) !== undefined ||
    message.oneofs.some((o) => extensionPayload(o.proto.options) !== undefined)
  ) {
    return true;
  }
  for (let i = 0, fields = message.fields; i < fields.length; i++) {
    const field = fields[i]!;
    if (extensionPayload(field.proto.options) !== undefined) {
      return true;
    }
    const child =
      field.fieldKind === "message" ||
      (field.fieldKind === "list" && field.listKind === "message") ||
      (field.fieldKind === "map" && field.mapKind === "message")
        ? field.message
        : undefined;
    if (child !== undefined && walkForRules(child, seen)) {
      return true;
    }
  }
  return false;
}
