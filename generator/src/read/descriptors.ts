import type { ScalarType } from "@bufbuild/protobuf";
import type {
  DescriptorProto,
  Edition,
  EnumDescriptorProto,
  EnumValueDescriptorProto,
  FeatureSet_FieldPresence,
  FieldDescriptorProto,
  FileDescriptorProto,
  MethodDescriptorProto,
  MethodOptions_IdempotencyLevel,
  OneofDescriptorProto,
  ServiceDescriptorProto,
} from "@bufbuild/protobuf/wkt";

// The descriptors the generator reads: the part of protobuf-es's
// descriptors (DescFile, DescMessage, …, same names, same meaning) that the
// model and the views use, built by createDescriptors. Each interface is a
// supertype of protobuf-es's, so a descriptor from a protobuf-es registry
// can be passed wherever one of these is expected; the other way round, a
// caller needing protobuf-es's (to create a message) looks the type name up
// in a registry of its own.

/** A proto file. */
export interface DescFile {
  readonly kind: "file";
  /** The file's name without ".proto" (`a/v1/a`), as protobuf-es names it. */
  readonly name: string;
  /** proto2 and proto3 as EDITION_PROTO2 and EDITION_PROTO3. */
  readonly edition: Edition;
  readonly messages: readonly DescMessage[];
  readonly enums: readonly DescEnum[];
  readonly services: readonly DescService[];
  readonly extensions: readonly DescExtension[];
  readonly proto: FileDescriptorProto;
}

/** A message; map entries have none (see DescField's `map` kind). */
export interface DescMessage {
  readonly kind: "message";
  /** The full name without the leading dot (`a.v1.Link.Tag`). */
  readonly typeName: string;
  readonly name: string;
  readonly file: DescFile;
  readonly parent: DescMessage | undefined;
  readonly fields: readonly DescField[];
  /** The oneofs written in the file: without proto3 optional's synthetic ones. */
  readonly oneofs: readonly DescOneof[];
  readonly nestedMessages: readonly DescMessage[];
  readonly nestedEnums: readonly DescEnum[];
  readonly nestedExtensions: readonly DescExtension[];
  readonly proto: DescriptorProto;
}

/** An enum. */
export interface DescEnum {
  readonly kind: "enum";
  readonly typeName: string;
  readonly name: string;
  readonly file: DescFile;
  readonly parent: DescMessage | undefined;
  readonly values: readonly DescEnumValue[];
  readonly proto: EnumDescriptorProto;
}

/** A value of an enum. */
export interface DescEnumValue {
  readonly kind: "enum_value";
  readonly name: string;
  readonly number: number;
  readonly parent: DescEnum;
  readonly proto: EnumValueDescriptorProto;
}

/** A oneof written in the file. */
export interface DescOneof {
  readonly kind: "oneof";
  readonly name: string;
  readonly parent: DescMessage;
  readonly fields: readonly DescField[];
  readonly proto: OneofDescriptorProto;
}

/**
 * An extension: only its name is read (the TypeScript target's names), so
 * neither its extendee nor its type is resolved.
 */
export interface DescExtension {
  readonly kind: "extension";
  readonly typeName: string;
  readonly name: string;
  readonly file: DescFile;
  readonly parent: DescMessage | undefined;
  readonly proto: FieldDescriptorProto;
}

/** What every field has, whatever its kind. */
interface FieldCommon {
  readonly kind: "field";
  readonly name: string;
  readonly number: number;
  /** json_name as the compiler wrote it. */
  readonly jsonName: string;
  /**
   * EXPLICIT, IMPLICIT or LEGACY_REQUIRED, resolved as protobuf-es does:
   * required is LEGACY_REQUIRED, repeated IMPLICIT, oneof members and
   * proto3 optional EXPLICIT, otherwise the field_presence feature of the
   * field, its messages, its file or its edition, a singular message
   * field being EXPLICIT even where the feature says IMPLICIT.
   */
  readonly presence: FeatureSet_FieldPresence;
  readonly parent: DescMessage;
  readonly proto: FieldDescriptorProto;
}

/** A singular field: its oneof, if it is in one (not proto3 optional's). */
type Singular<K, S, E, M> = {
  readonly fieldKind: K;
  readonly scalar: S;
  readonly enum: E;
  readonly message: M;
  readonly oneof: DescOneof | undefined;
};

/** The element of a repeated field or the value of a map field. */
type Element<S, E, M> = {
  readonly scalar: S;
  readonly enum: E;
  readonly message: M;
  readonly oneof: undefined;
};

/**
 * A field, by `fieldKind`: a singular scalar, enum or message, a list
 * (`listKind` of its elements) or a map (`mapKey`, `mapKind` of its
 * values); `scalar`, `enum` and `message` describe the single value, the
 * elements or the map's values.
 */
export type DescField = FieldCommon &
  (
    | Singular<"scalar", ScalarType, undefined, undefined>
    | Singular<"enum", undefined, DescEnum, undefined>
    | Singular<"message", undefined, undefined, DescMessage>
    | ({ readonly fieldKind: "list" } & (
        | ({ readonly listKind: "scalar" } & Element<
            ScalarType,
            undefined,
            undefined
          >)
        | ({ readonly listKind: "enum" } & Element<
            undefined,
            DescEnum,
            undefined
          >)
        | ({ readonly listKind: "message" } & Element<
            undefined,
            undefined,
            DescMessage
          >)
      ))
    | ({ readonly fieldKind: "map"; readonly mapKey: ScalarType } & (
        | ({ readonly mapKind: "scalar" } & Element<
            ScalarType,
            undefined,
            undefined
          >)
        | ({ readonly mapKind: "enum" } & Element<
            undefined,
            DescEnum,
            undefined
          >)
        | ({ readonly mapKind: "message" } & Element<
            undefined,
            undefined,
            DescMessage
          >)
      ))
  );

/** A service. */
export interface DescService {
  readonly kind: "service";
  readonly typeName: string;
  readonly name: string;
  readonly file: DescFile;
  readonly methods: readonly DescMethod[];
  readonly proto: ServiceDescriptorProto;
}

/** An RPC. */
export interface DescMethod {
  readonly kind: "rpc";
  readonly name: string;
  /**
   * The name protobuf-es's generated code gives the method (`getLink`; a
   * "$" suffix where JavaScript reserves the name: `toString$`).
   */
  readonly localName: string;
  readonly parent: DescService;
  readonly methodKind:
    "unary" | "server_streaming" | "client_streaming" | "bidi_streaming";
  readonly input: DescMessage;
  readonly output: DescMessage;
  readonly idempotency: MethodOptions_IdempotencyLevel;
  readonly proto: MethodDescriptorProto;
}

/**
 * The messages, enums, services and extensions of a file, in the order
 * protobuf-es's `nestedTypes` yields them: each message followed by what it
 * nests, then the file's enums, services and extensions.
 */
export function* nestedTypes(
  desc: DescFile | DescMessage,
): Iterable<DescMessage | DescEnum | DescService | DescExtension> {
  for (const message of desc.kind === "file"
    ? desc.messages
    : desc.nestedMessages) {
    yield message;
    yield* nestedTypes(message);
  }
  if (desc.kind === "file") {
    yield* desc.enums;
    yield* desc.services;
    yield* desc.extensions;
  } else {
    yield* desc.nestedEnums;
    yield* desc.nestedExtensions;
  }
}
