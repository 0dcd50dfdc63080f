import { describe, expect, it } from "vitest";
import { protocGenAiTools } from "../src/plugin.js";
import {
  badCases,
  buildRequest,
  expectedErrorParts,
} from "./support/request.js";

// testdata/bad/<case>: each proto set must fail generation with one message
// naming the file, the element and the fix, and write no file.
describe.each(badCases())("bad case %s", (name) => {
  it("fails with a located, actionable message and writes nothing", async () => {
    const res = protocGenAiTools.run(await buildRequest(`bad/${name}`));
    expect(res.file).toEqual([]);
    const error = res.error ?? "";
    expect(error).not.toBe("");
    for (const part of expectedErrorParts(name)) {
      expect(error).toContain(part);
    }
    // Every line names a proto file and an element, and says what to do.
    for (const line of error.split("\n")) {
      expect(line).toMatch(/^[\w/.-]+\.proto: \w+\.\w+: .+; .+/);
    }
    expect(error).not.toMatch(/\n\s+at |internal error/);
  });
});
