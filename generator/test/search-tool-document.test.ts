import { describe, expect, it } from "vitest";
import { toolSearchText } from "../src/search/tool-document.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// What the search index reads of a tool: its name and description, the
// service and method names from the model (not the tool name, which a
// long name turns into a hash), the request's top-level field names, and
// the comment of a top-level field's message of the request's own package
// (not of google.protobuf's FieldMask); no field comments.

const proto = `syntax = "proto3";
package s.v1;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/field_mask.proto";
option go_package = "example.com/s/v1;sv1";
// A reserved address.
message Address { string ip = 1; }
message ReserveAddressRequest {
  // The region to reserve in, e.g. us-east1.
  string region = 1;
  // buf:lint:ignore FIELD_LOWER_SNAKE_CASE
  Address address_resource = 2;
  google.protobuf.FieldMask update_mask = 3;
}
// Static addresses.
service AddressService {
  // Reserves a static IP.
  rpc ReserveAddress(ReserveAddressRequest) returns (Address) {
    option (ai.tools.v1.rpc_tool) = {name: "h1xyz_reserve"};
  }
}
`;

describe("toolSearchText", () => {
  it("joins name, description, service, method, fields and resource comments", () => {
    const model = modelOf(compileRequest({ "s.proto": proto }));
    const tool = toolOf(model, "h1xyz_reserve");
    expect(toolSearchText(tool).split("\n")).toEqual([
      "h1xyz_reserve",
      tool.description,
      "AddressService",
      "ReserveAddress",
      "region",
      "address_resource",
      "A reserved address.",
      "update_mask",
    ]);
    expect(tool.description).toContain("Reserves a static IP.");
  });
});
