// Runs the shared fix-up vectors (e2e/vectors/fixup/*.json) unchanged.
import {
  fromJson,
  getOption,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ToolError, fixArguments } from "../src/index.js";
import { rpc_tool } from "./src/gen/ai/tools/v1/annotations_pb.js";
import { file_aitest_v1_vectors } from "./src/gen/aitest/v1/vectors_pb.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/fixup",
);

interface Case {
  name: string;
  args: JsonValue;
  expect?: JsonValue;
  expectError?: string;
}

interface Vector {
  name: string;
  description: string;
  message: string;
  tool: string;
  strict: boolean;
  cases: Case[];
}

function messageNamed(typeName: string): DescMessage {
  const m = file_aitest_v1_vectors.messages.find(
    (d) => d.typeName === typeName,
  );
  if (m === undefined) throw new Error(`no message ${typeName}`);
  return m;
}

/** The strict flag of the tool of that name, from its rpc_tool option. */
function toolStrict(toolName: string): boolean | undefined {
  for (const service of file_aitest_v1_vectors.services) {
    for (const method of service.methods) {
      const tool = getOption(method, rpc_tool);
      if (tool.name === toolName) return tool.strict;
    }
  }
  return undefined;
}

const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("fix-up vectors", () => {
  it("finds the vector files", () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  for (const file of files) {
    const vector = JSON.parse(
      readFileSync(path.join(dir, file), "utf8"),
    ) as Vector;
    describe(`${file}: ${vector.description}`, () => {
      const schema = messageNamed(vector.message);
      it("names a tool of the proto with the vector's strictness", () => {
        expect(toolStrict(vector.tool)).toBe(vector.strict);
      });
      for (const c of vector.cases) {
        it(c.name, () => {
          const args = JSON.stringify(c.args);
          if (c.expectError !== undefined) {
            let err: unknown;
            try {
              fixArguments(args, schema, vector.strict);
            } catch (e) {
              err = e;
            }
            expect(err).toBeInstanceOf(ToolError);
            expect((err as ToolError).message).toBe(c.expectError);
            return;
          }
          const fixed = JSON.parse(
            fixArguments(args, schema, vector.strict),
          ) as JsonValue;
          expect(fixed).toEqual(c.expect);
          // expect decodes with the standard decoder, unknown fields discarded.
          expect(() =>
            fromJson(schema, c.expect as JsonValue, {
              ignoreUnknownFields: true,
            }),
          ).not.toThrow();
        });
      }
    });
  }
});
