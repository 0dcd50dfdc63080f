// Runs the shared response vectors (e2e/vectors/responses/*.json)
// unchanged: a response written as the executor (expect) and the MCP
// results (expectMcp) write it.
import { create, createRegistry, toBinary } from "@bufbuild/protobuf";
import {
  file_google_protobuf_type,
  OptionSchema,
  type Option,
} from "@bufbuild/protobuf/wkt";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toProtoJsonString } from "../src/proto-json.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/responses",
);

/** A google.protobuf.Option as the vectors write it. */
interface OptionInput {
  name: string;
  value?: { typeUrl: string; bytes?: string; option?: OptionInput };
}

interface Vector {
  message: string;
  cases: {
    name: string;
    input: OptionInput;
    expect: string;
    expectMcp: string;
  }[];
}

function build(input: OptionInput): Option {
  const value = input.value;
  return create(OptionSchema, {
    name: input.name,
    ...(value === undefined
      ? {}
      : {
          value: {
            typeUrl: value.typeUrl,
            value:
              value.option !== undefined
                ? toBinary(OptionSchema, build(value.option))
                : Buffer.from(value.bytes ?? "", "base64"),
          },
        }),
  });
}

// What a program holding only type.proto's messages knows.
const registry = createRegistry(file_google_protobuf_type);

const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("response vectors", () => {
  it("has vectors", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    const vector = JSON.parse(
      readFileSync(path.join(dir, file), "utf8"),
    ) as Vector;
    describe(file, () => {
      it("is about google.protobuf.Option", () => {
        expect(vector.message).toBe(OptionSchema.typeName);
        expect(vector.cases.length).toBeGreaterThan(0);
      });
      for (const c of vector.cases) {
        it(c.name, () => {
          const message = build(c.input);
          const before = toBinary(OptionSchema, message);
          expect(toProtoJsonString(OptionSchema, message, { registry })).toBe(
            c.expect,
          );
          expect(
            toProtoJsonString(OptionSchema, message, {
              registry,
              useProtoFieldName: true,
              alwaysEmitImplicit: true,
            }),
          ).toBe(c.expectMcp);
          // The response itself is left as it was.
          expect(toBinary(OptionSchema, message)).toEqual(before);
        });
      }
    });
  }
});
