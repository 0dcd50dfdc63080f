import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { TestControlService } from "./gen/linkhub/v1/control_pb.js";
import type { Holds } from "./holds.js";
import type { Recorder } from "./recorder.js";
import type { Store } from "./store.js";

/**
 * Creates the `linkhub.v1.TestControlService` implementation: it reads what
 * `recorder` holds and resets both the recorder and `store` (and `holds`,
 * which HoldNext and GetHeld use, when given).
 */
export function createTestControlService(
  store: Store,
  recorder: Recorder,
  holds?: Holds,
): ServiceImpl<typeof TestControlService> {
  return {
    getRecorded() {
      return { requests: recorder.list() };
    },
    reset() {
      recorder.clear();
      store.clear();
      holds?.clear();
      return {};
    },
    holdNext(req) {
      if (holds === undefined) {
        throw new ConnectError(
          "this server holds no calls",
          Code.Unimplemented,
        );
      }
      holds.holdNext(req.procedure);
      return {};
    },
    getHeld() {
      return holds?.state() ?? { holding: 0, cancelled: [] };
    },
    releaseHeld() {
      return { released: holds?.release() ?? 0 };
    },
  };
}
