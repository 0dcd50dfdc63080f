import type { ServerResponse } from "node:http";

/** Counts the requests in flight, for a graceful shutdown. */
export interface FlightCounter {
  /** Whether new requests are refused. */
  readonly draining: boolean;
  /** Count a request until its response closes. */
  start(res: ServerResponse): void;
  /** Refuse new requests; resolve when none is in flight, or after `ms`. */
  drain(ms: number): Promise<void>;
}

/** A counter with nothing in flight. */
export function createFlightCounter(): FlightCounter {
  let count = 0;
  let idle: (() => void) | undefined;
  const counter = {
    draining: false,
    start(res: ServerResponse) {
      count++;
      res.once("close", () => {
        if (--count === 0) {
          idle?.();
        }
      });
    },
    async drain(ms: number) {
      counter.draining = true;
      if (count === 0) {
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
    },
  };
  return counter;
}
