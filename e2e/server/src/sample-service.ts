import type { ServiceImpl } from "@connectrpc/connect";
import { SampleService } from "./gen/linkhub/v1/samples_pb.js";

/**
 * Creates the `linkhub.v1.SampleService` implementation: both methods return
 * the request unchanged.
 */
export function createSampleService(): ServiceImpl<typeof SampleService> {
  return {
    echoStrict(req) {
      return req;
    },
    echoLoose(req) {
      return req;
    },
  };
}
