import { describe, expect, it } from "vitest";
import { generate, protocGenAiTools } from "../src/plugin.js";
import { compileRequest, type ProtoSources } from "./support/compile.js";
import { modelOf } from "./support/model.js";

// protoc-gen-go-mcp's (mcp.v1.tool_name), MethodOptions field 58800, from
// testdata/include/mcp/v1/annotations.proto (a stand-in declaring it).
const shop: ProtoSources = {
  "acme/shop/v1/shop.proto": `syntax = "proto3";
package acme.shop.v1;
import "ai/tools/v1/annotations.proto";
import "mcp/v1/annotations.proto";
option go_package = "example.com/acme/shop/v1;shopv1";

message Req { string id = 1; }
message Res { string id = 1; }

service ShopService {
  rpc GetOrder(Req) returns (Res) {
    option (mcp.v1.tool_name) = "get_order";
  }
  rpc ListOrders(Req) returns (Res);
  rpc CancelOrder(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {description: "Cancel an order."};
    option (mcp.v1.tool_name) = "cancel_order";
  }
  rpc RefundOrder(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {name: "orders_refund"};
    option (mcp.v1.tool_name) = "refund_order";
  }
  rpc ShipOrder(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {name: "ship_order"};
    option (mcp.v1.tool_name) = "ship_order";
  }
}
`,
};

function names(parameter: string, protos = shop): string[] {
  return modelOf(compileRequest(protos, parameter))
    .tools.map((t) => t.name)
    .sort();
}

describe("(mcp.v1.tool_name)", () => {
  it("names a tool of tools=all that has no rpc_tool name; the rpc_tool name wins", () => {
    expect(names("target=go,tools=all")).toEqual([
      "acme_shop_v1_ShopService_ListOrders",
      "cancel_order",
      "get_order",
      "orders_refund",
      "ship_order",
    ]);
  });

  it("names an annotated tool whose rpc_tool sets no name, and selects no method by itself", () => {
    expect(names("target=go")).toEqual([
      "cancel_order",
      "orders_refund",
      "ship_order",
    ]);
  });

  it("takes name_prefix, as an rpc_tool name does, and not trim_prefix", () => {
    expect(
      names("target=go,tools=all,name_prefix=pg_,trim_prefix=acme.shop.v1."),
    ).toEqual([
      "pg_ShopService_ListOrders",
      "pg_cancel_order",
      "pg_get_order",
      "pg_orders_refund",
      "pg_ship_order",
    ]);
  });

  it("warns once of the methods where both names are set and differ", () => {
    const warnings: string[] = [];
    generate(compileRequest(shop, "target=go,tools=all"), (w) =>
      warnings.push(w),
    );
    expect(warnings).toEqual([
      '(ai.tools.v1.rpc_tool).name names the tool, not (mcp.v1.tool_name), on 1 method where they differ: acme.shop.v1.ShopService.RefundOrder ("orders_refund", not "refund_order"); drop one of the two names, or make them equal',
    ]);
  });

  it("refuses a value protoc-gen-go-mcp refuses, naming file, method and fix, with the other problems", () => {
    const long = "a".repeat(62);
    const bad: ProtoSources = {
      "acme/bad/v1/bad.proto": `syntax = "proto3";
package acme.bad.v1;
import "ai/tools/v1/annotations.proto";
import "mcp/v1/annotations.proto";

message Req { string id = 1; }
message Res { string id = 1; }

service BadService {
  rpc Upper(Req) returns (Res) { option (mcp.v1.tool_name) = "Get-Order"; }
  rpc Empty(Req) returns (Res) { option (mcp.v1.tool_name) = ""; }
  rpc Digit(Req) returns (Res) { option (mcp.v1.tool_name) = "1order"; }
  rpc Long(Req) returns (Res) { option (mcp.v1.tool_name) = "${long}"; }
  rpc Ours(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {name: "ours"};
    option (mcp.v1.tool_name) = "Not Used";
  }
  rpc First(Req) returns (Res) { option (mcp.v1.tool_name) = "twin"; }
  rpc Second(Req) returns (Res) { option (mcp.v1.tool_name) = "twin"; }
  rpc Unnamed(Req) returns (Res) { option (ai.tools.v1.rpc_tool) = {description: "x"}; }
}
`,
    };
    const res = protocGenAiTools.run(
      compileRequest(bad, "target=go,tools=all,name_prefix=pg_"),
    );
    expect(res.file).toEqual([]);
    const rule =
      'use 1 to 64 lower-case letters, digits, "_" or "-", starting with a lower-case letter or "_" (^[a-z_][a-z0-9_-]{0,63}$, protoc-gen-go-mcp\'s rule), or name the tool with (ai.tools.v1.rpc_tool).name, which takes precedence';
    expect(res.error?.split("\n")).toEqual([
      'acme/bad/v1/bad.proto: BadService.Digit: option (mcp.v1.tool_name) "1order" is not a tool name; ' +
        rule,
      'acme/bad/v1/bad.proto: BadService.Empty: option (mcp.v1.tool_name) is empty; set a name such as "links_create", or remove the option to keep the derived name, or name the tool with (ai.tools.v1.rpc_tool).name, which takes precedence',
      `acme/bad/v1/bad.proto: BadService.Long: tool name "pg_${long}" (name_prefix "pg_" and the (mcp.v1.tool_name) "${long}") is 65 bytes, more than the 64 model providers accept; shorten the (mcp.v1.tool_name) or the name_prefix`,
      'acme/bad/v1/bad.proto: BadService.Second: tool name "pg_twin" (its (mcp.v1.tool_name) with name_prefix "pg_") is already used by BadService.First in acme/bad/v1/bad.proto (its (mcp.v1.tool_name) with name_prefix "pg_"); name one of them with an rpc_tool option, or leave one out with exclude=acme.bad.v1.BadService.First',
      'acme/bad/v1/bad.proto: BadService.Unnamed: tool name is empty; set a name in the rpc_tool option, e.g. name: "links_create"',
      'acme/bad/v1/bad.proto: BadService.Upper: option (mcp.v1.tool_name) "Get-Order" is not a tool name; ' +
        rule,
    ]);
  });
});
