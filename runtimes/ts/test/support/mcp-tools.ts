// McpToolMethods of the aitest.v1 tools (support/aitest-tools.ts) with
// loose output schemas and hints, for the MCP tests.
import type { McpToolMethod } from "../../src/mcp/index.js";
import { aitestMethods } from "./aitest-tools.js";

const hints: Record<
  string,
  { readOnlyHint?: boolean; idempotentHint?: boolean }
> = {
  accounts_list: { readOnlyHint: true },
  accounts_merge: { idempotentHint: true },
};

export const aitestMcpMethods: McpToolMethod[] = aitestMethods.map((m) => ({
  ...m,
  outputSchema: { type: "object" },
  ...hints[m.tool.name],
}));
