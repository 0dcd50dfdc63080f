import type { ConversationStore } from "@protoc-gen-ai-tools/runtime";
import { GatewayError } from "./gateway-error.js";

/** A conversation store on Redis and the way to let go of its client. */
export interface GatewayStore {
  readonly store: ConversationStore;
  /** Close the Redis connection. */
  close(): Promise<void>;
}

/**
 * The Redis URL of `--redis URL` or `--redis-env NAME`, and how errors name
 * it (never with its password).
 */
export interface GatewayRedis {
  readonly url: string;
  /** `--redis "redis://u:***@host:6379"` or `--redis-env "NAME" ("…")`. */
  readonly label: string;
}

/**
 * `url` as errors may quote it: a password in it becomes `***`; a value
 * that does not parse keeps its scheme only (`rediss://…`).
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? "";
    return `${scheme}…`;
  }
  if (parsed.password !== "") {
    parsed.password = "***";
  }
  return parsed.href;
}

/** The Redis of `--redis URL`, or of `--redis-env NAME` read from `env`. */
export function gatewayRedisOf(
  url: string | undefined,
  envName: string | undefined,
  env: NodeJS.ProcessEnv,
): GatewayRedis | undefined {
  if (url !== undefined && envName !== undefined) {
    throw new GatewayError(
      "--redis and --redis-env both name the Redis: keep one (--redis-env NAME keeps the password out of the command line)",
    );
  }
  if (url !== undefined) {
    return { url, label: `--redis ${JSON.stringify(redactRedisUrl(url))}` };
  }
  if (envName === undefined) {
    return undefined;
  }
  const value = env[envName];
  if (value === undefined || value === "") {
    throw new GatewayError(
      `--redis-env ${JSON.stringify(envName)}: the environment variable is not set; set it to the Redis URL (redis://HOST:PORT)`,
    );
  }
  return {
    url: value,
    label: `--redis-env ${JSON.stringify(envName)} (${JSON.stringify(redactRedisUrl(value))})`,
  };
}

/** The longest wait between two reconnection tries, in milliseconds. */
const maxBackoffMs = 3000;

/**
 * The runtime's Redis conversation store on a node-redis client of
 * `redis.url` (`redis` is an optional peer dependency of the plugin). The
 * first connection must succeed (else a GatewayError naming the flag and
 * the URL without its password); later
 * drops reconnect, each error logged through `log`, and calls fail at once
 * (`store-unavailable`) while Redis is away.
 */
export async function createGatewayStore(
  { url, label }: GatewayRedis,
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
      `${label}: ${redactedMessage(e, url)}; write redis://HOST:PORT (rediss:// for TLS)`,
    );
  }
  client.on("error", (e: Error) => {
    if (connected) log(`redis: ${redactedMessage(e, url)}`);
  });
  try {
    await client.connect();
  } catch (e) {
    throw new GatewayError(
      `${label}: cannot connect (${redactedMessage(e, url)}): check the URL and that Redis is running`,
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

/** The message of `e` with `url`, and its password, made safe to log. */
function redactedMessage(e: unknown, url: string): string {
  const message = (e instanceof Error ? e.message : String(e)).replaceAll(
    url,
    redactRedisUrl(url),
  );
  let password: string;
  try {
    password = new URL(url).password;
  } catch {
    return message;
  }
  if (password === "") {
    return message;
  }
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A stray % is kept as written: the password as given is replaced.
  }
  return message.replaceAll(password, "***").replaceAll(decoded, "***");
}
