import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkAnthropicStrict,
  countAnthropicStrictParameters,
} from "../src/providers/anthropic-strict.js";
import { checkGeminiOpenApi } from "../src/providers/gemini-openapi.js";
import { paths } from "./support/request.js";

// The shared vectors of e2e/vectors/providers, which the runtimes' adapters
// run, held to the generator's checkers: every derived Gemini `parameters`
// form passes gemini-openapi.ts, every derived Anthropic strict form
// anthropic-strict.ts, and the Anthropic counts are the ones the generator
// warns with.

const dir = resolve(paths.generator, "..", "e2e", "vectors", "providers");

interface Vector<E> {
  readonly cases: readonly { name: string; input: unknown; expect: E }[];
}

function load<E>(name: string): Vector<E> {
  return JSON.parse(readFileSync(resolve(dir, name), "utf8")) as Vector<E>;
}

describe("e2e/vectors/providers", () => {
  for (const c of load<unknown>("gemini-parameters.json").cases) {
    it(`gemini-parameters ${c.name}: the expected form passes the Gemini parameters checker`, () => {
      if (c.expect !== null) {
        expect(checkGeminiOpenApi(c.expect)).toEqual([]);
      }
    });
  }
  for (const c of load<unknown>("anthropic-strict.json").cases) {
    it(`anthropic-strict ${c.name}: the expected form passes the Anthropic strict checker`, () => {
      expect(checkAnthropicStrict(c.expect)).toEqual([]);
    });
  }
  for (const c of load<{ optional: number; unions: number }>(
    "anthropic-strict-counts.json",
  ).cases) {
    it(`anthropic-strict-counts ${c.name}: the generator counts the same`, () => {
      const counts = countAnthropicStrictParameters(c.input);
      expect({
        optional: counts.optionalParameters,
        unions: counts.unionParameters,
      }).toEqual(c.expect);
    });
  }
});
