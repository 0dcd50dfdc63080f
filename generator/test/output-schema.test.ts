import { beforeAll, describe, expect, it } from "vitest";
import { createProblemCollector } from "../src/errors.js";
import { checkMcpServiceNames } from "../src/model/mcp-services.js";
import type { GeneratorModel } from "../src/model/model.js";
import { buildOutputSchema } from "../src/schema/build-output-schema.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// Expected schemas below were derived by hand from what protojson writes
// (docs/mcp.md, "Tools as listed"); output-schema-encoders.test.ts checks
// them against the three encoders' real output.

const proto = `syntax = "proto3";
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

service S {
  rpc Scalars(google.protobuf.Empty) returns (ScalarsOut) {
    option (ai.tools.v1.rpc_tool) = {name: "scalars", description: "d"};
    option idempotency_level = NO_SIDE_EFFECTS;
  }
  rpc Shapes(google.protobuf.Empty) returns (ShapesOut) {
    option (ai.tools.v1.rpc_tool) = {name: "shapes", description: "d"};
    option idempotency_level = IDEMPOTENT;
  }
  rpc Wkt(google.protobuf.Empty) returns (WktOut) {
    option (ai.tools.v1.rpc_tool) = {name: "wkt", description: "d"};
  }
  rpc Tree(google.protobuf.Empty) returns (Node) {
    option (ai.tools.v1.rpc_tool) = {name: "tree", description: "d"};
  }
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "ping", description: "d"};
  }
  rpc Now(google.protobuf.Empty) returns (google.protobuf.Timestamp) {
    option (ai.tools.v1.rpc_tool) = {name: "now", description: "d"};
  }
  rpc Watch(google.protobuf.Empty) returns (stream ShapesOut) {
    option (ai.tools.v1.rpc_tool) = {name: "watch", description: "d"};
  }
}

enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
message ScalarsOut {
  double d = 1; float f = 2; int32 i32 = 3; int64 i64 = 4; uint32 u32 = 5; uint64 u64 = 6;
  sint32 s32 = 7; sint64 s64 = 8; fixed32 f32 = 9; fixed64 f64 = 10; sfixed32 sf32 = 11;
  sfixed64 sf64 = 12; bool b = 13; string s = 14; bytes by = 15; Color color = 16;
}
message Inner { string name = 1; }
message ShapesOut {
  // The tags.
  repeated string tags = 1;
  Inner inner = 2;
  optional string nick = 3;
  map<string, Inner> by_name = 4;
  map<int64, string> by_num = 5;
  map<bool, int32> by_flag = 6;
  oneof pick { string a = 7; Inner b = 8; }
  string secret = 9 [(ai.tools.v1.tool_field).skip = true];
  string made = 10 [(google.api.field_behavior) = OUTPUT_ONLY];
  repeated Color colors = 11;
}
message WktOut {
  google.protobuf.Timestamp at = 1;
  google.protobuf.Duration ttl = 2;
  google.protobuf.FieldMask mask = 3;
  google.protobuf.Struct meta = 4;
  google.protobuf.Value value = 5;
  google.protobuf.ListValue list = 6;
  google.protobuf.Any any = 7;
  google.protobuf.Empty empty = 8;
  google.protobuf.Int64Value iv = 9;
  google.protobuf.UInt32Value uv = 10;
  google.protobuf.DoubleValue dv = 11;
  google.protobuf.BytesValue bv = 12;
  google.protobuf.NullValue nothing = 13;
}
message Node { string label = 1; repeated Node children = 2; Leaf leaf = 3; }
message Leaf { Node back = 1; }
`;

const closedProto = `syntax = "proto2";
package t.v2;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/empty.proto";
service S {
  rpc Get(google.protobuf.Empty) returns (Out) {
    option (ai.tools.v1.rpc_tool) = {name: "closed", description: "d"};
  }
}
enum Shade { DARK = 0; LIGHT = 1; }
message Out { optional Shade shade = 1; optional int32 n = 2; repeated int32 r = 3; }
`;

let model: GeneratorModel;
beforeAll(() => {
  model = modelOf(
    compileRequest({ "t/v1/t.proto": proto, "t/v2/t.proto": closedProto }),
  );
});

function outputOf(name: string): JsonSchema {
  return JSON.parse(toolOf(model, name).outputSchemaJson) as JsonSchema;
}

const int64 = { type: "string", pattern: "^-?[0-9]+$" };
const uint64 = { type: "string", pattern: "^[0-9]+$" };
const float = {
  anyOf: [
    { type: "number" },
    { type: "string", enum: ["NaN", "Infinity", "-Infinity"] },
  ],
};
const inner = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
};
const nullable = (s: JsonSchema) => ({ anyOf: [s, { type: "null" }] });

describe("output schema", () => {
  it("writes scalars as protojson does: 64-bit integers as strings, NaN as a string, open enums by name or number", () => {
    expect(outputOf("scalars")).toEqual({
      type: "object",
      properties: {
        d: float,
        f: float,
        i32: { type: "integer" },
        i64: int64,
        u32: { type: "integer" },
        u64: uint64,
        s32: { type: "integer" },
        s64: int64,
        f32: { type: "integer" },
        f64: uint64,
        sf32: { type: "integer" },
        sf64: int64,
        b: { type: "boolean" },
        s: { type: "string" },
        by: { type: "string", format: "byte" },
        color: {
          anyOf: [
            { type: "string", enum: ["COLOR_UNSPECIFIED", "RED"] },
            { type: "integer" },
          ],
        },
      },
      required: [
        "d",
        "f",
        "i32",
        "i64",
        "u32",
        "u64",
        "s32",
        "s64",
        "f32",
        "f64",
        "sf32",
        "sf64",
        "b",
        "s",
        "by",
        "color",
      ],
    });
  });

  it("requires the fields without presence; messages may be null; oneof members and optional fields are neither", () => {
    const color = {
      anyOf: [
        { type: "string", enum: ["COLOR_UNSPECIFIED", "RED"] },
        { type: "integer" },
      ],
    };
    expect(outputOf("shapes")).toEqual({
      type: "object",
      properties: {
        tags: {
          type: "array",
          items: { type: "string" },
          description: "The tags.",
        },
        inner: nullable(inner),
        nick: { type: "string" },
        by_name: { type: "object", additionalProperties: inner },
        by_num: {
          type: "object",
          additionalProperties: { type: "string" },
          propertyNames: { pattern: "^-?[0-9]+$" },
        },
        by_flag: {
          type: "object",
          additionalProperties: { type: "integer" },
          propertyNames: { enum: ["false", "true"] },
        },
        a: { type: "string" },
        b: inner,
        secret: { type: "string" },
        made: { type: "string" },
        colors: { type: "array", items: color },
      },
      required: [
        "tags",
        "by_name",
        "by_num",
        "by_flag",
        "secret",
        "made",
        "colors",
      ],
    });
  });

  it("writes well-known types in their JSON form", () => {
    expect(outputOf("wkt")).toEqual({
      type: "object",
      properties: {
        at: nullable({ type: "string", format: "date-time" }),
        ttl: nullable({
          type: "string",
          pattern:
            "^-?(0|[1-9][0-9]{0,11})(\\.[0-9]{3}|\\.[0-9]{6}|\\.[0-9]{9})?s$",
        }),
        mask: nullable({ type: "string" }),
        meta: nullable({ type: "object" }),
        value: {},
        list: nullable({ type: "array" }),
        any: nullable({
          type: "object",
          properties: { "@type": { type: "string" } },
          anyOf: [{ required: ["@type"] }, { maxProperties: 0 }],
        }),
        empty: nullable({ type: "object" }),
        iv: nullable(int64),
        uv: nullable({ type: "integer" }),
        dv: { anyOf: [...float.anyOf, { type: "null" }] },
        bv: nullable({ type: "string", format: "byte" }),
        nothing: { type: "null" },
      },
      required: ["nothing"],
    });
  });

  it("defines a recursive message once under $defs", () => {
    const leaf = {
      type: "object",
      properties: { back: nullable({ $ref: "#/$defs/t.v1.Node" }) },
    };
    const node = {
      type: "object",
      properties: {
        label: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/t.v1.Node" } },
        leaf: nullable(leaf),
      },
      required: ["label", "children"],
    };
    expect(outputOf("tree")).toEqual({ ...node, $defs: { "t.v1.Node": node } });
  });

  it("wraps a server stream as {messages: [...]} and a non-object response as {value: ...}", () => {
    const watch = outputOf("watch");
    expect(watch["required"]).toEqual(["messages"]);
    expect(watch["properties"]).toEqual({
      messages: { type: "array", items: outputOf("shapes") },
    });
    expect(toolOf(model, "watch").outputWrapKey).toBe("messages");
    expect(outputOf("now")).toEqual({
      type: "object",
      properties: { value: { type: "string", format: "date-time" } },
      required: ["value"],
    });
    expect(toolOf(model, "now").outputWrapKey).toBe("value");
    expect(outputOf("ping")).toEqual({ type: "object" });
    expect(toolOf(model, "ping").outputWrapKey).toBe("");
  });

  it("gives a closed enum's names only; proto2 optional fields may be null", () => {
    expect(outputOf("closed")).toEqual({
      type: "object",
      properties: {
        shade: nullable({ type: "string", enum: ["DARK", "LIGHT"] }),
        n: nullable({ type: "integer" }),
        r: { type: "array", items: { type: "integer" } },
      },
      required: ["r"],
    });
  });

  it("uses JSON names and requires nothing for the executors' default encoding", () => {
    const tool = toolOf(model, "shapes");
    const { schema } = buildOutputSchema(tool.output, false, {
      protoNames: false,
      emitDefaults: false,
    });
    expect(Object.keys(schema["properties"] as JsonSchema)).toContain("byName");
    expect(schema["required"]).toBeUndefined();
    expect((schema["properties"] as JsonSchema)["inner"]).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
    });
  });
});

describe("MCP hints and services", () => {
  it("reads the idempotency level: NO_SIDE_EFFECTS is read-only and idempotent", () => {
    expect(toolOf(model, "scalars")).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
    });
    expect(toolOf(model, "shapes")).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
    expect(toolOf(model, "wkt")).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
  });

  it("lists the services with tools, sorted by full name, their tools by name", () => {
    expect(
      model.mcpServices.map((s) => [
        s.fullName,
        s.name,
        s.file,
        s.tools.map((t) => t.name),
      ]),
    ).toEqual([
      [
        "t.v1.S",
        "S",
        "t/v1/t.proto",
        ["now", "ping", "scalars", "shapes", "tree", "watch", "wkt"],
      ],
      ["t.v2.S", "S", "t/v2/t.proto", ["closed"]],
    ]);
  });

  it("reports two services with one short name, naming both and the fix", () => {
    const problems = createProblemCollector();
    checkMcpServiceNames(model.mcpServices, problems);
    expect(() => problems.throwIfAny()).toThrow(
      "t/v2/t.proto: S: service t.v2.S has the short name of service t.v1.S (t/v1/t.proto), and MCP functions are named after it (RegisterSHandler, ForwardToSClient); rename one of the services, or generate the two packages in separate runs into separate output directories",
    );
    const single = createProblemCollector();
    checkMcpServiceNames(model.mcpServices.slice(0, 1), single);
    expect(() => single.throwIfAny()).not.toThrow();
  });
});
