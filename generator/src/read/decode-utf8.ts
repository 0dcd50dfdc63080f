const utf8 = new TextDecoder();

/**
 * Up to this many bytes, concatenation makes a flat string (V8 makes a
 * rope only of longer ones), and costs less than a TextDecoder call.
 */
const shortText = 12;

/**
 * The UTF-8 text of `bytes[start, end)`, decoded as protobuf-es's
 * BinaryReader.string() decodes it (invalid sequences replaced). Short
 * ASCII text, nearly every option value, is converted without TextDecoder,
 * whose call costs more than the conversion; longer text (comments) goes
 * through TextDecoder, as concatenating it character by character would
 * make a rope of one-character strings, slow to build and to flatten (on
 * Google's compute API, 2.6 MB of comments, about 0.3 s).
 */
export function decodeUtf8(
  bytes: Uint8Array,
  start: number,
  end: number,
): string {
  if (end - start > shortText) {
    return utf8.decode(bytes.subarray(start, end));
  }
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

/**
 * {@link decodeUtf8} for a Buffer, and faster for text longer than a few
 * bytes (comments: a large request holds tens of thousands of them, nearly
 * always ASCII): ASCII text is read by Buffer's latin1 conversion, one
 * byte per character, which costs about half a TextDecoder call.
 */
export function decodeUtf8Buffer(
  buffer: Buffer,
  start: number,
  end: number,
): string {
  for (let i = start; i < end; i++) {
    if (buffer[i]! >= 0x80) {
      return utf8.decode(buffer.subarray(start, end));
    }
  }
  return buffer.toString("latin1", start, end);
}
