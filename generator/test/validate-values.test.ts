import { fromJsonString } from "@bufbuild/protobuf";
import { fixArguments } from "@protoc-gen-ai-tools/runtime";
import { validateAgainst, valuesFor } from "@protoc-gen-ai-tools/testkit";
import { describe, expect, it } from "vitest";
import { esMessage, esRegistry } from "./support/es-registry.js";
import { modelOf } from "./support/model.js";
import { buildRequest } from "./support/request.js";

/**
 * The invariant of docs/compat.md ("admitted means decodable") for the
 * `buf.validate` keywords, in TypeScript: every value generated from a tool
 * of the golden case `validate` is admitted by its schema and, after the
 * runtime's argument fix-up, decodes with protobuf-es, unknown keys
 * ignored as the executors ignore them (the Go side is
 * golden/schemas/values_test.go, over the same values).
 */
describe("buf.validate keywords admit only decodable values", () => {
  it("holds for every tool of the validate case", async () => {
    const request = await buildRequest("validate");
    const model = modelOf(request);
    const registry = esRegistry(request);
    expect(model.tools.length).toBe(4);
    for (const [i, tool] of model.tools.entries()) {
      const input = esMessage(registry, tool.input);
      const schema = JSON.parse(tool.schemaJson) as Record<string, unknown>;
      const values = valuesFor(schema, {
        count: 200,
        seed: 5000 + i,
        oneofGroups: tool.oneofGroups.map((g) => ({
          path: g.path,
          members: g.members,
          name: g.oneof,
        })),
        integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
        numberLimit: 3.4e38,
      });
      for (const value of values) {
        expect(
          validateAgainst(schema, value, tool.oneofGroups),
          tool.name,
        ).toEqual([]);
        const fixed = fixArguments(JSON.stringify(value), input, tool.strict);
        expect(
          () => fromJsonString(input, fixed, { ignoreUnknownFields: true }),
          tool.name,
        ).not.toThrow();
      }
    }
  });
});
