import { Code } from "@connectrpc/connect";
import { quote } from "./json.js";
import { ToolError } from "./tool-error.js";

/**
 * The error of a handle whose conversation the store does not hold (never
 * created, deleted, expired, lost by the store) or holds under another
 * epoch: reason `conversation-expired`, code `NotFound` (docs/store.md).
 * A `ConversationStore` throws it from `load` and `register`. Without a
 * handle (a conversation the model never saw the handle of: one an MCP
 * server made for a call that failed), the text names "this conversation".
 */
export function conversationExpired(handle: string | undefined): ToolError {
  const text =
    handle === undefined
      ? "this conversation expired or was lost"
      : `conversation ${quote(handle)} expired or unknown`;
  return new ToolError(`${text}: start a new conversation`, {
    reason: "conversation-expired",
    code: Code.NotFound,
  });
}

/**
 * The error of a stored state the alias manager refuses (corrupt, or of
 * another version): reason `conversation-corrupt`, code `DataLoss`.
 */
export function conversationCorrupt(handle: string, cause: unknown): ToolError {
  return new ToolError(
    `conversation ${quote(handle)} cannot be read: ${oneLine(cause)}`,
    { reason: "conversation-corrupt", code: Code.DataLoss, cause },
  );
}

/**
 * The error of a conversation whose alias table holds its store's limit
 * (`ConversationStore.maxAliases`) or more: reason `conversation-full`, code
 * `ResourceExhausted`. The call is refused before anything is sent. Without
 * a handle (a conversation the model holds none of: an MCP connection's or
 * session's), the text names "this conversation".
 */
export function conversationFull(
  handle: string | undefined,
  aliases: number,
): ToolError {
  const named =
    handle === undefined
      ? "this conversation"
      : `conversation ${quote(handle)}`;
  return new ToolError(
    `${named} holds ${aliases} aliases, its limit: start a new conversation (this call was not sent)`,
    { reason: "conversation-full", code: Code.ResourceExhausted },
  );
}

/**
 * The error of a store that cannot be reached, timed out or failed:
 * reason `store-unavailable`, code `Unavailable`. Whatever a store throws
 * that is not a {@link ToolError} is reported so.
 */
export function storeUnavailable(cause: unknown): ToolError {
  return new ToolError(`conversation store unavailable: ${oneLine(cause)}`, {
    reason: "store-unavailable",
    code: Code.Unavailable,
    cause,
  });
}

/** The message of an error on one line. */
function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/\s+/g, " ").trim() || "unknown error";
}
