import type { ScalarType } from "@bufbuild/protobuf";
import {
  Edition,
  FeatureSet_FieldPresence,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  MethodOptions_IdempotencyLevel,
  type DescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import type {
  DescEnum,
  DescExtension,
  DescField,
  DescFile,
  DescMessage,
  DescMethod,
  DescOneof,
  DescService,
} from "./descriptors.js";
import { editionProblem } from "./editions.js";

// Writable views of the descriptors, for the builder only.
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type FileUnderway = Mutable<DescFile> & {
  messages: DescMessage[];
  enums: DescEnum[];
  services: DescService[];
  extensions: DescExtension[];
};
type MessageUnderway = Mutable<DescMessage> & {
  fields: DescField[];
  oneofs: DescOneof[];
  nestedMessages: DescMessage[];
  nestedEnums: DescEnum[];
  nestedExtensions: DescExtension[];
};
type OneofUnderway = DescOneof & { fields: DescField[] };

/** A message type with what its fields need to be built. */
interface PendingMessage {
  readonly desc: MessageUnderway;
  /** The field_presence its fields inherit (its own, its parents', …). */
  readonly presence: FeatureSet_FieldPresence;
}

/** The descriptors of a request, by file name. */
export type Descriptors = ReadonlyMap<string, DescFile>;

/**
 * Build the descriptors of `files` (descriptors.ts), which must come with
 * every file after the files it imports: the same descriptors protobuf-es's
 * `createFileRegistry` builds, as far as descriptors.ts keeps them, several
 * times faster (the generator reads a tenth of what protobuf-es computes
 * per field, and nothing else depends on Editions features but presence).
 *
 * A type is looked for among the files read so far, each file's own types
 * first registered, then its services and fields resolved, as
 * protobuf-es does. A reference no compiler writes (a type not in the
 * request, a map entry whose key cannot be a key) throws an Error naming
 * the file and the element. The files' editions must be among those
 * checkEditions accepts.
 */
export function createDescriptors(
  files: readonly FileDescriptorProto[],
): Descriptors {
  const types = new Map<string, DescMessage | DescEnum>();
  const out = new Map<string, DescFile>();
  for (const proto of files) {
    out.set(proto.name, addFile(proto, types));
  }
  return out;
}

function addFile(
  proto: FileDescriptorProto,
  types: Map<string, DescMessage | DescEnum>,
): DescFile {
  const edition = fileEdition(proto);
  const file: FileUnderway = {
    kind: "file",
    name: proto.name.replace(/\.proto$/, ""),
    edition,
    messages: [],
    enums: [],
    services: [],
    extensions: [],
    proto,
  };
  const prefix = proto.package.length > 0 ? proto.package + "." : "";
  const pending: PendingMessage[] = [];
  const mapEntries = new Map<string, DescriptorProto>();
  const filePresence =
    proto.options?.features?.fieldPresence ||
    (edition === Edition.EDITION_PROTO3
      ? FeatureSet_FieldPresence.IMPLICIT
      : FeatureSet_FieldPresence.EXPLICIT);
  for (const enumProto of proto.enumType) {
    file.enums.push(addEnum(enumProto, prefix, file, undefined, types));
  }
  const addMessage = (
    messageProto: DescriptorProto,
    typePrefix: string,
    parent: MessageUnderway | undefined,
    inherited: FeatureSet_FieldPresence,
  ): void => {
    const typeName = typePrefix + messageProto.name;
    if (messageProto.options?.mapEntry === true) {
      mapEntries.set(typeName, messageProto);
      return;
    }
    const desc: MessageUnderway = {
      kind: "message",
      typeName,
      name: messageProto.name,
      file,
      parent,
      fields: [],
      oneofs: [],
      nestedMessages: [],
      nestedEnums: [],
      nestedExtensions: [],
      proto: messageProto,
    };
    (parent?.nestedMessages ?? file.messages).push(desc);
    types.set(typeName, desc);
    const presence = messageProto.options?.features?.fieldPresence || inherited;
    pending.push({ desc, presence });
    const nestedPrefix = typeName + ".";
    for (const enumProto of messageProto.enumType) {
      desc.nestedEnums.push(
        addEnum(enumProto, nestedPrefix, file, desc, types),
      );
    }
    for (const nested of messageProto.nestedType) {
      addMessage(nested, nestedPrefix, desc, presence);
    }
  };
  for (const messageProto of proto.messageType) {
    addMessage(messageProto, prefix, undefined, filePresence);
  }
  const resolve = newResolver(proto.name, types, mapEntries);
  for (const serviceProto of proto.service) {
    file.services.push(addService(serviceProto, prefix, file, resolve));
  }
  for (const extension of proto.extension) {
    file.extensions.push(newExtension(extension, prefix, file, undefined));
  }
  for (const { desc, presence } of pending) {
    for (const extension of desc.proto.extension) {
      desc.nestedExtensions.push(
        newExtension(extension, desc.typeName + ".", file, desc),
      );
    }
    addFields(desc, presence, resolve);
  }
  return file;
}

/** The file's edition, proto2 and proto3 as EDITION_PROTO2 and _PROTO3. */
function fileEdition(proto: FileDescriptorProto): Edition {
  switch (proto.syntax) {
    case "":
    case "proto2":
      return Edition.EDITION_PROTO2;
    case "proto3":
      return Edition.EDITION_PROTO3;
    case "editions": {
      // Unreachable through resolveRequestFiles, which runs checkEditions
      // first; the same rule for any other caller.
      const problem = editionProblem(proto);
      if (problem !== undefined) {
        throw new Error(`${proto.name}: edition: ${problem}`);
      }
      return proto.edition;
    }
    default:
      throw new Error(
        `${proto.name}: syntax ${JSON.stringify(proto.syntax)} is not "proto2", "proto3" or "editions"`,
      );
  }
}

function addEnum(
  proto: DescEnum["proto"],
  typePrefix: string,
  file: DescFile,
  parent: DescMessage | undefined,
  types: Map<string, DescMessage | DescEnum>,
): DescEnum {
  const values: DescEnum["values"][number][] = [];
  const desc: DescEnum = {
    kind: "enum",
    typeName: typePrefix + proto.name,
    name: proto.name,
    file,
    parent,
    values,
    proto,
  };
  for (const value of proto.value) {
    values.push({
      kind: "enum_value",
      name: value.name,
      number: value.number,
      parent: desc,
      proto: value,
    });
  }
  types.set(desc.typeName, desc);
  return desc;
}

function newExtension(
  proto: FieldDescriptorProto,
  typePrefix: string,
  file: DescFile,
  parent: DescMessage | undefined,
): DescExtension {
  return {
    kind: "extension",
    typeName: typePrefix + proto.name,
    name: proto.name,
    file,
    parent,
    proto,
  };
}

/**
 * What a type_name refers to, or an Error naming the element (`field
 * a.v1.M.f`, `rpc a.v1.S.M`: the element's kind, its parent's name and its
 * own, joined only for the error).
 */
interface Resolver {
  message(
    typeName: string,
    kind: string,
    parent: string,
    name: string,
  ): DescMessage;
  enum(typeName: string, kind: string, parent: string, name: string): DescEnum;
  /** The map entry a repeated message field refers to, if it is one. */
  mapEntry(typeName: string): DescriptorProto | undefined;
}

function newResolver(
  fileName: string,
  types: ReadonlyMap<string, DescMessage | DescEnum>,
  mapEntries: ReadonlyMap<string, DescriptorProto>,
): Resolver {
  const refused = (
    typeName: string,
    want: string,
    kind: string,
    parent: string,
    name: string,
  ): Error =>
    new Error(
      `${fileName}: ${kind} ${parent}.${name}: type ${JSON.stringify(typeName)} ` +
        (mapEntries.has(trimDot(typeName))
          ? "is a map entry, which only the map field it was made for refers to"
          : `is not ${want} of the request's files`),
    );
  const get = (typeName: string) => types.get(trimDot(typeName));
  return {
    message(typeName, kind, parent, name) {
      const desc = get(typeName);
      if (desc?.kind !== "message") {
        throw refused(typeName, "a message", kind, parent, name);
      }
      return desc;
    },
    enum(typeName, kind, parent, name) {
      const desc = get(typeName);
      if (desc?.kind !== "enum") {
        throw refused(typeName, "an enum", kind, parent, name);
      }
      return desc;
    },
    mapEntry: (typeName) => mapEntries.get(trimDot(typeName)),
  };
}

/** A type name without the leading dot compilers write. */
function trimDot(typeName: string): string {
  return typeName.startsWith(".") ? typeName.slice(1) : typeName;
}

function addService(
  proto: DescService["proto"],
  typePrefix: string,
  file: DescFile,
  resolve: Resolver,
): DescService {
  const methods: DescMethod[] = [];
  const desc: DescService = {
    kind: "service",
    typeName: typePrefix + proto.name,
    name: proto.name,
    file,
    methods,
    proto,
  };
  for (const method of proto.method) {
    const { typeName } = desc;
    methods.push({
      kind: "rpc",
      name: method.name,
      localName: methodLocalName(method.name),
      parent: desc,
      methodKind: method.clientStreaming
        ? method.serverStreaming
          ? "bidi_streaming"
          : "client_streaming"
        : method.serverStreaming
          ? "server_streaming"
          : "unary",
      input: resolve.message(method.inputType, "rpc", typeName, method.name),
      output: resolve.message(method.outputType, "rpc", typeName, method.name),
      idempotency:
        method.options?.idempotencyLevel ??
        MethodOptions_IdempotencyLevel.IDEMPOTENCY_UNKNOWN,
      proto: method,
    });
  }
  return desc;
}

/** Names JavaScript gives every object, escaped by protobuf-es with a "$". */
const reservedProperties = new Set([
  "constructor",
  "toString",
  "toJSON",
  "valueOf",
]);

/** protobuf-es's local name of a method: its name, first letter lower. */
function methodLocalName(name: string): string {
  const local =
    name.length > 0 ? name.charAt(0).toLowerCase() + name.slice(1) : name;
  return reservedProperties.has(local) ? local + "$" : local;
}

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

function addFields(
  message: MessageUnderway,
  inherited: FeatureSet_FieldPresence,
  resolve: Resolver,
): void {
  const decls = message.proto.oneofDecl;
  const oneofs: OneofUnderway[] = [];
  for (const proto of decls) {
    oneofs.push({
      kind: "oneof",
      name: proto.name,
      parent: message,
      fields: [],
      proto,
    });
  }
  for (const proto of message.proto.field) {
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
  for (const oneof of oneofs) {
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
