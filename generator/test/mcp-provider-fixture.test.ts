import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { modelOf, toolOf } from "./support/model.js";
import { buildRequest, paths } from "./support/request.js";

// runtimes/ts/test/support/fixup-strict-tool.json, the tool the TypeScript
// runtime's provider-form tests serve (the runtime's tests cannot run the
// generator), must stay what the generator writes for fixup_strict of
// e2e/vectors/proto: its parameters and its openai and anthropic forms.
const repo = path.resolve(paths.generator, "..");

it("the TS runtime's fixup_strict fixture is the generator's tool", async () => {
  const fixture = JSON.parse(
    readFileSync(
      path.join(repo, "runtimes/ts/test/support/fixup-strict-tool.json"),
      "utf8",
    ),
  ) as { parameters: unknown; forms: Record<string, unknown> };
  const request = await buildRequest(path.join(repo, "e2e/vectors/proto"), {
    parameter: "target=ts",
    files: ["aitest/v1/vectors.proto"],
  });
  const tool = toolOf(modelOf(request), "fixup_strict");
  const forms = JSON.parse(tool.formsJson) as Record<string, unknown>;
  expect(fixture).toEqual({
    name: tool.name,
    description: tool.description,
    strict: tool.strict,
    parameters: JSON.parse(tool.schemaJson) as unknown,
    forms: { openai: forms["openai"], anthropic: forms["anthropic"] },
  });
});
