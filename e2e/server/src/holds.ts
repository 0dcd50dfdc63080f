import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/**
 * Calls held until their client cancels them or a test releases them, for
 * tests of cancellation and of graceful shutdown
 * (`linkhub.v1.TestControlService/HoldNext`, `ReleaseHeld`).
 */
export interface Holds {
  /** Holds the next call of `procedure` ("linkhub.v1.LinkService/GetLink"). */
  holdNext(procedure: string): void;
  /** The held calls in progress, and the procedures of those cancelled. */
  state(): { holding: number; cancelled: string[] };
  /** Lets every held call go on to its handler; returns how many. */
  release(): number;
  /** Forgets pending holds and cancelled calls. */
  clear(): void;
  /** The server interceptor that holds the calls. */
  readonly interceptor: Interceptor;
}

/**
 * Creates an empty set of holds.
 */
export function createHolds(): Holds {
  const pending: string[] = [];
  const cancelled: string[] = [];
  const releases = new Set<() => void>();
  const interceptor: Interceptor = (next) => async (req) => {
    const procedure = `${req.service.typeName}/${req.method.name}`;
    const at = pending.indexOf(procedure);
    if (at < 0) return await next(req);
    pending.splice(at, 1);
    const released = await new Promise<boolean>((resolve) => {
      const release = () => resolve(true);
      releases.add(release);
      const cancel = () => {
        releases.delete(release);
        resolve(false);
      };
      if (req.signal.aborted) cancel();
      else req.signal.addEventListener("abort", cancel, { once: true });
    });
    if (released) return await next(req);
    cancelled.push(procedure);
    throw new ConnectError("cancelled by the client", Code.Canceled);
  };
  return {
    holdNext(procedure) {
      pending.push(procedure);
    },
    state() {
      return { holding: releases.size, cancelled: cancelled.slice() };
    },
    release() {
      const held = [...releases];
      releases.clear();
      for (const release of held) release();
      return held.length;
    },
    clear() {
      pending.length = 0;
      cancelled.length = 0;
    },
    interceptor,
  };
}
