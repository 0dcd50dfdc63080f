// McpToolMethods of the aitest.v1 tools (support/aitest-tools.ts) with
// loose output schemas and hints, for the MCP tests.
import type { McpToolMethod, ToolHints } from "../../src/mcp/index.js";
import { aitestMethods } from "./aitest-tools.js";

const hints: Record<string, ToolHints> = {
  accounts_list: { readOnlyHint: true },
  // All four, false ones included, not in the listing's order.
  accounts_merge: {
    openWorldHint: false,
    idempotentHint: true,
    destructiveHint: true,
    readOnlyHint: false,
  },
};

export const aitestMcpMethods: McpToolMethod[] = aitestMethods.map((m) => ({
  ...m,
  outputSchema: { type: "object" },
  ...hints[m.tool.name],
}));
