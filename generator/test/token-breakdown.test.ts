import { describe, expect, it } from "vitest";
import {
  categories,
  tokenBreakdown,
} from "../scripts/bench/token-breakdown.mjs";
import {
  countO200k,
  openAiToolList,
  type CountedTool,
} from "../scripts/bench/tool-tokens.mjs";

// Where the tokens of a tool list go (scripts/tokens.mjs --breakdown): the
// fragments join to the counted list, every token counts once, and the
// categories hold what they name.

const base64 = "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

const tools: CountedTool[] = [
  {
    name: "pay",
    description: "Pays an invoice.",
    strict: false,
    schemaJson: JSON.stringify({
      type: "object",
      properties: {
        invoice: {
          anyOf: [
            {
              type: "object",
              properties: {
                memo: { type: "string", description: "A note." },
                card: { type: "string" },
              },
              required: ["memo", "card"],
            },
            {
              type: "object",
              properties: {
                memo: { type: "string", description: "A note." },
                iban: { type: "string" },
              },
              required: ["memo", "iban"],
            },
          ],
        },
        blob: { type: "string", pattern: base64 },
        tip: { anyOf: [{ $ref: "#/$defs/m" }, { type: "null" }] },
      },
      required: ["invoice"],
      $defs: { m: { type: "integer", enum: [1, 2] } },
    }),
  },
];

describe("token breakdown", () => {
  it("joins to the counted list and sums to its count", () => {
    const { json, sum, byCategory } = tokenBreakdown(tools);
    expect(json).toBe(openAiToolList(tools));
    expect(sum).toBe(countO200k(json));
    expect([...byCategory.values()].reduce((a, b) => a + b, 0)).toBe(sum);
    expect([...byCategory.keys()]).toEqual(categories);
  });

  it("counts each kind of fragment in its category", () => {
    const { byCategory } = tokenBreakdown(tools);
    const nonzero = [...byCategory].filter(([, n]) => n > 0).map(([c]) => c);
    expect(nonzero).toEqual(
      expect.arrayContaining([
        "tool descriptions",
        "field descriptions",
        "property names",
        "entity fields repeated per oneof branch",
        "nullable wrappers (anyOf [T, null])",
        "$defs keys and $ref",
        "enum values",
        "patterns: base64 bytes",
      ]),
    );
    // The second branch's memo is a repeat (about the tokens of its text,
    // give or take the tokens at its edges); its iban is not.
    const memo = countO200k('"memo":{"type":"string","description":"A note."}');
    const repeats = byCategory.get("entity fields repeated per oneof branch")!;
    expect(Math.abs(repeats - memo)).toBeLessThanOrEqual(2);
  });
});
