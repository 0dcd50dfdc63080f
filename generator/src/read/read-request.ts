import { fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorProtoSchema,
  type CodeGeneratorRequest,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import {
  decodeFileDescriptor,
  type DecodedFile,
} from "./decode-file-descriptor.js";
import { rawSourceInfo } from "./source-info.js";

// CodeGeneratorRequest.proto_file = 15, source_file_descriptors = 17;
// FileDescriptorProto.source_code_info = 9.
const protoFileField = 15;
const sourceFileDescriptorsField = 17;
const sourceCodeInfoField = 9;

/**
 * The message's bytes without the length-delimited fields numbered `pick`
 * (`kept`), and the payloads of those fields, in wire order, by number.
 */
function splitFields(
  bytes: Uint8Array,
  pick: readonly number[],
): { kept: Uint8Array; picked: Map<number, Uint8Array[]> } {
  const reader = new BinaryReader(bytes);
  const keptParts: Uint8Array[] = [];
  const picked = new Map<number, Uint8Array[]>(pick.map((no) => [no, []]));
  let keptLength = 0;
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [no, wireType] = reader.tag();
    const payloads = picked.get(no);
    if (payloads !== undefined && wireType === WireType.LengthDelimited) {
      payloads.push(reader.bytes());
      continue;
    }
    reader.skip(wireType, no);
    const part = bytes.subarray(start, reader.pos);
    keptParts.push(part);
    keptLength += part.length;
  }
  const kept = new Uint8Array(keptLength);
  let offset = 0;
  for (const part of keptParts) {
    kept.set(part, offset);
    offset += part.length;
  }
  return { kept, picked };
}

/**
 * Decode a CodeGeneratorRequest like `fromBinary`, except that each file's
 * source code info is kept as bytes (see source-info.ts) rather than decoded
 * into hundreds of thousands of Location messages: on a large request that
 * is most of the decoding time. The files are decoded by
 * decodeFileDescriptor, several times faster than `fromBinary`.
 *
 * `source_file_descriptors` (the files to generate once more, with their
 * source-retention options, which buf and recent protoc releases send, not
 * Debian's protoc 3.21) is decoded by `fromBinary` when it is first read:
 * the generator never reads it (it reads no source-retention option), and
 * on a large API decoding it costs as much as the rest of the request.
 */
export function readRequest(bytes: Uint8Array): CodeGeneratorRequest {
  const { kept, picked } = splitFields(bytes, [
    protoFileField,
    sourceFileDescriptorsField,
  ]);
  const request = fromBinary(CodeGeneratorRequestSchema, kept);
  const sourceFiles = picked.get(sourceFileDescriptorsField)!;
  if (sourceFiles.length > 0) {
    let decoded: FileDescriptorProto[] | undefined;
    Object.defineProperty(request, "sourceFileDescriptors", {
      configurable: true,
      enumerable: true,
      get: () =>
        (decoded ??= sourceFiles.map((fileBytes) =>
          fromBinary(FileDescriptorProtoSchema, fileBytes),
        )),
      set: (value: FileDescriptorProto[]) => {
        decoded = value;
      },
    });
  }
  request.protoFile = picked.get(protoFileField)!.map((fileBytes) => {
    const { file, sourceInfo } =
      decodeFileDescriptor(fileBytes) ?? decodeReflectively(fileBytes);
    if (sourceInfo.length > 0) {
      rawSourceInfo.set(
        file,
        sourceInfo.length === 1 ? sourceInfo[0]! : concat(sourceInfo),
      );
    }
    return file;
  });
  return request;
}

/**
 * A file decoded by fromBinary, for what decodeFileDescriptor leaves to it:
 * fromBinary decides what unusual bytes mean, or which error they give.
 */
function decodeReflectively(fileBytes: Uint8Array): DecodedFile {
  const { kept, picked } = splitFields(fileBytes, [sourceCodeInfoField]);
  return {
    file: fromBinary(FileDescriptorProtoSchema, kept),
    sourceInfo: picked.get(sourceCodeInfoField)!,
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
