import { beforeAll, describe, expect, it } from "vitest";
import type { GeneratorModel } from "../src/model/model.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// Expected schemas below were derived by hand from docs/schemas.md and
// docs/compat.md, then checked against the generator once.

const header = `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
import "google/api/field_behavior.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/any.proto";
import "google/protobuf/wrappers.proto";
option go_package = "example.com/t/v1;tv1";
`;

function tool(name: string, request: string, strict: boolean): string {
  return `  rpc R_${name}(${request}) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "${name}", description: "d", strict: ${strict}};
  }\n`;
}

const messages = `
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; }
enum RealZero { BLACK = 0; WHITE = 1; }
enum OnlyZero { ONLY_ZERO_UNSPECIFIED = 0; }
message Scalars {
  double d = 1; float f = 2; int32 i32 = 3; int64 i64 = 4; uint32 u32 = 5; uint64 u64 = 6;
  sint32 s32 = 7; sint64 s64 = 8; fixed32 f32 = 9; fixed64 f64 = 10; sfixed32 sf32 = 11;
  sfixed64 sf64 = 12; bool b = 13; string s = 14; bytes by = 15;
}
message Enums { Color color = 1; RealZero real_zero = 2; OnlyZero only_zero = 3; }
message Inner { string name = 1; }
message Shapes {
  // The tags.
  repeated string tags = 1;
  Inner inner = 2;
  optional string nick = 3;
  map<string, Inner> by_name = 4;
  map<int64, string> by_num = 5;
  map<bool, int32> by_flag = 6;
}
message Node { string label = 1; repeated Node children = 2; }
message Wkt {
  google.protobuf.Timestamp at = 1;
  google.protobuf.Duration ttl = 2;
  google.protobuf.FieldMask mask = 3;
  google.protobuf.Struct meta = 4;
  google.protobuf.Value value = 5;
  google.protobuf.ListValue list = 6;
  google.protobuf.Any any = 7;
  google.protobuf.Empty empty = 8;
  google.protobuf.StringValue sv = 9;
  google.protobuf.Int64Value iv = 10;
  google.protobuf.BytesValue bv = 11;
}
message Single { string id = 1; oneof kind { string a = 2; Inner b = 3; } }
message Holder { Single single = 1; }
message Several { oneof x { string a = 1; string b = 2; } oneof y { int32 c = 3; google.protobuf.Empty d = 4; } }
message Described {
  // Leading comment.
  string plain = 1;
  // Comment loses.
  string replaced = 2 [(ai.tools.v1.tool_field) = {description: "Model text."}];
  // Commented.
  string noted = 3 [(ai.tools.v1.tool_field) = {usage_notes: "  Use an alias.  "}];
  string notes_only = 4 [(ai.tools.v1.tool_field) = {usage_notes: "Only notes."}];
  string hidden = 5 [(ai.tools.v1.tool_field) = {skip: true}];
  string created_by = 6 [(google.api.field_behavior) = OUTPUT_ONLY];
  string packed_out = 7 [(google.api.field_behavior) = REQUIRED, (google.api.field_behavior) = OUTPUT_ONLY];
  // Quotes " and <b> & \\ back.
  string odd = 8;
}
`;

const protoSource =
  header +
  messages +
  "service S {\n" +
  [
    ["scalars", "Scalars"],
    ["enums", "Enums"],
    ["shapes", "Shapes"],
    ["node", "Node"],
    ["wkt", "Wkt"],
    ["single", "Single"],
    ["holder", "Holder"],
    ["several", "Several"],
    ["described", "Described"],
    ["empty", "google.protobuf.Empty"],
  ]
    .flatMap(([name, msg]) => [
      tool(`${name}_loose`, msg!, false),
      tool(`${name}_strict`, msg!, true),
    ])
    .join("") +
  "}\n";

let model: GeneratorModel;

beforeAll(() => {
  model = modelOf(compileRequest({ "t/v1/t.proto": protoSource }));
});

function schemaOf(name: string): string {
  return toolOf(model, name).schemaJson;
}

describe("base rules (bytes as the replaced Go plugin wrote them)", () => {
  it("maps every scalar kind", () => {
    const props =
      '"b":{"type":"boolean"},"by":{"format":"byte","type":"string"},"d":{"type":"number"},"f":{"type":"number"},' +
      '"f32":{"type":"integer"},"f64":{"type":"integer"},"i32":{"type":"integer"},"i64":{"type":"integer"},' +
      '"s":{"type":"string"},"s32":{"type":"integer"},"s64":{"type":"integer"},"sf32":{"type":"integer"},' +
      '"sf64":{"type":"integer"},"u32":{"type":"integer"},"u64":{"type":"integer"}';
    const required =
      '["d","f","i32","i64","u32","u64","s32","s64","f32","f64","sf32","sf64","b","s","by"]';
    expect(schemaOf("scalars_loose")).toBe(
      `{"properties":{${props}},"required":${required},"type":"object"}`,
    );
  });

  it("leaves out a zero enum value named *UNSPECIFIED, and need not be set", () => {
    expect(schemaOf("enums_loose")).toBe(
      '{"properties":{"color":{"enum":["RED","GREEN"],"type":"string"},' +
        '"only_zero":{"enum":["ONLY_ZERO_UNSPECIFIED"],"type":"string"},' +
        '"real_zero":{"enum":["BLACK","WHITE"],"type":"string"}},' +
        '"required":["real_zero","only_zero"],"type":"object"}',
    );
  });

  it("shapes repeated, nested, optional and maps (non-strict)", () => {
    expect(schemaOf("shapes_loose")).toBe(
      '{"properties":{' +
        '"by_flag":{"additionalProperties":{"type":"integer"},"propertyNames":{"enum":["false","true"]},"type":"object"},' +
        '"by_name":{"additionalProperties":{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"type":"object"},' +
        '"by_num":{"additionalProperties":{"type":"string"},"propertyNames":{"pattern":"^(0|-?[1-9][0-9]{0,17})$"},"type":"object"},' +
        '"inner":{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},' +
        '"nick":{"type":"string"},' +
        '"tags":{"description":"The tags.","items":{"type":"string"},"type":"array"}},' +
        '"required":["tags","inner","by_name","by_num","by_flag"],"type":"object"}',
    );
  });

  it("makes optional fields nullable and everything required when strict", () => {
    const inner =
      '{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}';
    const entries = (key: string, value: string): string =>
      `{"items":{"additionalProperties":false,"properties":{"key":${key},"value":${value}},"required":["key","value"],"type":"object"},"type":"array"}`;
    expect(schemaOf("shapes_strict")).toBe(
      '{"additionalProperties":false,"properties":{' +
        `"by_flag":${entries('{"type":"boolean"}', '{"type":"integer"}')},` +
        `"by_name":${entries('{"type":"string"}', inner)},` +
        `"by_num":${entries('{"type":"integer"}', '{"type":"string"}')},` +
        `"inner":${inner},` +
        '"nick":{"anyOf":[{"type":"string"},{"type":"null"}]},' +
        '"tags":{"description":"The tags.","items":{"type":"string"},"type":"array"}},' +
        '"required":["tags","inner","nick","by_name","by_num","by_flag"],"type":"object"}',
    );
  });

  it("writes recursion through $defs when non-strict, and stops it at an ancestor when strict", () => {
    // Non-strict: the message on the cycle under $defs, the field closing
    // the cycle not required (docs/compat.md, "$defs and $ref").
    const node =
      '{"properties":{"children":{"items":{"$ref":"#/$defs/Node"},"type":"array"},"label":{"type":"string"}},"required":["label"],"type":"object"}';
    expect(schemaOf("node_loose")).toBe(
      `{"$defs":{"Node":${node}},${node.slice(1)}`,
    );
    expect(schemaOf("node_strict")).toBe(
      '{"additionalProperties":false,"properties":{"children":{"items":{"additionalProperties":false,"properties":{},"required":[],"type":"object"},"type":"array"},"label":{"type":"string"}},"required":["label","children"],"type":"object"}',
    );
  });

  it("turns a nested single oneof into anyOf branches", () => {
    const branches =
      '[{"properties":{"a":{"type":"string"},"id":{"type":"string"}},"required":["id","a"],"type":"object"},' +
      '{"properties":{"b":{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"id":{"type":"string"}},"required":["id","b"],"type":"object"}]';
    expect(schemaOf("holder_loose")).toBe(
      `{"properties":{"single":{"anyOf":${branches}}},"required":["single"],"type":"object"}`,
    );
  });

  it("flattens a root oneof (non-strict) into one object", () => {
    expect(schemaOf("single_loose")).toBe(
      '{"properties":{"a":{"type":"string"},"b":{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"id":{"type":"string"}},"required":["id"],"type":"object"}',
    );
  });

  it("lists several oneofs' members as properties", () => {
    expect(schemaOf("several_loose")).toBe(
      '{"properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"integer"},"d":{"properties":{},"type":"object"}},"type":"object"}',
    );
    expect(schemaOf("several_strict")).toBe(
      '{"additionalProperties":false,"properties":{' +
        '"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"anyOf":[{"type":"string"},{"type":"null"}]},' +
        '"c":{"anyOf":[{"type":"integer"},{"type":"null"}]},' +
        '"d":{"anyOf":[{"additionalProperties":false,"properties":{},"required":[],"type":"object"},{"type":"null"}]}},' +
        '"required":["a","b","c","d"],"type":"object"}',
    );
  });

  it("composes descriptions and leaves out skipped and OUTPUT_ONLY fields", () => {
    expect(schemaOf("described_loose")).toBe(
      '{"properties":{' +
        '"noted":{"description":"Commented.\\n\\nUse an alias.","type":"string"},' +
        '"notes_only":{"description":"Only notes.","type":"string"},' +
        '"odd":{"description":"Quotes \\" and \\u003cb\\u003e \\u0026 \\\\ back.","type":"string"},' +
        '"plain":{"description":"Leading comment.","type":"string"},' +
        '"replaced":{"description":"Model text.","type":"string"}},' +
        '"required":["plain","replaced","noted","notes_only","odd"],"type":"object"}',
    );
  });

  it("renders Empty as the request", () => {
    expect(schemaOf("empty_loose")).toBe('{"properties":{},"type":"object"}');
    expect(schemaOf("empty_strict")).toBe(
      '{"additionalProperties":false,"properties":{},"required":[],"type":"object"}',
    );
  });
});

describe("fixes (docs/compat.md)", () => {
  it("gives well-known types decodable shapes and leaves Any out", () => {
    expect(schemaOf("wkt_loose")).toBe(
      '{"properties":{' +
        '"at":{"format":"date-time","type":"string"},' +
        '"bv":{"format":"byte","type":"string"},' +
        '"empty":{"properties":{},"type":"object"},' +
        '"iv":{"type":"integer"},' +
        '"list":{"items":{},"type":"array"},' +
        '"mask":{"description":"Comma-separated field paths of Wkt, e.g. \\"at,ttl\\"; \\"*\\" for all fields.","type":"string"},' +
        '"meta":{"type":"object"},' +
        '"sv":{"type":"string"},' +
        '"ttl":{"pattern":"^-?(0|[1-9][0-9]{0,10})(\\\\.[0-9]{1,9})?s$","type":"string"},' +
        '"value":{}},' +
        '"required":["at","ttl","mask","meta","value","list","empty","sv","iv","bv"],"type":"object"}',
    );
  });

  it("uses strict-safe shapes for Struct, Value, ListValue and bytes", () => {
    const schema = JSON.parse(schemaOf("wkt_strict")) as {
      properties: Record<string, unknown>;
    };
    const value = { type: "string", description: "JSON-encoded value" };
    expect(schema.properties["value"]).toEqual(value);
    expect(schema.properties["list"]).toEqual({ type: "array", items: value });
    expect(schema.properties["meta"]).toEqual({
      type: "array",
      description: "JSON object as key/value entries",
      items: {
        type: "object",
        properties: { key: { type: "string" }, value },
        required: ["key", "value"],
        additionalProperties: false,
      },
    });
    // A proto3 message field without `optional` is required, not nullable.
    expect(schema.properties["bv"]).toEqual({
      type: "string",
      pattern: "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
    });
    expect(schema.properties["any"]).toBeUndefined();
  });

  it("keeps the strict scalar bytes out of format: byte", () => {
    expect(schemaOf("scalars_strict")).toContain(
      '"by":{"pattern":"^([A-Za-z0-9+/]{4})*',
    );
    expect(schemaOf("scalars_strict")).not.toContain("format");
  });

  it("makes a strict root oneof nullable and required", () => {
    expect(schemaOf("single_strict")).toBe(
      '{"additionalProperties":false,"properties":{' +
        '"a":{"anyOf":[{"type":"string"},{"type":"null"}]},' +
        '"b":{"anyOf":[{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},{"type":"null"}]},' +
        '"id":{"type":"string"}},"required":["id","a","b"],"type":"object"}',
    );
    expect(toolOf(model, "single_strict").oneofGroups).toEqual([
      { path: [], oneof: "kind", members: ["a", "b"] },
    ]);
  });
});
