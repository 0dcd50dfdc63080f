import { createHash } from "node:crypto";
import {
  conversationCorrupt,
  conversationExpired,
  storeUnavailable,
} from "./conversation-errors.js";
import {
  checkIdleTtl,
  checkMaxAliases,
  checkToolNames,
  mintConversationEpoch,
  mintConversationHandle,
  type ConversationStore,
  type StoredConversation,
} from "./conversation-store.js";
import { compareBytes, quoteJson } from "./json.js";
import {
  createScript,
  loadScript,
  loadToolsScript,
  loadedToolsScript,
  registerScript,
} from "./gen/redis-scripts.js";
import { ToolError } from "./tool-error.js";

/** The command options the store passes to a client's `sendCommand`. */
export interface RedisCommandOptions {
  /** Aborted when the store's operation ran out of time. */
  readonly abortSignal?: AbortSignal;
}

/**
 * What the Redis store needs of a client: node-redis's `sendCommand` (a
 * `createClient()` of the `redis` package, connected). Its replies are
 * read as arrays of strings (RESP2 or RESP3).
 */
export interface RedisCommandClient {
  /** Send one command; rejects with the server's error reply. */
  sendCommand(args: string[], options?: RedisCommandOptions): Promise<unknown>;
}

/**
 * What the Redis store needs of a Redis Cluster client: node-redis's
 * (a `createCluster()` of the `redis` package, connected), told apart from
 * a {@link RedisCommandClient} by its `masters`. It routes each command by
 * its first key: every key of a conversation is in one slot.
 */
export interface RedisClusterCommandClient {
  /** Send one command to the node holding firstKey. */
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
    options?: RedisCommandOptions,
  ): Promise<unknown>;
  /** The cluster's primaries (only read to tell a cluster client). */
  readonly masters: readonly unknown[];
}

/**
 * How many fresh handles `create` tries: a handle has 128 random bits, so
 * repeated collisions mean a broken random source (the same bound in every
 * language, docs/store.md).
 */
const createTries = 8;

/** Options of {@link createRedisConversationStore}. */
export interface RedisConversationStoreOptions {
  /**
   * A connected node-redis client (`createClient`) or cluster client
   * (`createCluster`), with an `"error"` listener: without one, a dropped
   * connection would crash the process, so the store refuses such a
   * client. Create it with `disableOfflineQueue: true` so that calls fail
   * at once while Redis is unreachable, instead of waiting for
   * `timeoutMs`.
   */
  readonly client: RedisCommandClient | RedisClusterCommandClient;
  /** The prefix of the store's keys; `"ai-tools:"` by default. */
  readonly keyPrefix?: string | undefined;
  /**
   * How long an unused conversation lives, in milliseconds; each load and
   * register renews it. 30 minutes by default.
   */
  readonly idleTtlMs?: number | undefined;
  /**
   * How long one store operation (create, load, register, delete; the
   * EVALSHA and the EVAL after a NOSCRIPT together) may take, in
   * milliseconds, enforced by the store whatever the client's settings:
   * past it, the call fails `store-unavailable` ("redis did not answer
   * within <ms> ms") and the late reply is dropped. 5 s by default; at
   * most 2,147,483,647 (a timer's limit). `create`'s tries (a new handle
   * while one is taken) share one budget.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * The most aliases a conversation may hold before a call
   * (`ConversationStore.maxAliases`); 1,000 by default.
   */
  readonly maxAliases?: number | undefined;
}

/** The largest timeout a timer takes (2^31-1 ms). */
const maxTimeoutMs = 2_147_483_647;

/** The default of {@link RedisConversationStoreOptions.timeoutMs}: 5 s. */
export const defaultRedisTimeoutMs = 5000;

interface Script {
  readonly text: string;
  readonly sha: string;
}

const script = (text: string): Script => ({
  text,
  sha: createHash("sha1").update(text).digest("hex"),
});

const scripts = {
  create: script(createScript),
  load: script(loadScript),
  register: script(registerScript),
  loadTools: script(loadToolsScript),
  loadedTools: script(loadedToolsScript),
};

/**
 * A conversation store on Redis, shared by every process using the same
 * Redis and key prefix (docs/store.md, "Redis"): one hash per conversation,
 * `<prefix>conv:{<handle>}`, changed only by Lua scripts, so that
 * registrations of several processes are atomic and numbered without gaps.
 * A conversation Redis lost is refused as expired, never renumbered.
 */
export function createRedisConversationStore(
  options: RedisConversationStoreOptions,
): ConversationStore {
  const { client } = options;
  checkErrorListener(client);
  const prefix = options.keyPrefix ?? "ai-tools:";
  const ttl = String(checkIdleTtl(options.idleTtlMs));
  const maxAliases = checkMaxAliases(options.maxAliases);
  const timeout = options.timeoutMs ?? defaultRedisTimeoutMs;
  // setTimeout takes at most 2^31-1 ms: above, Node waits 1 ms.
  if (!(timeout > 0 && timeout <= maxTimeoutMs)) {
    throw new Error(
      `timeoutMs must be positive and at most ${maxTimeoutMs} (about 24.8 days), got ${String(options.timeoutMs)}`,
    );
  }
  const key = (handle: string) => `${prefix}conv:{${handle}}`;
  const send = commandSender(client);
  /**
   * One store operation on the conversation of handle, within the
   * timeout; its failure as the ToolError of docs/store.md.
   */
  const operation = async <T>(
    handle: string,
    op: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> => {
    try {
      return await withinTimeout(timeout, op);
    } catch (e) {
      throw storeError(e, handle);
    }
  };
  /** EVALSHA, then EVAL when Redis does not have the script (NOSCRIPT). */
  const evalScript = async (
    s: Script,
    handle: string,
    args: string[],
    signal: AbortSignal,
  ): Promise<unknown> => {
    const k = key(handle);
    try {
      return await send(k, ["EVALSHA", s.sha, "1", k, ...args], signal);
    } catch (e) {
      if (!replyStarts(e, "NOSCRIPT") || signal.aborted) {
        throw e;
      }
      return await send(k, ["EVAL", s.text, "1", k, ...args], signal);
    }
  };
  const run = (s: Script, handle: string, args: string[]): Promise<unknown> =>
    operation(handle, (signal) => evalScript(s, handle, args, signal));
  return {
    maxAliases,
    async create(keySuffix = "") {
      let handle = "";
      // One budget for all the tries, as Go's.
      try {
        return await withinTimeout(timeout, async (signal) => {
          for (let i = 0; i < createTries; i++) {
            handle = mintConversationHandle() + keySuffix;
            const made = await evalScript(
              scripts.create,
              handle,
              [ttl, mintConversationEpoch()],
              signal,
            );
            if (Number(made) === 1) {
              return handle;
            }
          }
          throw new Error(
            `no free conversation handle in ${createTries} tries: is the random source broken?`,
          );
        });
      } catch (e) {
        throw storeError(e, handle);
      }
    },
    async load(handle) {
      const fields = await run(scripts.load, handle, [ttl]);
      if (fields === null || fields === undefined) {
        throw conversationExpired(handle);
      }
      return conversationOf(fields, handle);
    },
    async register(handle, epoch, pairs) {
      const fields = await run(scripts.register, handle, [
        ttl,
        epoch,
        ...pairs.flat(),
      ]);
      return conversationOf(fields, handle).state;
    },
    async delete(handle) {
      const k = key(handle);
      await operation(handle, (signal) => send(k, ["DEL", k], signal));
    },
    async loadTools(handle, epoch, names) {
      checkToolNames(names);
      const fields = await run(scripts.loadTools, handle, [
        ttl,
        epoch,
        ...names,
      ]);
      return loadedOf(fields, handle);
    },
    async loadedTools(handle) {
      const fields = await run(scripts.loadedTools, handle, [ttl]);
      if (fields === null || fields === undefined) {
        throw conversationExpired(handle);
      }
      return loadedOf(fields, handle);
    },
  };
}

/**
 * Refuse a client that emits `"error"` with no listener: node-redis emits
 * one when a connection drops, and an EventEmitter throws an unheard one,
 * which crashes the process.
 */
function checkErrorListener(client: object): void {
  const events = client as { listenerCount?: unknown };
  if (
    typeof events.listenerCount === "function" &&
    (events.listenerCount as (event: string) => number).call(
      client,
      "error",
    ) === 0
  ) {
    throw new Error(
      `the redis client has no "error" listener: a dropped connection would crash the process; add client.on("error", …) before creating the store`,
    );
  }
}

/** Send one command on the conversation key k, through either client. */
function commandSender(
  client: RedisCommandClient | RedisClusterCommandClient,
): (k: string, args: string[], signal: AbortSignal) => Promise<unknown> {
  if ("masters" in client) {
    return (k, args, signal) =>
      client.sendCommand(k, false, args, { abortSignal: signal });
  }
  return (_k, args, signal) =>
    client.sendCommand(args, { abortSignal: signal });
}

/**
 * Run op, failing with "redis did not answer within <ms> ms" when it has
 * not settled after ms: node-redis's own command timeout stops once a
 * command is written, so a hung server would hold the call until the
 * client gives up. The signal aborts what op has not sent yet; a late
 * reply is dropped.
 */
async function withinTimeout<T>(
  ms: number,
  op: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`redis did not answer within ${ms} ms`));
    }, ms);
  });
  const work = op(abort.signal);
  work.catch(() => {}); // settled after the timeout: nobody listens
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether e is an error reply of Redis starting with word. */
function replyStarts(e: unknown, word: string): boolean {
  return e instanceof Error && e.message.startsWith(word);
}

/**
 * A failed command as the ToolError of docs/store.md: EXPIRED (the register
 * script) is an expired conversation, WRONGTYPE (the key is not a hash) a
 * corrupt one; anything else, the store unavailable.
 */
function storeError(e: unknown, handle: string): ToolError {
  if (e instanceof ToolError) {
    return e;
  }
  if (replyStarts(e, "EXPIRED")) {
    return conversationExpired(handle);
  }
  if (replyStarts(e, "WRONGTYPE")) {
    return conversationCorrupt(handle, e);
  }
  return storeUnavailable(e);
}

/**
 * The epoch and state of a conversation from its hash's fields and values
 * (a flat array): `aliases` from `a:*`, `counters` from `n:*`, `version`
 * from `v`, written as exportState writes them. A value of the wrong shape
 * is written as a JSON string, for restoreState to refuse.
 */
function conversationOf(reply: unknown, handle: string): StoredConversation {
  if (!Array.isArray(reply) || reply.length % 2 !== 0) {
    throw conversationCorrupt(
      handle,
      new Error("the store's reply is not a list of fields and values"),
    );
  }
  const aliases: [string, string][] = [];
  const counters: [string, string][] = [];
  let version = "null";
  let epoch = "";
  for (let i = 0; i < reply.length; i += 2) {
    const field = String(reply[i]);
    const value = String(reply[i + 1]);
    if (field.startsWith("a:")) {
      aliases.push([field.slice(2), quoteJson(value, true)]);
    } else if (field.startsWith("n:")) {
      counters.push([field.slice(2), integer(value)]);
    } else if (field === "v") {
      version = integer(value);
    } else if (field === "epoch") {
      epoch = value;
    }
  }
  const object = (entries: [string, string][]) =>
    `{${entries
      .sort((a, b) => compareBytes(a[0], b[0]))
      .map(([k, v]) => `${quoteJson(k, true)}:${v}`)
      .join(",")}}`;
  return {
    epoch,
    state: `{"aliases":${object(aliases)},"counters":${object(counters)},"version":${version}}`,
  };
}

/**
 * The loaded tools, in load order, from the `v` and `t:*` fields and values
 * of the loaded-tools scripts (docs/store.md, "Loaded tools"): a layout
 * version other than 1, or positions other than 1 to n each once, is a
 * corrupt conversation.
 */
function loadedOf(reply: unknown, handle: string): string[] {
  const corrupt = (text: string) =>
    conversationCorrupt(handle, new Error(text));
  if (!Array.isArray(reply) || reply.length % 2 !== 0) {
    throw corrupt("the store's reply is not a list of fields and values");
  }
  let version: string | null = null;
  const byPosition = new Map<number, string>();
  let count = 0;
  for (let i = 0; i < reply.length; i += 2) {
    const field = String(reply[i]);
    const value = String(reply[i + 1]);
    if (field === "v") {
      version = value;
    } else if (field.startsWith("t:")) {
      count++;
      if (/^[1-9][0-9]{0,15}$/.test(value)) {
        byPosition.set(Number(value), field.slice(2));
      }
    }
  }
  if (version !== "1") {
    throw corrupt(
      `the conversation's layout version is ${JSON.stringify(version)}, not 1`,
    );
  }
  const loaded: string[] = [];
  for (let position = 1; position <= count; position++) {
    const name = byPosition.get(position);
    if (name === undefined) {
      throw corrupt(
        `the loaded tools' positions are not 1 to ${count}, each once`,
      );
    }
    loaded.push(name);
  }
  return loaded;
}

/** An integer as a JSON number; anything else as a JSON string. */
function integer(value: string): string {
  return /^-?(0|[1-9][0-9]{0,15})$/.test(value)
    ? value
    : quoteJson(value, true);
}
