import { expect, it } from "vitest";
import { createStringMemo } from "../src/schema/string-memo.js";

it("computes a key once, undefined results included, and forgets all at the limit", () => {
  const calls: string[] = [];
  const memo = createStringMemo((key) => {
    calls.push(key);
    return key === "none" ? undefined : key.toUpperCase();
  }, 3);
  expect([memo("a"), memo("a"), memo("none"), memo("none")]).toEqual([
    "A",
    "A",
    undefined,
    undefined,
  ]);
  expect(calls).toEqual(["a", "none"]);
  memo("b"); // 3 entries: the limit
  memo("c"); // forgets a, none and b
  memo("a");
  memo("c");
  expect(calls).toEqual(["a", "none", "b", "c", "a"]);
});
