const utf8 = new TextDecoder();

/**
 * The UTF-8 text of `bytes[start, end)`, decoded as protobuf-es's
 * BinaryReader.string() decodes it (invalid sequences replaced). ASCII,
 * nearly every option value and comment, is converted without TextDecoder,
 * whose call costs more than the conversion for a short string.
 */
export function decodeUtf8(
  bytes: Uint8Array,
  start: number,
  end: number,
): string {
  let text = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) {
      return utf8.decode(bytes.subarray(start, end));
    }
    text += String.fromCharCode(b);
  }
  return text;
}
