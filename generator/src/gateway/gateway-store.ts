import type { ConversationStore } from "@protoc-gen-ai-tools/runtime";
import { GatewayError } from "./gateway-error.js";

/** A conversation store on Redis and the way to let go of its client. */
export interface GatewayStore {
  readonly store: ConversationStore;
  /** Close the Redis connection. */
  close(): Promise<void>;
}

/** The longest wait between two reconnection tries, in milliseconds. */
const maxBackoffMs = 3000;

/**
 * The runtime's Redis conversation store on a node-redis client of `url`
 * (`redis` is an optional peer dependency of the plugin). The first
 * connection must succeed (else a GatewayError naming the URL); later
 * drops reconnect, each error logged through `log`, and calls fail at once
 * (`store-unavailable`) while Redis is away.
 */
export async function createGatewayStore(
  url: string,
  idleTtlMs: number | undefined,
  log: (message: string) => void,
): Promise<GatewayStore> {
  let redis: typeof import("redis");
  try {
    redis = await import("redis");
  } catch {
    throw new GatewayError(
      `the MCP gateway needs "redis" for --redis, which is not installed: npm install redis`,
    );
  }
  const { createRedisConversationStore } =
    await import("@protoc-gen-ai-tools/runtime/redis");
  let connected = false;
  let client: ReturnType<typeof redis.createClient>;
  try {
    client = redis.createClient({
      url,
      disableOfflineQueue: true,
      pingInterval: 3000,
      socket: {
        socketTimeout: 10_000,
        // Give up on the first connection (a wrong URL is the user's to fix);
        // once connected, retry for as long as it takes.
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? Math.min(100 * (retries + 1), maxBackoffMs) : cause,
      },
    });
  } catch (e) {
    throw new GatewayError(
      `--redis ${JSON.stringify(url)}: ${(e as Error).message}; write redis://HOST:PORT (rediss:// for TLS)`,
    );
  }
  client.on("error", (e: Error) => {
    if (connected) log(`redis: ${e.message}`);
  });
  try {
    await client.connect();
  } catch (e) {
    throw new GatewayError(
      `--redis ${JSON.stringify(url)}: cannot connect (${(e as Error).message}): check the URL and that Redis is running`,
    );
  }
  connected = true;
  return {
    store: createRedisConversationStore({ client, idleTtlMs }),
    close: async () => {
      connected = false;
      await client.close();
    },
  };
}
