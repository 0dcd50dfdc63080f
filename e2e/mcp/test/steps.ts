// A conversation written once as data, run by every client: the calls of
// a test (tool, arguments, _meta, whether the conversation handle of the
// previous result goes back) and what each call answered.

/** The `_meta` key of the conversation handle (docs/mcp.md). */
export const handleKey = "ai-tools/conversation";

/** One tools/call of a conversation. */
export interface CallStep {
  readonly op: "call";
  /** Which of the run's clients makes the call (default 0). */
  readonly client?: number;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly meta?: Record<string, unknown>;
  /**
   * Pass back the handle of this client's last result that carried one:
   * in `_meta["ai-tools/conversation"]` or as the argument `conversation`.
   */
  readonly handle?: "meta" | "argument";
}

/** A tools/list. */
export interface ListStep {
  readonly op: "list";
  readonly client?: number;
}

/** A step of a run. */
export type Step = CallStep | ListStep;

/** A content block of a result. */
export interface ContentBlock {
  type: string;
  text?: string;
}

/** A `tools/call` result as on the wire. */
export interface CallResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A tool as `tools/list` gives it. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What one step answered: a result, a listing or a JSON-RPC error. */
export interface Outcome {
  result?: CallResult;
  tools?: ListedTool[];
  error?: { code: number; message: string };
}

/** A call step. */
export function call(
  name: string,
  args: Record<string, unknown>,
  more: Omit<CallStep, "op" | "name" | "arguments"> = {},
): CallStep {
  return { op: "call", name, arguments: args, ...more };
}

/** The arguments of links_create for a new link in ws. */
export function newLinkArgs(ws: string, n: number): Record<string, unknown> {
  return {
    workspace_id: ws,
    target_url: `https://example.com/${n}`,
    slug: null,
    page_theme_id: "",
    labels: [],
    title: `link ${n}`,
    expire_after: null,
  };
}
