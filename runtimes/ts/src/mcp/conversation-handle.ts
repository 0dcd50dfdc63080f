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

/**
 * Whether handle has the form of a minted one (unpadded base64url, 22
 * characters or more, no `.`): anything else is an unknown handle, so a
 * handle cannot name the key of another subject's conversation.
 */
export function isMintedHandle(handle: string): boolean {
  return /^[A-Za-z0-9_-]{22,}$/.test(handle);
}
