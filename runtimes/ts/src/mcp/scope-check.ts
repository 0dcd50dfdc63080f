import type { BearerGate } from "./bearer-gate.js";
import type { Refusal } from "./http-refusal.js";
import type { Identity } from "./identity.js";
import { sortedUnique } from "./sorted-unique.js";

/** The scopes a tool's calls need: the tool server's answer. */
export type ToolScopes = (tool: string) => readonly string[];

/**
 * The 403 of a JSON-RPC body (one message or a batch) calling a tool
 * whose required scopes the token lacks, naming the first such call;
 * undefined when every call may go on. With `callTool` (a search-first
 * server's `call_tool`), a call of it is the call of the tool it names.
 */
export function checkToolScopes(
  body: unknown,
  identity: Identity,
  toolScopes: ToolScopes,
  gate: BearerGate,
  callTool?: string,
): Refusal | undefined {
  const refused = calledTools(body, callTool).flatMap((tool) => {
    const needs = toolScopes(tool);
    const missing = needs.filter((s) => !identity.scopes.includes(s));
    return missing.length > 0 ? [{ tool, needs, missing }] : [];
  });
  const first = refused[0];
  if (first === undefined) {
    return undefined;
  }
  return gate.insufficientScope(
    sortedUnique([...gate.scopes, ...refused.flatMap((r) => r.needs)]),
    `the call of ${JSON.stringify(first.tool)} needs scope ${JSON.stringify(first.missing.join(" "))}`,
  );
}

/**
 * The tool names of the `tools/call` requests of a JSON-RPC body; for a
 * call of `callTool`, the name in its arguments.
 */
function calledTools(body: unknown, callTool: string | undefined): string[] {
  return (Array.isArray(body) ? body : [body]).flatMap((m: unknown) => {
    if (typeof m !== "object" || m === null) {
      return [];
    }
    const { method, params } = m as { method?: unknown; params?: unknown };
    if (method !== "tools/call" || typeof params !== "object") {
      return [];
    }
    const name = (params as { name?: unknown } | null)?.name;
    if (name !== undefined && name === callTool) {
      const args = (params as { arguments?: unknown }).arguments;
      const inner =
        typeof args === "object" && args !== null
          ? (args as { name?: unknown }).name
          : undefined;
      return typeof inner === "string" ? [inner] : [];
    }
    return typeof name === "string" ? [name] : [];
  });
}
