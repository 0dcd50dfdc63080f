// The shared vectors e2e/vectors/providers/adapters.json, run unchanged:
// what each adapter builds from generated tools and their provider forms
// (format in the file's description).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  toAnthropicTools,
  toGeminiTool,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
  type AgentTool,
} from "../src/index.js";
import { generatedTool } from "./support/generated-tool.js";

interface Case {
  readonly name: string;
  readonly adapter: "openaiChat" | "openaiResponses" | "anthropic" | "gemini";
  readonly options?: {
    readonly strict?: boolean;
    readonly form?: "parametersJsonSchema" | "parameters";
  };
  readonly tools: readonly string[];
  readonly expect?: unknown;
  readonly expectError?: string;
}

const file = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/providers/adapters.json",
);
const vectors = JSON.parse(readFileSync(file, "utf8")) as {
  tools: Record<string, Parameters<typeof generatedTool>[0]>;
  cases: Case[];
};

function run(c: Case, tools: AgentTool[]): unknown {
  switch (c.adapter) {
    case "openaiChat":
      return toOpenAiChatTools(tools);
    case "openaiResponses":
      return toOpenAiResponsesTools(tools);
    case "anthropic":
      return toAnthropicTools(tools, { strict: c.options?.strict });
    case "gemini":
      return toGeminiTool(tools, { form: c.options?.form });
  }
}

describe("shared vectors: e2e/vectors/providers/adapters.json", () => {
  it("has cases", () => {
    expect(vectors.cases.length).toBeGreaterThan(0);
  });
  for (const c of vectors.cases) {
    it(c.name, () => {
      const tools = c.tools.map((id) => {
        const tool = vectors.tools[id];
        if (tool === undefined) {
          throw new Error(`case ${JSON.stringify(c.name)}: no tool ${id}`);
        }
        return generatedTool(tool);
      });
      if (c.expectError !== undefined) {
        expect(() => run(c, tools)).toThrow(c.expectError);
      } else {
        expect(JSON.parse(JSON.stringify(run(c, tools)))).toEqual(c.expect);
      }
    });
  }
});
