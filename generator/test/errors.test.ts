// An error the plugin reports has one problem per line (protoc and buf
// print it as it is; the fuzz oracle reads it line by line): a name in a
// request that protoc or buf did not write may hold a line break or other
// control characters, which are escaped where they appear.
import { describe, expect, it } from "vitest";
import {
  createProblemCollector,
  GeneratorError,
  oneLine,
} from "../src/errors.js";

describe("oneLine", () => {
  it("escapes control characters and the line separators", () => {
    expect(oneLine("a\nb\r\tc\u0004d\u001fe\u2028f\u2029g")).toBe(
      "a\\nb\\r\\tc\\u0004d\\u001fe\\u2028f\\u2029g",
    );
  });

  it("leaves printable text alone, quotes and non-ASCII included", () => {
    const text = 'rpc a.B.C: type ".a.D" is not a message — café 😀';
    expect(oneLine(text)).toBe(text);
  });
});

describe("GeneratorError", () => {
  it("is one line for one problem", () => {
    expect(new GeneratorError("rpc \n\u0004x.S.M: bad").message).toBe(
      "rpc \\n\\u0004x.S.M: bad",
    );
  });

  it("is one line per problem for several", () => {
    expect(
      GeneratorError.lines(["a.proto: x\ny: bad", "b.proto: z: bad"]).message,
    ).toBe("a.proto: x\\ny: bad\nb.proto: z: bad");
  });

  it("lists collected problems one per line, sorted, whatever their names hold", () => {
    const problems = createProblemCollector();
    problems.add({ file: "b.proto", element: "S.M", message: "second" });
    problems.add({
      file: "a\nb.proto",
      element: "T\u0000.N",
      message: "first",
    });
    let thrown: unknown;
    try {
      problems.throwIfAny();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GeneratorError);
    expect((thrown as GeneratorError).message.split("\n")).toEqual([
      "a\\nb.proto: T\\u0000.N: first",
      "b.proto: S.M: second",
    ]);
  });
});
