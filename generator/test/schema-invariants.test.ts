import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import { modelOf } from "./support/model.js";
import { buildRequest, goldenCases, paths } from "./support/request.js";
import { withDecodableMasks } from "./support/decodable-masks.js";
import { validateAgainst, valuesFor } from "@protoc-gen-ai-tools/testkit";

/**
 * The two invariants of docs/compat.md, over every tool of every test proto:
 * strict schemas pass the OpenAI strict checker, and values generated from
 * each schema are written to test-go/values/ for the Go test
 * (golden/schemas/values_test.go) to decode after the executor's fix-up.
 */

/** Values generated per tool. */
export const valuesPerTool = 200;

const valuesDir = join(paths.generator, "test-go", "values");

describe.each(goldenCases())("case %s", (caseName) => {
  it("has only strict tools OpenAI accepts, and admits values for every tool", async () => {
    const request = await buildRequest(caseName);
    const model = modelOf(request);
    const tools = [];
    for (const [i, tool] of model.tools.entries()) {
      const schema = JSON.parse(tool.schemaJson) as Record<string, unknown>;
      if (tool.strict) {
        expect(checkOpenAiStrict(schema), tool.name).toEqual([]);
      }
      const values = valuesFor(withDecodableMasks(schema), {
        count: valuesPerTool,
        seed: 1000 + i,
        oneofGroups: tool.oneofGroups.map((g) => ({
          path: g.path,
          members: g.members,
          name: g.oneof,
        })),
        // Ranges every integer and float field accepts (docs/compat.md).
        integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
        numberLimit: 3.4e38,
      });
      for (const value of values) {
        expect(
          validateAgainst(schema, value, tool.oneofGroups),
          tool.name,
        ).toEqual([]);
      }
      tools.push({
        tool: tool.name,
        requestType: tool.input.typeName,
        strict: tool.strict,
        values,
      });
    }
    const descriptorSet = toBinary(
      FileDescriptorSetSchema,
      create(FileDescriptorSetSchema, { file: request.protoFile }),
    );
    mkdirSync(valuesDir, { recursive: true });
    writeFileSync(
      join(valuesDir, `${caseName}.json`),
      JSON.stringify({
        case: caseName,
        descriptorSet: Buffer.from(descriptorSet).toString("base64"),
        tools,
      }),
    );
  });
});
