import type { Executor } from "./executor.js";

/** Options of {@link createSessionRegistry}. */
export interface SessionRegistryOptions {
  /** Make the executor of a new conversation (e.g. the generated `createExecutor(transport)`). */
  readonly create: () => Executor;
  /** Evict a conversation's executor (and its aliases) after this long unused. */
  readonly idleTtlMs: number;
  /** The clock, in milliseconds; `Date.now` by default (tests pass their own). */
  readonly now?: (() => number) | undefined;
}

/** One executor per conversation, each evicted after an idle TTL. */
export interface SessionRegistry {
  /**
   * The executor of a conversation, created on first use and kept while it
   * is used at least once per `idleTtlMs`. An empty id gets a throwaway
   * executor, never stored.
   */
  get(conversationId: string): Executor;
  /** Forget a conversation now; reports whether it was there. */
  delete(conversationId: string): boolean;
  /** Forget every conversation. */
  clear(): void;
  /** The number of conversations held (expired ones are dropped first). */
  readonly size: number;
}

/**
 * Create a session registry. It starts no timer: expired conversations are
 * dropped whenever the registry is used, oldest first, in time proportional
 * to the number dropped.
 */
export function createSessionRegistry(
  options: SessionRegistryOptions,
): SessionRegistry {
  const { create, idleTtlMs } = options;
  if (!(idleTtlMs > 0)) {
    throw new Error(`idleTtlMs must be positive, got ${String(idleTtlMs)}`);
  }
  const now = options.now ?? Date.now;
  // Insertion order is least recently used first: get() re-inserts.
  const sessions = new Map<string, { executor: Executor; lastUsed: number }>();
  const evict = (t: number) => {
    for (const [id, s] of sessions) {
      if (t - s.lastUsed < idleTtlMs) {
        break;
      }
      sessions.delete(id);
    }
  };
  return {
    get(conversationId) {
      if (conversationId === "") {
        return create();
      }
      const t = now();
      evict(t);
      let s = sessions.get(conversationId);
      if (s === undefined) {
        s = { executor: create(), lastUsed: t };
      } else {
        sessions.delete(conversationId);
        s.lastUsed = t;
      }
      sessions.set(conversationId, s);
      return s.executor;
    },
    delete: (conversationId) => sessions.delete(conversationId),
    clear: () => sessions.clear(),
    get size() {
      evict(now());
      return sessions.size;
    },
  };
}
