import type { ServiceImpl } from "@connectrpc/connect";
import { notFoundError } from "./errors.js";
import { Operations } from "./gen/google/longrunning/operations_pb.js";
import type { Store } from "./store.js";

/**
 * Creates the `google.longrunning.Operations` implementation over `store`:
 * GetOperation of a name ExportLinks returned answers the finished operation
 * (done, with its response); any other name is NOT_FOUND. The other methods
 * of the real service are not part of the test API.
 */
export function createOperationsService(
  store: Store,
): ServiceImpl<typeof Operations> {
  return {
    getOperation(req) {
      const operation = store.operations.get(req.name);
      if (operation === undefined) {
        throw notFoundError("operation", req.name);
      }
      return operation;
    },
  };
}
