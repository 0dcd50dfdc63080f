import { describe, expect, it } from "vitest";
import type { ToolModel } from "../src/model/model.js";
import {
  checkAnthropicStrict,
  countAnthropicStrictParameters,
} from "../src/providers/anthropic-strict.js";
import { anthropicStrictForm } from "../src/providers/anthropic-strict-form.js";
import { checkAnthropicTool } from "../src/providers/anthropic-tools.js";
import { checkGeminiJsonSchema } from "../src/providers/gemini-json-schema.js";
import { checkGeminiOpenApi } from "../src/providers/gemini-openapi.js";
import { geminiParametersForm } from "../src/providers/gemini-parameters-form.js";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import { providerForms } from "../src/providers/provider-forms.js";
import { findRefCycles } from "../src/providers/schema-walk.js";
import { modelOf, toolOf } from "./support/model.js";
import { buildRequest, goldenCases } from "./support/request.js";

// The provider forms the generator writes per tool (provider-forms.ts,
// tool-forms.ts; docs/compat.md, "What providers accept" and "$defs and
// $ref"), on every golden case: each form passes the checker of the
// provider that gets it. The `cycles` case (Vertex AI's Schema, Temporal's
// Failure, in the default inline form) pins which variant goes where.

type Forms = Record<string, unknown>;

function formsOf(tool: ToolModel): Forms {
  return JSON.parse(tool.formsJson) as Forms;
}

function parametersOf(tool: ToolModel): Record<string, unknown> {
  return JSON.parse(tool.schemaJson) as Record<string, unknown>;
}

const keys = [
  "anthropic",
  "anthropicStrict",
  "anthropicStrictCounts",
  "gemini",
  "geminiParameters",
  "openai",
];

/** True when the schema holds a `$ref` cycle (real recursion). */
function recursive(schema: unknown): boolean {
  return findRefCycles(schema, false).length > 0;
}

describe.each(goldenCases())("provider forms of case %s", (caseName) => {
  it("gives each provider a form its checker accepts", async () => {
    const model = modelOf(await buildRequest(caseName));
    for (const tool of model.tools) {
      const forms = formsOf(tool);
      const parameters = parametersOf(tool);
      const at = `${caseName} ${tool.name}`;
      expect(
        Object.keys(forms).every((k) => keys.includes(k)),
        at,
      ).toBe(true);
      // A variant is written only where it differs from `parameters`.
      for (const key of ["openai", "anthropic", "gemini"]) {
        expect(forms[key], `${at} ${key}`).not.toEqual(parameters);
      }
      expect(checkAnthropicTool(forms["anthropic"] ?? parameters), at).toEqual(
        [],
      );
      const gemini = forms["gemini"] ?? parameters;
      expect(checkGeminiJsonSchema(gemini), at).toEqual([]);
      const geminiParameters = forms["geminiParameters"];
      if (geminiParameters !== null) {
        expect(checkGeminiOpenApi(geminiParameters), at).toEqual([]);
      }
      if (!tool.strict) {
        expect(forms["openai"], at).toBeUndefined();
        expect(forms["anthropic"], at).toBeUndefined();
        expect(forms["anthropicStrict"], at).toBeUndefined();
        continue;
      }
      expect(checkOpenAiStrict(forms["openai"] ?? parameters), at).toEqual([]);
      // The forms of the stop variant; the SDK's own output is compared in
      // runtimes/python/tests.
      const stop = stopOf(tool, forms);
      expect(geminiParameters, at).toEqual(geminiParametersForm(stop) ?? null);
      // Absent when it is `parameters` (as parsed JSON).
      const strictForm = forms["anthropicStrict"] ?? parameters;
      expect(strictForm, at).toEqual(anthropicStrictForm(stop));
      if ("anthropicStrict" in forms) {
        expect(forms["anthropicStrict"], at).not.toEqual(parameters);
      }
      expect(checkAnthropicStrict(strictForm), at).toEqual([]);
      const counts = countAnthropicStrictParameters(strictForm);
      expect(forms["anthropicStrictCounts"], at).toEqual({
        optional: counts.optionalParameters,
        unions: counts.unionParameters,
      });
    }
  });
});

/** The stop variant of a tool: its `gemini` form, else its `parameters`. */
function stopOf(tool: ToolModel, forms: Forms): unknown {
  const stop = forms["gemini"] ?? parametersOf(tool);
  expect(recursive(stop), tool.name).toBe(false);
  return stop;
}

describe("recursion in the default inline form (case cycles)", () => {
  const model = buildRequest("cycles").then(modelOf);

  it("writes a non-strict tool's recursion with $ref in parameters, its only form", async () => {
    for (const name of ["count_tokens", "fail_activity_loose", "evaluate"]) {
      const tool = toolOf(await model, name);
      const parameters = parametersOf(tool);
      expect(recursive(parameters), name).toBe(true);
      expect(Object.keys(formsOf(tool)), name).toEqual(["geminiParameters"]);
    }
    const vertex = parametersOf(toolOf(await model, "count_tokens"));
    const defs = vertex["$defs"] as Record<string, Record<string, unknown>>;
    // Only the message on the cycle is a definition; the rest stays inline.
    expect(Object.keys(defs)).toEqual(["Schema"]);
    const schema = defs["Schema"]!;
    const properties = schema["properties"] as Record<string, unknown>;
    expect(properties["items"]).toEqual({
      anyOf: [{ $ref: "#/$defs/Schema" }],
      description: "The schema of the array's elements.",
    });
    expect(properties["any_of"]).toMatchObject({
      items: { $ref: "#/$defs/Schema" },
    });
    expect(properties["properties"]).toMatchObject({
      additionalProperties: { $ref: "#/$defs/Schema" },
    });
    // The fields closing the cycle are not required (Gemini's rule).
    expect(schema["required"]).not.toContain("items");
    expect(schema["required"]).not.toContain("any_of");
    expect(schema["required"]).not.toContain("properties");
  });

  it("leaves a oneof member that closes a cycle out of its branch's required in a non-strict tool", async () => {
    const parameters = parametersOf(toolOf(await model, "evaluate"));
    const expr = (parameters["$defs"] as Record<string, unknown>)["Expr"] as {
      anyOf: { required: string[]; properties: Record<string, unknown> }[];
    };
    expect(expr.anyOf.map((b) => b.required)).toEqual([["number"], [], []]);
    // Strict: every member required in its branch, as before.
    const strict = formsOf(toolOf(await model, "evaluate_strict"));
    const strictExpr = (
      (strict["openai"] as Record<string, unknown>)["$defs"] as Record<
        string,
        { anyOf: { required: string[] }[] }
      >
    )["Expr"]!;
    expect(strictExpr.anyOf.map((b) => b.required)).toEqual([
      ["number"],
      ["negated"],
      ["sum"],
    ]);
  });

  it("gives a strict tool's recursion to OpenAI and Anthropic, and stops it elsewhere", async () => {
    for (const name of [
      "count_tokens_strict",
      "fail_activity",
      "evaluate_strict",
    ]) {
      const tool = toolOf(await model, name);
      const forms = formsOf(tool);
      const parameters = parametersOf(tool);
      expect(recursive(parameters), name).toBe(false);
      expect(recursive(forms["openai"]), name).toBe(true);
      expect(forms["anthropic"], name).toEqual(forms["openai"]);
      expect(forms["gemini"], name).toBeUndefined();
      expect(recursive(forms["anthropicStrict"]), name).toBe(false);
    }
    const temporal = formsOf(toolOf(await model, "fail_activity"));
    const failure = (
      (temporal["openai"] as Record<string, unknown>)["$defs"] as Record<
        string,
        { anyOf: { properties: Record<string, unknown> }[] }
      >
    )["Failure"]!;
    // Every branch of the oneof: the cause is the recursion, nullable.
    for (const branch of failure.anyOf) {
      expect(branch.properties["cause"]).toEqual({
        anyOf: [{ $ref: "#/$defs/Failure" }, { type: "null" }],
        description: "The failure that caused this one.",
      });
    }
  });
});

describe("providerForms", () => {
  it("leaves out what equals parameters, and says where the SDK's transform would refuse a strict tool", () => {
    const plain = {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    };
    // The Anthropic strict form is the schema itself: left out.
    expect(providerForms({ strict: true, parameters: plain })).toMatchObject({
      formsJson:
        '{"anthropicStrictCounts":{"optional":0,"unions":0},"geminiParameters":{"properties":{"id":{"type":"STRING"}},"required":["id"],"type":"OBJECT"}}',
    });
    const free = { ...plain, properties: { id: {} } };
    expect(providerForms({ strict: false, parameters: free })).toMatchObject({
      formsJson: '{"geminiParameters":null}',
    });
    expect(providerForms({ strict: true, parameters: free })).toEqual({
      problem: {
        path: "#/properties/id",
        message:
          "a schema needs a type, anyOf, oneOf or allOf, or a const or non-empty enum of strings, numbers, booleans or null",
      },
    });
  });
});
