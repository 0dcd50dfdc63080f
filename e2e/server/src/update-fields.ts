import {
  isFieldSet,
  type DescMessage,
  type MessageShape,
} from "@bufbuild/protobuf";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { invalidArgumentError } from "./errors.js";

/**
 * Returns the proto names of the fields an update request changes.
 *
 * With a non-empty `mask`, its paths name the fields, in their proto
 * (`target_url`) or JSON (`targetUrl`) spelling; a path that is not one of
 * `updatable` is an INVALID_ARGUMENT error on `mask.field`. Without one (or
 * with an empty one), every updatable field that is set in `message` is
 * changed: optional fields that are present, other fields that are not
 * their zero value.
 */
export function selectUpdatedFields<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  updatable: readonly string[],
  mask?: { field: string; value: FieldMask | undefined },
): Set<string> {
  const selected = new Set<string>();
  const paths = mask?.value?.paths ?? [];
  if (mask !== undefined && paths.length > 0) {
    for (const path of paths) {
      const field = schema.fields.find(
        (f) => f.name === path || f.jsonName === path,
      );
      if (field === undefined || !updatable.includes(field.name)) {
        throw invalidArgumentError(
          mask.field,
          `${mask.field} path ${JSON.stringify(path)} is not an updatable field; valid paths: ${updatable.join(", ")}`,
        );
      }
      selected.add(field.name);
    }
    return selected;
  }
  for (const name of updatable) {
    const field = schema.fields.find((f) => f.name === name);
    if (field !== undefined && isFieldSet(message, field)) {
      selected.add(field.name);
    }
  }
  return selected;
}
