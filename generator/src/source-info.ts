import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { WireType } from "@bufbuild/protobuf/wire";

/**
 * Source code info kept as bytes by the request reader (read-request.ts),
 * by file. Most of a CodeGeneratorRequest is source code info, and the
 * plugin needs only the leading comments of a few elements from it, so it
 * is scanned lazily for just those instead of decoded into messages.
 */
export const rawSourceInfo = new WeakMap<FileDescriptorProto, Uint8Array>();

// SourceCodeInfo.location = 1; Location.path = 1, leading_comments = 3.
const locationField = 1;
const pathField = 1;
const leadingCommentsField = 3;

const utf8 = new TextDecoder();

/**
 * Leading comments by source path (`"4,0,2,1"`) from raw SourceCodeInfo
 * bytes. A hand-rolled scan without allocation per value: it decodes only
 * the path and leading comment of each location, and the path only when
 * there is a comment.
 */
export function scanLeadingComments(buf: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const b = buf[pos++];
      if (b === undefined) {
        throw new Error("truncated source code info");
      }
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) {
        return result;
      }
    }
  };
  const skip = (wireType: WireType): void => {
    switch (wireType) {
      case WireType.Varint:
        varint();
        return;
      case WireType.Bit64:
        pos += 8;
        return;
      case WireType.Bit32:
        pos += 4;
        return;
      case WireType.LengthDelimited: {
        const length = varint(); // before reading pos: `pos += varint()` would not
        pos += length;
        return;
      }
    }
    throw new Error(`unexpected wire type ${wireType} in source code info`);
  };
  while (pos < buf.length) {
    const tag = varint();
    const tagWireType: WireType = tag & 7;
    if (
      tag >>> 3 !== locationField ||
      tagWireType !== WireType.LengthDelimited
    ) {
      skip(tagWireType);
      continue;
    }
    const length = varint();
    const end = pos + length;
    let pathStart = -1;
    let pathEnd = -1;
    let leading = "";
    while (pos < end) {
      const fieldTag = varint();
      const no = fieldTag >>> 3;
      const wireType: WireType = fieldTag & 7;
      if (no === pathField && wireType === WireType.LengthDelimited) {
        const length = varint();
        pathStart = pos;
        pathEnd = pos + length;
        pos = pathEnd;
      } else if (
        no === leadingCommentsField &&
        wireType === WireType.LengthDelimited
      ) {
        const n = varint();
        leading = utf8.decode(buf.subarray(pos, pos + n));
        pos += n;
      } else {
        skip(wireType);
      }
    }
    pos = end;
    if (leading !== "" && pathStart >= 0) {
      const after = pos;
      pos = pathStart;
      let key = String(varint());
      while (pos < pathEnd) {
        key += "," + String(varint());
      }
      pos = after;
      if (!out.has(key)) {
        out.set(key, leading);
      }
    }
  }
  return out;
}
