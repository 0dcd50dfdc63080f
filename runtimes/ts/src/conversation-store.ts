import { randomBytes } from "node:crypto";
import {
  createAliasManager,
  type AliasManager,
  type AliasRegistration,
} from "./alias-manager.js";
import {
  conversationExpired,
  conversationFull,
} from "./conversation-errors.js";

/** A conversation as {@link ConversationStore.load} returns it. */
export interface StoredConversation {
  /** The life of the conversation the state belongs to (32 hex digits). */
  readonly epoch: string;
  /** The alias state, in the export form of `AliasManager.exportState`. */
  readonly state: string;
}

/**
 * Where conversations (one alias table each) live between tool calls,
 * keyed by their handle: in memory ({@link createMemoryConversationStore})
 * or shared by several processes (`@protoc-gen-ai-tools/runtime/redis`). The contract
 * is docs/store.md. `load` and `register` throw a `ToolError`
 * (`conversationExpired`) for a handle they do not hold; anything else
 * they throw is reported as `store-unavailable`.
 */
export interface ConversationStore {
  /**
   * Start an empty conversation under a new handle and a new epoch; with
   * keySuffix, the key is the new handle followed by it (the MCP servers
   * bind a handle to its caller so: docs/store.md). Returns the key.
   */
  create(keySuffix?: string): Promise<string>;
  /** The conversation's epoch and state; renews its idle TTL. */
  load(handle: string): Promise<StoredConversation>;
  /**
   * Give each UUID not yet known the next alias of its prefix, in order,
   * atomically, and return the new state; renews the idle TTL. A
   * conversation whose epoch is not `epoch` is expired.
   */
  register(
    handle: string,
    epoch: string,
    pairs: readonly AliasRegistration[],
  ): Promise<string>;
  /** End the conversation; an unknown handle is not an error. */
  delete(handle: string): Promise<void>;
  /**
   * Append each name not yet loaded to the conversation's loaded tools, in
   * order, atomically, and return the whole list in load order (never
   * reordered); renews the idle TTL. A conversation whose epoch is not
   * `epoch` is expired. Optional: the deferred tools need it
   * ({@link toolLoadingOf}); the memory and Redis stores have it.
   */
  loadTools?(
    handle: string,
    epoch: string,
    names: readonly string[],
  ): Promise<string[]>;
  /**
   * The conversation's loaded tools in load order; renews the idle TTL.
   * Optional, with {@link ConversationStore.loadTools}.
   */
  loadedTools?(handle: string): Promise<string[]>;
  /**
   * The most aliases a conversation may hold before a call: a call in a
   * conversation holding this many or more is refused before anything is
   * sent (`conversation-full`). A call let through registers all its
   * result's ids, so a conversation may end above it by one result's new
   * ids. {@link defaultMaxAliases} when absent.
   */
  readonly maxAliases?: number | undefined;
}

/** The loaded-tools operations of a store (docs/store.md, "Loaded tools"). */
export type ToolLoadingStore = ConversationStore &
  Required<Pick<ConversationStore, "loadTools" | "loadedTools">>;

/**
 * The store, when it has both loaded-tools operations; else an error naming
 * what is missing (a store written before them).
 */
export function toolLoadingOf(store: ConversationStore): ToolLoadingStore {
  const missing = [
    typeof store.loadTools === "function"
      ? ""
      : "loadTools(handle, epoch, names)",
    typeof store.loadedTools === "function" ? "" : "loadedTools(handle)",
  ].filter((m) => m !== "");
  if (missing.length > 0) {
    throw new Error(
      `the conversation store cannot keep loaded tools: give it ${missing.join(" and ")} (docs/store.md, "Loaded tools")`,
    );
  }
  return store as ToolLoadingStore;
}

/**
 * Refuse a tool name a store cannot keep: the empty string.
 * @internal
 */
export function checkToolNames(names: readonly string[]): void {
  for (const name of names) {
    if (typeof name !== "string" || name === "") {
      throw new Error(
        `cannot load the tool name ${JSON.stringify(name)}: pass the names of tools`,
      );
    }
  }
}

/** Options of {@link createMemoryConversationStore}. */
export interface MemoryConversationStoreOptions {
  /**
   * How long an unused conversation lives, in milliseconds; each load and
   * register renews it. 30 minutes by default.
   */
  readonly idleTtlMs?: number | undefined;
  /** The clock, in milliseconds (for tests); `Date.now` by default. */
  readonly now?: (() => number) | undefined;
  /**
   * The most aliases a conversation may hold before a call
   * ({@link ConversationStore.maxAliases}); {@link defaultMaxAliases} by
   * default.
   */
  readonly maxAliases?: number | undefined;
}

/** The default idle TTL of a conversation: 30 minutes. */
export const defaultIdleTtlMs = 30 * 60 * 1000;

/**
 * The default limit of aliases per conversation: 1,000 (about 190 KB of
 * Redis memory a conversation, docs/store.md).
 */
export const defaultMaxAliases = 1000;

/**
 * A new conversation handle: 128 random bits, base64url without padding
 * (22 characters).
 */
export function mintConversationHandle(): string {
  return randomBytes(16).toString("base64url");
}

/** A new epoch: 128 random bits as 32 lower-case hex digits. */
export function mintConversationEpoch(): string {
  return randomBytes(16).toString("hex");
}

/** Check an idle TTL option; the default when absent. */
export function checkIdleTtl(ttl: number | undefined): number {
  const t = ttl ?? defaultIdleTtlMs;
  if (!(t > 0) || !Number.isSafeInteger(t)) {
    throw new Error(
      `idleTtlMs must be a positive whole number of milliseconds, got ${String(ttl)}`,
    );
  }
  return t;
}

/** Check a maxAliases option; the default when absent. */
export function checkMaxAliases(max: number | undefined): number {
  const n = max ?? defaultMaxAliases;
  if (!(n > 0) || !Number.isSafeInteger(n)) {
    throw new Error(
      `maxAliases must be a positive whole number, got ${String(max)}`,
    );
  }
  return n;
}

/**
 * Throw `conversation-full` when aliases hold the store's `maxAliases` or
 * more ({@link defaultMaxAliases} for a store without it, or no store): the
 * call is not sent (docs/store.md, "Alias cap"). handle is the one the
 * model knows, undefined for a conversation it has none for.
 * @internal
 */
export function checkRoom(
  store: ConversationStore | undefined,
  handle: string | undefined,
  aliases: AliasManager,
): void {
  const held = aliases.aliasCount();
  if (held >= (store?.maxAliases ?? defaultMaxAliases)) {
    throw conversationFull(handle, held);
  }
}

/** An empty alias table: the store only numbers, it never resolves. */
const bareAliases = {
  knownAliasPrefixes: [],
  responseAliases: { types: {}, tools: {} },
} as const;

/**
 * A conversation store in this process's memory, with an idle TTL: a
 * conversation neither loaded nor registered to for `idleTtlMs` is gone.
 */
export function createMemoryConversationStore(
  options: MemoryConversationStoreOptions = {},
): ConversationStore {
  const ttl = checkIdleTtl(options.idleTtlMs);
  const maxAliases = checkMaxAliases(options.maxAliases);
  const now = options.now ?? Date.now;
  const entries = new Map<
    string,
    {
      epoch: string;
      aliases: AliasManager;
      tools: string[];
      expires: number;
    }
  >();
  let nextSweep = now() + ttl;
  const live = (handle: string) => {
    const t = now();
    if (t >= nextSweep) {
      for (const [h, e] of entries) {
        if (e.expires <= t) {
          entries.delete(h);
        }
      }
      nextSweep = t + ttl;
    }
    const e = entries.get(handle);
    if (e === undefined || e.expires <= t) {
      entries.delete(handle);
      throw conversationExpired(handle);
    }
    e.expires = t + ttl;
    return e;
  };
  return {
    maxAliases,
    create(keySuffix = "") {
      let handle = mintConversationHandle() + keySuffix;
      while (entries.has(handle)) {
        handle = mintConversationHandle() + keySuffix;
      }
      entries.set(handle, {
        epoch: mintConversationEpoch(),
        aliases: createAliasManager(bareAliases),
        tools: [],
        expires: now() + ttl,
      });
      return Promise.resolve(handle);
    },
    load: (handle) =>
      settle(() => {
        const e = live(handle);
        return { epoch: e.epoch, state: e.aliases.exportState() };
      }),
    register: (handle, epoch, pairs) =>
      settle(() => {
        const e = live(handle);
        if (e.epoch !== epoch) {
          throw conversationExpired(handle);
        }
        for (const [prefix, uuid] of pairs) {
          e.aliases.register(prefix, uuid);
        }
        return e.aliases.exportState();
      }),
    delete(handle) {
      entries.delete(handle);
      return Promise.resolve();
    },
    loadTools: (handle, epoch, names) =>
      settle(() => {
        checkToolNames(names);
        const e = live(handle);
        if (e.epoch !== epoch) {
          throw conversationExpired(handle);
        }
        for (const name of names) {
          if (!e.tools.includes(name)) {
            e.tools.push(name);
          }
        }
        return [...e.tools];
      }),
    loadedTools: (handle) => settle(() => [...live(handle).tools]),
  };
}

/** The value of f as a promise; what it throws as the rejection. */
function settle<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}
