import { Code, ConnectError } from "@connectrpc/connect";
import {
  FieldViolationSchema,
  ResourceInfoSchema,
} from "./gen/linkhub/v1/control_pb.js";

/**
 * The kinds of stored entity a NOT_FOUND error can name, as written to the
 * `resource_type` of its `linkhub.v1.ResourceInfo` detail.
 */
export type ResourceType = "link" | "page_theme" | "operation";

/**
 * Creates a NOT_FOUND error for an unknown id, with a `linkhub.v1.ResourceInfo`
 * detail naming the resource type and id: `link "<id>" not found`.
 */
export function notFoundError(
  resourceType: ResourceType,
  resourceId: string,
): ConnectError {
  return new ConnectError(
    `${resourceType} ${JSON.stringify(resourceId)} not found`,
    Code.NotFound,
    undefined,
    [
      {
        desc: ResourceInfoSchema,
        value: { resourceType, resourceId },
      },
    ],
  );
}

/**
 * Creates an INVALID_ARGUMENT error for one bad request field, with a
 * `linkhub.v1.FieldViolation` detail whose description is the error message.
 */
export function invalidArgumentError(
  field: string,
  description: string,
): ConnectError {
  return new ConnectError(description, Code.InvalidArgument, undefined, [
    {
      desc: FieldViolationSchema,
      value: { field, description },
    },
  ]);
}
