import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createProblemCollector, GeneratorError } from "../src/errors.js";
import { parseOptions } from "../src/options.js";
import { generate } from "../src/plugin.js";
import {
  allProviders,
  checkModelTools,
  checkToolForProviders,
  createToolChecker,
  providersOf,
  requestLimitWarnings,
  strictRecursionAllowed,
} from "../src/providers/provider-checks.js";
import { toolSelectionOf } from "../src/model/tool-selection.js";
import { checkAnthropicStrict } from "../src/providers/anthropic-strict.js";
import {
  AnthropicStrictFormError,
  anthropicStrictForm,
} from "../src/providers/anthropic-strict-form.js";
import { checkAnthropicTool } from "../src/providers/anthropic-tools.js";
import { checkGeminiJsonSchema } from "../src/providers/gemini-json-schema.js";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import {
  isPlainScalar,
  type ProviderViolation,
} from "../src/providers/schema-walk.js";
import { deepFreeze } from "./support/deep-freeze.js";
import { compileRequest } from "./support/compile.js";

/** A proto of `count` strict tools, each with one optional field. */
function strictToolsProto(count: number): string {
  const rpcs = Array.from(
    { length: count },
    (_, i) => `  rpc Do${i}(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = { name: "do_${i}" description: "Do ${i}." strict: true };
  }`,
  ).join("\n");
  return `syntax = "proto3";
package limits.v1;
import "ai/tools/v1/annotations.proto";
message Req { optional string note = 1; }
message Res {}
service Limits {
${rpcs}
}
`;
}

/**
 * What Anthropic strict tool use refuses in a strict tool's Anthropic
 * strict form, or the SDK transform's refusal of the schema.
 */
function strictFormViolations(schema: unknown): ProviderViolation[] {
  try {
    return checkAnthropicStrict(anthropicStrictForm(schema));
  } catch (e) {
    if (!(e instanceof AnthropicStrictFormError)) {
      throw e;
    }
    return [
      {
        path: e.path,
        rule: "sdk-transform",
        message: `Anthropic's SDK (transform_schema) refuses the schema: ${e.message}`,
      },
    ];
  }
}

const refusedEverywhere = {
  name: "bad_tool",
  strict: false,
  schemaJson: JSON.stringify({
    type: "object",
    anyOf: [{ type: "object" }],
    properties: { a: { allOf: [{ type: "string" }] } },
  }),
  file: "bad/v1/bad.proto",
  element: "BadService.Bad",
};

function thrown(f: () => void): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(GeneratorError);
    return (e as Error).message;
  }
  throw new Error("nothing thrown");
}

describe("providers= option", () => {
  it("defaults to every provider; repeated, names the ones to enforce", () => {
    expect(providersOf(parseOptions("target=go").lists["providers"]!)).toEqual([
      "openai",
      "anthropic",
      "gemini",
    ]);
    const options = parseOptions(
      "target=go,providers=gemini,providers=anthropic",
    );
    expect(providersOf(options.lists["providers"]!)).toEqual([
      "anthropic",
      "gemini",
    ]);
  });

  it("makes strict recursion real only with OpenAI alone", () => {
    const cycles = (parameter: string): boolean | undefined => {
      const options = parseOptions(parameter);
      return toolSelectionOf(options.common, options.lists).strictCycles;
    };
    expect(cycles("target=go")).toBe(false);
    expect(cycles("target=go,providers=openai")).toBe(true);
    expect(cycles("target=go,providers=openai,providers=gemini")).toBe(false);
    expect(cycles("target=go,providers=openai,providers=anthropic")).toBe(
      false,
    );
    expect(strictRecursionAllowed(["openai"])).toBe(true);
    expect(strictRecursionAllowed([])).toBe(true);
    expect(strictRecursionAllowed(["gemini"])).toBe(false);
  });

  it("refuses an unknown provider, listing the valid ones", () => {
    expect(thrown(() => parseOptions("target=go,providers=mistral"))).toBe(
      'invalid value "mistral" for option "providers"; valid values: openai, anthropic, gemini (repeat the option for several: providers=openai,providers=gemini)',
    );
  });
});

describe("providers= at generation", () => {
  // 1,001 enum values: over OpenAI strict mode's 1,000, fine elsewhere.
  const values = Array.from({ length: 1001 }, (_, i) => `  V${i} = ${i + 1};`);
  const sources = {
    "wide/v1/wide.proto": `syntax = "proto3";
package wide.v1;
import "ai/tools/v1/annotations.proto";
enum Color {
  COLOR_UNSPECIFIED = 0;
${values.join("\n")}
}
message PaintRequest { Color color = 1; }
message PaintResponse {}
service Paint {
  rpc Paint(PaintRequest) returns (PaintResponse) {
    option (ai.tools.v1.rpc_tool) = { name: "paint" description: "Paint." strict: true };
  }
}
`,
  };

  it("refuses a strict tool OpenAI strict mode refuses while openai is enforced", () => {
    expect(() => generate(compileRequest(sources), () => {})).toThrow(
      'wide/v1/wide.proto: Paint.Paint: strict tool "paint" would be refused by OpenAI strict mode: #: schema has 1001 enum values; the limit is 1000',
    );
  });

  it("generates it when the enforced providers take it", () => {
    const files = generate(
      compileRequest(sources, "target=go,providers=anthropic,providers=gemini"),
      () => {},
    );
    expect(files.map((f) => f.name)).toEqual(["ai_tools.gen.go"]);
  });
});

describe("checkModelTools", () => {
  it("refuses a tool an enforced provider refuses, naming file, element, tool, path and rule, all together", () => {
    const problems = createProblemCollector();
    checkModelTools(
      [
        refusedEverywhere,
        { ...refusedEverywhere, name: "bad_two", element: "BadService.Two" },
      ],
      ["anthropic", "gemini"],
      problems,
      () => {},
    );
    expect(thrown(() => problems.throwIfAny()).split("\n")).toEqual([
      'bad/v1/bad.proto: BadService.Bad: tool "bad_tool" would be refused by Anthropic (input_schema): #: input_schema does not support "anyOf" at the top level [top-level-composition]',
      'bad/v1/bad.proto: BadService.Bad: tool "bad_tool" would be refused by Gemini (parametersJsonSchema): #/properties/a: keyword "allOf" is not supported by Gemini [unsupported-keyword]',
      'bad/v1/bad.proto: BadService.Two: tool "bad_two" would be refused by Anthropic (input_schema): #: input_schema does not support "anyOf" at the top level [top-level-composition]',
      'bad/v1/bad.proto: BadService.Two: tool "bad_two" would be refused by Gemini (parametersJsonSchema): #/properties/a: keyword "allOf" is not supported by Gemini [unsupported-keyword]',
    ]);
  });

  it("checks only the enforced providers", () => {
    const problems = createProblemCollector();
    checkModelTools([refusedEverywhere], ["openai"], problems, () => {});
    expect(() => problems.throwIfAny()).not.toThrow();
  });

  it("no warning for what the adapters' strict form moves into the description", () => {
    const warnings: string[] = [];
    checkModelTools(
      [
        {
          ...refusedEverywhere,
          strict: true,
          schemaJson: JSON.stringify({
            type: "object",
            properties: { n: { type: "integer", minimum: 1, maximum: 9 } },
            required: ["n"],
            additionalProperties: false,
          }),
        },
      ],
      ["anthropic"],
      createProblemCollector(),
      (m) => warnings.push(m),
    );
    expect(warnings).toEqual([]);
  });

  it("warns about a strict tool whose Anthropic strict form strict tool use would refuse", () => {
    const warnings: string[] = [];
    const strictTool = (name: string, schema: unknown) => ({
      ...refusedEverywhere,
      name,
      strict: true,
      schemaJson: JSON.stringify(schema),
    });
    checkModelTools(
      [
        // A pattern with lookaround goes into the description of the
        // form (the SDK's transform): nothing to warn about.
        strictTool("lookaround", {
          type: "object",
          properties: { s: { type: "string", pattern: "^(?=a)" } },
          required: ["s"],
          additionalProperties: false,
        }),
        // Recursion stays in the form.
        strictTool("recursive", {
          type: "object",
          properties: { n: { $ref: "#/$defs/N" } },
          required: ["n"],
          additionalProperties: false,
          $defs: {
            N: {
              type: "object",
              properties: { next: { $ref: "#/$defs/N" } },
              required: ["next"],
              additionalProperties: false,
            },
          },
        }),
      ],
      ["anthropic"],
      createProblemCollector(),
      (m) => warnings.push(m),
    );
    expect(warnings).toEqual([
      'tool "recursive" is strict, and Anthropic strict tool use would refuse it: #/$defs/N/properties/next: recursive $ref (through "#/$defs/N") is not supported in strict tool use [no-recursion]; send it to Anthropic without strict',
    ]);
  });
});

describe("per-request limits", () => {
  const tool = (i: number, strict: boolean) => ({
    name: `t${i}`,
    strict,
    schema: { type: "object", properties: {}, required: [] },
  });

  it("warns once per limit: Anthropic's 20 strict tools", () => {
    const tools = Array.from({ length: 21 }, (_, i) => tool(i, true));
    expect(requestLimitWarnings(tools, ["anthropic"])).toEqual([
      "21 strict tools: an Anthropic request with strict tool use takes at most 20; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
    ]);
    expect(requestLimitWarnings(tools.slice(1), ["anthropic"])).toEqual([]);
    expect(
      requestLimitWarnings(
        Array.from({ length: 21 }, (_, i) => tool(i, false)),
        ["anthropic"],
      ),
    ).toEqual([]);
  });

  it("warns about Anthropic's 24 optional and 16 union parameters", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `p${i}`,
        { type: ["string", "null"] },
      ]),
    );
    const warnings = requestLimitWarnings(
      [
        {
          name: "t",
          strict: true,
          schema: { type: "object", properties, required: [] },
        },
      ],
      ["anthropic"],
    );
    expect(warnings).toEqual([
      "the strict tools have 25 optional parameters: an Anthropic request with strict tool use takes at most 24; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
      "the strict tools have 25 parameters with a union type (anyOf, nullable): an Anthropic request with strict tool use takes at most 16; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
    ]);
  });

  it("warns about Gemini's 512 function declarations and OpenAI's 128 tools", () => {
    const tools = Array.from({ length: 513 }, (_, i) => tool(i, false));
    expect(requestLimitWarnings(tools, ["gemini"])).toEqual([
      "513 tools: a Gemini request takes at most 512 function declarations; the Gemini adapters refuse more",
    ]);
    expect(requestLimitWarnings(tools.slice(0, 129), ["openai"])).toEqual([
      "129 tools: an OpenAI request takes at most 128; send a subset per request",
    ]);
    expect(
      requestLimitWarnings(tools.slice(0, 128), ["openai", "gemini"]),
    ).toEqual([]);
  });

  it("generation warns through its warn channel, once, and still writes the file", () => {
    const sources = { "limits/v1/limits.proto": strictToolsProto(21) };
    const warnings: string[] = [];
    const files = generate(compileRequest(sources), (m) => warnings.push(m));
    expect(files.map((f) => f.name)).toEqual(["ai_tools.gen.go"]);
    expect(warnings).toEqual([
      "21 strict tools: an Anthropic request with strict tool use takes at most 20; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
      "the strict tools have 21 parameters with a union type (anyOf, nullable): an Anthropic request with strict tool use takes at most 16; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
    ]);
    const quiet: string[] = [];
    generate(compileRequest(sources, "target=go,providers=gemini"), (m) =>
      quiet.push(m),
    );
    expect(quiet).toEqual([]);
  });

  it("the plugin process writes the warnings to stderr (run `pnpm run build` first)", () => {
    const root = resolve(import.meta.dirname, "..", "..");
    const dir = mkdtempSync(join(tmpdir(), "ai-tools-warn-"));
    try {
      writeFileSync(join(dir, "limits.proto"), strictToolsProto(21));
      const r = spawnSync(
        "protoc",
        [
          `-I${join(root, "proto")}`,
          `-I${dir}`,
          `--plugin=protoc-gen-ai-tools=${join(root, "node_modules", ".bin", "protoc-gen-ai-tools")}`,
          `--ai-tools_out=${dir}`,
          "--ai-tools_opt=target=go",
          join(dir, "limits.proto"),
        ],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe(
        "protoc-gen-ai-tools: warning: 21 strict tools: an Anthropic request with strict tool use takes at most 20; the Anthropic adapters refuse a request over it (send fewer tools with strict)",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("plain scalar leaves", () => {
  // The checks pass over a leaf isPlainScalar accepts without visiting it
  // (schema-walk.ts): what holds for such a leaf is pinned here.
  const plain = ["string", "integer", "number", "boolean", "null"].flatMap(
    (type) => [
      { type },
      { type, description: "A value." },
      { description: "A value.", title: "Value", type },
    ],
  );

  it("accepts a scalar type with a description and a title, nothing else", () => {
    for (const leaf of plain) {
      expect(isPlainScalar(leaf)).toBe(true);
    }
    for (const other of [
      { type: "object" },
      { type: "array" },
      { type: ["string", "null"] },
      { type: "date" },
      { description: "no type" },
      { type: "string", format: "date-time" },
      { type: "string", enum: ["A"] },
      { type: "string", description: 1 },
      { type: "string", description: undefined },
      { type: "string", title: null },
      [],
      ["string"],
      null,
      "string",
      true,
      // What JSON never holds, and the checks' `in` would see.
      Object.assign([], { type: "string" }),
      Object.create({ type: "string" }) as object,
      new (class Leaf {
        type = "string";
      })(),
    ]) {
      expect(isPlainScalar(other), JSON.stringify(other)).toBe(false);
    }
    expect(
      isPlainScalar(Object.assign(Object.create(null), { type: "string" })),
    ).toBe(true);
    // Its keys are those of its JSON text: one hidden from enumeration is
    // not sent to a provider.
    expect(
      isPlainScalar(
        Object.defineProperty({ type: "string" }, "pattern", {
          value: "^(?=a)",
          enumerable: false,
        }),
      ),
    ).toBe(true);
  });

  it("is a leaf no provider refuses, wherever it sits", () => {
    for (const leaf of plain) {
      const schema = {
        type: "object",
        properties: {
          a: leaf,
          b: { type: "array", items: leaf },
          c: { anyOf: [leaf, { type: "null" }] },
        },
        required: ["a", "b", "c"],
        additionalProperties: false,
      };
      expect(checkOpenAiStrict(schema)).toEqual([]);
      expect(checkAnthropicTool(schema)).toEqual([]);
      expect(checkAnthropicStrict(schema)).toEqual([]);
      expect(checkGeminiJsonSchema(schema)).toEqual([]);
      // The OpenAI check passes over the leaf within the depth limit; past
      // it, the leaf is walked through every rule, and only its depth is
      // wrong.
      let deep: unknown = leaf;
      for (let i = 0; i < 11; i++) {
        deep = {
          type: "object",
          properties: { p: deep },
          required: ["p"],
          additionalProperties: false,
        };
      }
      expect(
        checkOpenAiStrict(deep).map((v) => `${v.path}: ${v.message}`),
      ).toEqual([
        `#${"/properties/p".repeat(11)}: nested 11 levels deep; the limit is 10 (every property, "items", "anyOf" branch and "$defs" entry is one level, as OpenAI's SDK counts)`,
      ]);
      // Under the keywords the OpenAI check refuses or does not walk.
      const elsewhere = {
        type: "object",
        properties: {
          map: { type: "object", additionalProperties: leaf },
          ref: { $ref: "#/$defs/Leaf" },
        },
        required: ["map", "ref"],
        $defs: { Leaf: leaf },
      };
      expect(checkAnthropicTool(elsewhere)).toEqual([]);
      expect(checkGeminiJsonSchema(elsewhere)).toEqual([]);
    }
  });

  it("leaves the provider checks finding what a visit of every node finds", () => {
    // The provider walk (checkToolForProviders, and a ToolChecker given
    // frozen trees, whose record of clean nodes is then used) against the
    // checkers that visit every node, on schemas with plain leaves (and
    // leaves only JavaScript can make) in every place, beside violations.
    const listed = (violations: readonly ProviderViolation[]) =>
      violations.map((v) => `${v.path}: ${v.message} [${v.rule}]`).join("; ");
    const expected = (name: string, strict: boolean, schema: unknown) => {
      const anthropic = checkAnthropicTool(schema);
      // Strict tool use is judged on the tool's Anthropic strict form.
      const anthropicStrict =
        strict && anthropic.length === 0 ? strictFormViolations(schema) : [];
      const gemini = checkGeminiJsonSchema(schema);
      return {
        problems: [
          ...(anthropic.length > 0
            ? [
                `tool "${name}" would be refused by Anthropic (input_schema): ${listed(anthropic)}`,
              ]
            : []),
          ...(gemini.length > 0
            ? [
                `tool "${name}" would be refused by Gemini (parametersJsonSchema): ${listed(gemini)}`,
              ]
            : []),
        ],
        warnings:
          anthropicStrict.length > 0
            ? [
                `tool "${name}" is strict, and Anthropic strict tool use would refuse it: ${listed(anthropicStrict)}; send it to Anthropic without strict`,
              ]
            : [],
      };
    };
    const optional = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`o${i}`, { type: "string" }]),
    );
    const schemaWith = (leaf: unknown, extra: Record<string, unknown>) => ({
      type: "object",
      properties: {
        req: leaf,
        opt: leaf,
        list: { type: "array", items: leaf },
        either: { anyOf: [leaf, { type: "null" }] },
        map: { type: "object", additionalProperties: leaf },
        pat: { type: "object", patternProperties: { "^x": leaf } },
        ref: { $ref: "#/$defs/Leaf" },
        ...extra,
      },
      required: ["req", "list", "either", "map", "pat", "ref"],
      additionalProperties: false,
      $defs: { Leaf: leaf, Unused: leaf },
    });
    const extras: Record<string, unknown>[] = [
      {},
      { bad: { type: "string", pattern: "^(?=a)" } },
      { odd: { type: "string", format: "color", minimum: 1 } },
      { all: { allOf: [{ type: "string" }] } },
      { many: { type: "object", properties: optional, required: [] } },
    ];
    const leaves: unknown[] = [
      { type: "string", description: "A value." },
      { type: "null" },
      { type: "integer", title: "N" },
      { type: "string", format: "date-time" },
      Object.assign([], { type: "string" }),
      Object.create({ type: "string" }) as object,
    ];
    let checked = 0;
    for (const leaf of leaves) {
      for (const extra of extras) {
        const schema = schemaWith(leaf, extra);
        for (const strict of [false, true]) {
          const want = expected("t", strict, schema);
          expect(
            checkToolForProviders({ name: "t", strict, schema }, allProviders),
          ).toEqual(want);
          checked += want.problems.length + want.warnings.length;
          // The strict parameter counts, by the warnings over the limits.
          if (strict) {
            const warnings: string[] = [];
            const checker = createToolChecker(
              ["anthropic"],
              createProblemCollector(),
              (m) => warnings.push(m),
            );
            checker.check(
              {
                name: "t",
                strict,
                schemaJson: JSON.stringify(schema),
                file: "t.proto",
                element: "T.Do",
              },
              schema,
            );
            checker.finish([{ name: "t" }]);
            expect(warnings.filter((w) => w.startsWith("the strict"))).toEqual(
              requestLimitWarnings(
                [{ name: "t", strict, schema }],
                ["anthropic"],
              ).filter((w) => w.startsWith("the strict")),
            );
          }
        }
      }
    }
    // Some cases are refused or warned about, so a check that found
    // nothing anywhere would fail here.
    expect(checked).toBeGreaterThan(20);
    // Frozen trees sharing nodes, checked one after the other: the second
    // and third tool meet the first one's frozen nodes, found clean.
    const shared = deepFreeze(schemaWith({ type: "string" }, {}));
    const problems = createProblemCollector();
    const warnings: string[] = [];
    const checker = createToolChecker(allProviders, problems, (m) =>
      warnings.push(m),
    );
    const tools = [
      shared,
      { ...shared, properties: { ...shared.properties, more: shared } },
      {
        ...shared,
        // Recursion, which the Anthropic strict form keeps.
        properties: { ...shared.properties, bad: { $ref: "#" } },
      },
    ].map((schema, i) => ({
      name: `t${i}`,
      strict: true,
      schema,
      schemaJson: JSON.stringify(schema),
      file: "t.proto",
      element: `T.Do${i}`,
    }));
    for (const tool of tools) {
      checker.check(tool, tool.schema);
    }
    checker.finish(tools);
    const want = tools.map((t) => expected(t.name, t.strict, t.schema));
    expect(warnings.filter((w) => w.startsWith("tool "))).toEqual(
      want.flatMap((w) => w.warnings),
    );
    expect(want.flatMap((w) => w.warnings)).toHaveLength(1);
    const lines = tools.flatMap((t, i) =>
      want[i]!.problems.map((p) => `${t.file}: ${t.element}: ${p}`),
    );
    expect(lines).toHaveLength(3);
    expect(thrown(() => problems.throwIfAny()).split("\n")).toEqual(lines);
  });

  it("counts as an optional strict parameter where a visit would, and only there", () => {
    // 25 optional properties that are plain leaves, at the root, in a
    // nested object and in an array's items; plain leaves under items,
    // anyOf and $defs are not properties, and required ones not optional.
    const props = (prefix: string, n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `${prefix}${i}`,
          { type: "string", description: "Optional." },
        ]),
      );
    const object = (
      properties: Record<string, unknown>,
      required: string[] = [],
    ) => ({
      type: "object",
      properties,
      required,
      additionalProperties: false,
    });
    const schema = (optional: number) =>
      object(
        {
          ...props("a", 10),
          id: { type: "string" },
          nested: object({ ...props("b", 10), n: { type: "integer" } }, ["n"]),
          list: {
            type: "array",
            items: object(props("c", optional - 20)),
          },
          tags: { type: "array", items: { type: "string" } },
          either: { anyOf: [{ type: "string" }, { type: "null" }] },
          ref: { $ref: "#/$defs/Plain" },
        },
        ["id", "nested", "list", "tags", "either", "ref"],
      );
    const tool = (optional: number) => ({
      name: "plain",
      strict: true,
      schemaJson: JSON.stringify({
        ...schema(optional),
        $defs: { Plain: { type: "boolean" } },
      }),
      file: "plain/v1/plain.proto",
      element: "Plain.Do",
    });
    const warningsOf = (optional: number) => {
      const warnings: string[] = [];
      checkModelTools(
        [tool(optional)],
        ["anthropic"],
        createProblemCollector(),
        (m) => warnings.push(m),
      );
      return warnings;
    };
    const over =
      "the strict tools have 25 optional parameters: an Anthropic request with strict tool use takes at most 24; the Anthropic adapters refuse a request over it (send fewer tools with strict)";
    expect(warningsOf(25)).toEqual([over]);
    expect(warningsOf(24)).toEqual([]);
    // The same count as the walk that visits every node.
    const parsed = (optional: number) => ({
      name: "plain",
      strict: true,
      schema: JSON.parse(tool(optional).schemaJson) as unknown,
    });
    expect(requestLimitWarnings([parsed(25)], ["anthropic"])).toEqual([over]);
    expect(requestLimitWarnings([parsed(24)], ["anthropic"])).toEqual([]);
  });
});
