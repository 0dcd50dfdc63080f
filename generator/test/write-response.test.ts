import { create, toBinary } from "@bufbuild/protobuf";
import { CodeGeneratorResponseSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { writeResponse } from "../src/render/write-response.js";

// The executable writes responses with writeResponse; it must give exactly
// the bytes of protobuf-es's toBinary.
describe("writeResponse", () => {
  it.each([
    ["an empty response", {}],
    [
      "an error",
      { error: 'invalid value "x" for option "target"', supportedFeatures: 1n },
    ],
    [
      "files with unicode, empty and large content",
      {
        supportedFeatures: 1n,
        file: [
          {
            name: "ai_tools.gen.go",
            content: "package gentools // é 漢字 🙂\n",
          },
          { name: "empty.txt", content: "" },
          { name: "big.txt", content: "x".repeat(300_000) },
        ],
      },
    ],
    ["a file without content", { file: [{ name: "a" }] }],
    [
      "the editions fields (supported features 3, 2024 at most)",
      {
        supportedFeatures: 3n,
        minimumEdition: 998,
        maximumEdition: 1001,
        file: [{ name: "a", content: "c" }],
      },
    ],
    [
      "a negative edition (falls back to toBinary)",
      { minimumEdition: -1, maximumEdition: 1001 },
    ],
    [
      "an insertion point (falls back to toBinary)",
      { file: [{ name: "a", insertionPoint: "p", content: "c" }] },
    ],
  ])("encodes %s as toBinary does", (_, init) => {
    const response = create(CodeGeneratorResponseSchema, init);
    expect(Buffer.from(writeResponse(response))).toEqual(
      Buffer.from(toBinary(CodeGeneratorResponseSchema, response)),
    );
  });
});
