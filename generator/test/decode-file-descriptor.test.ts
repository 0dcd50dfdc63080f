import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  file_google_protobuf_descriptor,
  FileDescriptorProtoSchema,
  UninterpretedOptionSchema,
  type CodeGeneratorRequest,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { decodeFileDescriptor } from "../src/read/decode-file-descriptor.js";
import { createRandom } from "./fuzz/random-proto.js";
import { generateCorpus } from "./support/bench-corpus.js";
import { compileRequest } from "./support/compile.js";
import { buildRequest, goldenCases } from "./support/request.js";

// decodeFileDescriptor must give what readRequest gave before it: the file
// decoded by fromBinary without its source code info, and that info's bytes.
// "The same" is strict: same prototypes (proto2 presence and defaults), own
// properties in the same order, bigint, bytes, unknown fields.

const repoRoot = resolve(import.meta.dirname, "..", "..");
const sourceCodeInfoField = 9;
const protoFileField = 15;

/** The payloads of the top-level length-delimited fields numbered `no`. */
function split(
  bytes: Uint8Array,
  no: number,
): { rest: Uint8Array; picked: Uint8Array[] } {
  const reader = new BinaryReader(bytes);
  const writer = new BinaryWriter();
  const picked: Uint8Array[] = [];
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [fieldNo, wireType] = reader.tag();
    if (fieldNo === no && wireType === WireType.LengthDelimited) {
      picked.push(reader.bytes());
      continue;
    }
    reader.skip(wireType, fieldNo);
    writer.raw(bytes.subarray(start, reader.pos));
  }
  return { rest: writer.finish(), picked };
}

/** What fromBinary makes of a file's bytes, source code info kept apart. */
function reference(bytes: Uint8Array): {
  file: FileDescriptorProto;
  sourceInfo: Uint8Array[];
} {
  const { rest, picked } = split(bytes, sourceCodeInfoField);
  return {
    file: fromBinary(FileDescriptorProtoSchema, rest),
    sourceInfo: picked,
  };
}

/** The first difference between two values, or undefined. */
function difference(
  actual: unknown,
  expected: unknown,
  path = "",
): string | undefined {
  if (typeof actual !== typeof expected) {
    return `${path}: ${typeof actual}, expected ${typeof expected}`;
  }
  if (
    typeof actual !== "object" ||
    typeof expected !== "object" ||
    actual === null ||
    expected === null
  ) {
    return Object.is(actual, expected)
      ? undefined
      : `${path}: ${String(actual)}, expected ${String(expected)}`;
  }
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) {
    return `${path}: another prototype`;
  }
  if (actual instanceof Uint8Array) {
    const e = expected as Uint8Array;
    return actual.length === e.length && actual.every((b, i) => b === e[i])
      ? undefined
      : `${path}: other bytes`;
  }
  const keys = Reflect.ownKeys(actual);
  const expectedKeys = Reflect.ownKeys(expected);
  if (keys.join() !== expectedKeys.join()) {
    return `${path}: properties ${keys.join()}, expected ${expectedKeys.join()}`;
  }
  for (const key of keys) {
    const d = difference(
      (actual as Record<PropertyKey, unknown>)[key],
      (expected as Record<PropertyKey, unknown>)[key],
      `${path}.${String(key)}`,
    );
    if (d !== undefined) {
      return d;
    }
  }
  return undefined;
}

/** Decode the file both ways; the decoder must not leave it to fromBinary. */
function expectSameDecoding(bytes: Uint8Array, label: string): void {
  const decoded = decodeFileDescriptor(bytes);
  expect(decoded, label).toBeDefined();
  expect(difference(decoded, reference(bytes)), label).toBeUndefined();
}

/** The encoded files of a request. */
function requestFiles(request: CodeGeneratorRequest): Uint8Array[] {
  return split(toBinary(CodeGeneratorRequestSchema, request), protoFileField)
    .picked;
}

describe("decodeFileDescriptor", () => {
  it.each([...goldenCases(), "e2e"])(
    "decodes every file of case %s as fromBinary does",
    async (name) => {
      const request = await buildRequest(
        name === "e2e" ? join(repoRoot, "e2e", "proto") : name,
      );
      const files = requestFiles(request);
      expect(files.length).toBeGreaterThan(0);
      for (const [i, bytes] of files.entries()) {
        expectSameDecoding(bytes, request.protoFile[i]!.name);
      }
    },
  );

  it("decodes the benchmark corpus and editions files as fromBinary does", () => {
    const sources: Record<string, string> = {
      "ed/v1/ed.proto": `edition = "2023";
package ed.v1;
option features.field_presence = IMPLICIT;
message M {
  string a = 1 [features.field_presence = EXPLICIT, default = "ü"];
  int64 b = 2 [default = -5];
  repeated int32 c = 3 [features.repeated_field_encoding = EXPANDED];
  M d = 4 [features.message_encoding = DELIMITED];
  E e = 5 [features.field_presence = EXPLICIT];
  map<string, M> f = 6;
  oneof g { double h = 7; bytes i = 8; }
}
enum E { option features.enum_type = CLOSED; E_A = 0; E_B = -1; }
`,
      "p3/v1/p3.proto": `syntax = "proto3";
package p3.v1;
message N { optional uint64 x = 1 [deprecated = true]; repeated float y = 2; }
`,
    };
    for (const version of [1, 2]) {
      for (const file of generateCorpus("ai-tools-bench-1", 6, version)) {
        sources[file.path] = file.content;
      }
    }
    const request = compileRequest(sources);
    for (const [i, bytes] of requestFiles(request).entries()) {
      expectSameDecoding(bytes, request.protoFile[i]!.name);
    }
    expect(request.protoFile.length).toBeGreaterThan(12);
  });

  it("keeps what compilers seldom write as fromBinary does", () => {
    const field = (init: Record<string, unknown>) =>
      toBinary(
        FieldDescriptorProtoSchema,
        create(FieldDescriptorProtoSchema, init),
      );
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).string("a.proto");
    // A message in two parts (merged), unpacked and packed numbers, a
    // string with a byte order mark and one with invalid UTF-8, unknown
    // fields of every wire type, a closed enum's unknown value (before and
    // after other unknown fields), int64 and double in options.
    w.tag(4, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string("\ufeffM");
    w.tag(2, WireType.LengthDelimited).bytes(
      field({
        name: "f",
        number: 1,
        label: FieldDescriptorProto_Label.OPTIONAL,
      }),
    );
    w.tag(7, WireType.LengthDelimited).fork();
    w.tag(1, WireType.Varint).bool(true);
    w.tag(50001, WireType.LengthDelimited).bytes(Uint8Array.of(1, 2, 3));
    w.join();
    w.tag(7, WireType.LengthDelimited).fork();
    w.tag(3, WireType.Varint).bool(false);
    w.tag(50002, WireType.Bit64).fixed64(7n);
    w.tag(50003, WireType.Bit32).fixed32(9);
    w.tag(50004, WireType.Varint).int64(-2n);
    w.join();
    w.join();
    w.tag(4, WireType.LengthDelimited).fork();
    w.tag(2, WireType.LengthDelimited).fork();
    w.tag(4, WireType.Varint).int32(77);
    w.tag(5, WireType.Varint).int32(-3);
    w.tag(1, WireType.LengthDelimited).bytes(Uint8Array.of(0x61, 0xff, 0x62));
    w.join();
    w.tag(2, WireType.LengthDelimited).fork();
    w.tag(60000, WireType.Varint).int32(1);
    w.tag(5, WireType.Varint).int32(FieldDescriptorProto_Type.STRING);
    w.tag(4, WireType.Varint).int32(99);
    w.join();
    w.join();
    w.tag(10, WireType.Varint).int32(0);
    w.tag(10, WireType.LengthDelimited).fork().int32(1).int32(-1).join();
    w.tag(8, WireType.LengthDelimited).fork();
    w.tag(999, WireType.LengthDelimited).fork();
    w.tag(4, WireType.Varint).uint64(18446744073709551615n);
    w.tag(5, WireType.Varint).int64(-9007199254740993n);
    w.tag(6, WireType.Bit64).double(-0.5);
    w.tag(7, WireType.LengthDelimited).bytes(Uint8Array.of(0, 255));
    w.join();
    w.join();
    w.tag(sourceCodeInfoField, WireType.LengthDelimited).bytes(
      Uint8Array.of(10, 0),
    );
    w.tag(sourceCodeInfoField, WireType.LengthDelimited).bytes(
      Uint8Array.of(10, 2, 8, 1),
    );
    w.tag(12, WireType.LengthDelimited).string("proto2");
    expectSameDecoding(w.finish(), "seldom");

    const descriptorProto = toBinary(
      FileDescriptorProtoSchema,
      file_google_protobuf_descriptor.proto,
    );
    expectSameDecoding(descriptorProto, "descriptor.proto");
  });

  it("gives every empty list one frozen array, and a list its own at its first element", () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).string("lists.proto");
    // Two messages; the first has its options in two parts (a merge), each
    // part with an uninterpreted option, so the merged list grows twice.
    const uninterpreted = (namePart: string) =>
      toBinary(
        UninterpretedOptionSchema,
        create(UninterpretedOptionSchema, {
          name: [{ namePart, isExtension: false }],
        }),
      );
    w.tag(4, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string("A");
    w.tag(7, WireType.LengthDelimited).fork();
    w.tag(999, WireType.LengthDelimited).bytes(uninterpreted("x"));
    w.join();
    w.tag(7, WireType.LengthDelimited).fork();
    w.tag(999, WireType.LengthDelimited).bytes(uninterpreted("y"));
    w.join();
    w.join();
    w.tag(4, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string("B");
    w.join();
    const bytes = w.finish();
    expectSameDecoding(bytes, "lists");
    const { file } = decodeFileDescriptor(bytes)!;
    const [a, b] = file.messageType;
    // Empty lists: one frozen array, in every message and in the file.
    expect(Object.isFrozen(file.enumType)).toBe(true);
    expect(a!.field).toBe(file.enumType);
    expect(b!.field).toBe(file.enumType);
    expect(b!.nestedType).toBe(file.enumType);
    expect(file.enumType).toEqual([]);
    // Lists with elements: each its own, open to more elements.
    expect(Object.isFrozen(file.messageType)).toBe(false);
    const merged = a!.options!.uninterpretedOption;
    expect(merged.map((o) => o.name[0]!.namePart)).toEqual(["x", "y"]);
    expect(Object.isFrozen(merged)).toBe(false);
    expect(merged).not.toBe(file.messageType);
  });

  it("leaves to fromBinary, or decodes as it does, any damaged file", () => {
    const samples = [
      toBinary(
        FileDescriptorProtoSchema,
        file_google_protobuf_descriptor.proto,
      ),
      ...readdirSync(join(import.meta.dirname, "fuzz", "corpus", "found"))
        .filter((f) => f.endsWith(".binpb"))
        .flatMap(
          (f) =>
            split(
              readFileSync(
                join(import.meta.dirname, "fuzz", "corpus", "found", f),
              ),
              protoFileField,
            ).picked,
        ),
    ];
    const r = createRandom(13);
    let decoded = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      let bytes = samples[i % samples.length]!.slice();
      for (let n = 1 + r.int(3); n > 0; n--) {
        const at = r.int(bytes.length);
        switch (r.int(3)) {
          case 0:
            bytes[at] = r.int(256);
            break;
          case 1:
            bytes = bytes.subarray(0, at);
            break;
          default:
            bytes = Uint8Array.from([
              ...bytes.subarray(0, at),
              r.int(256),
              ...bytes.subarray(at),
            ]);
        }
      }
      let expected: ReturnType<typeof reference> | undefined;
      try {
        expected = reference(bytes);
      } catch {
        expected = undefined;
      }
      const actual = decodeFileDescriptor(bytes);
      if (actual === undefined) {
        refused++;
        continue;
      }
      decoded++;
      expect(expected, `mutation ${i}`).toBeDefined();
      expect(difference(actual, expected), `mutation ${i}`).toBeUndefined();
    }
    expect(decoded).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});
