import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import {
  isIdentifier,
  isOutputOnly,
  isRequired,
  readToolField,
} from "../read/annotations.js";
import type { DescEnumValue, DescField } from "../read/descriptors.js";
import { fieldLeadingComment } from "./comments.js";
import { defaultSchemaRules, type SchemaRules } from "./schema-rules.js";
import { isRequiredByRules } from "./validate-keywords.js";

/**
 * True when `(google.api.field_behavior)` includes REQUIRED: the argument
 * check (argument-table.ts) refuses a call without the field.
 */
export function isRequiredBehavior(field: DescField): boolean {
  return isRequired(field);
}

/** True when `(google.api.field_behavior)` includes IDENTIFIER. */
export function isIdentifierBehavior(field: DescField): boolean {
  return isIdentifier(field);
}

/**
 * True when the field must be sent, whatever the method: REQUIRED
 * behavior, `buf.validate` rules that require it (`required`, or enum
 * rules refusing the 0 an unset field sends: isRequiredByRules), or
 * proto2's `required` (LEGACY_REQUIRED).
 */
export function isRequiredField(field: DescField): boolean {
  return (
    field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED ||
    isRequired(field) ||
    isRequiredByRules(field)
  );
}

/** True when the field has `[deprecated = true]`. */
export function isDeprecatedField(field: DescField): boolean {
  return field.proto.options?.deprecated === true;
}

/** True when the enum value has `[deprecated = true]`. */
export function isDeprecatedValue(value: DescEnumValue): boolean {
  return value.proto.options?.deprecated === true;
}

const outputOnlyComment = /\[output only\]/i;

/**
 * True when the field is OUTPUT_ONLY: by `(google.api.field_behavior)`, or,
 * with `output_only_comments=true`, by a leading comment that says
 * `[Output Only]` (case-insensitive), as Compute Engine's protos do.
 */
export function isOutputOnlyField(
  field: DescField,
  rules: SchemaRules = defaultSchemaRules,
): boolean {
  return (
    isOutputOnly(field) ||
    (rules.outputOnlyComments &&
      outputOnlyComment.test(fieldLeadingComment(field)))
  );
}

/**
 * True when a tool's input schema leaves `field` out: `skip`, OUTPUT_ONLY
 * without IDENTIFIER (an identifier names the resource the call acts on),
 * or deprecated and not required (unless `deprecated=keep`). The one
 * exception is the schema builder's: it keeps such a field of a primitive
 * type where the method's HTTP path binds it (build-schema.ts,
 * isSkipped), which leads to no message type.
 */
export function leftOutOfInput(
  field: DescField,
  rules: SchemaRules = defaultSchemaRules,
): boolean {
  return (
    readToolField(field).skip ||
    (isOutputOnlyField(field, rules) && !isIdentifier(field)) ||
    (!rules.keepDeprecated &&
      isDeprecatedField(field) &&
      !isRequiredField(field))
  );
}
