import { BinaryReader, BinaryWriter } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { decodeUtf8, decodeUtf8Buffer } from "../src/read/decode-utf8.js";

/** What protobuf-es's BinaryReader.string() gives for the same bytes. */
function readerString(bytes: Uint8Array): string {
  const framed = new BinaryWriter().bytes(bytes).finish();
  return new BinaryReader(framed).string();
}

describe("decodeUtf8", () => {
  const encode = (s: string) => new TextEncoder().encode(s);
  const cases: [string, Uint8Array][] = [
    ["empty", new Uint8Array()],
    ["short ASCII", encode("id")],
    ["ASCII at the short limit", encode("abcdefghijkl")],
    ["ASCII one past it", encode("abcdefghijklm")],
    ["a long ASCII comment", encode(" Line one.\n Line two.\n".repeat(200))],
    ["short non-ASCII", encode("café")],
    ["long non-ASCII", encode("naïve résumé — ".repeat(50))],
    ["a surrogate pair", encode("emoji 😀 here")],
    // A byte order mark: BinaryReader.string() (TextDecoder) drops it, as
    // Buffer's utf8 conversion would not.
    ["a BOM alone", Uint8Array.from([0xef, 0xbb, 0xbf])],
    ["a BOM and text", Uint8Array.from([0xef, 0xbb, 0xbf, 0x61])],
    [
      "a BOM before a long comment",
      Uint8Array.from([
        0xef,
        0xbb,
        0xbf,
        ...encode(" A comment of some length."),
      ]),
    ],
    ["invalid UTF-8, short", Uint8Array.from([0x61, 0xff, 0x62])],
    [
      "invalid UTF-8, long",
      Uint8Array.from([...encode("x".repeat(40)), 0xc3, 0x28, 0x80]),
    ],
  ];

  it.each(cases)("decodes %s as BinaryReader.string() does", (_, bytes) => {
    expect(decodeUtf8(bytes, 0, bytes.length)).toBe(readerString(bytes));
  });

  it("decodes only the range asked for", () => {
    const bytes = encode("0123456789 a comment longer than twelve bytes ¶");
    for (const [start, end] of [
      [0, 4],
      [3, 30],
      [11, bytes.length],
      [5, 5],
    ] as const) {
      expect(decodeUtf8(bytes, start, end)).toBe(
        readerString(bytes.subarray(start, end)),
      );
    }
  });

  it.each(cases)(
    "decodes %s from a Buffer as BinaryReader.string() does",
    (_, bytes) => {
      // Inside a larger buffer, as a request's source info is.
      const buffer = Buffer.concat([encode("ab"), bytes, encode("é")]);
      expect(decodeUtf8Buffer(buffer, 2, 2 + bytes.length)).toBe(
        readerString(bytes),
      );
    },
  );
});
