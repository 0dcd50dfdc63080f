// `protoc-gen-ai-tools mcp --provider NAME`: each tool lists the form the
// generator wrote for that provider (McpServiceOptions.provider), its
// parameters without the flag. On golden case mcpcompat's strict tool on a
// message cycle, whose OpenAI and Anthropic forms differ from its
// parameters. The listing against the generated TypeScript server's with a
// provider: e2e/ts/test/gateway.test.ts.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDescriptorSetSource } from "../src/gateway/descriptor-source.js";
import { parseGatewayFlags } from "../src/gateway/gateway-flags.js";
import {
  filesToGenerate,
  gatewayRequest,
} from "../src/gateway/gateway-request.js";
import { createGateway } from "../src/gateway/run-gateway.js";
import { buildRequestModel } from "../src/plugin.js";

const root = resolve(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "gateway-provider-"));
const set = join(dir, "trees.binpb");
const source = ["--descriptor-set", set, "--target", "127.0.0.1:1"];

beforeAll(() => {
  execFileSync("protoc", [
    `-I${join(root, "proto")}`,
    `-I${join(root, "generator", "testdata", "protos", "mcpcompat")}`,
    "--include_imports",
    "--include_source_info",
    `--descriptor_set_out=${set}`,
    "mcpcompat/v1/trees.proto",
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The input schema the gateway lists for trees_plant with `flags`. */
async function listedSchema(...flags: string[]) {
  const { server } = await createGateway(
    parseGatewayFlags([...source, ...flags]),
  );
  return server.listTools().find((t) => t.name === "trees_plant")?.inputSchema;
}

describe("protoc-gen-ai-tools mcp --provider", () => {
  it("lists the provider's generated form, the parameters without", async () => {
    const files = await createDescriptorSetSource(set).load();
    const { model } = buildRequestModel(
      gatewayRequest(files, filesToGenerate(files, [], "set"), "target=ts"),
      () => undefined,
    );
    const tool = model.tools.find((t) => t.name === "trees_plant")!;
    const parameters = JSON.parse(tool.schemaJson) as object;
    const forms = JSON.parse(tool.formsJson) as Record<string, object>;
    // The case is chosen for this: the forms differ.
    expect(forms["openai"]).toBeDefined();
    expect(forms["openai"]).not.toEqual(parameters);
    expect(await listedSchema()).toEqual({ ...parameters, type: "object" });
    for (const provider of ["openai", "anthropic", "gemini"]) {
      expect(await listedSchema("--provider", provider)).toEqual({
        ...(forms[provider] ?? parameters),
        type: "object",
      });
    }
  });
});
