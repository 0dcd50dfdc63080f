import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { compileRequest } from "./support/compile.js";

// Go target, provider_forms=true: the provider functions of
// runtimes/go/providers.go inlined into ai_tools.gen.go, gofmt- and
// vet-clean, and working on the file's own tools (AllTools()).

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

const formsTest = `package gentools

import (
	"encoding/json"
	"testing"
)

func TestProviderForms(t *testing.T) {
	anthropic, err := AnthropicTools(AllTools(), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(anthropic) != 2 || !anthropic[0].Strict || anthropic[1].Strict {
		t.Fatalf("anthropic: %+v", anthropic)
	}
	chat, err := OpenAIChatTools(AllTools())
	if err != nil || len(chat) != 2 || !chat[0].Function.Strict || chat[1].Function.Strict {
		t.Fatalf("openai chat: %+v, %v", chat, err)
	}
	responses, err := OpenAIResponsesTools(AllTools())
	if err != nil || len(responses) != 2 || responses[0].Name != "canvas_draw" {
		t.Fatalf("openai responses: %+v, %v", responses, err)
	}
	gemini, err := GeminiFunctionDeclarations(AllTools(), true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(gemini)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(string(b))
	want := \`[{"name":"canvas_draw","description":"Draw.","parameters":{"properties":{"at":{"nullable":true,"properties":{"x":{"type":"NUMBER"},"y":{"type":"NUMBER"}},"required":["x","y"],"type":"OBJECT"},"label":{"type":"STRING"},"tags":{"items":{"properties":{"key":{"type":"STRING"},"value":{"type":"STRING"}},"required":["key","value"],"type":"OBJECT"},"type":"ARRAY"}},"required":["label","at","tags"],"type":"OBJECT"}},{"name":"canvas_sketch","description":"Sketch.","parameters":{"properties":{"at":{"properties":{"x":{"type":"NUMBER"},"y":{"type":"NUMBER"}},"required":["x","y"],"type":"OBJECT"},"label":{"type":"STRING"}},"required":["label"],"type":"OBJECT"}}]\`
	if string(b) != want {
		t.Errorf("gemini:\\n got %s\\nwant %s", b, want)
	}
}
`;

function goFile(parameter: string): string {
  const files = generate(
    compileRequest({ "forms/v1/forms.proto": proto }, parameter),
    () => {},
  );
  return files.find((f) => f.name === "ai_tools.gen.go")!.content;
}

describe("Go target, provider_forms=true", () => {
  it("leaves the default file without the provider functions", () => {
    expect(goFile("target=go")).not.toContain("func AnthropicTools(");
  });

  it("inlines them, gofmt- and vet-clean, working on AllTools()", () => {
    const code = goFile("target=go,provider_forms=true");
    expect(code).toContain("func AnthropicTools(");
    expect(code).toContain("func GeminiParameters(");
    expect(code).not.toContain("aitools:");
    const dir = mkdtempSync(join(tmpdir(), "ai-tools-forms-"));
    try {
      mkdirSync(join(dir, "gentools"));
      writeFileSync(
        join(dir, "go.mod"),
        "module example.com/forms\n\ngo 1.22\n",
      );
      writeFileSync(join(dir, "gentools", "ai_tools.gen.go"), code);
      writeFileSync(join(dir, "gentools", "forms_test.go"), formsTest);
      const env = { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };
      expect(
        execFileSync("gofmt", ["-l", "gentools"], {
          cwd: dir,
          encoding: "utf8",
        }),
      ).toBe("");
      for (const args of [
        ["vet", "./..."],
        ["test", "./..."],
      ]) {
        const r = spawnSync("go", args, { cwd: dir, env, encoding: "utf8" });
        expect(r.status, r.stdout + r.stderr).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
