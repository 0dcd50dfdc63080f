// What the generator does once for a node shared by many tools (a frozen
// nested message, build-schema.ts): canonicalJson writes its text once,
// and the provider checks skip what lies below it once they found nothing
// there. Both must give what writing and checking each schema whole gives.
import { describe, expect, it } from "vitest";
import { createProblemCollector, GeneratorError } from "../src/errors.js";
import { buildModel, resolveRequestFiles } from "../src/model/build-model.js";
import { toolSelectionOf } from "../src/model/tool-selection.js";
import { parseOptions } from "../src/options.js";
import {
  allProviders,
  checkModelTools,
  createToolChecker,
  providersOf,
  type LocatedTool,
  type Provider,
} from "../src/providers/provider-checks.js";
import { canonicalJson } from "../src/schema/canonical-json.js";
import type { JsonSchema, JsonValue } from "../src/schema/json-schema.js";
import { compileRequest } from "./support/compile.js";
import { deepFreeze } from "./support/deep-freeze.js";
import { largeApiProtos, workflowRpcs } from "./support/large-api.js";

/** JSON with sorted keys, written the slow and obvious way. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(sortedJson).join(",")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys
      .map(
        (k) =>
          `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`,
      )
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

interface Outcome {
  readonly problems: string;
  readonly warnings: readonly string[];
}

/** What the checks report for `tools`, each checked on `schemaOf(tool)`. */
function outcome(
  tools: readonly LocatedTool[],
  providers: readonly Provider[],
  schemaOf?: (tool: LocatedTool) => unknown,
): Outcome {
  const problems = createProblemCollector();
  const warnings: string[] = [];
  if (schemaOf === undefined) {
    checkModelTools(tools, providers, problems, (w) => warnings.push(w));
  } else {
    const checker = createToolChecker(providers, problems, (w) =>
      warnings.push(w),
    );
    tools.forEach((t) => checker.check(t, schemaOf(t)));
    checker.finish(tools);
  }
  try {
    problems.throwIfAny();
  } catch (e) {
    expect(e).toBeInstanceOf(GeneratorError);
    return { problems: (e as Error).message, warnings };
  }
  return { problems: "", warnings };
}

describe("canonicalJson of shared nodes", () => {
  it("writes a frozen node the same in every schema holding it, keys in byte order", () => {
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, i]),
    );
    const shared = deepFreeze({
      type: "object",
      properties: { zeta: { type: "string" }, alpha: { type: "integer" } },
      required: ["zeta"],
      many,
    });
    const one = { properties: { a: shared }, type: "object" };
    const two = { type: "object", properties: { b: shared, c: shared } };
    const text = sortedJson(shared);
    expect(canonicalJson(one as JsonValue)).toBe(sortedJson(one));
    expect(canonicalJson(two as JsonValue)).toBe(sortedJson(two));
    expect(canonicalJson(two as JsonValue)).toContain(
      `"b":${text},"c":${text}`,
    );
  });

  it("writes a frozen node met inside another frozen one the same when it is met on its own", () => {
    const inner = deepFreeze({
      type: "object",
      properties: { b: { type: "string" }, a: { type: "integer" } },
    });
    // The inner node twice in the outer one, as a oneof's branches hold it.
    const outer = deepFreeze({
      anyOf: [
        { properties: { x: inner }, type: "object" },
        { type: "object", properties: { y: inner, x: inner } },
      ],
    });
    // Keys are written in byte order: `a` (outer) before `z` (inner) has
    // the inner node written inside the outer one first, then on its own.
    const schemas = [
      { type: "object", properties: { o: outer } },
      { type: "object", properties: { a: outer, z: inner } },
      { properties: { i: inner } },
      { properties: { z: inner, a: outer } },
    ];
    for (const schema of schemas) {
      expect(canonicalJson(schema as JsonValue)).toBe(sortedJson(schema));
    }
  });

  it("writes a node that is not frozen again each time (it may have changed)", () => {
    const node: Record<string, JsonValue> = { type: "string" };
    const schema = { properties: { a: node } };
    expect(canonicalJson(schema)).toBe(
      '{"properties":{"a":{"type":"string"}}}',
    );
    node["description"] = "Now described.";
    expect(canonicalJson(schema)).toBe(
      '{"properties":{"a":{"description":"Now described.","type":"string"}}}',
    );
  });
});

describe("provider checks below shared nodes", () => {
  const union = deepFreeze({
    type: "object",
    properties: {
      pick: { anyOf: [{ type: "string" }, { type: "null" }] },
      note: { type: "string" },
    },
    required: ["pick"],
    additionalProperties: false,
  });
  // Gemini refuses "allOf": below a frozen node, in every tool holding it.
  const refused = deepFreeze({
    type: "object",
    properties: { bad: { allOf: [{ type: "string" }] } },
  });

  function tool(
    i: number,
    strict: boolean,
    below: unknown,
  ): {
    readonly located: LocatedTool;
    readonly schema: JsonSchema;
  } {
    const schema = {
      type: "object",
      properties: { [`own${i}`]: { type: "string" }, shared: below },
      required: [`own${i}`, "shared"],
      ...(strict ? { additionalProperties: false } : {}),
    } as JsonSchema;
    return {
      located: {
        name: `tool_${i}`,
        strict,
        schemaJson: canonicalJson(schema),
        file: "s/v1/s.proto",
        element: `S.Tool${i}`,
      },
      schema,
    };
  }

  it("counts a shared node's strict parameters in every tool, as a whole walk does", () => {
    // 20 strict tools, one union parameter each below the shared node:
    // over Anthropic's 16, which only the counts show.
    const tools = Array.from({ length: 20 }, (_, i) => tool(i, true, union));
    const schemas = new Map(tools.map((t) => [t.located, t.schema]));
    const located = tools.map((t) => t.located);
    const whole = outcome(located, ["anthropic"]);
    expect(whole.warnings).toContain(
      "the strict tools have 20 parameters with a union type (anyOf, nullable): an Anthropic request with strict tool use takes at most 16; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
    );
    expect(outcome(located, ["anthropic"], (t) => schemas.get(t))).toEqual(
      whole,
    );
  });

  it("counts and refuses a shared node met inside another one as when it is met on its own", () => {
    // The checks record a shared node found clean wherever they meet it,
    // inside another one too, and skip below it the next time: tool 0
    // records `union` inside `outer`, tool 1 meets it on its own. Each
    // tool must come out as walked whole.
    const outer = deepFreeze({
      type: "object",
      properties: { u: union, r: refused },
      required: ["u", "r"],
      additionalProperties: false,
    });
    // 40 strict tools, 20 union parameters below the shared nodes.
    const tools = Array.from({ length: 40 }, (_, i) =>
      tool(i, true, i % 4 === 0 ? outer : i % 4 === 1 ? union : refused),
    );
    const schemas = new Map(tools.map((t) => [t.located, t.schema]));
    const located = tools.map((t) => t.located);
    const providerSets: (readonly Provider[])[] = [
      ["anthropic"],
      ["gemini"],
      allProviders,
    ];
    for (const providers of providerSets) {
      const whole = outcome(located, providers);
      if (providers.includes("gemini")) {
        expect(whole.problems.split("\n")).toHaveLength(30);
      }
      if (providers.includes("anthropic")) {
        expect(whole.warnings).toContain(
          "the strict tools have 20 parameters with a union type (anyOf, nullable): an Anthropic request with strict tool use takes at most 16; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
        );
      }
      expect(outcome(located, providers, (t) => schemas.get(t))).toEqual(whole);
    }
  });

  it("checks each text once, and a different text of the same length on its own", () => {
    // Texts are told apart by length, then compared: a refused text as
    // long as a clean one must get its own outcome, and a repeated text
    // the outcome of its first.
    const refused = canonicalJson({
      type: "object",
      properties: { a: { allOf: [{ type: "string" }] } },
    });
    const shortClean = canonicalJson({
      type: "object",
      properties: { a: { type: "string" } },
    });
    const name = "a".repeat(1 + refused.length - shortClean.length);
    const clean = canonicalJson({
      type: "object",
      properties: { [name]: { type: "string" } },
    });
    expect(clean.length).toBe(refused.length);
    const located = [clean, refused, clean, refused].map(
      (schemaJson, i): LocatedTool => ({
        name: `t${i}`,
        strict: false,
        schemaJson,
        file: "s/v1/s.proto",
        element: `S.T${i}`,
      }),
    );
    const fromTree = outcome(located, ["gemini"], (t) =>
      JSON.parse(t.schemaJson),
    );
    expect(fromTree).toEqual(outcome(located, ["gemini"]));
    expect(
      fromTree.problems
        .split("\n")
        .map((line) => line.slice(0, line.indexOf(":", 14))),
    ).toEqual(["s/v1/s.proto: S.T1", "s/v1/s.proto: S.T3"]);
  });

  it("refuses every tool holding a shared node the checks refuse", () => {
    const tools = [tool(1, false, refused), tool(2, false, refused)];
    const schemas = new Map(tools.map((t) => [t.located, t.schema]));
    const located = tools.map((t) => t.located);
    const whole = outcome(located, ["gemini"]);
    expect(whole.problems.split("\n")).toEqual([
      's/v1/s.proto: S.Tool1: tool "tool_1" would be refused by Gemini (parametersJsonSchema): #/properties/shared/properties/bad: keyword "allOf" is not supported by Gemini [unsupported-keyword]',
      's/v1/s.proto: S.Tool2: tool "tool_2" would be refused by Gemini (parametersJsonSchema): #/properties/shared/properties/bad: keyword "allOf" is not supported by Gemini [unsupported-keyword]',
    ]);
    expect(outcome(located, ["gemini"], (t) => schemas.get(t))).toEqual(whole);
  });

  it("judges a $ref below a shared node against each tool's own definitions, whatever checks run", () => {
    // Anthropic alone, not strict: no check collects $refs, but a $ref
    // must still resolve in each schema holding it.
    const shared = deepFreeze({
      type: "object",
      properties: { x: { $ref: "#/$defs/X" } },
    });
    const defined = {
      type: "object",
      properties: { s: shared },
      $defs: { X: { type: "string" } },
    };
    const undefinedRef = { type: "object", properties: { s: shared } };
    const located = [defined, undefinedRef].map((schema, i): LocatedTool => ({
      name: `t${i}`,
      strict: false,
      schemaJson: canonicalJson(schema as JsonValue),
      file: "s/v1/s.proto",
      element: `S.T${i}`,
    }));
    const schemas = [defined, undefinedRef];
    const whole = outcome(located, ["anthropic"]);
    expect(whole.problems).toContain(
      'S.T1: tool "t1" would be refused by Anthropic (input_schema): #/properties/s/properties/x: $ref',
    );
    expect(
      outcome(located, ["anthropic"], (t) => schemas[located.indexOf(t)]),
    ).toEqual(whole);
  });

  it("counts what the text holds, not a key of the tree whose value is undefined", () => {
    const tools = Array.from({ length: 5 }, (_, i) => {
      const schema = {
        type: "object",
        additionalProperties: false,
        required: [],
        properties: Object.fromEntries(
          Array.from({ length: 4 }, (_, j) => [
            `p${j}`,
            { type: "string", anyOf: undefined },
          ]),
        ),
      };
      return {
        located: {
          name: `t${i}`,
          strict: true,
          schemaJson: canonicalJson(schema as unknown as JsonValue),
          file: "s/v1/s.proto",
          element: `S.T${i}`,
        },
        schema,
      };
    });
    const schemas = new Map(tools.map((t) => [t.located, t.schema]));
    const located = tools.map((t) => t.located);
    const whole = outcome(located, ["anthropic"]);
    expect(whole.warnings).toEqual([]);
    expect(outcome(located, ["anthropic"], (t) => schemas.get(t))).toEqual(
      whole,
    );
  });

  it("names refusals in the order of the text's keys, whatever the tree's order", () => {
    const schema = {
      type: "object",
      properties: {
        zed: { allOf: [{ type: "string" }] },
        abe: { allOf: [{ type: "string" }] },
      },
    };
    const located: LocatedTool = {
      name: "t",
      strict: false,
      schemaJson: canonicalJson(schema),
      file: "s/v1/s.proto",
      element: "S.T",
    };
    const fromTree = outcome([located], ["gemini"], () => schema);
    expect(fromTree).toEqual(outcome([located], ["gemini"]));
    expect(fromTree.problems.indexOf("/abe")).toBeLessThan(
      fromTree.problems.indexOf("/zed"),
    );
  });

  it("finds on a large API's trees what it finds on their texts, for every provider set", () => {
    const request = compileRequest(
      largeApiProtos("example.com/temporal"),
      "target=go,tools=all",
    );
    const options = parseOptions(request.parameter);
    const built = new Map<LocatedTool, unknown>();
    const model = buildModel(
      resolveRequestFiles(request).files,
      createProblemCollector(),
      toolSelectionOf(options.common, options.lists),
      false,
      () => {},
      (t, schema) => built.set(t, schema),
    );
    // 126 tools nightly, 36 in .ci/run (support/large-api.ts).
    expect(model.tools.length).toBeGreaterThan(workflowRpcs);
    expect(model.tools.some((t) => t.strict)).toBe(true);
    for (const providers of [
      providersOf([]),
      providersOf(["anthropic"]),
      providersOf(["gemini"]),
    ]) {
      expect(outcome(model.tools, providers, (t) => built.get(t))).toEqual(
        outcome(model.tools, providers),
      );
    }
  });
});
