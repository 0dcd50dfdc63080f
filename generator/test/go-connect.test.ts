import { describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import {
  goConnectRuntimeNames,
  goRuntimeBeside,
  goRuntimeIdentifiers,
} from "../src/targets/go/go-runtime.js";
import { compileRequest } from "./support/compile.js";

// Option go_connect (issue 35 §1, CONTRACT35 B): ForwardToConnect<S>Client
// in the Go MCP file, and nothing of it without the option. The golden
// case `connect` compiles and runs it (test-go/golden/connect).

const protos = {
  "t/v1/calls.proto": `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/empty.proto";
option go_package = "example.com/t/v1;connect";
message Ref { string id = 1 [(ai.tools.v1.tool_field) = {alias_prefix: "item"}]; }
service Items {
  rpc Get(Ref) returns (Ref) { option (ai.tools.v1.rpc_tool) = { name: "items_get" auto_execute: true }; }
  rpc Drop(Ref) returns (google.protobuf.Empty) { option (ai.tools.v1.rpc_tool) = { name: "items_drop" }; }
  rpc Watch(Ref) returns (stream Ref) { option (ai.tools.v1.rpc_tool) = { name: "items_watch" }; }
}
`,
};

function files(parameter: string): Map<string, string> {
  const out = generate(compileRequest(protos, parameter), () => {});
  return new Map(out.map((f) => [f.name, f.content]));
}

describe("go_connect=true", () => {
  const mcp = files("target=go,mcp=true,go_connect=true").get(
    "ai_tools_mcp.gen.go",
  )!;

  it("declares the interface and the forward, with connect-go's signatures", () => {
    expect(mcp).toContain(
      "// ConnectItemsClient is the client connect-go generates for\n// t.v1.Items (connectconnect.ItemsClient):",
    );
    const iface = /type ConnectItemsClient interface \{\n([^}]*)\}/.exec(mcp);
    expect(iface?.[1]?.split("\n").filter((l) => l !== "")).toEqual([
      "\tDrop(context.Context, *connect.Request[tconnect.Ref]) (*connect.Response[emptypb.Empty], error)",
      "\tGet(context.Context, *connect.Request[tconnect.Ref]) (*connect.Response[tconnect.Ref], error)",
      "\tWatch(context.Context, *connect.Request[tconnect.Ref]) (*connect.ServerStreamForClient[tconnect.Ref], error)",
    ]);
    expect(mcp).toContain(
      "func ForwardToConnectItemsClient(server MCPServer, client ConnectItemsClient, opts ...MCPOption) {",
    );
    expect(mcp).toContain(
      "return mcpStream(ctx, e, ItemsWatch, args, &tconnect.Ref{}, connectStream(client.Watch))",
    );
    expect(mcp).toContain('\t"connectrpc.com/connect"\n');
    expect(mcp).toContain("func connectUnary[");
  });

  it("names the protos' package `connect` otherwise in the MCP file only", () => {
    const main = files("target=go,mcp=true,go_connect=true").get(
      "ai_tools.gen.go",
    )!;
    expect(main).toContain('\tconnect "example.com/t/v1"\n');
    expect(mcp).toContain('\ttconnect "example.com/t/v1"\n');
  });

  it("changes nothing when not given", () => {
    const plain = files("target=go,mcp=true");
    expect(files("target=go,mcp=true,go_connect=false")).toEqual(plain);
    const text = plain.get("ai_tools_mcp.gen.go")!;
    expect(text).not.toMatch(/connectrpc|ForwardToConnect|connectUnary/);
    expect(text).toContain('\tconnect "example.com/t/v1"\n');
  });

  it("is refused without mcp=true and for other targets", () => {
    expect(() => files("target=go,go_connect=true")).toThrow(
      'option "go_connect=true" needs mcp=true (it adds to the Go MCP file, ai_tools_mcp.gen.go); add mcp=true or leave go_connect out',
    );
    expect(() => files("target=ts,mcp=true,go_connect=true")).toThrow(
      'option "go_connect" applies to target=go, not target=ts',
    );
    expect(() => files("target=go,mcp=true,go_connect=yes")).toThrow(
      'invalid value "yes" for option "go_connect"; valid values: true, false',
    );
  });
});

describe("the runtime's connect part", () => {
  it("is inlined only with the feature, and reserves its names only then", () => {
    const main = {
      aliases: true,
      executors: true,
      streaming: false,
      mcp: false,
    };
    const without = goRuntimeBeside(main, { ...main, mcp: true }).code;
    expect(without).toContain("func addMCPTools(");
    expect(without).not.toContain("connectUnary");
    const withConnect = goRuntimeBeside(main, {
      ...main,
      mcp: true,
      connect: true,
    });
    expect(withConnect.code).toContain("func connectStream[");
    expect(withConnect.imports).toContainEqual({
      name: "connect",
      path: "connectrpc.com/connect",
    });
    expect(goRuntimeIdentifiers.has("connect")).toBe(false);
    expect(goConnectRuntimeNames).toContain("connect");
    expect(goConnectRuntimeNames).toContain("connectReceiver");
  });
});
