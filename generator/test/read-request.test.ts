import { create, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  SourceCodeInfoSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { protocGenAiTools } from "../src/plugin.js";
import { readRequest } from "../src/read-request.js";
import { scanLeadingComments } from "../src/source-info.js";
import { buildRequest, goldenCases } from "./support/request.js";

// The executable decodes requests with readRequest (source info kept as
// bytes and scanned lazily); tests and other callers hand run() a request
// decoded with fromBinary. Both must give the same bytes.
describe.each(goldenCases())("case %s", (caseName) => {
  it("generates the same output from readRequest as from a decoded request", async () => {
    const request = await buildRequest(caseName);
    const viaMessages = protocGenAiTools.run(request);
    const viaBytes = protocGenAiTools.run(
      readRequest(toBinary(CodeGeneratorRequestSchema, request)),
    );
    expect(viaBytes.error ?? "").toBe(viaMessages.error ?? "");
    expect(viaBytes.file.map((f) => [f.name, f.content])).toEqual(
      viaMessages.file.map((f) => [f.name, f.content]),
    );
  });
});

describe("scanLeadingComments", () => {
  it("finds the leading comments of every location that has one", async () => {
    const request = await buildRequest("schemas");
    let compared = 0;
    for (const file of request.protoFile) {
      const expected = new Map<string, string>();
      for (const location of file.sourceCodeInfo?.location ?? []) {
        const key = location.path.join(",");
        if (location.leadingComments && !expected.has(key)) {
          expected.set(key, location.leadingComments);
        }
      }
      const raw = toBinary(
        SourceCodeInfoSchema,
        file.sourceCodeInfo ?? create(SourceCodeInfoSchema),
      );
      expect(scanLeadingComments(raw)).toEqual(expected);
      compared += expected.size;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it("decodes paths and comments from raw SourceCodeInfo bytes", () => {
    // location { path: [4, 0, 2, 1] span: [3, 2, 10] leading_comments: " Hi.\n" }
    const bytes = Uint8Array.from([
      0x0a, 0x12, 0x0a, 0x04, 0x04, 0x00, 0x02, 0x01, 0x12, 0x03, 0x03, 0x02,
      0x0a, 0x1a, 0x05, 0x20, 0x48, 0x69, 0x2e, 0x0a, 0x0a, 0x06, 0x0a, 0x02,
      0x04, 0x01, 0x12, 0x00,
    ]);
    expect([...scanLeadingComments(bytes)]).toEqual([["4,0,2,1", " Hi.\n"]]);
  });
});
