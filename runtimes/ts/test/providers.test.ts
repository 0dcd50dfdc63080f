// The per-request limits the adapters enforce (summed from the generated
// forms' counts, never counted here) and the Gemini `parameters` form sent
// through @google/genai. The shared vectors of e2e/vectors/providers run in
// adapter-vectors.test.ts.
import { GoogleGenAI, type Tool } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  toAnthropicTools,
  toGeminiTool,
  toOpenAiChatTool,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
  type AgentTool,
} from "../src/index.js";
import {
  startCaptureServer,
  type CaptureServer,
} from "./support/capture-server.js";
import { generatedTool } from "./support/generated-tool.js";
import { sampleTool } from "./support/sample-tool.js";

const parameters = {
  type: "object",
  properties: { url: { type: "string" } },
  required: ["url"],
  additionalProperties: false,
};

/** `count` generated tools, each adding `counts` to Anthropic's limits. */
function tools(
  count: number,
  strict: boolean,
  counts = { optional: 0, unions: 0 },
): AgentTool[] {
  const forms = strict
    ? {
        anthropicStrict: parameters,
        anthropicStrictCounts: counts,
        geminiParameters: null,
      }
    : { geminiParameters: null };
  return Array.from({ length: count }, (_, i) =>
    generatedTool({
      name: `tool_${i}`,
      description: "A tool.",
      strict,
      parameters,
      forms,
    }),
  );
}

describe("toAnthropicTools: Anthropic's per-request limits", () => {
  it("takes 20 strict tools, refuses 21 when sent strict", () => {
    expect(toAnthropicTools(tools(20, true), { strict: true })).toHaveLength(
      20,
    );
    expect(() => toAnthropicTools(tools(21, true), { strict: true })).toThrow(
      "21 strict tools in one request: Anthropic strict tool use takes at most 20; send fewer tools with strict",
    );
    // Without strict, or with tools that are not strict, no limit applies.
    expect(toAnthropicTools(tools(21, true))).toHaveLength(21);
    expect(toAnthropicTools(tools(21, false), { strict: true })).toHaveLength(
      21,
    );
  });

  it("refuses more than 16 union parameters across the strict tools", () => {
    const many = tools(17, true, { optional: 0, unions: 1 });
    expect(() => toAnthropicTools(many, { strict: true })).toThrow(
      "17 parameters with a union type across the strict tools in one request: Anthropic strict tool use takes at most 16; send fewer tools with strict",
    );
    expect(toAnthropicTools(many.slice(1), { strict: true })).toHaveLength(16);
  });

  it("refuses more than 24 optional parameters across the strict tools", () => {
    const many = tools(2, true, { optional: 12, unions: 0 });
    expect(toAnthropicTools(many, { strict: true })).toHaveLength(2);
    expect(() =>
      toAnthropicTools(
        [...many, ...tools(1, true, { optional: 1, unions: 0 })],
        {
          strict: true,
        },
      ),
    ).toThrow(
      "25 optional parameters across the strict tools in one request: Anthropic strict tool use takes at most 24; send fewer tools with strict",
    );
  });
});

describe("toOpenAiChatTools, toOpenAiResponsesTools", () => {
  it("take 128 tools, refuse 129", () => {
    const few = tools(128, true);
    expect(toOpenAiChatTools(few)).toEqual(few.map((t) => toOpenAiChatTool(t)));
    expect(toOpenAiResponsesTools(few)).toHaveLength(128);
    for (const build of [toOpenAiChatTools, toOpenAiResponsesTools]) {
      expect(() => build(tools(129, true))).toThrow(
        "129 tools in one request: OpenAI takes at most 128; send a subset of the tools",
      );
    }
  });
});

describe("toGeminiTool", () => {
  let stub: CaptureServer;
  beforeAll(async () => {
    stub = await startCaptureServer();
  });
  afterAll(async () => {
    await stub.close();
  });

  it("takes 512 declarations, refuses 513", () => {
    expect(toGeminiTool(tools(512, false)).functionDeclarations).toHaveLength(
      512,
    );
    expect(() => toGeminiTool(tools(513, false))).toThrow(
      "513 function declarations in one request: Gemini takes at most 512; send a subset of the tools",
    );
  });

  it("sends the generated parameters form through @google/genai", async () => {
    const ai = new GoogleGenAI({
      apiKey: "test",
      httpOptions: { baseUrl: stub.url },
    });
    const geminiParameters = {
      type: "OBJECT",
      properties: {
        url: { type: "STRING", description: "The target URL." },
        pageThemeId: {
          type: "STRING",
          nullable: true,
          description: "Use a theme alias.",
        },
      },
      required: ["url", "pageThemeId"],
    };
    const tool: Tool = toGeminiTool(
      [generatedTool({ ...sampleTool, forms: { geminiParameters } })],
      { form: "parameters" },
    );
    const before = stub.requests.length;
    await expect(
      ai.models.generateContent({
        model: "gemini-test",
        contents: "hi",
        config: { tools: [tool] },
      }),
    ).rejects.toThrow();
    expect(stub.requests.length).toBe(before + 1);
    const body = stub.requests.at(-1)?.body as Record<string, unknown>;
    expect(body["tools"]).toEqual([
      {
        functionDeclarations: [
          {
            name: sampleTool.name,
            description: sampleTool.description,
            parameters: geminiParameters,
          },
        ],
      },
    ]);
  });
});
