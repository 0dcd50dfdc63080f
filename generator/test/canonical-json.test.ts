// The canonical serialization (docs/schemas.md): the one text every target
// embeds, so it must be what Go's encoding/json writes for the same value.
import { describe, expect, it } from "vitest";
import { canonicalJson, compareUtf8 } from "../src/schema/canonical-json.js";
import type { JsonValue } from "../src/schema/json-schema.js";

describe("canonicalJson", () => {
  it("orders keys by their UTF-8 bytes when some are not ASCII", () => {
    // UTF-16 order would put U+1F600 (a surrogate pair, D83D DE00) before
    // U+FFFD; its UTF-8 bytes (F0 9F 98 80) come after EF BF BD, as Go
    // sorts them. A key whose value is undefined is left out, as
    // JSON.stringify leaves it out.
    const value = {
      "\u{1F600}": 5,
      gone: undefined,
      "\uFFFD": 4,
      b: 2,
      "\u00E9": 3,
      a: { z: 1, y: [{ x: true }] },
    };
    expect(canonicalJson(value as unknown as JsonValue)).toBe(
      '{"a":{"y":[{"x":true}],"z":1},"b":2,"\u00E9":3,"\uFFFD":4,"\u{1F600}":5}',
    );
  });

  it("compares strings as their UTF-8 bytes compare", () => {
    const keys = ["\u{1F600}", "\uFFFD", "\u00E9", "b", "a", "ab", ""];
    const byBytes = (a: string, b: string): number =>
      Buffer.compare(Buffer.from(a), Buffer.from(b));
    expect([...keys].sort(compareUtf8)).toEqual([...keys].sort(byBytes));
    expect([...keys].sort(compareUtf8)).not.toEqual([...keys].sort());
  });
});
