import type {
  DescField,
  DescMessage,
  DescMethod,
} from "../read/descriptors.js";
import { hasMethodPrefix, methodKind } from "./method-kind.js";
import {
  isDeprecatedField,
  isIdentifierBehavior,
  leftOutOfInput,
} from "./field-behavior.js";
import { defaultSchemaRules, type SchemaRules } from "./schema-rules.js";
import { isProtobufType } from "./well-known.js";

/**
 * The message a `google.protobuf.FieldMask` field's paths name (docs/schemas.md,
 * "Field masks"), its schema hint and the argument table's mask nodes read
 * it alike.
 */

const fieldMaskName = "google.protobuf.FieldMask";

/** True when the field holds a google.protobuf.FieldMask (singular or list). */
export function isFieldMask(field: DescField): boolean {
  return (
    (field.fieldKind === "message" ||
      (field.fieldKind === "list" && field.listKind === "message")) &&
    field.message.typeName === fieldMaskName
  );
}

/**
 * The message the paths of FieldMask field `field` name. An update mask
 * (the field's name starts with `update`, or, at the request's root, the
 * method's name starts with `Update`) names the one resource field's type
 * (AIP-134 `book`) when its message has exactly one singular message field
 * that is not `google.protobuf.*` (of several, the one an Update method
 * is named after), else its own message. A read mask at
 * the request's root names the response (AIP-157), or, for a List, Search
 * or BatchGet method, the items of its response (its one repeated message
 * field: a Get's resource may have one too); any other mask names the
 * message holding it.
 */
export function maskTarget(
  field: DescField,
  atRoot: boolean,
  method: DescMethod | undefined,
): DescMessage {
  const holder = field.parent;
  const updateMethod =
    atRoot && method !== undefined && hasMethodPrefix(method.name, "Update");
  if (updateMethod || field.name.startsWith("update")) {
    const resources = holder.fields.filter(
      (f) => f.fieldKind === "message" && !isProtobufType(f.message),
    );
    if (resources.length === 1) {
      return resources[0]!.message!;
    }
    // Several: the one the method is named after (UpdateWorkerConfig's
    // `worker_config`), as AIP-134 names the resource field.
    const named = updateMethod
      ? resources.find((f) => f.name === snakeCase(method.name.slice(6)))
      : undefined;
    return named?.message ?? holder;
  }
  if (!atRoot || method === undefined) {
    return holder;
  }
  const response = method.output;
  if (
    isProtobufType(response) ||
    response.typeName === "google.longrunning.Operation"
  ) {
    return holder;
  }
  if (methodKind(method.name) !== "list") {
    return response;
  }
  const lists = response.fields.filter(
    (f) =>
      f.fieldKind === "list" &&
      f.listKind === "message" &&
      !isProtobufType(f.message),
  );
  return lists.length === 1 ? lists[0]!.message! : response;
}

/** `WorkerConfig` → `worker_config`. */
function snakeCase(name: string): string {
  return name.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

/**
 * True when a mask example may name the field: one the caller writes, so
 * not one an input schema leaves out (skip, OUTPUT_ONLY, with
 * `output_only_comments=true` by comment too), nor an IDENTIFIER nor a
 * deprecated field (even under `deprecated=keep`).
 */
function writable(field: DescField, rules: SchemaRules): boolean {
  return !(
    leftOutOfInput(field, rules) ||
    isIdentifierBehavior(field) ||
    isDeprecatedField(field)
  );
}

/**
 * The schema hint of a mask whose paths name `target`'s fields: its short
 * name and an example of the first two fields a caller writes (`rules`:
 * the options `deprecated` and `output_only_comments`).
 */
export function maskHint(
  target: DescMessage,
  rules: SchemaRules = defaultSchemaRules,
): string {
  const fields = target.fields;
  if (fields.length === 0) {
    return `Comma-separated field paths; "*" for all fields.`;
  }
  const shown = fields.filter((f) => writable(f, rules)).slice(0, 2);
  const example = (shown.length > 0 ? shown : [fields[0]!])
    .map((f) => f.name)
    .join(",");
  return `Comma-separated field paths of ${target.name}, e.g. "${example}"; "*" for all fields.`;
}
