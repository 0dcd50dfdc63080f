import { describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { buildRequest } from "./support/request.js";

// mcp=true adds ai_tools_mcp.gen.go beside ai_tools.gen.go and changes
// nothing in it: the drop-in keeps needing only grpc and protobuf.

describe("Go target with mcp=true", () => {
  it.each(["executors", "plain", "vectors"])(
    "leaves ai_tools.gen.go of case %s as it is",
    async (name) => {
      const without = generate(await buildRequest(name));
      const withMcp = generate(
        await buildRequest(name, { parameter: "target=go,mcp=true" }),
      );
      expect(without.map((f) => f.name)).toEqual(["ai_tools.gen.go"]);
      expect(withMcp.map((f) => f.name)).toEqual([
        "ai_tools.gen.go",
        "ai_tools_mcp.gen.go",
      ]);
      expect(withMcp[0]!.content).toBe(without[0]!.content);
      expect(withMcp[0]!.content).not.toContain("modelcontextprotocol");
      const mcp = withMcp[1]!.content;
      expect(mcp).toContain('"github.com/modelcontextprotocol/go-sdk/mcp"');
      expect(mcp).toMatch(/^package gentools$/m);
      // Nothing the main file declares is declared again: no package-level
      // name, and no method of one type (methods of different types may
      // share a name, as AliasManager.Register and
      // MemoryConversationStore.Register do).
      const declared = (text: string): string[] => [
        ...[...text.matchAll(/^(?:func|type|var|const) (\w+)/gm)].map(
          (m) => m[1]!,
        ),
        ...[...text.matchAll(/^func \(\w+ \*?(\w+)\) (\w+)/gm)].map(
          (m) => `${m[1]!}.${m[2]!}`,
        ),
      ];
      const main = new Set(declared(withMcp[0]!.content));
      expect(declared(mcp).filter((n) => n !== "init" && main.has(n))).toEqual(
        [],
      );
    },
  );
});
