import { createHash } from "node:crypto";
import { conversationExpired } from "../conversation-errors.js";
import type { ConversationStore } from "../conversation-store.js";
import { ToolError } from "../tool-error.js";

/**
 * The key a conversation handle is stored under for a subject (the
 * verified `sub` of the caller's token): the handle itself without
 * authorization (subject `""`), else the handle, a dot and the first 22
 * characters of the unpadded base64url SHA-256 of the subject. Another
 * subject's handle misses, and gets the unknown-handle result.
 */
export function conversationKey(handle: string, subject: string): string {
  if (subject === "") {
    return handle;
  }
  const digest = createHash("sha256").update(subject, "utf8").digest();
  return `${handle}.${digest.toString("base64url").slice(0, 22)}`;
}

/**
 * The conversations of one subject in store: handles in, keys of
 * {@link conversationKey} out (the store itself for subject `""`). A
 * handle of another subject is an unknown one.
 */
export function subjectConversations(
  store: ConversationStore,
  subject: string,
): ConversationStore {
  if (subject === "") {
    return store;
  }
  const suffix = conversationKey("", subject);
  const keyed = async <T>(handle: string, op: () => Promise<T>) => {
    try {
      return await op();
    } catch (e) {
      // The store names the key; the model knows the handle.
      throw e instanceof ToolError && e.reason === "conversation-expired"
        ? conversationExpired(handle)
        : e;
    }
  };
  return {
    maxAliases: store.maxAliases,
    async create() {
      const key = await store.create(suffix);
      if (!key.endsWith(suffix) || key.length === suffix.length) {
        throw new Error(
          "the conversation store's create() ignored its keySuffix argument: implement it (docs/store.md) to serve conversations over HTTP with authorization",
        );
      }
      return key.slice(0, -suffix.length);
    },
    load: (handle) => keyed(handle, () => store.load(handle + suffix)),
    register: (handle, epoch, pairs) =>
      keyed(handle, () => store.register(handle + suffix, epoch, pairs)),
    delete: (handle) => store.delete(handle + suffix),
  };
}
