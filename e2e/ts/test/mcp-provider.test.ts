// The generated register/forward functions pass `provider` through to the
// runtime (docs/mcp.md, "Serving a provider's form"): each tool lists the
// form the generator wrote for the provider (its `parameters` where it wrote
// none), and an unknown provider is refused at registration. Calls with a
// form's arguments: runtimes/ts/test/mcp/provider-form.test.ts.
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  createMcpToolServer,
  type McpProvider,
} from "@protoc-gen-ai-tools/runtime/mcp";
import { describe, expect, it } from "vitest";
import {
  forwardToLinkServiceClient,
  linkServiceTools,
  registerLinkServiceHandler,
} from "../src/gen/ai_tools_mcp.gen.js";

// Never called: registration alone is under test.
const transport = createGrpcTransport({ baseUrl: "http://127.0.0.1:1" });

describe("generated MCP functions with a provider", () => {
  for (const provider of ["openai", "anthropic", "gemini"] as const) {
    it(`forwardTo…Client lists each tool's generated ${provider} form`, () => {
      const server = createMcpToolServer();
      forwardToLinkServiceClient(server, transport, { provider });
      const listed = new Map(
        server.listTools().map((t) => [t.name, t.inputSchema]),
      );
      expect(listed.size).toBe(linkServiceTools.length);
      for (const { tool } of linkServiceTools) {
        const form = tool.forms?.[provider] ?? tool.parameters;
        expect(listed.get(tool.name)).toEqual({ ...form, type: "object" });
      }
    });
  }

  it("register…Handler and forwardTo…Client refuse an unknown provider", () => {
    const provider = "mistral" as McpProvider;
    const text =
      'unknown provider "mistral": use "openai", "anthropic" or "gemini"';
    expect(() =>
      forwardToLinkServiceClient(createMcpToolServer(), transport, {
        provider,
      }),
    ).toThrow(text);
    expect(() =>
      registerLinkServiceHandler(createMcpToolServer(), {}, { provider }),
    ).toThrow(text);
  });
});
