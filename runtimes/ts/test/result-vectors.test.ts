// Runs the shared result vectors (e2e/vectors/results/*.json) unchanged: a
// well-known message read from its proto3 JSON and written as the executor
// writes a result, by default (expect: proto names) and with
// json_names=true (expectJsonNames: JSON names).
import {
  createRegistry,
  fromJson,
  toBinary,
  type JsonValue,
} from "@bufbuild/protobuf";
import { file_google_protobuf_type } from "@bufbuild/protobuf/wkt";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toProtoJsonString, toProtoJsonStrings } from "../src/proto-json.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/results",
);

interface Vector {
  cases: {
    name: string;
    message: string;
    input: JsonValue;
    expect: string;
    expectJsonNames: string;
  }[];
}

// What a program holding only type.proto's messages knows.
const registry = createRegistry(file_google_protobuf_type);

const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("result vectors", () => {
  it("has vectors", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    const vector = JSON.parse(
      readFileSync(path.join(dir, file), "utf8"),
    ) as Vector;
    describe(file, () => {
      it("has cases", () => {
        expect(vector.cases.length).toBeGreaterThan(0);
      });
      for (const c of vector.cases) {
        it(c.name, () => {
          const schema = registry.getMessage(c.message);
          if (schema === undefined) {
            throw new Error(`${file}: ${c.name}: unknown message ${c.message}`);
          }
          const message = fromJson(schema, c.input, { registry });
          const before = toBinary(schema, message);
          // As the executor writes a result (executor.ts, encode): proto
          // names by default, both namings from one encoding; JSON names
          // with jsonNames.
          const both = toProtoJsonStrings(schema, message, { registry });
          expect(both.protoNames).toBe(c.expect);
          expect(both.jsonNames).toBe(c.expectJsonNames);
          expect(toProtoJsonString(schema, message, { registry })).toBe(
            c.expectJsonNames,
          );
          // The same with the resultJson option's proto names.
          expect(
            toProtoJsonString(schema, message, {
              registry,
              useProtoFieldName: true,
            }),
          ).toBe(c.expect);
          // The message itself is left as it was.
          expect(toBinary(schema, message)).toEqual(before);
        });
      }
    });
  }
});
