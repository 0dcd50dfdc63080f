import { describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { compileRequest } from "./support/compile.js";

// Option go_mcp_compat (issue 35 §1, CONTRACT35 A4): protoc-gen-go-mcp's
// names in the Go MCP file, and nothing of them without the option. The
// golden case `mcpcompat` compiles and runs them (test-go/golden/mcpcompat).

function protos(toolName: string, more = ""): Record<string, string> {
  return {
    "t/v1/items.proto": `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/t/v1;provider";
message Ref { string id = 1; }
service Items {
  rpc Get(Ref) returns (Ref) { option (ai.tools.v1.rpc_tool) = { name: "${toolName}" auto_execute: true }; }
${more}}
`,
  };
}

function files(
  parameter: string,
  toolName = "items_get",
  more = "",
): Map<string, string> {
  const out = generate(
    compileRequest(protos(toolName, more), parameter),
    () => {},
  );
  return new Map(out.map((f) => [f.name, f.content]));
}

describe("go_mcp_compat=true", () => {
  const mcp = files("target=go,mcp=true,go_mcp_compat=true").get(
    "ai_tools_mcp.gen.go",
  )!;

  it("declares protoc-gen-go-mcp's functions over Register<S>Handler", () => {
    expect(mcp).toContain(
      "func RegisterItemsHandlerWithProvider(server MCPServer, impl ItemsServer, provider LLMProvider, opts ...MCPOption) {\n\tRegisterItemsHandler(server, impl, append([]MCPOption{WithProvider(provider)}, opts...)...)\n}",
    );
    expect(mcp).toContain(
      "func RegisterItemsHandlerOpenAI(server MCPServer, impl ItemsServer, opts ...MCPOption) {\n\tRegisterItemsHandler(server, impl, append([]MCPOption{WithProvider(ProviderOpenAI)}, opts...)...)\n}",
    );
    expect(mcp).toMatch(
      /\/\/ RegisterItemsHandlerOpenAI is protoc-gen-go-mcp's name:\n/,
    );
  });

  it("declares its method-only server interface and client name, which Register<S>Handler takes", () => {
    expect(mcp).toContain(
      "type ItemsServer interface {\n\tGet(context.Context, *tprovider.Ref) (*tprovider.Ref, error)\n}",
    );
    expect(mcp).toContain("type ItemsClient = tprovider.ItemsClient\n");
    expect(mcp).toContain(
      "func RegisterItemsHandler(server MCPServer, impl ItemsServer, opts ...MCPOption) {\n\tconn := serveInProcess(func(s *grpc.Server) {\n\t\ttprovider.RegisterItemsServer(s, itemsGRPCServer{ItemsServer: impl})\n\t})",
    );
    expect(mcp).toContain(
      "type itemsGRPCServer struct {\n\tItemsServer\n\titemsUnimplemented\n}",
    );
    expect(mcp).toContain(
      "type itemsUnimplemented struct {\n\ttprovider.UnimplementedItemsServer\n}",
    );
  });

  it("leaves a server-streaming tool out of <S>Server and serves it when the impl has it", () => {
    const text = files(
      "target=go,mcp=true,go_mcp_compat=true",
      "items_get",
      '  rpc Watch(Ref) returns (stream Ref) { option (ai.tools.v1.rpc_tool) = { name: "items_watch" }; }\n',
    ).get("ai_tools_mcp.gen.go")!;
    expect(text).toContain(
      "type ItemsServer interface {\n\tGet(context.Context, *tprovider.Ref) (*tprovider.Ref, error)\n}",
    );
    expect(text).toContain(
      "func (s itemsGRPCServer) Watch(req *tprovider.Ref, stream tprovider.Items_WatchServer) error {\n\tif impl, ok := s.ItemsServer.(interface {\n\t\tWatch(*tprovider.Ref, tprovider.Items_WatchServer) error\n\t}); ok {\n\t\treturn impl.Watch(req, stream)\n\t}\n\treturn s.itemsUnimplemented.Watch(req, stream)\n}",
    );
    expect(mcp).not.toContain("GRPCServer) Get(");
  });

  it("declares its runtime's names once", () => {
    for (const line of [
      "type ExtraProperty = MCPExtraProperty\n",
      "type Option = MCPOption\n",
      "type LLMProvider = Provider\n",
      '\tLLMProviderStandard LLMProvider = "standard"\n',
      "\tLLMProviderOpenAI   LLMProvider = ProviderOpenAI\n",
    ]) {
      expect(mcp.split(line).length - 1, line).toBe(1);
    }
  });

  it("keeps the parameter `provider` from a Go package of that name", () => {
    expect(mcp).toContain('\ttprovider "example.com/t/v1"\n');
  });

  it("changes nothing when not given", () => {
    const plain = files("target=go,mcp=true");
    expect(files("target=go,mcp=true,go_mcp_compat=false")).toEqual(plain);
    const text = plain.get("ai_tools_mcp.gen.go")!;
    expect(text).not.toMatch(
      /LLMProvider|HandlerOpenAI|ExtraProperty =|ItemsClient =|GRPCServer/,
    );
    expect(text).toContain(
      "func RegisterItemsHandler(server MCPServer, impl tprovider.ItemsServer, opts ...MCPOption) {\n\tconn := serveInProcess(func(s *grpc.Server) {\n\t\ttprovider.RegisterItemsServer(s, impl)\n\t})",
    );
  });

  it("is refused without mcp=true and for other targets", () => {
    expect(() => files("target=go,go_mcp_compat=true")).toThrow(
      'option "go_mcp_compat=true" needs mcp=true (it adds to the Go MCP file, ai_tools_mcp.gen.go); add mcp=true or leave go_mcp_compat out',
    );
    expect(() => files("target=ts,mcp=true,go_mcp_compat=true")).toThrow(
      'option "go_mcp_compat" applies to target=go, not target=ts',
    );
  });

  it("refuses a tool whose Go name is one of protoc-gen-go-mcp's", () => {
    expect(() =>
      files("target=go,mcp=true,go_mcp_compat=true", "option"),
    ).toThrow(
      'with go_mcp_compat=true the Go MCP file declares Option (protoc-gen-go-mcp\'s name), which is also the Go identifier of tool "option"; rename the tool or leave go_mcp_compat out',
    );
    expect(() =>
      files(
        "target=go,mcp=true,go_mcp_compat=true",
        "register_items_handler_open_a_i",
      ),
    ).toThrow(/declares RegisterItemsHandlerOpenAI for service t\.v1\.Items/);
  });
});
