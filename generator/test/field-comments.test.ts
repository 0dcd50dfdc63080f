// A field's description falls back to its leading comment, and a derived
// tool's to its method's: comments.ts finds them by the element a source
// path names (message, nested message, field; service, method), not by
// position alone. Each must get its own comment, whatever the declaration
// order of field numbers, from source info decoded by protobuf-es or kept
// as bytes by the executable's request reader.
import { toBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { readRequest } from "../src/read/read-request.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

/** A request message of `count` string fields, numbered in reverse, each commented. */
function protoWith(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `  // Field ${i}.\n  string f${i} = ${count - i};`,
  );
  return `syntax = "proto3";
package c.v1;
option go_package = "example.com/c/v1;cv1";
import "ai/tools/v1/annotations.proto";

message WideRequest {
${fields.join("\n")}
}
message WideResponse {}

service Wide {
  rpc Put(WideRequest) returns (WideResponse) {
    option (ai.tools.v1.rpc_tool) = { name: "wide_put", description: "Put." };
  }
}
`;
}

describe("field descriptions from leading comments", () => {
  for (const count of [3, 64, 65, 300]) {
    it(`finds each field's comment in a message of ${count} fields`, () => {
      const model = modelOf(
        compileRequest({ "c/v1/c.proto": protoWith(count) }),
      );
      const schema = JSON.parse(model.tools[0]!.schemaJson) as {
        properties: Record<string, { description?: string }>;
      };
      const described = Object.entries(schema.properties).map(([name, p]) => [
        name,
        p.description,
      ]);
      expect(described).toHaveLength(count);
      for (const [name, description] of described) {
        expect(description).toBe(`Field ${name!.slice(1)}.`);
      }
    });
  }
});

describe("comments of nested messages and methods", () => {
  const proto = `syntax = "proto3";
package n.v1;
option go_package = "example.com/n/v1;nv1";

// The outer message (not a field's comment).
message OuterRequest {
  // The outer field.
  Inner inner = 2;
  // The first field.
  string first = 1;
  // A sibling before Inner: nested messages are told apart by index.
  message Sibling {
    // The sibling's field.
    string sibling = 1;
  }
  message Inner {
    // Not this one: a nested message's own comment.
    message Before {
      // Not the deepest field's comment.
      int32 before = 1;
    }
    message Deepest {
      // The deepest field.
      int32 depth = 1;
    }
    // The inner field.
    Deepest deepest = 1;
    string silent = 2;
  }
}
message OuterResponse {}
message OtherRequest {
  // The other message's field.
  string other = 1;
}

service Outer {
  // Gets the outer thing.
  rpc Get(OuterRequest) returns (OuterResponse);
  rpc Silent(OtherRequest) returns (OuterResponse);
}
// The second service.
service Second {
  // Lists the other things.
  rpc List(OtherRequest) returns (OuterResponse);
}
`;
  const compiled = compileRequest({ "n/v1/n.proto": proto }, "tools=all");
  const requests = [
    ["decoded by protobuf-es", compiled],
    [
      "kept as bytes",
      readRequest(toBinary(CodeGeneratorRequestSchema, compiled)),
    ],
  ] as const;

  interface Node {
    readonly description?: string;
    readonly properties?: Record<string, Node>;
  }

  for (const [how, request] of requests) {
    it(`finds each element's own comment, source info ${how}`, () => {
      const model = modelOf(request);
      const get = JSON.parse(
        toolOf(model, "n_v1_Outer_Get").schemaJson,
      ) as Node;
      expect(get.description).toBeUndefined();
      const inner = get.properties!["inner"]!;
      expect(inner.description).toBe("The outer field.");
      expect(get.properties!["first"]!.description).toBe("The first field.");
      const deepest = inner.properties!["deepest"]!;
      expect(deepest.description).toBe("The inner field.");
      expect(inner.properties!["silent"]!.description).toBeUndefined();
      expect(deepest.properties!["depth"]!.description).toBe(
        "The deepest field.",
      );
      const list = JSON.parse(
        toolOf(model, "n_v1_Second_List").schemaJson,
      ) as Node;
      expect(list.properties!["other"]!.description).toBe(
        "The other message's field.",
      );
      expect(toolOf(model, "n_v1_Outer_Get").description).toContain(
        "Gets the outer thing.",
      );
      expect(toolOf(model, "n_v1_Second_List").description).toContain(
        "Lists the other things.",
      );
      expect(toolOf(model, "n_v1_Outer_Silent").description).not.toContain(
        "Gets the outer thing.",
      );
    });
  }
});
