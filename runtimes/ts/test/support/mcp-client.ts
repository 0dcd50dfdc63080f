// The MCP tests' client side: a tools/call through the SDK client, its
// result typed as this runtime writes it.
import type { Client } from "@modelcontextprotocol/client";

/** A `tools/call` result as the runtime writes it. */
export interface ToolCallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Call a tool, with `_meta` when given. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<ToolCallResult> {
  return (await client.callTool({
    name,
    arguments: args,
    ...(meta === undefined ? {} : { _meta: meta }),
  })) as ToolCallResult;
}

/** The text of the result's first block. */
export function firstText(r: ToolCallResult): string {
  return r.content[0]?.text ?? "";
}
