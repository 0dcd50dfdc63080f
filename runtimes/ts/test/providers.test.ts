// The per-request limits the adapters enforce, the Gemini `parameters`
// form, and the shared vectors of e2e/vectors/providers (format in
// e2e/vectors/README.md), run unchanged.
import { GoogleGenAI, type Tool } from "@google/genai";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  countAnthropicStrictParameters,
  toAnthropicStrictSchema,
  toAnthropicTool,
  toAnthropicTools,
  toGeminiParameters,
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
import { sampleTool } from "./support/sample-tool.js";

const vectors = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/providers",
);

interface Vector<I, E> {
  readonly cases: readonly { name: string; input: I; expect: E }[];
}

function load<I, E>(name: string): Vector<I, E> {
  return JSON.parse(readFileSync(path.join(vectors, name), "utf8")) as Vector<
    I,
    E
  >;
}

function tools(count: number, strict: boolean): AgentTool[] {
  return Array.from({ length: count }, (_, i) => ({
    ...sampleTool,
    name: `tool_${i}`,
    strict,
    parameters: {
      type: "object",
      properties: { url: { type: "string" } },
      required: ["url"],
      additionalProperties: false,
    },
  }));
}

describe("shared vectors: e2e/vectors/providers", () => {
  const gemini = load<Record<string, unknown>, Record<string, unknown> | null>(
    "gemini-parameters.json",
  );
  for (const c of gemini.cases) {
    it(`gemini-parameters: ${c.name}`, () => {
      expect(toGeminiParameters(c.input) ?? null).toEqual(c.expect);
    });
  }
  const strict = load<Record<string, unknown>, Record<string, unknown>>(
    "anthropic-strict.json",
  );
  for (const c of strict.cases) {
    it(`anthropic-strict: ${c.name}`, () => {
      expect(toAnthropicStrictSchema(c.input)).toEqual(c.expect);
      const tool = { ...sampleTool, parameters: c.input } as AgentTool;
      expect(toAnthropicTool(tool, { strict: true }).input_schema).toEqual(
        c.expect,
      );
      expect(toAnthropicTool(tool).input_schema).toEqual(c.input);
    });
  }
  const counts = load<unknown, { optional: number; unions: number }>(
    "anthropic-strict-counts.json",
  );
  for (const c of counts.cases) {
    it(`anthropic-strict-counts: ${c.name}`, () => {
      expect(countAnthropicStrictParameters(c.input)).toEqual(c.expect);
    });
  }
});

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
    // sampleTool has one union parameter (pageThemeId: ["string", "null"]).
    const many = Array.from({ length: 17 }, (_, i) => ({
      ...sampleTool,
      name: `t${i}`,
    }));
    expect(() => toAnthropicTools(many, { strict: true })).toThrow(
      "17 parameters with a union type across the strict tools in one request: Anthropic strict tool use takes at most 16; send fewer tools with strict",
    );
    expect(toAnthropicTools(many.slice(1), { strict: true })).toHaveLength(16);
  });

  it("refuses more than 24 optional parameters across the strict tools", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`p${i}`, { type: "string" }]),
    );
    const tool: AgentTool = {
      ...sampleTool,
      parameters: {
        type: "object",
        properties,
        required: [],
        additionalProperties: false,
      },
    };
    expect(() => toAnthropicTools([tool], { strict: true })).toThrow(
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

  it("sends the parameters form through @google/genai", async () => {
    const ai = new GoogleGenAI({
      apiKey: "test",
      httpOptions: { baseUrl: stub.url },
    });
    const tool: Tool = toGeminiTool([sampleTool], { form: "parameters" });
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
            parameters: {
              type: "OBJECT",
              properties: {
                url: { type: "STRING", description: "The target URL." },
                pageThemeId: {
                  type: "STRING",
                  nullable: true,
                  description: "Use a theme alias.",
                },
                tags: {
                  type: "ARRAY",
                  items: {
                    type: "OBJECT",
                    properties: {
                      key: { type: "STRING" },
                      value: { type: "STRING" },
                    },
                    required: ["key", "value"],
                  },
                },
              },
              required: ["url", "pageThemeId", "tags"],
            },
          },
        ],
      },
    ]);
  });
});

describe("recursive schemas (schema=compact, providers=openai)", () => {
  // The strict form a compact strict tool with a recursive message gets
  // when OpenAI alone is enforced: the cycle passes through required
  // properties (docs/compat.md, "$defs and $ref").
  const recursive: AgentTool = {
    ...sampleTool,
    name: "save_folder",
    strict: true,
    parameters: {
      $defs: {
        "t.v1.Folder": {
          type: "object",
          properties: {
            name: { type: "string" },
            parent: {
              anyOf: [{ $ref: "#/$defs/t.v1.Folder" }, { type: "null" }],
            },
          },
          required: ["name", "parent"],
          additionalProperties: false,
        },
      },
      type: "object",
      properties: { root: { $ref: "#/$defs/t.v1.Folder" } },
      required: ["root"],
      additionalProperties: false,
    },
  };

  it("sends it to OpenAI strict as it is", () => {
    expect(toOpenAiChatTool(recursive).function.parameters).toEqual(
      recursive.parameters,
    );
  });

  it("refuses the Anthropic strict form, naming the tool and the cycle", () => {
    expect(() => toAnthropicTools([recursive], { strict: true })).toThrow(
      'tool "save_folder": the schema is recursive (a $ref cycle through "#/$defs/t.v1.Folder"), which Anthropic strict tool use refuses; send the tool without strict, or generate it with providers=anthropic (recursion then stops at an empty object)',
    );
    // Without strict, Anthropic takes recursion through $ref.
    expect(toAnthropicTool(recursive).input_schema).toEqual(
      recursive.parameters,
    );
  });

  it("refuses Gemini's parametersJsonSchema form; the parameters form leaves the recursion out", () => {
    expect(() => toGeminiTool([recursive])).toThrow(
      'tool "save_folder": the schema has a $ref cycle through required properties ("#/$defs/t.v1.Folder"), which Gemini refuses',
    );
    const declaration = toGeminiTool([recursive], { form: "parameters" })
      .functionDeclarations[0]!;
    expect(JSON.stringify(declaration.parameters)).not.toContain("$ref");
  });

  it("takes a cycle through a property that is not required (Gemini's rule)", () => {
    const loose: AgentTool = {
      ...recursive,
      strict: false,
      parameters: {
        $defs: {
          "t.v1.Folder": {
            type: "object",
            properties: {
              name: { type: "string" },
              parent: { $ref: "#/$defs/t.v1.Folder" },
            },
            required: ["name"],
          },
        },
        type: "object",
        properties: { root: { $ref: "#/$defs/t.v1.Folder" } },
        required: ["root"],
      },
    };
    expect(
      toGeminiTool([loose]).functionDeclarations[0]!.parametersJsonSchema,
    ).toEqual(loose.parameters);
    expect(() => toAnthropicStrictSchema(loose.parameters)).toThrow(
      "the schema is recursive",
    );
  });
});
