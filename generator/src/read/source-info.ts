import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { WireType } from "@bufbuild/protobuf/wire";
import { decodeUtf8Buffer } from "./decode-utf8.js";

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

/**
 * Leading comments from raw SourceCodeInfo bytes, by the key `keyOf` gives
 * a location's path (`[4, 0, 2, 1]`), for the locations it gives one: the
 * comment of any other location is not decoded, and the first location
 * of a key wins. `path` is valid during the call only (one array serves
 * every location). A hand-rolled scan without allocation per value: it
 * decodes only the path and leading comment of each location, and the
 * path only when there is a comment. A large request has hundreds of
 * thousands of locations, so the loop keeps its position in a local and
 * reads one-byte varints (nearly all of them) inline.
 */
export function scanLeadingComments<K>(
  buf: Uint8Array,
  keyOf: (path: readonly number[]) => K | undefined,
): Map<K, string> {
  const out = new Map<K, string>();
  // The request reader's bytes are a Buffer already; other bytes get a
  // Buffer view, for its latin1 conversion.
  const text = Buffer.isBuffer(buf)
    ? buf
    : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const len = buf.length;
  let pos = 0;
  while (pos < len) {
    let tag = buf[pos]!;
    if (tag < 0x80) {
      pos++;
    } else {
      tag = longVarint(buf, pos);
      pos = varintEnd;
    }
    const tagWireType: WireType = tag & 7;
    if (
      tag >>> 3 !== locationField ||
      tagWireType !== WireType.LengthDelimited
    ) {
      pos = skip(buf, pos, tagWireType);
      continue;
    }
    let length = buf[pos];
    if (length !== undefined && length < 0x80) {
      pos++;
    } else {
      length = longVarint(buf, pos);
      pos = varintEnd;
    }
    const end = pos + length;
    let pathStart = -1;
    let pathEnd = -1;
    let leadingStart = -1;
    let leadingEnd = -1;
    while (pos < end) {
      let fieldTag = buf[pos];
      if (fieldTag !== undefined && fieldTag < 0x80) {
        pos++;
      } else {
        fieldTag = longVarint(buf, pos);
        pos = varintEnd;
      }
      const no = fieldTag >>> 3;
      const wireType: WireType = fieldTag & 7;
      if (
        (no === pathField || no === leadingCommentsField) &&
        wireType === WireType.LengthDelimited
      ) {
        let n = buf[pos];
        if (n !== undefined && n < 0x80) {
          pos++;
        } else {
          n = longVarint(buf, pos);
          pos = varintEnd;
        }
        if (no === pathField) {
          pathStart = pos;
          pathEnd = pos + n;
        } else {
          leadingStart = pos;
          leadingEnd = Math.min(pos + n, len);
        }
        pos += n;
      } else {
        pos = skip(buf, pos, wireType);
      }
    }
    pos = end;
    if (leadingEnd > leadingStart && pathStart >= 0) {
      const key = keyOf(readPath(buf, pathStart, pathEnd));
      if (key !== undefined && !out.has(key)) {
        const leading = decodeUtf8Buffer(text, leadingStart, leadingEnd);
        if (leading !== "") {
          out.set(key, leading);
        }
      }
    }
  }
  return out;
}

/** Where the last {@link longVarint} ended: a second result, not an allocation. */
let varintEnd = 0;

/**
 * The varint at `pos` in any length (as a float sum, so an overlong one
 * gives the same odd number each time); sets {@link varintEnd}.
 */
function longVarint(buf: Uint8Array, pos: number): number {
  let result = 0;
  for (let shift = 0; ; shift += 7) {
    const b = buf[pos++];
    if (b === undefined) {
      throw new Error("truncated source code info");
    }
    result += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      varintEnd = pos;
      return result;
    }
  }
}

/** The position after the value of `wireType` at `pos`. */
function skip(buf: Uint8Array, pos: number, wireType: WireType): number {
  switch (wireType) {
    case WireType.Varint:
      longVarint(buf, pos);
      return varintEnd;
    case WireType.Bit64:
      return pos + 8;
    case WireType.Bit32:
      return pos + 4;
    case WireType.LengthDelimited: {
      const length = longVarint(buf, pos);
      return varintEnd + length;
    }
  }
  throw new Error(`unexpected wire type ${wireType} in source code info`);
}

/** The array {@link readPath} fills, for every location. */
const path: number[] = [];

/**
 * A packed path, in {@link path}: empty for an empty one. Reads past `end`
 * as long as a varint runs on (a path whose length is wrong), as a reader
 * would.
 */
function readPath(buf: Uint8Array, pos: number, end: number): number[] {
  path.length = 0;
  while (pos < end) {
    path.push(longVarint(buf, pos));
    pos = varintEnd;
  }
  return path;
}
