// A field's description falls back to its leading comment, found by the
// field's index in its message (comments.ts): along the message's fields
// for most messages, by a map for a large one. Both must find each
// field's own comment, whatever the declaration order of field numbers.
import { describe, expect, it } from "vitest";
import { compileRequest } from "./support/compile.js";
import { modelOf } from "./support/model.js";

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
