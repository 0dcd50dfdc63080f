import { resolve } from "node:path";
import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import type { ToolModel } from "../src/model/model.js";
import { checkAnthropicStrict } from "../src/providers/anthropic-strict.js";
import { checkAnthropicTool } from "../src/providers/anthropic-tools.js";
import { checkGeminiJsonSchema } from "../src/providers/gemini-json-schema.js";
import { checkGeminiOpenApi } from "../src/providers/gemini-openapi.js";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import { requestLimitWarnings } from "../src/providers/provider-checks.js";
import { schemaDepth } from "../src/schema/schema-depth.js";
import { compileRequest } from "./support/compile.js";
import { largeApiProtos } from "./support/large-api.js";
import { modelOf } from "./support/model.js";
import { buildRequest, goldenCases, paths } from "./support/request.js";

// Every checker on every tool of every test API: the golden cases
// (testdata/protos) and the e2e API (e2e/proto), inlined and with
// schema=compact, the large-API test's API and a slice of the benchmark
// corpus, each on the form its provider gets (the tool's provider forms,
// provider-forms.ts: `openai`, `anthropic`, `anthropicStrict`, `gemini`,
// `geminiParameters`, `parameters` where a key is absent). The table is
// printed (the issue's closing note quotes it); the assertions hold that
// every provider takes every form by default.

interface Row {
  readonly api: string;
  readonly tools: number;
  readonly strict: number;
  /** The nesting of the deepest strict tool, counted as OpenAI's SDK counts. */
  readonly depth: number;
  /** Tools each checker refuses, by checker. */
  readonly refused: Record<string, string[]>;
  readonly warnings: readonly string[];
}

/** A tool as the checks see it: its schema and its provider forms. */
interface FormedTool {
  readonly name: string;
  readonly strict: boolean;
  readonly schema: unknown;
  readonly forms: Record<string, unknown>;
}

const checkers: Record<
  string,
  { strictOnly: boolean; check: (t: FormedTool) => readonly unknown[] }
> = {
  "openai strict (openai)": {
    strictOnly: true,
    check: (t) => checkOpenAiStrict(t.forms["openai"] ?? t.schema),
  },
  "anthropic input_schema (anthropic)": {
    strictOnly: false,
    check: (t) => checkAnthropicTool(t.forms["anthropic"] ?? t.schema),
  },
  "anthropic strict (anthropicStrict)": {
    strictOnly: true,
    check: (t) => checkAnthropicStrict(t.forms["anthropicStrict"] ?? t.schema),
  },
  "gemini parametersJsonSchema (gemini)": {
    strictOnly: false,
    check: (t) => checkGeminiJsonSchema(t.forms["gemini"] ?? t.schema),
  },
  "gemini parameters (geminiParameters)": {
    strictOnly: false,
    check: (t) => {
      const form = t.forms["geminiParameters"];
      return form === null ? [] : checkGeminiOpenApi(form);
    },
  },
};

function rowOf(api: string, tools: readonly ToolModel[]): Row {
  const refused: Record<string, string[]> = {};
  const formed = tools.map((t): FormedTool => ({
    name: t.name,
    strict: t.strict,
    schema: JSON.parse(t.schemaJson) as unknown,
    forms: JSON.parse(t.formsJson) as Record<string, unknown>,
  }));
  for (const [name, c] of Object.entries(checkers)) {
    refused[name] = formed
      .filter((t) => (!c.strictOnly || t.strict) && c.check(t).length > 0)
      .map((t) => t.name);
  }
  return {
    api,
    tools: tools.length,
    strict: tools.filter((t) => t.strict).length,
    depth: Math.max(
      0,
      ...formed
        .filter((t) => t.strict)
        .map((t) => schemaDepth(t.forms["openai"] ?? t.schema).depth),
    ),
    refused,
    warnings: requestLimitWarnings(formed, ["openai", "anthropic", "gemini"]),
  };
}

/** The benchmark corpus generator, scripts/bench/corpus.mjs (untyped). */
interface CorpusModule {
  readonly generateCorpus: (
    seed: string,
    files: number,
  ) => { path: string; content: string }[];
}

const corpusModule = "../scripts/bench/corpus.mjs";

async function apis(): Promise<
  [string, () => Promise<CodeGeneratorRequest>][]
> {
  const { generateCorpus } = (await import(
    corpusModule
  )) as unknown as CorpusModule;
  const goModule = "example.com/aitools/testgo";
  const corpus = generateCorpus("providers", 3);
  return [
    ...goldenCases().map((c): [string, () => Promise<CodeGeneratorRequest>] => [
      `testdata/protos/${c}`,
      () => buildRequest(c),
    ]),
    [
      "e2e/proto",
      () => buildRequest(resolve(paths.generator, "..", "e2e", "proto")),
    ],
    // (the compact and recursion cases set schema=compact themselves)
    ...goldenCases()
      .filter((c) => c !== "compact" && c !== "recursion")
      .map((c): [string, () => Promise<CodeGeneratorRequest>] => [
        `testdata/protos/${c} (schema=compact)`,
        () => buildRequest(c, { parameter: "target=go,schema=compact" }),
      ]),
    [
      "e2e/proto (schema=compact)",
      () =>
        buildRequest(resolve(paths.generator, "..", "e2e", "proto"), {
          parameter: "target=go,schema=compact",
        }),
    ],
    [
      "large-api (tools=all)",
      () =>
        Promise.resolve(
          compileRequest(
            largeApiProtos(`${goModule}/pb`),
            "target=go,tools=all",
          ),
        ),
    ],
    [
      "bench corpus (3 files)",
      () =>
        Promise.resolve(
          compileRequest(
            Object.fromEntries(corpus.map((f) => [f.path, f.content])),
          ),
        ),
    ],
  ];
}

describe("provider checkers on every test API", () => {
  it("every tool passes what providers= enforces by default", async () => {
    const rows: Row[] = [];
    for (const [api, request] of await apis()) {
      rows.push(rowOf(api, modelOf(await request()).tools));
    }
    const names = Object.keys(checkers);
    const lines = [
      `| API | tools | strict | deepest strict | ${names.map((n) => `refused by ${n}`).join(" | ")} | per-request warnings |`,
      `| --- | --- | --- | --- | ${names.map(() => "---").join(" | ")} | --- |`,
      ...rows.map(
        (r) =>
          `| ${r.api} | ${r.tools} | ${r.strict} | ${r.depth} | ${names
            .map((n) => {
              const list = r.refused[n]!;
              return list.length === 0
                ? "0"
                : `${list.length}: ${list.slice(0, 3).join(", ")}${list.length > 3 ? ", …" : ""}`;
            })
            .join(
              " | ",
            )} | ${r.warnings.length === 0 ? "none" : r.warnings.join("; ")} |`,
      ),
    ];
    console.log(lines.join("\n"));
    for (const r of rows) {
      expect(r.depth, r.api).toBeLessThanOrEqual(10);
      for (const name of names) {
        expect(r.refused[name], `${r.api}: ${name}`).toEqual([]);
      }
    }
  }, 240_000);
});
