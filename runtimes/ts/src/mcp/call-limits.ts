import { Code } from "@connectrpc/connect";
import { ToolError } from "../tool-error.js";

/** Options of the MCP servers' rate limit. */
export interface RateLimit {
  /** Calls a subject may make per minute (a token bucket of that size). */
  readonly callsPerMinute: number;
}

/**
 * A token bucket per subject (`""` for callers without authorization), in
 * this process: `take` spends a call or throws the model-facing error.
 */
export interface RateLimiter {
  take(subject: string): void;
}

/** The default of `maxConcurrentCalls`. */
export const defaultMaxConcurrentCalls = 16;

/** The most buckets kept: past it the least recently used is dropped. */
const maxBuckets = 10_000;

/** Create a rate limiter; throws an Error for a limit that is not a positive number. */
export function createRateLimiter(
  limit: RateLimit,
  now: () => number = Date.now,
  capacity: number = maxBuckets,
): RateLimiter {
  const n = limit.callsPerMinute;
  if (!(typeof n === "number" && n > 0 && Number.isFinite(n))) {
    throw new Error(
      `rateLimit.callsPerMinute must be a positive number, got ${String(n)}`,
    );
  }
  const perMs = n / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (b: { tokens: number; at: number }, t: number) => {
    b.tokens = Math.min(n, b.tokens + (t - b.at) * perMs);
    b.at = t;
  };
  return {
    take(subject) {
      const t = now();
      // Map order is use order: a bucket used moves to the end, and the
      // first is the least recently used.
      let b = buckets.get(subject);
      buckets.delete(subject);
      if (b === undefined) {
        b = { tokens: n, at: t };
        const lru = buckets.keys().next();
        if (buckets.size >= capacity && lru.done !== true) {
          buckets.delete(lru.value);
        }
      }
      buckets.set(subject, b);
      refill(b, t);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      const seconds = Math.ceil((1 - b.tokens) / perMs / 1000);
      throw tooManyCalls(
        `too many calls: the limit is ${n} per minute for this user; retry in ${seconds} s`,
      );
    },
  };
}

/**
 * The calls under way per conversation: `enter` takes a place or throws
 * the model-facing error; the function it returns gives the place back.
 */
export interface ConcurrencyLimiter {
  enter(conversation: unknown): () => void;
}

/**
 * The key the calls of no conversation count under: the subject's (no
 * conversation key holds a NUL).
 */
export function subjectCallsKey(subject: string): string {
  return `\0${subject}`;
}

function isSubjectCallsKey(key: unknown): boolean {
  return typeof key === "string" && key.startsWith("\0");
}

/** Create a concurrency limiter; throws an Error for a limit that is not a positive whole number. */
export function createConcurrencyLimiter(
  max: number | undefined,
): ConcurrencyLimiter {
  const limit = max ?? defaultMaxConcurrentCalls;
  if (!(Number.isSafeInteger(limit) && limit > 0)) {
    throw new Error(
      `maxConcurrentCalls must be a positive whole number, got ${String(max)}`,
    );
  }
  const running = new Map<unknown, number>();
  return {
    enter(conversation) {
      const count = running.get(conversation) ?? 0;
      if (count >= limit) {
        throw tooManyCalls(
          isSubjectCallsKey(conversation)
            ? `too many calls at once (limit ${limit}); retry when one finishes`
            : `too many calls at once in this conversation (limit ${limit}); retry when one finishes`,
        );
      }
      running.set(conversation, count + 1);
      let left = false;
      return () => {
        if (left) {
          return;
        }
        left = true;
        const c = (running.get(conversation) ?? 1) - 1;
        if (c === 0) {
          running.delete(conversation);
        } else {
          running.set(conversation, c);
        }
      };
    },
  };
}

function tooManyCalls(message: string): ToolError {
  return new ToolError(message, {
    reason: "too-many-calls",
    code: Code.ResourceExhausted,
  });
}
