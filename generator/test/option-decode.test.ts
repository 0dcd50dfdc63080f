import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { decodeFlat, messagePayload } from "../src/read/annotations.js";

// decodeFlat and messagePayload read the usual shapes by hand and leave the
// rest to BinaryReader. These references are BinaryReader alone: on every
// input both must give the same value or the same error.

type Kinds = Readonly<Record<number, "string" | "bool">>;

function referenceFlat(
  payload: Uint8Array,
  kinds: Kinds,
): Map<number, string | boolean> {
  const values = new Map<number, string | boolean>();
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    const kind = kinds[no];
    if (kind === "string" && wireType === WireType.LengthDelimited) {
      values.set(no, reader.string());
    } else if (kind === "bool" && wireType === WireType.Varint) {
      values.set(no, reader.bool());
    } else {
      reader.skip(wireType, no);
    }
  }
  return values;
}

function outcome<T>(f: () => T): { value: T } | { error: string } {
  try {
    return { value: f() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** A deterministic pseudo-random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const texts = ["", "acct", "a".repeat(200), "é—✓", "\u{1F600}", "\uFEFFx"];

/** A well-formed payload of kinds' fields and others, in any order. */
function payloadOf(next: () => number): Uint8Array {
  const w = new BinaryWriter();
  const count = Math.floor(next() * 6);
  for (let i = 0; i < count; i++) {
    const no = 1 + Math.floor(next() * 6);
    const r = next();
    if (r < 0.4) {
      w.tag(no, WireType.LengthDelimited).string(
        texts[Math.floor(next() * texts.length)]!,
      );
    } else if (r < 0.7) {
      w.tag(no, WireType.Varint).uint64(
        [0, 1, 2, 300, 2 ** 40][Math.floor(next() * 5)]!,
      );
    } else if (r < 0.8) {
      w.tag(no, WireType.Bit32).fixed32(7);
    } else if (r < 0.9) {
      w.tag(no + 2000, WireType.LengthDelimited).bytes(Uint8Array.of(1, 2));
    } else {
      w.tag(no, WireType.Bit64).fixed64(9);
    }
  }
  return w.finish();
}

/** `bytes` damaged: truncated, a byte changed, or bytes inserted. */
function damaged(bytes: Uint8Array, next: () => number): Uint8Array {
  const out = [...bytes];
  const r = next();
  const at = Math.floor(next() * (out.length + 1));
  if (r < 0.3) {
    return Uint8Array.from(out.slice(0, at));
  }
  if (r < 0.7 && out.length > 0) {
    out[Math.min(at, out.length - 1)] = Math.floor(next() * 256);
    return Uint8Array.from(out);
  }
  out.splice(at, 0, Math.floor(next() * 256), Math.floor(next() * 256));
  return Uint8Array.from(out);
}

describe("decodeFlat", () => {
  const kinds: Kinds = { 1: "bool", 2: "string", 3: "string", 4: "bool" };

  it("reads well-formed payloads as BinaryReader does", () => {
    const next = random(1);
    for (let i = 0; i < 3000; i++) {
      const payload = payloadOf(next);
      expect(decodeFlat(payload, kinds)).toEqual(referenceFlat(payload, kinds));
    }
  });

  it("reads damaged payloads as BinaryReader does, errors included", () => {
    const next = random(2);
    let errors = 0;
    for (let i = 0; i < 5000; i++) {
      const payload = damaged(payloadOf(next), next);
      const expected = outcome(() => referenceFlat(payload, kinds));
      expect(outcome(() => decodeFlat(payload, kinds))).toEqual(expected);
      errors += "error" in expected ? 1 : 0;
    }
    expect(errors).toBeGreaterThan(100);
  });

  it("decodes strings and bools of the usual shape", () => {
    const w = new BinaryWriter()
      .tag(2, WireType.LengthDelimited)
      .string("acct")
      .tag(1, WireType.Varint)
      .bool(true)
      .tag(3, WireType.LengthDelimited)
      .string("é")
      .tag(2, WireType.LengthDelimited)
      .string("user");
    expect([...decodeFlat(w.finish(), kinds)]).toEqual([
      [2, "user"],
      [1, true],
      [3, "é"],
    ]);
  });
});

describe("messagePayload", () => {
  const reference = (data: Uint8Array) => new BinaryReader(data).bytes();

  it("takes the value of length-delimited data as BinaryReader does", () => {
    const next = random(3);
    for (let i = 0; i < 1000; i++) {
      const value = Uint8Array.from({ length: Math.floor(next() * 300) }, () =>
        Math.floor(next() * 256),
      );
      let data: Uint8Array = new BinaryWriter().bytes(value).finish();
      if (next() < 0.5) {
        data = damaged(data, next);
      }
      const field = { no: 52105, wireType: WireType.LengthDelimited, data };
      expect(outcome(() => messagePayload([field]))).toEqual(
        outcome(() => reference(data)),
      );
    }
  });
});
