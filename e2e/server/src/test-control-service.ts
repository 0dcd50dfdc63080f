import type { ServiceImpl } from "@connectrpc/connect";
import { TestControlService } from "./gen/linkhub/v1/control_pb.js";
import type { Recorder } from "./recorder.js";
import type { Store } from "./store.js";

/**
 * Creates the `linkhub.v1.TestControlService` implementation: it reads what
 * `recorder` holds and resets both the recorder and `store`.
 */
export function createTestControlService(
  store: Store,
  recorder: Recorder,
): ServiceImpl<typeof TestControlService> {
  return {
    getRecorded() {
      return { requests: recorder.list() };
    },
    reset() {
      recorder.clear();
      store.clear();
      return {};
    },
  };
}
