// Types for token-breakdown.mjs (used by test/token-breakdown.test.ts).
import type { CountedTool } from "./tool-tokens.mjs";

/** The categories, in the order they are reported. */
export const categories: readonly string[];

/** Calls `emit` with the fragments of the OpenAI-form tool list. */
export function toolListFragments(
  tools: readonly CountedTool[],
  emit: (category: string, text: string) => void,
): void;

/** o200k tokens of the tool list by category, their sum, and the JSON. */
export function tokenBreakdown(tools: readonly CountedTool[]): {
  byCategory: Map<string, number>;
  sum: number;
  json: string;
};
