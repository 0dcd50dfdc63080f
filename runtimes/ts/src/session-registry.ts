import type { Executor } from "./executor.js";

/** Options of {@link createSessionRegistry}. */
export interface SessionRegistryOptions<E = Executor> {
  /** Make the executor of a new conversation (e.g. the generated `createExecutor(transport)`). */
  readonly factory: () => E;
  /** Drop a conversation's executor (and its aliases) after this long unused. */
  readonly idleTtlMs: number;
  /** The clock, in milliseconds; `Date.now` by default (tests pass their own). */
  readonly clock?: (() => number) | undefined;
}

/**
 * One executor (or anything `factory` makes) per conversation id, each
 * dropped after an idle TTL. The same operations as Python's
 * `SessionRegistry`: `get`, `remove`, `sweep`, `has` (`in`) and `size`
 * (`len`).
 */
export interface SessionRegistry<E = Executor> {
  /**
   * The executor of a conversation, made on first use and kept while it is
   * used at least once per `idleTtlMs`. An empty id gets a throwaway
   * executor, never kept.
   */
  get(conversationId: string): E;
  /** Forget a conversation now; reports whether it was there. */
  remove(conversationId: string): boolean;
  /** Drop the idle conversations now; returns how many were dropped. */
  sweep(): number;
  /** Whether the conversation is held (idle ones are dropped first). */
  has(conversationId: string): boolean;
  /** The number of conversations held (idle ones are dropped first). */
  readonly size: number;
}

/**
 * Create a session registry. It starts no timer: idle conversations are
 * dropped whenever the registry is used, oldest first, in time proportional
 * to the number dropped. Throws an Error when idleTtlMs is not positive.
 */
export function createSessionRegistry<E = Executor>(
  options: SessionRegistryOptions<E>,
): SessionRegistry<E> {
  const { factory, idleTtlMs } = options;
  if (!(idleTtlMs > 0)) {
    throw new Error(`idleTtlMs must be positive, got ${String(idleTtlMs)}`);
  }
  const clock = options.clock ?? Date.now;
  // Insertion order is least recently used first: get() re-inserts.
  const sessions = new Map<string, { executor: E; lastUsed: number }>();
  const sweep = (t: number): number => {
    let dropped = 0;
    for (const [id, s] of sessions) {
      if (t - s.lastUsed < idleTtlMs) {
        break;
      }
      sessions.delete(id);
      dropped++;
    }
    return dropped;
  };
  return {
    get(conversationId) {
      if (conversationId === "") {
        return factory();
      }
      const t = clock();
      sweep(t);
      let s = sessions.get(conversationId);
      if (s === undefined) {
        s = { executor: factory(), lastUsed: t };
      } else {
        sessions.delete(conversationId);
        s.lastUsed = t;
      }
      sessions.set(conversationId, s);
      return s.executor;
    },
    remove: (conversationId) => sessions.delete(conversationId),
    sweep: () => sweep(clock()),
    has(conversationId) {
      sweep(clock());
      return sessions.has(conversationId);
    },
    get size() {
      sweep(clock());
      return sessions.size;
    },
  };
}
