import {
  isIdentifier,
  isOutputOnly,
  isRequired,
  perFieldOption,
  readToolField,
} from "../annotations.js";
import type { DescField } from "../descriptors.js";

// annotations.ts decodes `(google.api.field_behavior)` on every call.

/** {@link isOutputOnly}, decoded once per field. */
const outputOnly = perFieldOption(false, isOutputOnly);

/** {@link isIdentifier}, decoded once per field. */
const identifier = perFieldOption(false, isIdentifier);

/** {@link isRequired}, decoded once per field. */
const required = perFieldOption(false, isRequired);

/**
 * True when `(google.api.field_behavior)` includes REQUIRED: the argument
 * check (argument-table.ts) refuses a call without the field.
 */
export function isRequiredBehavior(field: DescField): boolean {
  return required(field);
}

/**
 * True when a tool's input schema leaves `field` out: `skip`, or
 * OUTPUT_ONLY without IDENTIFIER (an identifier names the resource the
 * call acts on). The one exception is the schema builder's: it keeps an
 * OUTPUT_ONLY field of a primitive type where the method's HTTP path binds
 * it (build-schema.ts, isSkipped), which leads to no message type.
 */
export function leftOutOfInput(field: DescField): boolean {
  return readToolField(field).skip || (outputOnly(field) && !identifier(field));
}
