import { beforeAll, describe, expect, it } from "vitest";
import type { GeneratorModel } from "../src/model/model.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// An enum field whose 0 value is `*_UNSPECIFIED` may be left unset
// (docs/schemas.md, "Which fields a call must send"), unless its
// `buf.validate` rules refuse the 0 an unset field sends: then a call must
// send it, as with `(buf.validate.field).required`.

const source = `syntax = "proto3";
package z.v1;
import "ai/tools/v1/annotations.proto";
import "buf/validate/validate.proto";
import "google/protobuf/empty.proto";
option go_package = "example.com/z/v1;zv1";

enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; BLUE = 3; }

message Paint {
  Color in_no_zero = 1 [(buf.validate.field).enum = {defined_only: true, in: [1, 3]}];
  Color not_in_zero = 2 [(buf.validate.field).enum.not_in = 0];
  Color const_one = 3 [(buf.validate.field).enum.const = 1];
  Color required = 4 [(buf.validate.field).required = true];
  Color in_zero = 5 [(buf.validate.field).enum = {in: [0, 2]}];
  Color not_in_other = 6 [(buf.validate.field).enum.not_in = 2];
  Color defined_only = 7 [(buf.validate.field).enum.defined_only = true];
  Color if_set = 8 [(buf.validate.field) = {ignore: IGNORE_IF_ZERO_VALUE, enum: {in: [1]}}];
  Color ignored = 9 [(buf.validate.field) = {ignore: IGNORE_ALWAYS, enum: {in: [1]}}];
  optional Color with_presence = 10 [(buf.validate.field).enum.in = 1];
  Color plain = 11;
}

service S {
  rpc PaintStrict(Paint) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "paint_strict", description: "d", strict: true};
  }
  rpc PaintLoose(Paint) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "paint_loose", description: "d", strict: false};
  }
}
`;

/** Fields whose rules refuse 0, and `required`: a call must send them. */
const mustSend = ["in_no_zero", "not_in_zero", "const_one", "required"];
/** Fields whose rules accept 0 (or do not apply to it). */
const mayLeave = [
  "in_zero",
  "not_in_other",
  "defined_only",
  "if_set",
  "ignored",
  "with_presence",
  "plain",
];

let model: GeneratorModel;

beforeAll(() => {
  model = modelOf(compileRequest({ "z/v1/z.proto": source }));
});

function schemaOf(name: string): JsonSchema {
  return JSON.parse(toolOf(model, name).schemaJson) as JsonSchema;
}

function props(schema: JsonSchema): Record<string, JsonSchema> {
  return schema["properties"] as Record<string, JsonSchema>;
}

function nullable(schema: JsonSchema): boolean {
  const anyOf = schema["anyOf"] as JsonSchema[] | undefined;
  return anyOf?.some((b) => b["type"] === "null") === true;
}

function tableRequired(name: string): string[] {
  const table = JSON.parse(toolOf(model, name).argumentsJson) as {
    nodes: { required?: string[] }[];
  };
  return table.nodes[0]!.required ?? [];
}

describe("UNSPECIFIED enums whose buf.validate rules refuse 0", () => {
  it("strict: not nullable, and the table requires them", () => {
    const schema = schemaOf("paint_strict");
    for (const name of mustSend) {
      expect(nullable(props(schema)[name]!), name).toBe(false);
    }
    for (const name of mayLeave) {
      expect(nullable(props(schema)[name]!), name).toBe(true);
    }
    expect([...tableRequired("paint_strict")].sort()).toEqual(
      [...mustSend].sort(),
    );
  });

  it("loose: in required; the table treats them as it treats required", () => {
    const required = schemaOf("paint_loose")["required"] as string[];
    expect(required.filter((n) => mustSend.includes(n)).sort()).toEqual(
      [...mustSend].sort(),
    );
    expect(required.filter((n) => mayLeave.includes(n))).toEqual([]);
    // A loose table requires REQUIRED behaviour and proto2 required only
    // (docs/runtime.md): buf.validate rules are checked in stage 5.
    const table = tableRequired("paint_loose");
    for (const name of mustSend) {
      expect(table.includes(name), name).toBe(table.includes("required"));
    }
  });

  it("the schema lists the values the rules accept", () => {
    const loose = props(schemaOf("paint_loose"));
    expect(loose["in_no_zero"]!["enum"]).toEqual(["RED", "BLUE"]);
    expect(loose["not_in_zero"]!["enum"]).toEqual(["RED", "GREEN", "BLUE"]);
    expect(loose["const_one"]!["enum"]).toEqual(["RED"]);
    expect(loose["not_in_other"]!["enum"]).toEqual(["RED", "BLUE"]);
    expect(loose["in_zero"]!["enum"]).toEqual(["GREEN"]);
  });
});
