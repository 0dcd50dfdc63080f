import { execFileSync, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { compileRequest } from "./support/compile.js";

// Go target: the provider functions of runtimes/go/providers.go are always
// inlined into ai_tools.gen.go with the table of the tools' provider forms
// (toolProviderForms), gofmt- and vet-clean, and select the generated forms
// for the file's own tools (AllTools()); a tool written by hand has none.

const proto = `syntax = "proto3";
package forms.v1;
import "ai/tools/v1/annotations.proto";
message Point { double x = 1; double y = 2; }
message DrawRequest { string label = 1; optional Point at = 2; map<string, string> tags = 3; }
message DrawResponse {}
service Canvas {
  rpc Draw(DrawRequest) returns (DrawResponse) {
    option (ai.tools.v1.rpc_tool) = { name: "canvas_draw" description: "Draw." strict: true };
  }
  rpc Sketch(DrawRequest) returns (DrawResponse) {
    option (ai.tools.v1.rpc_tool) = { name: "canvas_sketch" description: "Sketch." };
  }
}
`;

// Writes what each provider function builds from AllTools() to $FORMS_OUT,
// and what they make of a strict tool written by hand, with a new name or
// with a generated tool's name but other Parameters.
const formsTest = `package gentools

import (
	"encoding/json"
	"os"
	"testing"
)

func TestProviderForms(t *testing.T) {
	out := map[string]any{}
	var err error
	if out["anthropicStrict"], err = AnthropicTools(AllTools(), true); err != nil {
		t.Fatal(err)
	}
	if out["anthropic"], err = AnthropicTools(AllTools(), false); err != nil {
		t.Fatal(err)
	}
	if out["openaiChat"], err = OpenAIChatTools(AllTools()); err != nil {
		t.Fatal(err)
	}
	if out["openaiResponses"], err = OpenAIResponsesTools(AllTools()); err != nil {
		t.Fatal(err)
	}
	if out["geminiParameters"], err = GeminiFunctionDeclarations(AllTools(), true); err != nil {
		t.Fatal(err)
	}
	if out["gemini"], err = GeminiFunctionDeclarations(AllTools(), false); err != nil {
		t.Fatal(err)
	}
	handmade := AgentTool{Name: "handmade", Strict: true, Parameters: json.RawMessage(\`{"type":"object"}\`)}
	if _, err := AnthropicTools([]AgentTool{handmade}, true); err != nil {
		out["handmadeError"] = err.Error()
	}
	impostor := AllTools()[0]
	impostor.Parameters = json.RawMessage(\`{"type":"object","properties":{},"additionalProperties":false}\`)
	if _, err := AnthropicTools([]AgentTool{impostor}, true); err != nil {
		out["impostorError"] = err.Error()
	}
	if out["impostorOpenAI"], err = OpenAIChatTools([]AgentTool{impostor}); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv("FORMS_OUT"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
`;

function goFile(parameter: string, warnings: string[] = []): string {
  const files = generate(
    compileRequest({ "forms/v1/forms.proto": proto }, parameter),
    (w) => warnings.push(w),
  );
  return files.find((f) => f.name === "ai_tools.gen.go")!.content;
}

/** Compile and vet `code` in a module of its own, run formsTest, its output. */
function runFormsTest(code: string): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-forms-"));
  try {
    mkdirSync(join(dir, "gentools"));
    writeFileSync(join(dir, "go.mod"), "module example.com/forms\n\ngo 1.22\n");
    writeFileSync(join(dir, "gentools", "ai_tools.gen.go"), code);
    writeFileSync(join(dir, "gentools", "forms_test.go"), formsTest);
    const out = join(dir, "forms.json");
    const env = {
      ...process.env,
      GOFLAGS: "-mod=mod",
      GOTOOLCHAIN: "local",
      FORMS_OUT: out,
    };
    expect(
      execFileSync("gofmt", ["-l", "gentools"], { cwd: dir, encoding: "utf8" }),
    ).toBe("");
    for (const args of [
      ["vet", "./..."],
      ["test", "-count=1", "./..."],
    ]) {
      const r = spawnSync("go", args, { cwd: dir, env, encoding: "utf8" });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    }
    return JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const drawParameters = {
  additionalProperties: false,
  properties: {
    at: {
      anyOf: [
        {
          additionalProperties: false,
          properties: { x: { type: "number" }, y: { type: "number" } },
          required: ["x", "y"],
          type: "object",
        },
        { type: "null" },
      ],
    },
    label: { type: "string" },
    tags: {
      items: {
        additionalProperties: false,
        properties: { key: { type: "string" }, value: { type: "string" } },
        required: ["key", "value"],
        type: "object",
      },
      type: "array",
    },
  },
  required: ["label", "at", "tags"],
  type: "object",
};

describe("Go target: provider functions", () => {
  it("writes them and the forms table in every file", () => {
    const code = goFile("target=go");
    expect(code).toContain("func AnthropicTools(");
    expect(code).toContain(
      "var toolProviderForms = map[string]generatedForms{",
    );
    expect(code).not.toContain("func GeminiParameters(");
    expect(code).not.toContain("aitools:");
    expect(() => goFile("target=go,provider_forms=true")).toThrow(
      /unknown option "provider_forms"; valid options: .*validate/,
    );
  });

  it("selects the generated forms for AllTools(), gofmt- and vet-clean", () => {
    const got = runFormsTest(goFile("target=go"));
    const [draw, sketch] = got["anthropicStrict"] as Record<string, unknown>[];
    expect(draw).toEqual({
      name: "canvas_draw",
      description: "Draw.",
      strict: true,
      input_schema: drawParameters,
    });
    expect(sketch!["strict"]).toBeUndefined();
    expect((got["anthropic"] as Record<string, unknown>[])[0]).toEqual({
      name: "canvas_draw",
      description: "Draw.",
      input_schema: drawParameters,
    });
    expect((got["openaiChat"] as Record<string, unknown>[])[0]).toEqual({
      type: "function",
      function: {
        name: "canvas_draw",
        description: "Draw.",
        parameters: drawParameters,
        strict: true,
      },
    });
    expect(
      (got["openaiResponses"] as Record<string, unknown>[]).map((t) => [
        t["name"],
        t["strict"],
      ]),
    ).toEqual([
      ["canvas_draw", true],
      ["canvas_sketch", false],
    ]);
    expect((got["gemini"] as Record<string, unknown>[])[0]).toEqual({
      name: "canvas_draw",
      description: "Draw.",
      parametersJsonSchema: drawParameters,
    });
    expect(got["geminiParameters"]).toEqual([
      {
        name: "canvas_draw",
        description: "Draw.",
        parameters: {
          properties: {
            at: {
              nullable: true,
              properties: { x: { type: "NUMBER" }, y: { type: "NUMBER" } },
              required: ["x", "y"],
              type: "OBJECT",
            },
            label: { type: "STRING" },
            tags: {
              items: {
                properties: {
                  key: { type: "STRING" },
                  value: { type: "STRING" },
                },
                required: ["key", "value"],
                type: "OBJECT",
              },
              type: "ARRAY",
            },
          },
          required: ["label", "at", "tags"],
          type: "OBJECT",
        },
      },
      {
        name: "canvas_sketch",
        description: "Sketch.",
        parameters: {
          properties: {
            at: {
              properties: { x: { type: "NUMBER" }, y: { type: "NUMBER" } },
              required: ["x", "y"],
              type: "OBJECT",
            },
            label: { type: "STRING" },
          },
          required: ["label"],
          type: "OBJECT",
        },
      },
    ]);
    expect(got["handmadeError"]).toBe(
      'tool "handmade" has no generated provider forms: generate it with protoc-gen-ai-tools',
    );
    expect(got["impostorError"]).toBe(
      'tool "canvas_draw" has no generated provider forms: generate it with protoc-gen-ai-tools',
    );
    expect(
      (got["impostorOpenAI"] as { function: { parameters: unknown } }[])[0]!
        .function.parameters,
    ).toEqual({ type: "object", properties: {}, additionalProperties: false });
  }, 120_000);
});
