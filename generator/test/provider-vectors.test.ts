import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkAnthropicStrict,
  countAnthropicStrictParameters,
} from "../src/providers/anthropic-strict.js";
import { anthropicStrictForm } from "../src/providers/anthropic-strict-form.js";
import { checkGeminiOpenApi } from "../src/providers/gemini-openapi.js";
import { geminiParametersForm } from "../src/providers/gemini-parameters-form.js";
import { paths } from "./support/request.js";

// The shared vectors of e2e/vectors/providers, run against the generator's
// form builders (provider-forms.ts writes their output into every target)
// and held to its checkers: each Gemini `parameters` form is
// gemini-parameters-form.ts's and passes gemini-openapi.ts, each Anthropic
// strict form is anthropic-strict-form.ts's (the vectors' expects are
// Anthropic's SDK's output: runtimes/python/tests checks them against the
// SDK) and passes anthropic-strict.ts, and the Anthropic counts are the
// ones the forms carry and the generator warns with.

const dir = resolve(paths.generator, "..", "e2e", "vectors", "providers");

interface Vector<E> {
  readonly cases: readonly { name: string; input: unknown; expect: E }[];
}

function load<E>(name: string): Vector<E> {
  return JSON.parse(readFileSync(resolve(dir, name), "utf8")) as Vector<E>;
}

describe("e2e/vectors/providers", () => {
  for (const c of load<unknown>("gemini-parameters.json").cases) {
    it(`gemini-parameters ${c.name}: the generator's form, which passes the Gemini parameters checker`, () => {
      expect(geminiParametersForm(c.input) ?? null).toEqual(c.expect);
      if (c.expect !== null) {
        expect(checkGeminiOpenApi(c.expect)).toEqual([]);
      }
    });
  }
  for (const c of load<unknown>("anthropic-strict.json").cases) {
    it(`anthropic-strict ${c.name}: the generator's form is the SDK's, which passes the Anthropic strict checker`, () => {
      // Read in the input's key order, as the SDK reads it: the order of
      // the keywords moved into a description follows it.
      expect(anthropicStrictForm(c.input, true)).toEqual(c.expect);
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
