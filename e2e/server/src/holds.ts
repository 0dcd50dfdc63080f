import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/**
 * Calls held until their client cancels them, for tests of cancellation
 * (`linkhub.v1.TestControlService/HoldNext`).
 */
export interface Holds {
  /** Holds the next call of `procedure` ("linkhub.v1.LinkService/GetLink"). */
  holdNext(procedure: string): void;
  /** The held calls in progress, and the procedures of those cancelled. */
  state(): { holding: number; cancelled: string[] };
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
  let holding = 0;
  const interceptor: Interceptor = (next) => async (req) => {
    const procedure = `${req.service.typeName}/${req.method.name}`;
    const at = pending.indexOf(procedure);
    if (at < 0) return await next(req);
    pending.splice(at, 1);
    holding++;
    await new Promise<void>((resolve) => {
      if (req.signal.aborted) resolve();
      else
        req.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    holding--;
    cancelled.push(procedure);
    throw new ConnectError("cancelled by the client", Code.Canceled);
  };
  return {
    holdNext(procedure) {
      pending.push(procedure);
    },
    state() {
      return { holding, cancelled: cancelled.slice() };
    },
    clear() {
      pending.length = 0;
      cancelled.length = 0;
    },
    interceptor,
  };
}
