import {
  createAliasManager,
  type AliasConfig,
  type AliasManager,
} from "../alias-manager.js";
import { mintConversationHandle } from "./conversation-handle.js";

/**
 * Where conversations (one alias table each) live between tool calls,
 * keyed by their handle. Asynchronous and fallible, so that a shared store
 * (Redis) fits the same interface.
 */
export interface ConversationStore {
  /** Start an empty conversation and return its new handle. */
  create(): Promise<string>;
  /**
   * The conversation's alias manager; `undefined` when the handle is
   * unknown or expired.
   */
  load(handle: string): Promise<AliasManager | undefined>;
  /** Store the conversation's alias manager after a call changed it. */
  save(handle: string, aliases: AliasManager): Promise<void>;
  /** Forget the conversation. */
  delete(handle: string): Promise<void>;
}

/** Options of {@link createMemoryConversationStore}. */
export interface MemoryConversationStoreOptions {
  /** The alias facts of the generated file(s), for new alias managers. */
  readonly aliases: AliasConfig;
  /**
   * How long an unused conversation lives, in milliseconds; each load
   * renews it. 30 minutes by default.
   */
  readonly idleTtlMs?: number | undefined;
  /** The clock, in milliseconds (for tests); `Date.now` by default. */
  readonly now?: (() => number) | undefined;
}

/** The default idle TTL of a conversation: 30 minutes. */
export const defaultIdleTtlMs = 30 * 60 * 1000;

/**
 * A conversation store in this process's memory, with an idle TTL: a
 * conversation not loaded for `idleTtlMs` is gone.
 */
export function createMemoryConversationStore(
  options: MemoryConversationStoreOptions,
): ConversationStore {
  const ttl = options.idleTtlMs ?? defaultIdleTtlMs;
  if (!(ttl > 0)) {
    throw new Error(`idleTtlMs must be positive, got ${String(ttl)}`);
  }
  const now = options.now ?? Date.now;
  const entries = new Map<string, { aliases: AliasManager; expires: number }>();
  let nextSweep = now() + ttl;
  const sweep = (t: number) => {
    if (t < nextSweep) {
      return;
    }
    for (const [handle, e] of entries) {
      if (e.expires <= t) {
        entries.delete(handle);
      }
    }
    nextSweep = t + ttl;
  };
  return {
    create() {
      const t = now();
      sweep(t);
      let handle = mintConversationHandle();
      while (entries.has(handle)) {
        handle = mintConversationHandle();
      }
      entries.set(handle, {
        aliases: createAliasManager(options.aliases),
        expires: t + ttl,
      });
      return Promise.resolve(handle);
    },
    load(handle) {
      const t = now();
      const e = entries.get(handle);
      if (e === undefined) {
        return Promise.resolve(undefined);
      }
      if (e.expires <= t) {
        entries.delete(handle);
        return Promise.resolve(undefined);
      }
      e.expires = t + ttl;
      return Promise.resolve(e.aliases);
    },
    save(handle, aliases) {
      const t = now();
      entries.set(handle, { aliases, expires: t + ttl });
      return Promise.resolve();
    },
    delete(handle) {
      entries.delete(handle);
      return Promise.resolve();
    },
  };
}
