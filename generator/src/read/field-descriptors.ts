import type { ScalarType } from "@bufbuild/protobuf";
import {
  FeatureSet_FieldPresence,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  type FieldDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import type { DescField, DescMessage, DescOneof } from "./descriptors.js";
import type { Resolver } from "./type-resolver.js";

/** A message being built, whose fields and oneofs are added here. */
export type MessageWithFields = DescMessage & {
  fields: DescField[];
  oneofs: DescOneof[];
};

type OneofUnderway = DescOneof & { fields: DescField[] };

/**
 * The index of the oneof a field is a member of, or undefined (proto3
 * optional's synthetic oneof does not count).
 */
function oneofIndexOf(proto: FieldDescriptorProto): number | undefined {
  // As protobuf-es: only a value set on the message itself counts (a
  // proto2 message's defaults sit on its prototype).
  return Object.prototype.hasOwnProperty.call(proto, "oneofIndex") &&
    !proto.proto3Optional
    ? proto.oneofIndex
    : undefined;
}

/**
 * Add the fields of `message` (from its proto) to its `fields`, and its
 * oneofs that have members to its `oneofs`. `inherited` is the
 * field_presence feature its fields inherit (the message's, its parents',
 * its file's); `resolve` finds the types they name.
 */
export function addFields(
  message: MessageWithFields,
  inherited: FeatureSet_FieldPresence,
  resolve: Resolver,
): void {
  const decls = message.proto.oneofDecl;
  const oneofs: OneofUnderway[] = [];
  for (let i = 0; i < decls.length; i++) {
    const proto = decls[i]!;
    oneofs.push({
      kind: "oneof",
      name: proto.name,
      parent: message,
      fields: [],
      proto,
    });
  }
  for (let i = 0, protos = message.proto.field; i < protos.length; i++) {
    const proto = protos[i]!;
    const index = oneofIndexOf(proto);
    let oneof: OneofUnderway | undefined;
    if (index !== undefined) {
      oneof = oneofs[index];
      if (oneof === undefined) {
        throw new Error(
          `${message.file.proto.name}: field ${message.typeName}.${proto.name}: oneof_index ${index} is not among the message's ${oneofs.length} oneofs`,
        );
      }
    }
    const field = newField(proto, message, oneof, inherited, resolve);
    message.fields.push(field);
    oneof?.fields.push(field);
  }
  for (let i = 0; i < oneofs.length; i++) {
    const oneof = oneofs[i]!;
    if (oneof.fields.length > 0) {
      message.oneofs.push(oneof);
    }
  }
}

const { REPEATED: LABEL_REPEATED, REQUIRED: LABEL_REQUIRED } =
  FieldDescriptorProto_Label;
const {
  ENUM: TYPE_ENUM,
  GROUP: TYPE_GROUP,
  MESSAGE: TYPE_MESSAGE,
} = FieldDescriptorProto_Type;
const { EXPLICIT, IMPLICIT, LEGACY_REQUIRED } = FeatureSet_FieldPresence;

/** The presence of a field (see DescField's `presence`). */
function presenceOf(
  proto: FieldDescriptorProto,
  oneof: DescOneof | undefined,
  inherited: FeatureSet_FieldPresence,
): FeatureSet_FieldPresence {
  if (proto.label === LABEL_REQUIRED) {
    return LEGACY_REQUIRED;
  }
  if (proto.label === LABEL_REPEATED) {
    return IMPLICIT;
  }
  if (oneof !== undefined || proto.proto3Optional) {
    return EXPLICIT;
  }
  const resolved = proto.options?.features?.fieldPresence || inherited;
  return resolved === IMPLICIT &&
    (proto.type === TYPE_MESSAGE || proto.type === TYPE_GROUP)
    ? EXPLICIT
    : resolved;
}

/** "scalar", "enum" or "message": the kind of one value of a field type. */
function valueKind(proto: FieldDescriptorProto): "scalar" | "enum" | "message" {
  switch (proto.type) {
    case TYPE_MESSAGE:
    case TYPE_GROUP:
      return "message";
    case TYPE_ENUM:
      return "enum";
    default:
      return "scalar";
  }
}

/**
 * A field's descriptor. Every field has the same properties in the same
 * order, whatever its kind: one object shape for the engine. `value` is
 * the field that gives the value's type: the field itself, or a map
 * entry's value field.
 */
function newField(
  proto: FieldDescriptorProto,
  message: DescMessage,
  oneof: DescOneof | undefined,
  inherited: FeatureSet_FieldPresence,
  resolve: Resolver,
): DescField {
  let fieldKind: DescField["fieldKind"];
  let listKind: "scalar" | "enum" | "message" | undefined;
  let mapKind: "scalar" | "enum" | "message" | undefined;
  let mapKey: ScalarType | undefined;
  let value = proto;
  const entry =
    proto.label === LABEL_REPEATED && proto.type === TYPE_MESSAGE
      ? resolve.mapEntry(proto.typeName)
      : undefined;
  if (entry !== undefined) {
    const key = entry.field.find((f) => f.number === 1);
    const mapValue = entry.field.find((f) => f.number === 2);
    if (
      key === undefined ||
      mapValue === undefined ||
      key.label === LABEL_REPEATED ||
      valueKind(key) !== "scalar" ||
      key.type === FieldDescriptorProto_Type.BYTES ||
      key.type === FieldDescriptorProto_Type.FLOAT ||
      key.type === FieldDescriptorProto_Type.DOUBLE ||
      mapValue.label === LABEL_REPEATED
    ) {
      throw new Error(
        `${message.file.proto.name}: field ${message.typeName}.${proto.name}: map entry ${JSON.stringify(proto.typeName)} needs a key (field 1) of a scalar type other than bytes, float and double, and a value (field 2) that is not repeated`,
      );
    }
    fieldKind = "map";
    mapKind = valueKind(mapValue);
    // A scalar field type and its ScalarType have the same number.
    mapKey = key.type as unknown as ScalarType;
    value = mapValue;
  } else if (proto.label === LABEL_REPEATED) {
    fieldKind = "list";
    listKind = valueKind(proto);
  } else {
    fieldKind = valueKind(proto);
  }
  const kind = valueKind(value);
  return {
    kind: "field",
    name: proto.name,
    number: proto.number,
    jsonName: proto.jsonName,
    presence: presenceOf(proto, oneof, inherited),
    parent: message,
    proto,
    fieldKind,
    scalar:
      kind === "scalar" ? (value.type as unknown as ScalarType) : undefined,
    enum:
      kind === "enum"
        ? resolve.enum(value.typeName, "field", message.typeName, proto.name)
        : undefined,
    message:
      kind === "message"
        ? resolve.message(value.typeName, "field", message.typeName, proto.name)
        : undefined,
    oneof,
    listKind,
    mapKind,
    mapKey,
  } as DescField;
}
