import {
  Edition,
  FeatureSet_FieldPresence,
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
import { addFields } from "./field-descriptors.js";
import { newResolver, type Resolver } from "./type-resolver.js";

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
  for (let i = 0; i < files.length; i++) {
    const proto = files[i]!;
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
  for (let i = 0; i < proto.enumType.length; i++) {
    const enumProto = proto.enumType[i]!;
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
    for (let i = 0; i < messageProto.enumType.length; i++) {
      const enumProto = messageProto.enumType[i]!;
      desc.nestedEnums.push(
        addEnum(enumProto, nestedPrefix, file, desc, types),
      );
    }
    for (let i = 0; i < messageProto.nestedType.length; i++) {
      const nested = messageProto.nestedType[i]!;
      addMessage(nested, nestedPrefix, desc, presence);
    }
  };
  for (let i = 0; i < proto.messageType.length; i++) {
    const messageProto = proto.messageType[i]!;
    addMessage(messageProto, prefix, undefined, filePresence);
  }
  const resolve = newResolver(proto.name, types, mapEntries);
  for (let i = 0; i < proto.service.length; i++) {
    const serviceProto = proto.service[i]!;
    file.services.push(addService(serviceProto, prefix, file, resolve));
  }
  for (let i = 0; i < proto.extension.length; i++) {
    const extension = proto.extension[i]!;
    file.extensions.push(newExtension(extension, prefix, file, undefined));
  }
  for (const { desc, presence } of pending) {
    for (let i = 0; i < desc.proto.extension.length; i++) {
      const extension = desc.proto.extension[i]!;
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
  for (let i = 0, list = proto.value; i < list.length; i++) {
    const value = list[i]!;
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
  for (let i = 0, list = proto.method; i < list.length; i++) {
    const method = list[i]!;
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
