import {
  create,
  ScalarType,
  type DescField,
  type DescMessage,
  type UnknownField,
} from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";

/** A decoded file descriptor, and its source code info kept as bytes. */
export interface DecodedFile {
  readonly file: FileDescriptorProto;
  /** The payloads of the file's source_code_info fields, in wire order. */
  readonly sourceInfo: Uint8Array[];
}

/**
 * Decode a FileDescriptorProto as `fromBinary` does, much faster, except
 * that source_code_info (field 9) is returned as bytes instead of decoded.
 *
 * `fromBinary` is reflective: per message it builds a field map and a
 * reflection wrapper, per field it goes through checks meant for any
 * message. This decoder is a table built once from the same schema, read
 * by one loop, so it creates the objects `fromBinary` creates (the same
 * prototypes for proto2 defaults and presence, `$typeName`, list fields,
 * int64 as bigint, unknown fields in `$unknown` with the same bytes), and
 * nothing else, but for one thing: every empty list is one frozen array
 * (`noElements`), which the plugin only reads.
 *
 * It takes only the plain path through the wire format: every field with
 * the wire type of its type, every length within its message. On anything
 * else (bytes a compiler does not write, like a group, or a malformed
 * request) it returns undefined, and the caller decodes with `fromBinary`,
 * which then decides what the bytes mean or which error they give.
 */
export function decodeFileDescriptor(
  bytes: Uint8Array,
): DecodedFile | undefined {
  const decoder = new Decoder(bytes);
  try {
    const file = decoder.message(fileLayout(), bytes.length, undefined);
    return {
      file: file as unknown as FileDescriptorProto,
      sourceInfo: decoder.sourceInfo,
    };
  } catch {
    return undefined;
  }
}

// How a field is read (FieldLayout.kind).
const kindUnsupported = 0;
const kindString = 1;
const kindInt32 = 2;
const kindEnum = 3;
const kindScalar = 4;
const kindMessage = 5;
const kindStringList = 6;
const kindInt32List = 7;
const kindScalarList = 8;
const kindMessageList = 9;
const kindSourceInfo = 10;
const kindBytes = 11;

// As fromBinary's default read options.
const recursionLimit = 100;

// FileDescriptorProto.source_code_info.
const sourceCodeInfoField = 9;

class FieldLayout {
  constructor(
    readonly kind: number,
    /** The property of the field in the message object. */
    readonly name: string,
    /** The wire type of a value (of one element, for a list). */
    readonly wireType: WireType,
    /** For kindScalar and kindScalarList. */
    readonly scalar: ScalarType = ScalarType.INT32,
    /** The values of a closed enum (a value not among them is unknown). */
    readonly enumValues: ReadonlySet<number> | undefined = undefined,
    readonly message: MessageLayout | undefined = undefined,
  ) {}
}

class MessageLayout {
  /**
   * Makes an empty object whose prototype is `prototype`, as
   * `Object.create(prototype)` does, but each message type with its own
   * constructor gets objects with room for its fields in the object.
   */
  readonly construct: new () => object;

  constructor(
    readonly typeName: string,
    /** The prototype `create` gives the message (defaults of proto2 fields). */
    readonly prototype: object,
    /** Own properties of a new message after `$typeName`: empty lists. */
    readonly lists: readonly string[],
    /** False when a new message is more than a prototype and empty lists. */
    readonly plain: boolean,
    /** By field number. */
    readonly fields: readonly (FieldLayout | undefined)[],
  ) {
    const construct = function () {
      // no own properties
    } as unknown as new () => object;
    construct.prototype = prototype;
    this.construct = construct;
  }
}

type MessageObject = Record<string, unknown> & { $unknown?: UnknownField[] };

/** A thrown value that only makes decodeFileDescriptor give up. */
const notPlain = new Error("not a plain encoding");

const utf8 = new TextDecoder();

class Decoder {
  /** The bytes given, for source code info (a Buffer stays a Buffer). */
  readonly bytes: Uint8Array;
  readonly buf: Uint8Array;
  /** The same bytes, for Buffer's fast one-byte string decoding. */
  readonly text: Buffer;
  readonly sourceInfo: Uint8Array[] = [];
  pos = 0;
  depth = 0;

  constructor(bytes: Uint8Array) {
    // A plain Uint8Array even for a Buffer: unknown fields are subarrays,
    // and fromBinary's are Uint8Arrays.
    const buf = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    this.bytes = bytes;
    this.buf = buf;
    this.text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** Read a message that ends at `end`, into `target` if given (a merge). */
  message(
    layout: MessageLayout,
    end: number,
    target: MessageObject | undefined,
  ): MessageObject {
    if (++this.depth > recursionLimit || !layout.plain) {
      throw notPlain;
    }
    const msg = target ?? newMessage(layout);
    let unknown = msg.$unknown;
    const fields = layout.fields;
    const buf = this.buf;
    while (this.pos < end) {
      let tag = buf[this.pos]!;
      if (tag < 0x80) {
        this.pos++;
      } else {
        tag = this.longTag();
      }
      const no = tag >>> 3;
      const wireType = (tag & 7) as WireType;
      const field = no < fields.length ? fields[no] : undefined;
      if (field === undefined) {
        unknown = this.unknownField(unknown, no, wireType, end);
        continue;
      }
      if (wireType !== field.wireType) {
        this.packed(field, listOf(msg, field.name), wireType, end);
        continue;
      }
      switch (field.kind) {
        case kindString:
          msg[field.name] = this.string(end);
          break;
        case kindInt32:
          msg[field.name] = this.int32();
          break;
        case kindBytes: {
          const bytesEnd = this.lengthEnd(end);
          msg[field.name] = this.buf.subarray(this.pos, bytesEnd);
          this.pos = bytesEnd;
          break;
        }
        case kindEnum: {
          const value = this.int32();
          if (field.enumValues === undefined || field.enumValues.has(value)) {
            msg[field.name] = value;
          } else {
            unknownEnumValue(msg, no, value);
          }
          break;
        }
        case kindScalar:
          msg[field.name] = this.scalar(field.scalar);
          break;
        case kindMessage: {
          const subEnd = this.lengthEnd(end);
          msg[field.name] = this.message(
            field.message!,
            subEnd,
            msg[field.name] as MessageObject | undefined,
          );
          break;
        }
        case kindStringList:
          listOf(msg, field.name).push(this.string(end));
          break;
        case kindInt32List:
          listOf(msg, field.name).push(this.int32());
          break;
        case kindScalarList:
          listOf(msg, field.name).push(this.scalar(field.scalar));
          break;
        case kindMessageList: {
          const subEnd = this.lengthEnd(end);
          listOf(msg, field.name).push(
            this.message(field.message!, subEnd, undefined),
          );
          break;
        }
        case kindSourceInfo: {
          const subEnd = this.lengthEnd(end);
          this.sourceInfo.push(this.bytes.subarray(this.pos, subEnd));
          this.pos = subEnd;
          break;
        }
        default:
          throw notPlain;
      }
    }
    if (this.pos !== end) {
      throw notPlain;
    }
    if (unknown !== undefined && unknown.length > 0) {
      msg.$unknown = unknown;
    }
    this.depth--;
    return msg;
  }

  /**
   * A field whose wire type is not its type's: only the packed elements of
   * a list of numbers are plain.
   */
  packed(
    field: FieldLayout,
    list: unknown[],
    wireType: WireType,
    end: number,
  ): void {
    const kind = field.kind;
    if (
      wireType !== WireType.LengthDelimited ||
      (kind !== kindInt32List && kind !== kindScalarList)
    ) {
      throw notPlain;
    }
    const listEnd = this.lengthEnd(end);
    while (this.pos < listEnd) {
      list.push(
        kind === kindInt32List ? this.int32() : this.scalar(field.scalar),
      );
    }
    if (this.pos !== listEnd) {
      throw notPlain;
    }
  }

  /** Skip an unknown field's value, as BinaryReader.skip() does; keep it. */
  unknownField(
    unknown: UnknownField[] | undefined,
    no: number,
    wireType: WireType,
    end: number,
  ): UnknownField[] {
    if (no === 0) {
      throw notPlain;
    }
    const start = this.pos;
    switch (wireType) {
      case WireType.Varint: {
        const buf = this.buf;
        let pos = this.pos;
        while (buf[pos++]! & 0x80) {
          // continuation bytes
        }
        this.pos = pos;
        break;
      }
      case WireType.Bit64:
        this.pos += 8;
        break;
      case WireType.Bit32:
        this.pos += 4;
        break;
      case WireType.LengthDelimited:
        this.pos = this.lengthEnd(end);
        break;
      default:
        // Groups: compilers do not write them in descriptors.
        throw notPlain;
    }
    if (this.pos > end) {
      throw notPlain;
    }
    unknown ??= [];
    unknown.push({ no, wireType, data: this.buf.subarray(start, this.pos) });
    return unknown;
  }

  /** A tag of more than one byte, rejected as BinaryReader.tag() rejects it. */
  longTag(): number {
    const start = this.pos;
    const tag = this.uint32();
    const length = this.pos - start;
    if (length > 5 || (length === 5 && this.buf[this.pos - 1]! > 0x0f)) {
      throw notPlain;
    }
    return tag;
  }

  int32(): number {
    const b = this.buf[this.pos]!;
    if (b < 0x80) {
      this.pos++;
      return b;
    }
    return this.uint32() | 0;
  }

  /** A varint as BinaryReader.uint32() reads it. */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let b = buf[pos++]!;
    let result = b & 0x7f;
    if (b >= 0x80) {
      b = buf[pos++]!;
      result |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = buf[pos++]!;
        result |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = buf[pos++]!;
          result |= (b & 0x7f) << 21;
          if (b >= 0x80) {
            b = buf[pos++]!;
            result |= (b & 0x0f) << 28;
            for (let read = 5; b >= 0x80 && read < 10; read++) {
              b = buf[pos++]!;
            }
            if (b >= 0x80) {
              throw notPlain;
            }
            result >>>= 0;
          }
        }
      }
    }
    // Past the end, a byte reads as undefined, which ends the varint.
    if (pos > buf.length) {
      throw notPlain;
    }
    this.pos = pos;
    return result;
  }

  /** Read a length prefix; the end of the data, within `end`. */
  lengthEnd(end: number): number {
    let length = this.buf[this.pos]!;
    if (length < 0x80) {
      this.pos++;
    } else {
      length = this.uint32();
    }
    const dataEnd = this.pos + length;
    if (dataEnd > end) {
      throw notPlain;
    }
    return dataEnd;
  }

  /** A length-prefixed string, decoded as fromBinary decodes it. */
  string(end: number): string {
    const stringEnd = this.lengthEnd(end);
    const start = this.pos;
    this.pos = stringEnd;
    const buf = this.buf;
    for (let i = start; i < stringEnd; i++) {
      if (buf[i]! >= 0x80) {
        return utf8.decode(buf.subarray(start, stringEnd));
      }
    }
    // ASCII: one byte per character.
    return this.text.toString("latin1", start, stringEnd);
  }

  /** A scalar of a type without a fast path, read by BinaryReader. */
  scalar(type: ScalarType): unknown {
    const reader = new BinaryReader(this.buf);
    reader.pos = this.pos;
    const value = readScalar(reader, type);
    this.pos = reader.pos;
    return value;
  }
}

/** A scalar read as fromBinary reads it. */
function readScalar(reader: BinaryReader, type: ScalarType): unknown {
  switch (type) {
    case ScalarType.BOOL:
      return reader.bool();
    case ScalarType.DOUBLE:
      return reader.double();
    case ScalarType.FLOAT:
      return reader.float();
    case ScalarType.INT32:
      return reader.int32();
    case ScalarType.INT64:
      return reader.int64();
    case ScalarType.UINT64:
      return reader.uint64();
    case ScalarType.FIXED64:
      return reader.fixed64();
    case ScalarType.FIXED32:
      return reader.fixed32();
    case ScalarType.SFIXED32:
      return reader.sfixed32();
    case ScalarType.SFIXED64:
      return reader.sfixed64();
    case ScalarType.SINT64:
      return reader.sint64();
    case ScalarType.UINT32:
      return reader.uint32();
    case ScalarType.SINT32:
      return reader.sint32();
  }
  throw notPlain;
}

/**
 * A value a closed enum does not have is an unknown field, as fromBinary
 * keeps it: appended to `$unknown` at once, which the other unknown fields
 * of the message replace at its end if there are any (except in a merge,
 * where they were `$unknown` all along).
 */
function unknownEnumValue(msg: MessageObject, no: number, value: number) {
  const unknown = msg.$unknown ?? [];
  unknown.push({
    no,
    wireType: WireType.Varint,
    data: new BinaryWriter().int32(value).finish(),
  });
  msg.$unknown = unknown;
}

/**
 * The list every empty list field of a decoded message holds, frozen: at
 * 2,000 tools a request's descriptors have 74,481 list fields, 64,656
 * of them empty, and an array for each of those was 2 MB the collector
 * copied twice. A field gets its own array at its first element
 * (`listOf`).
 */
const noElements: readonly unknown[] = Object.freeze([]);

/** A new message as `create` makes it, but with `noElements` as lists. */
function newMessage(layout: MessageLayout): MessageObject {
  const msg = new layout.construct() as MessageObject;
  msg["$typeName"] = layout.typeName;
  for (const name of layout.lists) {
    msg[name] = noElements;
  }
  return msg;
}

/** The list of field `name` of `msg`, its own array once it has one. */
function listOf(msg: MessageObject, name: string): unknown[] {
  const list = msg[name] as unknown[];
  if (list !== noElements) {
    return list;
  }
  const own: unknown[] = [];
  msg[name] = own;
  return own;
}

let topLayout: MessageLayout | undefined;

/**
 * FileDescriptorProto's layout, where source_code_info is kept as bytes
 * (it is a field only at this level: no message nests a file).
 */
function fileLayout(): MessageLayout {
  if (topLayout === undefined) {
    const layout = layoutOf(FileDescriptorProtoSchema);
    const fields = [...layout.fields];
    fields[sourceCodeInfoField] = new FieldLayout(
      kindSourceInfo,
      "",
      WireType.LengthDelimited,
    );
    topLayout = new MessageLayout(
      layout.typeName,
      layout.prototype,
      layout.lists,
      layout.plain,
      fields,
    );
  }
  return topLayout;
}

const layouts = new Map<DescMessage, MessageLayout>();

/**
 * The layout of a message of descriptor.proto, from its schema and from the
 * message `create` makes (so that a new message is exactly that one).
 */
function layoutOf(desc: DescMessage): MessageLayout {
  const known = layouts.get(desc);
  if (known !== undefined) {
    return known;
  }
  const zero = create(desc) as unknown as Record<string, unknown>;
  const keys = Object.keys(zero);
  const lists = keys.slice(1);
  const plain =
    keys[0] === "$typeName" &&
    lists.every((key) => {
      const value = zero[key];
      return Array.isArray(value) && value.length === 0;
    });
  const maxNumber = Math.max(0, ...desc.fields.map((f) => f.number));
  const fields: (FieldLayout | undefined)[] = new Array<undefined>(
    maxNumber + 1,
  ).fill(undefined);
  const layout = new MessageLayout(
    desc.typeName,
    Object.getPrototypeOf(zero) as object,
    lists,
    plain,
    fields,
  );
  // Before the fields: a message type can contain itself.
  layouts.set(desc, layout);
  for (const field of desc.fields) {
    fields[field.number] = fieldLayout(field);
  }
  return layout;
}

function fieldLayout(field: DescField): FieldLayout {
  const layout = (
    kind: number,
    wireType: WireType,
    more: {
      scalar?: ScalarType;
      enumValues?: ReadonlySet<number> | undefined;
      message?: MessageLayout;
    } = {},
  ): FieldLayout =>
    new FieldLayout(
      kind,
      field.localName,
      wireType,
      more.scalar,
      more.enumValues,
      more.message,
    );
  const unsupported = layout(kindUnsupported, WireType.Varint);
  if (field.oneof !== undefined) {
    return unsupported;
  }
  switch (field.fieldKind) {
    case "scalar":
      if (field.longAsString) {
        return unsupported;
      }
      switch (field.scalar) {
        case ScalarType.STRING:
          return field.utf8Validation
            ? unsupported
            : layout(kindString, WireType.LengthDelimited);
        case ScalarType.BYTES:
          return layout(kindBytes, WireType.LengthDelimited);
        case ScalarType.INT32:
          return layout(kindInt32, WireType.Varint);
        default:
          return layout(kindScalar, wireTypeOf(field.scalar), {
            scalar: field.scalar,
          });
      }
    case "enum":
      return layout(kindEnum, WireType.Varint, {
        enumValues: field.enum.open
          ? undefined
          : new Set(field.enum.values.map((v) => v.number)),
      });
    case "message":
      return field.delimitedEncoding || !inDescriptorProto(field.message)
        ? unsupported
        : layout(kindMessage, WireType.LengthDelimited, {
            message: layoutOf(field.message),
          });
    case "list":
      switch (field.listKind) {
        case "message":
          return field.delimitedEncoding || !inDescriptorProto(field.message)
            ? unsupported
            : layout(kindMessageList, WireType.LengthDelimited, {
                message: layoutOf(field.message),
              });
        case "enum":
          // fromBinary reads list elements of an enum as int32, unchecked.
          return layout(kindInt32List, WireType.Varint);
        case "scalar":
          if (field.longAsString) {
            return unsupported;
          }
          switch (field.scalar) {
            case ScalarType.STRING:
              return field.utf8Validation
                ? unsupported
                : layout(kindStringList, WireType.LengthDelimited);
            case ScalarType.BYTES:
              return unsupported;
            case ScalarType.INT32:
              return layout(kindInt32List, WireType.Varint);
            default:
              return layout(kindScalarList, wireTypeOf(field.scalar), {
                scalar: field.scalar,
              });
          }
      }
      return unsupported;
    case "map":
      return unsupported;
  }
}

/**
 * Whether a message type is of descriptor.proto: a message of another file
 * may be one `fromBinary` represents otherwise (wrappers, Struct).
 */
function inDescriptorProto(desc: DescMessage): boolean {
  return desc.file === FileDescriptorProtoSchema.file;
}

function wireTypeOf(scalar: ScalarType): WireType {
  switch (scalar) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WireType.Bit64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WireType.Bit32;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
    default:
      return WireType.Varint;
  }
}
