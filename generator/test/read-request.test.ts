import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  SourceCodeInfoSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { protocGenAiTools } from "../src/plugin.js";
import { readRequest } from "../src/read/read-request.js";
import { scanLeadingComments } from "../src/read/source-info.js";
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

describe("source_file_descriptors", () => {
  it("is decoded when read, as fromBinary decodes it, and costs nothing until then", async () => {
    const request = await buildRequest("schemas");
    const generated = request.protoFile.filter((f) =>
      request.fileToGenerate.includes(f.name),
    );
    expect(generated.length).toBeGreaterThan(0);
    request.sourceFileDescriptors = generated;
    const bytes = toBinary(CodeGeneratorRequestSchema, request);
    const expected = fromBinary(CodeGeneratorRequestSchema, bytes);

    const read = readRequest(bytes);
    // The same output as with the request fromBinary decodes.
    expect(protocGenAiTools.run(read).file).toEqual(
      protocGenAiTools.run(expected).file,
    );
    // Read afterwards: the same messages, source code info included.
    expect(read.sourceFileDescriptors).toEqual(expected.sourceFileDescriptors);
    expect(read.sourceFileDescriptors[0]!.sourceCodeInfo).toBeDefined();
    // Replaced like any field.
    read.sourceFileDescriptors = [];
    expect(read.sourceFileDescriptors).toEqual([]);
  });

  it("is not decoded unless read: damaged bytes there fail only the read", async () => {
    const request = await buildRequest("schemas");
    const bytes = toBinary(CodeGeneratorRequestSchema, request);
    // source_file_descriptors (field 17): a message cut short.
    const damaged = Uint8Array.from([...bytes, 0x8a, 0x01, 0x02, 0x0a, 0x05]);
    expect(() => fromBinary(CodeGeneratorRequestSchema, damaged)).toThrow();

    const read = readRequest(damaged);
    expect(protocGenAiTools.run(read).file).toEqual(
      protocGenAiTools.run(request).file,
    );
    expect(() => read.sourceFileDescriptors).toThrow();
  });

  it("is an empty list when the request has none", () => {
    const read = readRequest(
      toBinary(
        CodeGeneratorRequestSchema,
        create(CodeGeneratorRequestSchema, { parameter: "target=go" }),
      ),
    );
    expect(read.sourceFileDescriptors).toEqual([]);
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
      expect(scanLeadingComments(raw, (path) => path.join(","))).toEqual(
        expected,
      );
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
    expect([...scanLeadingComments(bytes, (path) => path.join(","))]).toEqual([
      ["4,0,2,1", " Hi.\n"],
    ]);
  });

  it("decodes the comments of the paths given a key only, the first of a key", () => {
    // Three locations with comments: [4, 0, 2, 1] " Hi.", [4, 1] " Msg.",
    // and [4, 0, 2, 1] again, " Again." (a later location of the same key).
    const location = (path: number[], comment: string) => {
      const packed = [0x0a, path.length, ...path];
      const text = [...new TextEncoder().encode(comment)];
      const body = [...packed, 0x1a, text.length, ...text];
      return [0x0a, body.length, ...body];
    };
    const bytes = Uint8Array.from([
      ...location([4, 0, 2, 1], " Hi.\n"),
      ...location([4, 1], " Msg.\n"),
      ...location([4, 0, 2, 1], " Again.\n"),
    ]);
    const asked: string[] = [];
    const found = scanLeadingComments(bytes, (path) => {
      asked.push(path.join(","));
      return path.length === 4 ? "field" : undefined;
    });
    expect(asked).toEqual(["4,0,2,1", "4,1", "4,0,2,1"]);
    expect([...found]).toEqual([["field", " Hi.\n"]]);
  });
});
