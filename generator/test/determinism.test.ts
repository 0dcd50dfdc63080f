import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { create } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { protocGenAiTools } from "../src/plugin.js";
import { compileRequest } from "./support/compile.js";

const examples = resolve(import.meta.dirname, "..", "..", "proto", "examples");
const files = ["acme/links/v1/links.proto", "acme/themes/v1/themes.proto"];

describe("determinism", () => {
  it("gives byte-identical output for any order of proto_file and file_to_generate", () => {
    const request = compileRequest(
      Object.fromEntries(
        files.map((f) => [f, readFileSync(join(examples, f), "utf8")]),
      ),
    );
    const reference = protocGenAiTools.run(request);
    expect(reference.error ?? "").toBe("");
    expect(reference.file).toHaveLength(1);
    const orders = fc.sample(
      fc.tuple(
        fc.shuffledSubarray(request.protoFile, {
          minLength: request.protoFile.length,
        }),
        fc.boolean(),
      ),
      { numRuns: 20, seed: 3 },
    );
    for (const [protoFile, reverse] of orders) {
      const shuffled = create(CodeGeneratorRequestSchema, {
        parameter: request.parameter,
        protoFile,
        fileToGenerate: reverse
          ? [...request.fileToGenerate].reverse()
          : request.fileToGenerate,
      });
      const res = protocGenAiTools.run(shuffled);
      expect(res.error ?? "").toBe("");
      expect(res.file[0]?.content).toBe(reference.file[0]?.content);
    }
  });
});
