import type { ToolHints } from "./tool-hints.js";

/**
 * Which tools ask for an approval before each call (docs/mcp.md,
 * "Approvals"). A tool with an `rpc_tool` option asks unless it sets
 * `auto_execute`; a tool `tools=all` adds without one follows the option
 * `unannotated_tools`.
 */

/** The values of the option `unannotated_tools`, the default first. */
export const unannotatedToolsValues = ["read-only-run", "run", "ask"] as const;

/**
 * `read-only-run`: the tools whose hints say read-only (the method kind
 * Get, List…, or `idempotency_level = NO_SIDE_EFFECTS`) run, the others
 * ask; `run`: every one runs; `ask`: every one asks.
 */
export type UnannotatedTools = (typeof unannotatedToolsValues)[number];

/** Why a value of `unannotated_tools=` is invalid, or undefined. */
export function unannotatedToolsProblem(value: string): string | undefined {
  return (unannotatedToolsValues as readonly string[]).includes(value)
    ? undefined
    : `valid values: ${unannotatedToolsValues.join(", ")}`;
}

/** The option's value (checked by the option parser), or the default. */
export function unannotatedToolsOf(
  value: string | undefined,
): UnannotatedTools {
  return unannotatedToolsValues.find((v) => v === value) ?? "read-only-run";
}

/**
 * True when a call of the tool waits for an approval: an annotated tool
 * (`derived` false) without `auto_execute`; a derived one as `policy`
 * says, with `hints.readOnly` deciding under `read-only-run`.
 */
export function needsApproval(
  derived: boolean,
  autoExecute: boolean,
  hints: ToolHints,
  policy: UnannotatedTools = "read-only-run",
): boolean {
  if (!derived) {
    return !autoExecute;
  }
  return policy === "ask" || (policy === "read-only-run" && !hints.readOnly);
}
