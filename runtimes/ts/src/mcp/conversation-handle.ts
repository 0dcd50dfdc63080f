import { quote } from "../json.js";

export { mintConversationHandle } from "../conversation-store.js";

/**
 * The `_meta` key under which a result carries its conversation handle,
 * and under which a request may pass it back (docs/mcp.md).
 */
export const conversationMetaKey = "ai-tools/conversation";

/**
 * The tool argument that carries the conversation handle when the server
 * takes it as an argument (`handleArgument`).
 */
export const conversationArgument = "conversation";

/**
 * The description of the {@link conversationArgument} property, the same in
 * every target.
 */
export const conversationArgumentDescription =
  'The conversation handle of the previous result ("conversation: …"); leave it out on the first call.';

/** The model-facing message of an unknown or expired handle. */
export function unknownConversationMessage(handle: string): string {
  return `unknown or expired conversation ${quote(handle)}; call again without "${conversationArgument}" to start a new one`;
}
