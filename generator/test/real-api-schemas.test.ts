import { beforeAll, describe, expect, it } from "vitest";
import type { GeneratorModel } from "../src/model/model.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// What Google-style APIs need (issue 11, point 6): resource names that are
// OUTPUT_ONLY but identify the resource, hints of commented Value and Struct
// fields, and a field named __proto__. Expected schemas written by hand.

const source = `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
import "google/api/annotations.proto";
import "google/api/field_behavior.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/wrappers.proto";
option go_package = "example.com/t/v1;tv1";

message Permission {
  string name = 1 [(google.api.field_behavior) = OUTPUT_ONLY];
  string etag = 2 [(google.api.field_behavior) = OUTPUT_ONLY];
  string role = 3;
}
message Identified {
  string name = 1 [(google.api.field_behavior) = IDENTIFIER, (google.api.field_behavior) = OUTPUT_ONLY];
  string etag = 2 [(google.api.field_behavior) = OUTPUT_ONLY];
}
message UpdatePermissionRequest {
  Permission permission = 1;
  Permission other = 2;
  repeated Permission many = 3;
}
message Flat {
  string name = 1 [(google.api.field_behavior) = OUTPUT_ONLY];
  string parent = 2 [(google.api.field_behavior) = OUTPUT_ONLY];
  string view = 3 [(google.api.field_behavior) = OUTPUT_ONLY];
  string skipped = 4 [(google.api.field_behavior) = OUTPUT_ONLY, (ai.tools.v1.tool_field) = {skip: true}];
}
message Holder { Identified item = 1; }
// A cycle of message types closed only by a message-typed identifier, and
// its twin without field behaviors.
message Node {
  Node self = 1 [(google.api.field_behavior) = IDENTIFIER, (google.api.field_behavior) = OUTPUT_ONLY];
  string label = 2;
}
message Plain {
  Plain self = 1;
  string label = 2;
}
// A path binding a message field, which google/api/http.proto does not
// allow (a path binds a field of a primitive type), and a wrapper, which
// has its own JSON form.
message Bound {
  Bound self = 1 [(google.api.field_behavior) = OUTPUT_ONLY];
  google.protobuf.StringValue note = 2 [(google.api.field_behavior) = OUTPUT_ONLY];
  string label = 3;
}
message Json {
  // Settings.
  google.protobuf.Value value = 1;
  // Labels.
  google.protobuf.Struct labels = 2;
  // Items.
  google.protobuf.ListValue list = 3;
  // Maybe.
  optional google.protobuf.Value maybe = 4 [(ai.tools.v1.tool_field) = {usage_notes: "Notes."}];
}
message ProtoKey {
  string __proto__ = 1;
  optional string constructor = 2;
}
message ProtoKeyOneof {
  oneof k {
    string __proto__ = 1;
    string other = 2;
  }
}

service S {
  rpc Patch(UpdatePermissionRequest) returns (Permission) {
    option (google.api.http) = {patch: "/v1/{permission.name=projects/*/permissions/*}" body: "permission"};
    option (ai.tools.v1.rpc_tool) = {name: "patch", description: "d"};
  }
  rpc NoHttp(UpdatePermissionRequest) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "no_http", description: "d"};
  }
  rpc Bindings(Flat) returns (google.protobuf.Empty) {
    option (google.api.http) = {
      post: "/v1/things:search"
      additional_bindings {get: "/v1/{ name }"}
      additional_bindings {custom: {kind: "HEAD" path: "/v1/{parent=projects/*}/things/{skipped}"}}
    };
    option (ai.tools.v1.rpc_tool) = {name: "bindings", description: "d", strict: true};
  }
  rpc Identify(Holder) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "identify", description: "d"};
  }
  rpc NodeLoose(Node) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "node_loose", description: "d"};
  }
  rpc NodeStrict(Node) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "node_strict", description: "d", strict: true};
  }
  rpc BoundLoose(Bound) returns (google.protobuf.Empty) {
    option (google.api.http) = {get: "/v1/{self}/{note}"};
    option (ai.tools.v1.rpc_tool) = {name: "bound_loose", description: "d"};
  }
  rpc PlainLoose(Plain) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "plain_loose", description: "d"};
  }
  rpc PlainStrict(Plain) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "plain_strict", description: "d", strict: true};
  }
  rpc JsonStrict(Json) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "json_strict", description: "d", strict: true};
  }
  rpc JsonLoose(Json) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "json_loose", description: "d"};
  }
  rpc ProtoKeyStrict(ProtoKey) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "proto_key_strict", description: "d", strict: true};
  }
  rpc ProtoKeyLoose(ProtoKey) returns (ProtoKey) {
    option (ai.tools.v1.rpc_tool) = {name: "proto_key_loose", description: "d"};
  }
  rpc ProtoKeyOneofLoose(ProtoKeyOneof) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "proto_key_oneof", description: "d"};
  }
}
`;

let model: GeneratorModel;

beforeAll(() => {
  model = modelOf(compileRequest({ "t/v1/t.proto": source }));
});

function schemaOf(name: string): string {
  return toolOf(model, name).schemaJson;
}

const role = '"role":{"type":"string"}';

describe("resource names", () => {
  it("keeps an OUTPUT_ONLY field the HTTP path binds, at that path only", () => {
    expect(schemaOf("patch")).toBe(
      '{"properties":{' +
        `"many":{"items":{"properties":{${role}},"required":["role"],"type":"object"},"type":"array"},` +
        `"other":{"properties":{${role}},"required":["role"],"type":"object"},` +
        `"permission":{"properties":{"name":{"type":"string"},${role}},"required":["name","role"],"type":"object"}},` +
        '"required":["permission","other","many"],"type":"object"}',
    );
  });

  it("leaves OUTPUT_ONLY fields out without an HTTP rule", () => {
    expect(schemaOf("no_http")).not.toContain('"name"');
  });

  it("reads additional and custom bindings; skip still wins", () => {
    expect(schemaOf("bindings")).toBe(
      '{"additionalProperties":false,"properties":{"name":{"type":"string"},"parent":{"type":"string"}},' +
        '"required":["name","parent"],"type":"object"}',
    );
  });

  it("keeps IDENTIFIER fields at any depth", () => {
    expect(schemaOf("identify")).toBe(
      '{"properties":{"item":{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}},' +
        '"required":["item"],"type":"object"}',
    );
  });

  // The cycle graph of $defs once dropped every OUTPUT_ONLY field, and
  // the schema keeps an IDENTIFIER one: the loose compact tool then
  // required the field and cut its recursion, unlike a plain cyclic field.
  it.each([
    ["inline", "target=go"],
    ["compact", "target=go,schema=compact"],
    ["compact, strict recursion", "target=go,schema=compact,providers=openai"],
  ])(
    "treats a cycle through a message-typed identifier as any cycle (%s)",
    (_, parameter) => {
      const m = modelOf(compileRequest({ "t/v1/t.proto": source }, parameter));
      for (const mode of ["loose", "strict"]) {
        const node = toolOf(m, `node_${mode}`).schemaJson;
        expect(node).toContain('"self"');
        expect(node).toBe(
          toolOf(m, `plain_${mode}`).schemaJson.replaceAll("Plain", "Node"),
        );
      }
    },
  );

  it("writes that cycle as a reference, not required, in a compact loose tool", () => {
    const m = modelOf(
      compileRequest({ "t/v1/t.proto": source }, "target=go,schema=compact"),
    );
    const node =
      '{"properties":{"label":{"type":"string"},"self":{"$ref":"#/$defs/Node"}},"required":["label"],"type":"object"}';
    expect(toolOf(m, "node_loose").schemaJson).toBe(
      `{"$defs":{"Node":${node}},${node.slice(1)}`,
    );
  });

  // Before, the binding kept `self`, which the cycle graph did not see:
  // required, and its recursion cut where its plain twin's is a $ref.
  it.each(["target=go", "target=go,schema=compact"])(
    "keeps a bound OUTPUT_ONLY field only when its schema expands no message (%s)",
    (parameter) => {
      const m = modelOf(compileRequest({ "t/v1/t.proto": source }, parameter));
      expect(toolOf(m, "bound_loose").schemaJson).toBe(
        '{"properties":{"label":{"type":"string"},"note":{"type":"string"}},' +
          '"required":["note","label"],"type":"object"}',
      );
    },
  );

  it("leaves output schemas as they were: every field", () => {
    const output = toolOf(model, "patch").outputSchemaJson;
    expect(output).toContain('"etag"');
    expect(output).toContain('"name"');
  });
});

describe("hints of JSON-encoded fields", () => {
  it("follow the comment in strict tools", () => {
    const strict = JSON.parse(schemaOf("json_strict")) as {
      properties: Record<string, { description?: string }>;
    };
    expect(strict.properties["value"]!.description).toBe(
      "Settings.\n\nJSON-encoded value",
    );
    expect(strict.properties["labels"]!.description).toBe(
      "Labels.\n\nJSON object as key/value entries",
    );
    expect(strict.properties["list"]!.description).toBe("Items.");
    expect(strict.properties["maybe"]!.description).toBe(
      "Maybe.\n\nNotes.\n\nJSON-encoded value",
    );
    expect(schemaOf("json_strict")).toContain(
      '"list":{"description":"Items.","items":{"description":"JSON-encoded value","type":"string"},"type":"array"}',
    );
  });

  it("are not added to non-strict tools, which have none", () => {
    expect(schemaOf("json_loose")).toBe(
      '{"properties":{"labels":{"description":"Labels.","type":"object"},' +
        '"list":{"description":"Items.","items":{},"type":"array"},' +
        '"maybe":{"description":"Maybe.\\n\\nNotes."},' +
        '"value":{"description":"Settings."}},' +
        '"required":["value","labels","list"],"type":"object"}',
    );
  });
});

describe("a field named __proto__", () => {
  it("is a property like any other", () => {
    expect(schemaOf("proto_key_loose")).toBe(
      '{"properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"}},' +
        '"required":["__proto__"],"type":"object"}',
    );
    expect(schemaOf("proto_key_strict")).toBe(
      '{"additionalProperties":false,"properties":{"__proto__":{"type":"string"},' +
        '"constructor":{"anyOf":[{"type":"string"},{"type":"null"}]}},' +
        '"required":["__proto__","constructor"],"type":"object"}',
    );
  });

  it("is listed in the output schema too", () => {
    const output = JSON.parse(
      toolOf(model, "proto_key_loose").outputSchemaJson,
    ) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(output.properties)).toEqual([
      "__proto__",
      "constructor",
    ]);
    expect(output.required).toContain("__proto__");
  });

  it("survives the merge of a root oneof's branches", () => {
    expect(schemaOf("proto_key_oneof")).toBe(
      '{"properties":{"__proto__":{"type":"string"},"other":{"type":"string"}},' +
        '"required":[],"type":"object"}',
    );
  });
});
