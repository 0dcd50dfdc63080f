import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { validateAgainst, valuesFor } from "@protoc-gen-ai-tools/testkit";
import type { GeneratorModel } from "../src/model/model.js";
import { modelOf, toolOf } from "./support/model.js";
import { buildRequest } from "./support/request.js";

// A strict tool on a message cycle goes out in two variants (docs/compat.md,
// "$defs and $ref"): OpenAI and Anthropic get the recursive one, Gemini and
// Anthropic strict the stop one. Its executor's argument table must take
// every call either allows (REVIEW32 GEN-1): checked here with the
// TypeScript runtime's own check on values drawn from both forms of the
// golden `cycles` case (Temporal-like `fail_activity`, Vertex-like
// `count_tokens_strict`, `evaluate_strict`), and the shared vector
// e2e/vectors/arguments/cycles.json, which the three runtimes run, is
// held to the generated tables.

type Json = Record<string, unknown>;

interface RuntimeCheck {
  checkArguments(args: Json, table: unknown): unknown[];
  parseArgumentTable(name: string, text: string): unknown;
}

const runtimeDist = new URL("../../runtimes/ts/dist/", import.meta.url);

/** The TypeScript runtime's structure check (not a package export). */
async function loadRuntimeCheck(): Promise<RuntimeCheck> {
  const check = (await import(
    new URL("argument-check.js", runtimeDist).href
  )) as Pick<RuntimeCheck, "checkArguments">;
  const table = (await import(
    new URL("argument-table.js", runtimeDist).href
  )) as Pick<RuntimeCheck, "parseArgumentTable">;
  return {
    checkArguments: check.checkArguments,
    parseArgumentTable: table.parseArgumentTable,
  };
}

/** The tool's forms, with its two variants named. */
function variants(model: GeneratorModel, name: string) {
  const tool = toolOf(model, name);
  const parameters = JSON.parse(tool.schemaJson) as Json;
  const forms = JSON.parse(tool.formsJson) as Record<string, Json>;
  return {
    tool,
    recursive: forms["openai"] ?? forms["anthropic"] ?? parameters,
    stop: forms["gemini"] ?? parameters,
  };
}

const tools = ["fail_activity", "count_tokens_strict", "evaluate_strict"];

describe("argument tables of strict tools on a cycle (golden case cycles)", () => {
  let model: GeneratorModel;
  let runtime: RuntimeCheck;
  beforeAll(async () => {
    model = modelOf(await buildRequest("cycles"));
    runtime = await loadRuntimeCheck();
  });

  it.each(tools)("%s: two different variants", (name) => {
    const { recursive, stop } = variants(model, name);
    expect(JSON.stringify(recursive)).toContain("$ref");
    expect(JSON.stringify(stop)).not.toContain("$ref");
  });

  it.each(tools)(
    "%s: every value of the recursive and the stop form passes the table",
    (name) => {
      const { tool, recursive, stop } = variants(model, name);
      const table = runtime.parseArgumentTable(name, tool.argumentsJson);
      for (const [form, schema] of [
        ["recursive", recursive],
        ["stop", stop],
      ] as const) {
        const values = valuesFor(schema, {
          count: 25,
          seed: 5,
          unknownKeys: false,
          maxRefDepth: 3,
        });
        for (const value of values) {
          expect(validateAgainst(schema, value), `${form} sample`).toEqual([]);
          expect(
            runtime.checkArguments(structuredClone(value) as Json, table),
            `${name} ${form}: ${JSON.stringify(value)}`,
          ).toEqual([]);
        }
      }
    },
  );

  it("the shared vector holds the generated tables, and its calls are the forms'", () => {
    const vector = JSON.parse(
      readFileSync(
        new URL("../../e2e/vectors/arguments/cycles.json", import.meta.url),
        "utf8",
      ),
    ) as {
      arguments: unknown;
      cases: {
        name: string;
        args: string;
        arguments?: unknown;
        expect: unknown[];
      }[];
    };
    const failActivity = variants(model, "fail_activity");
    const countTokens = variants(model, "count_tokens_strict");
    expect(vector.arguments).toEqual(
      JSON.parse(failActivity.tool.argumentsJson),
    );
    const forms = { recursive: 0, stop: 0 };
    for (const c of vector.cases) {
      const own = c.arguments !== undefined;
      if (own) {
        expect(c.arguments, c.name).toEqual(
          JSON.parse(countTokens.tool.argumentsJson),
        );
      }
      if (c.expect.length > 0) continue;
      // A call the table takes is one a form allows.
      const { recursive, stop } = own ? countTokens : failActivity;
      const args = JSON.parse(c.args) as unknown;
      const inRecursive = validateAgainst(recursive, args).length === 0;
      const inStop = validateAgainst(stop, args).length === 0;
      expect(inRecursive || inStop, c.name).toBe(true);
      if (inRecursive && !inStop) forms.recursive++;
      if (inStop && !inRecursive) forms.stop++;
    }
    expect(forms.recursive).toBeGreaterThanOrEqual(2);
    expect(forms.stop).toBeGreaterThanOrEqual(2);
  });
});
