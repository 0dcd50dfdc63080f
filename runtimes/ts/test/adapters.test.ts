// Each adapter's output, sent by the official SDK client to a local stub:
// the request body carries our tool exactly. The assignments to the SDKs'
// own types are checked by `tsc -p tsconfig.test.json` (the test script).
import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { GoogleGenAI, type FunctionDeclaration } from "@google/genai";
import { generateText, type ToolSet } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defineTool,
  toAnthropicTool,
  toGeminiFunctionDeclaration,
  toOpenAiChatTool,
  toOpenAiResponsesTool,
} from "../src/index.js";
import { toVercelAiTool, toVercelAiTools } from "../src/vercel-ai.js";
import {
  startCaptureServer,
  type CaptureServer,
} from "./support/capture-server.js";
import { generatedTool } from "./support/generated-tool.js";
import { sampleTool } from "./support/sample-tool.js";

let stub: CaptureServer;

beforeAll(async () => {
  stub = await startCaptureServer();
});

afterAll(async () => {
  await stub.close();
});

/** Send with the client, expect the stub's 400, return the body it received. */
async function bodyOf(
  send: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  const before = stub.requests.length;
  await expect(send()).rejects.toThrow();
  expect(stub.requests.length).toBe(before + 1);
  return stub.requests.at(-1)?.body as Record<string, unknown>;
}

const expected = {
  name: sampleTool.name,
  description: sampleTool.description,
  schema: sampleTool.parameters,
};

describe("OpenAI (openai SDK)", () => {
  const client = () =>
    new OpenAI({ apiKey: "test", baseURL: `${stub.url}/v1`, maxRetries: 0 });

  it("Responses API: a function tool, strict", async () => {
    const tool: OpenAI.Responses.FunctionTool =
      toOpenAiResponsesTool(sampleTool);
    const body = await bodyOf(() =>
      client().responses.create({
        model: "gpt-test",
        input: "hi",
        tools: [tool],
      }),
    );
    expect(stub.requests.at(-1)?.path).toBe("/v1/responses");
    expect(body["tools"]).toEqual([
      {
        type: "function",
        name: expected.name,
        description: expected.description,
        parameters: expected.schema,
        strict: true,
      },
    ]);
  });

  it("Chat Completions: a function tool, strict", async () => {
    const tool: OpenAI.Chat.ChatCompletionTool = toOpenAiChatTool(sampleTool);
    const body = await bodyOf(() =>
      client().chat.completions.create({
        model: "gpt-test",
        messages: [{ role: "user", content: "hi" }],
        tools: [tool],
      }),
    );
    expect(stub.requests.at(-1)?.path).toBe("/v1/chat/completions");
    expect(body["tools"]).toEqual([
      {
        type: "function",
        function: {
          name: expected.name,
          description: expected.description,
          parameters: expected.schema,
          strict: true,
        },
      },
    ]);
  });

  it("a non-strict tool says strict: false", () => {
    expect(toOpenAiResponsesTool({ ...sampleTool, strict: false }).strict).toBe(
      false,
    );
    expect(
      toOpenAiChatTool({ ...sampleTool, strict: false }).function.strict,
    ).toBe(false);
  });
});

describe("Anthropic (@anthropic-ai/sdk)", () => {
  const client = () =>
    new Anthropic({ apiKey: "test", baseURL: stub.url, maxRetries: 0 });

  it("a tool with input_schema", async () => {
    const tool: Anthropic.Tool = toAnthropicTool(sampleTool);
    const body = await bodyOf(() =>
      client().messages.create({
        model: "claude-test",
        max_tokens: 16,
        messages: [{ role: "user", content: "hi" }],
        tools: [tool],
      }),
    );
    expect(stub.requests.at(-1)?.path).toBe("/v1/messages");
    expect(body["tools"]).toEqual([
      {
        name: expected.name,
        description: expected.description,
        input_schema: expected.schema,
      },
    ]);
  });

  it("strict on request: the generated strict form", async () => {
    // What Anthropic's SDK makes of the schema (pattern moved into the
    // description), as the generator writes it in forms.anthropicStrict.
    const strictForm = {
      type: "object",
      properties: {
        id: {
          type: "string",
          description: "The note.\n\n{pattern: ^n-[0-9]+$}",
        },
      },
      required: ["id"],
      additionalProperties: false,
    };
    const generated = generatedTool({
      ...sampleTool,
      forms: {
        anthropicStrict: strictForm,
        anthropicStrictCounts: { optional: 0, unions: 0 },
        geminiParameters: null,
      },
    });
    const tool: Anthropic.Tool = toAnthropicTool(generated, { strict: true });
    const body = await bodyOf(() =>
      client().messages.create({
        model: "claude-test",
        max_tokens: 16,
        messages: [{ role: "user", content: "hi" }],
        tools: [tool],
      }),
    );
    expect(body["tools"]).toEqual([
      {
        name: expected.name,
        description: expected.description,
        input_schema: strictForm,
        strict: true,
      },
    ]);
    expect(() => toAnthropicTool(sampleTool, { strict: true })).toThrow(
      'tool "links_create" has no generated provider forms: generate it with protoc-gen-ai-tools',
    );
  });

  it("a non-strict tool never carries the flag, even on request", () => {
    const loose = { ...sampleTool, strict: false };
    expect(toAnthropicTool(loose, { strict: true })).not.toHaveProperty(
      "strict",
    );
    expect(toAnthropicTool(sampleTool)).not.toHaveProperty("strict");
  });

  it("refuses parameters that are not an object schema", () => {
    expect(() =>
      toAnthropicTool({ ...sampleTool, parameters: { type: "string" } }),
    ).toThrow(`tool "links_create": parameters are not an object schema`);
  });
});

describe("Gemini (@google/genai)", () => {
  it("a function declaration with parametersJsonSchema", async () => {
    const ai = new GoogleGenAI({
      apiKey: "test",
      httpOptions: { baseUrl: stub.url },
    });
    const declaration: FunctionDeclaration =
      toGeminiFunctionDeclaration(sampleTool);
    const body = await bodyOf(() =>
      ai.models.generateContent({
        model: "gemini-test",
        contents: "hi",
        config: { tools: [{ functionDeclarations: [declaration] }] },
      }),
    );
    expect(stub.requests.at(-1)?.path).toMatch(
      /\/models\/gemini-test:generateContent$/,
    );
    expect(body["tools"]).toEqual([
      {
        functionDeclarations: [
          {
            name: expected.name,
            description: expected.description,
            parametersJsonSchema: expected.schema,
          },
        ],
      },
    ]);
  });
});

describe("Vercel AI SDK (ai, @ai-sdk/openai)", () => {
  const provider = () =>
    createOpenAI({ apiKey: "test", baseURL: `${stub.url}/v1` });

  it("tool() with jsonSchema(), strict, through the OpenAI Responses provider", async () => {
    const tools: ToolSet = { [sampleTool.name]: toVercelAiTool(sampleTool) };
    const body = await bodyOf(() =>
      generateText({
        model: provider()("gpt-test"),
        prompt: "hi",
        tools,
        maxRetries: 0,
      }),
    );
    expect(stub.requests.at(-1)?.path).toBe("/v1/responses");
    expect(body["tools"]).toEqual([
      {
        type: "function",
        name: expected.name,
        description: expected.description,
        parameters: expected.schema,
        strict: true,
      },
    ]);
  });

  it("through the Chat Completions provider", async () => {
    const tools: ToolSet = toVercelAiTools([sampleTool]);
    const body = await bodyOf(() =>
      generateText({
        model: provider().chat("gpt-test"),
        prompt: "hi",
        tools,
        maxRetries: 0,
      }),
    );
    expect(body["tools"]).toEqual([
      {
        type: "function",
        function: {
          name: expected.name,
          description: expected.description,
          parameters: expected.schema,
          strict: true,
        },
      },
    ]);
  });
});

describe("toVercelAiTool with an executor", () => {
  it("execute sends the input as JSON to Executor.execute", async () => {
    const calls: [string, string, AbortSignal | undefined][] = [];
    const executor = {
      execute: (
        name: string,
        args: string,
        options?: { signal?: AbortSignal | undefined },
      ) => {
        calls.push([name, args, options?.signal]);
        return Promise.resolve(`{"ok":true}`);
      },
      canExecute: () => true,
      aliases: undefined as never,
    };
    const tool = toVercelAiTool(sampleTool, executor);
    const signal = new AbortController().signal;
    const out: unknown = await tool.execute?.(
      { url: "https://x" },
      {
        toolCallId: "1",
        messages: [],
        abortSignal: signal,
      },
    );
    expect(out).toBe(`{"ok":true}`);
    expect(calls).toEqual([["links_create", `{"url":"https://x"}`, signal]]);
  });
});

describe("adapters return copies", () => {
  it("mutating an adapter's output leaves the tool as it was", () => {
    const tool = defineTool(structuredClone(sampleTool));
    const before = structuredClone(tool);
    const outputs: { [key: string]: unknown }[] = [
      toOpenAiResponsesTool(tool).parameters,
      toOpenAiChatTool(tool).function.parameters,
      toAnthropicTool(tool).input_schema,
      toGeminiFunctionDeclaration(tool).parametersJsonSchema!,
    ];
    for (const schema of outputs) {
      expect(schema).toEqual(before.parameters);
      schema["type"] = "string";
      (schema["properties"] as Record<string, unknown>)["url"] = null;
      (schema["required"] as string[]).push("x");
    }
    expect(tool).toEqual(before);
  });

  it("defineTool freezes the tool deeply", () => {
    const tool = defineTool(structuredClone(sampleTool));
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.parameters)).toBe(true);
    expect(Object.isFrozen(tool.parameters["properties"])).toBe(true);
    expect(() => {
      (tool.parameters["required"] as string[]).push("x");
    }).toThrow(TypeError);
  });

  it("defineTool of JSON text: parsed on first read, the same frozen object on every read", () => {
    const tool = defineTool(
      "t",
      "A tool.",
      true,
      '{"type":"object","properties":{"a":{"type":"string"}}}',
      '{"geminiParameters":null}',
    );
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.parameters).toBe(tool.parameters);
    expect(tool.forms).toBe(tool.forms);
    expect(tool.forms).toEqual({ geminiParameters: null });
    expect(Object.isFrozen(tool.parameters["properties"])).toBe(true);
    expect(() => {
      (tool.parameters as Record<string, unknown>)["x"] = 1;
    }).toThrow(TypeError);
    expect(defineTool("u", "", false, "{}").forms).toBeUndefined();
  });
});
