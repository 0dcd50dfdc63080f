import { describe, expect, it } from "vitest";
import { wellFormed } from "../src/schema/well-formed.js";

// The one rule for text no target could write as UTF-8: it enters the model
// as U+FFFD, so every target's escaping helper sees well-formed text.
describe("wellFormed", () => {
  it.each([
    ["plain é 漢字", "plain é 漢字"],
    ["pair \ud83d\ude42 kept", "pair \ud83d\ude42 kept"],
    ["lone high \ud800 end", "lone high \ufffd end"],
    ["lone low \udc00 end", "lone low \ufffd end"],
    ["reversed \udc00\ud800", "reversed \ufffd\ufffd"],
    ["\ud800", "\ufffd"],
    ["\ud800\ud800\udc00", "\ufffd\ud800\udc00"],
  ])("%j → %j", (input, output) => {
    expect(wellFormed(input)).toBe(output);
  });
});
