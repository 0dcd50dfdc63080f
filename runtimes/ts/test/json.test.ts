import { describe, expect, it } from "vitest";
import {
  JsonNumber,
  compareBytes,
  parseJson,
  quote,
  stringifyJson,
  tryParseJson,
} from "../src/json.js";
import { createAliasManager } from "../src/index.js";

describe("json", () => {
  it("keeps numbers as written and sorts keys by byte order", () => {
    const text = `{"b":1.50,"a":[1e3,-0,12345678901234567890],"\u00e9":true,"z":null,"\ud83d\ude00":0,"\uffff":1}`;
    expect(stringifyJson(parseJson(text))).toBe(
      `{"a":[1e3,-0,12345678901234567890],"b":1.50,"z":null,"\u00e9":true,"\uffff":1,"\ud83d\ude00":0}`,
    );
  });

  it("quotes names in messages as docs/runtime.md says", () => {
    expect(quote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quote("\b\f\n\r\t\u0001\u001f")).toBe(
      '"\\b\\f\\n\\r\\t\\u0001\\u001f"',
    );
    // Non-ASCII, DEL and the line separators are written as they are.
    expect(quote("déjà\u007f\u2028\u2029漢")).toBe(
      '"déjà\u007f\u2028\u2029漢"',
    );
    // An unpaired surrogate reads as U+FFFD (as after Go's decoder).
    expect(quote("a\ud800b\udc00")).toBe('"a\ufffdb\ufffd"');
    expect(quote("\ud83d\ude00")).toBe('"\ud83d\ude00"');
    // A backslash before "ud800" text is not an escape.
    expect(quote("\\ud800")).toBe('"\\\\ud800"');
  });

  it("compares like UTF-8 bytes", () => {
    expect(compareBytes("\uffff", "\ud83d\ude00")).toBeLessThan(0);
    expect(compareBytes("a", "ab")).toBeLessThan(0);
    expect(compareBytes("b", "a")).toBeGreaterThan(0);
  });

  it("escapes like Go's encoder without HTML escaping", () => {
    expect(stringifyJson('<a&b>\u2028\u2029\u0001\b\f\n"\\')).toBe(
      `"<a&b>\\u2028\\u2029\\u0001\\b\\f\\n\\"\\\\"`,
    );
    expect(stringifyJson("\ud800x")).toBe(`"\ufffdx"`);
  });

  it("reads __proto__ as an ordinary key", () => {
    const v = parseJson(`{"__proto__":{"polluted":1}}`) as Record<
      string,
      unknown
    >;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(v)).toBeNull();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(stringifyJson(parseJson(`{"__proto__":1}`))).toBe(`{"__proto__":1}`);
  });

  it("refuses what is not exactly one JSON value", () => {
    for (const bad of [
      "",
      " ",
      "{",
      "[1,]",
      "01",
      "1.",
      ".5",
      "+1",
      "tru",
      `"a`,
      `"\t"`,
      "{} {}",
      "[1] x",
      `{"a" 1}`,
      `"\\x"`,
      "NaN",
    ]) {
      expect(tryParseJson(bad), bad).toBeUndefined();
    }
    expect(parseJson(" \n[1, 2]\t")).toEqual([
      new JsonNumber("1"),
      new JsonNumber("2"),
    ]);
    expect(parseJson(`"\\u00e9\\/"`)).toBe("\u00e9/");
  });
});

describe("alias manager, beyond the vectors", () => {
  it("aliasifyJson matches a regular-expression reference on random text", () => {
    const m = createAliasManager({
      knownAliasPrefixes: [],
      responseAliases: { types: {}, tools: {} },
    });
    const ids = [
      "0a1b2c3d-0000-4000-8000-000000000001",
      "0a1b2c3d-0000-4000-8000-00000000000f",
    ];
    ids.forEach((id) => m.register("x", id));
    const re =
      /(?<![0-9a-fA-F-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9a-fA-F-])/g;
    const pieces = [
      ...ids,
      "-",
      "a",
      "g",
      " ",
      '"',
      "0a1b2c3d-0000-4000-8000-00000000000",
      "é",
    ];
    let seed = 7;
    const rand = (n: number) => (
      (seed = (seed * 1103515245 + 12345) % 2 ** 31),
      seed % n
    );
    for (let round = 0; round < 500; round++) {
      let text = "";
      for (let i = rand(8); i >= 0; i--) text += pieces[rand(pieces.length)];
      expect(m.aliasifyJson(text), text).toBe(
        text.replace(re, (u) =>
          u === ids[0] ? "x-1" : u === ids[1] ? "x-2" : u,
        ),
      );
    }
  });

  it("restoreState reads keys as Go does (case-insensitive, nulls ignored)", () => {
    const m = createAliasManager({
      knownAliasPrefixes: [],
      responseAliases: { types: {}, tools: {} },
    });
    m.restoreState(
      `{"Version":1,"ALIASES":{"a-1":"0a1b2c3d-0000-4000-8000-000000000001"},"counters":{"a":1},"extra":[]}`,
    );
    expect(m.exportState()).toBe(
      `{"aliases":{"a-1":"0a1b2c3d-0000-4000-8000-000000000001"},"counters":{"a":1},"version":1}`,
    );
    expect(() => m.restoreState(`null`)).toThrow(
      "restore alias state: unsupported version 0",
    );
    expect(() => m.restoreState(`{"version":1,"counters":{"a":1.5}}`)).toThrow(
      "invalid JSON",
    );
    expect(m.register("a", "0a1b2c3d-0000-4000-8000-000000000002")).toBe("a-2");
  });

  it("treats prototype names as ordinary field names and prefixes", () => {
    const m = createAliasManager({
      knownAliasPrefixes: [],
      responseAliases: {
        types: { T: [{ field: "id", prefix: "p" }] },
        tools: { t: { message: "T", idPrefix: "", idField: "" } },
      },
    });
    // Fields are own properties of the response: never a prototype's.
    m.registerResponse(
      "t",
      `{"constructor":"0a1b2c3d-0000-4000-8000-000000000001","__proto__":{"id":"0a1b2c3d-0000-4000-8000-000000000002"}}`,
    );
    m.registerResponse(
      "toString",
      `{"id":"0a1b2c3d-0000-4000-8000-000000000004"}`,
    );
    expect(m.exportState()).toBe(`{"aliases":{},"counters":{},"version":1}`);
    expect(
      m.register("__proto__", "0a1b2c3d-0000-4000-8000-000000000003"),
    ).toBe("__proto__-1");
    expect(m.resolveJson(`{"a":"__proto__-1","b":"toString-1"}`)).toBe(
      `{"a":"0a1b2c3d-0000-4000-8000-000000000003","b":"toString-1"}`,
    );
  });
});
