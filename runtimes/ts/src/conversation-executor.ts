import {
  createAliasManager,
  type AliasManager,
  type AliasRegistration,
} from "./alias-manager.js";
import {
  conversationCorrupt,
  storeUnavailable,
} from "./conversation-errors.js";
import {
  checkRoom,
  type ConversationStore,
  type StoredConversation,
} from "./conversation-store.js";
import {
  coreOf,
  maxResultBytes,
  toolError,
  type ExecuteOptions,
  type Executor,
  type ExecutorCore,
} from "./executor.js";
import { checkResultSize } from "./result-limit.js";
import {
  callStats,
  endCall,
  runObserved,
  type CallStats,
} from "./telemetry.js";
import { ToolError } from "./tool-error.js";

/**
 * Runs tool calls of conversations kept in a {@link ConversationStore}, so
 * that any process sharing the store can take a conversation's next call
 * (docs/store.md, "A call through a store").
 */
export interface ConversationExecutor {
  /** Start a conversation; returns its handle. */
  start(): Promise<string>;
  /**
   * Run the tool in the conversation of handle: its aliases loaded from the
   * store, the arguments resolved with them, the RPC called, the response's
   * new UUIDs registered in the store, and the response returned
   * aliasified. Every failure is a {@link ToolError}: besides the
   * executor's own, `conversation-expired`, `conversation-corrupt`,
   * `conversation-full` (the store's `maxAliases` reached; nothing sent)
   * and `store-unavailable`.
   */
  execute(
    handle: string,
    toolName: string,
    argsJson: string,
    options?: ExecuteOptions,
  ): Promise<string>;
  /** End the conversation: its aliases are deleted from the store. */
  end(handle: string): Promise<void>;
  /** The store the conversations live in. */
  readonly store: ConversationStore;
}

/**
 * Create a store-backed executor of the tools of executor (made by a
 * generated file's `createExecutor`, or the runtime's), observed by the
 * executor's `telemetry`. Throws an Error for an executor made otherwise.
 */
export function createConversationExecutor(
  executor: Executor,
  store: ConversationStore,
): ConversationExecutor {
  const core = coreOf(executor);
  if (core === undefined) {
    throw new Error(
      "createConversationExecutor: the executor was not made by createExecutor; pass the one a generated file's createExecutor returns",
    );
  }
  const fresh = () => createAliasManager(core.config.aliases);
  return {
    store,
    start: () => storeCall(() => store.create()),
    async execute(handle, toolName, argsJson, options = {}) {
      const call = await executeInConversation(
        core,
        store,
        fresh,
        handle,
        toolName,
        argsJson,
        options,
      );
      if (call.error !== undefined) {
        throw call.error;
      }
      return call.out;
    },
    end: (handle) => storeCall(() => store.delete(handle)),
  };
}

/** The outcome of {@link executeInConversation}. */
export type ConversationCall =
  | {
      /** The conversation's handle. */
      readonly handle: string;
      /** The conversation's aliases after the call. */
      readonly aliases: AliasManager;
      /** The response, aliasified. */
      readonly out: string;
      readonly error?: undefined;
    }
  | {
      /** The conversation's handle, when it has one. */
      readonly handle: string | undefined;
      /** The aliases the call ran with. */
      readonly aliases: AliasManager;
      readonly out?: undefined;
      /** Why the call failed. */
      readonly error: ToolError;
    };

/**
 * One call through a store. With no handle (the MCP servers' first call),
 * a conversation is created before anything is sent, so a store that fails
 * is `store-unavailable` with the RPC not called; the call runs with empty
 * aliases, and when it fails the new conversation is deleted (best effort):
 * a failed first call leaves nothing in the store. Never throws. Observed
 * by the executor's `telemetry`, from the load to the registration.
 * @internal
 */
export async function executeInConversation(
  core: ExecutorCore,
  store: ConversationStore,
  fresh: () => AliasManager,
  handle: string | undefined,
  toolName: string,
  argsJson: string,
  options: ExecuteOptions,
): Promise<ConversationCall> {
  const telemetry = core.config.telemetry;
  const call = (stats?: CallStats) =>
    callInConversation(
      core,
      store,
      fresh,
      handle,
      toolName,
      argsJson,
      options,
      stats,
    );
  const stats = callStats(telemetry, toolName, core.method(toolName), options);
  if (stats === undefined) {
    return call();
  }
  const out = await runObserved(stats, () => call(stats));
  // Reported only when the conversation's table was loaded (or made); one
  // made for a call that failed is deleted: it holds none.
  const size = out.handle === undefined ? 0 : out.aliases.aliasCount();
  endCall(stats, out.error, size);
  return out;
}

/** {@link executeInConversation}, recording in stats when given. */
async function callInConversation(
  core: ExecutorCore,
  store: ConversationStore,
  fresh: () => AliasManager,
  handle: string | undefined,
  toolName: string,
  argsJson: string,
  options: ExecuteOptions,
  stats: CallStats | undefined,
): Promise<ConversationCall> {
  let aliases = fresh();
  let created: string | undefined;
  try {
    let loaded: StoredConversation | undefined;
    if (handle !== undefined) {
      const h = handle;
      loaded = await storeCall(() => store.load(h));
      aliases = restored(fresh, h, loaded.state);
      if (stats !== undefined) {
        stats.conversation = true;
      }
      checkRoom(store, h, aliases);
    } else {
      created = await storeCall(() => store.create());
      handle = created;
      if (stats !== undefined) {
        stats.conversation = true;
      }
    }
    const h = handle;
    const pairs: AliasRegistration[] = [];
    const seen = new Set<string>();
    const out = await core.run(
      toolName,
      argsJson,
      aliases,
      options,
      (tool, json) => {
        for (const pair of aliases.collectRegistrations(tool, json)) {
          if (!seen.has(pair[1])) {
            seen.add(pair[1]);
            pairs.push(pair);
          }
        }
      },
      stats,
    );
    if (pairs.length > 0) {
      const { epoch } = loaded ?? (await storeCall(() => store.load(h)));
      const state = await storeCall(() => store.register(h, epoch, pairs));
      // Counted once registered: a failed register mints nothing.
      if (stats !== undefined) {
        stats.registered = pairs.length;
      }
      aliases = restored(fresh, h, state);
    }
    const shown = aliases.aliasifyJson(out);
    return {
      handle: h,
      aliases,
      out: checkResultSize(shown, maxResultBytes(core.config)),
    };
  } catch (e) {
    const error = toolError(aliases, e);
    if (created === undefined) {
      return { handle, aliases, error };
    }
    // The model never sees this handle: the conversation ends here.
    try {
      await store.delete(created);
    } catch {
      // Best effort: the call's own error is the one reported.
    }
    return { handle: undefined, aliases, error };
  }
}

/** An alias manager holding state; a refused state is `conversation-corrupt`. */
function restored(
  fresh: () => AliasManager,
  handle: string,
  state: string,
): AliasManager {
  const aliases = fresh();
  try {
    aliases.restoreState(state);
  } catch (e) {
    throw conversationCorrupt(handle, e);
  }
  return aliases;
}

/**
 * A store operation; what it throws that is not a ToolError is `store-unavailable`.
 * @internal
 */
export async function storeCall<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw e instanceof ToolError ? e : storeUnavailable(e);
  }
}
