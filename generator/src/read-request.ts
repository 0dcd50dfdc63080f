import { fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorProtoSchema,
  type CodeGeneratorRequest,
} from "@bufbuild/protobuf/wkt";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import {
  decodeFileDescriptor,
  type DecodedFile,
} from "./decode-file-descriptor.js";
import { rawSourceInfo } from "./source-info.js";

// CodeGeneratorRequest.proto_file = 15; FileDescriptorProto.source_code_info = 9.
const protoFileField = 15;
const sourceCodeInfoField = 9;

/** The raw bytes of each top-level field, split by field number. */
function splitFields(
  bytes: Uint8Array,
  keep: (no: number) => boolean,
): { kept: Uint8Array; picked: Uint8Array[] } {
  const reader = new BinaryReader(bytes);
  const keptParts: Uint8Array[] = [];
  const picked: Uint8Array[] = [];
  let keptLength = 0;
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [no, wireType] = reader.tag();
    if (!keep(no) && wireType === WireType.LengthDelimited) {
      picked.push(reader.bytes());
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
 */
export function readRequest(bytes: Uint8Array): CodeGeneratorRequest {
  const { kept, picked } = splitFields(bytes, (no) => no !== protoFileField);
  const request = fromBinary(CodeGeneratorRequestSchema, kept);
  request.protoFile = picked.map((fileBytes) => {
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
  const { kept, picked } = splitFields(
    fileBytes,
    (no) => no !== sourceCodeInfoField,
  );
  return {
    file: fromBinary(FileDescriptorProtoSchema, kept),
    sourceInfo: picked,
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
