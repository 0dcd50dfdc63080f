import { create } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { invalidArgumentError } from "./errors.js";
import {
  OperationSchema,
  type Operation,
} from "./gen/google/longrunning/operations_pb.js";
import {
  ExportLinksResponseSchema,
  ExportService,
} from "./gen/linkhub/v1/exports_pb.js";
import type { Store } from "./store.js";

/**
 * Creates the `linkhub.v1.ExportService` implementation over `store`.
 *
 * ExportLinks starts an operation named `workspaces/<workspace_id>/operations/<n>`
 * (`n` counts from 1 per server, again after a reset) that is not done; the
 * first GetOperation of it (see createOperationsService) finds it done, its
 * response an Any of `linkhub.v1.ExportLinksResponse` holding the number of
 * links the workspace had when the export started.
 */
export function createExportService(
  store: Store,
): ServiceImpl<typeof ExportService> {
  return {
    exportLinks(req) {
      if (req.workspaceId === "") {
        throw invalidArgumentError(
          "workspace_id",
          "workspace_id is empty: name the workspace whose links to export",
        );
      }
      const name = `workspaces/${req.workspaceId}/operations/${store.operations.size + 1}`;
      const linkCount = [...store.links.values()].filter(
        (link) => link.workspaceId === req.workspaceId,
      ).length;
      const finished: Operation = create(OperationSchema, {
        name,
        done: true,
        result: {
          case: "response",
          value: anyPack(
            ExportLinksResponseSchema,
            create(ExportLinksResponseSchema, {
              linkCount,
              uri: `https://exports.example.com/${name}.csv`,
            }),
          ),
        },
      });
      store.operations.set(name, finished);
      return create(OperationSchema, { name, done: false });
    },
  };
}
