import {
  isIdentifier,
  isOutputOnly,
  perFieldOption,
  readToolField,
} from "../annotations.js";
import type { DescField } from "../descriptors.js";

// annotations.ts decodes `(google.api.field_behavior)` on every call.

/** {@link isOutputOnly}, decoded once per field. */
export const outputOnly = perFieldOption(false, isOutputOnly);

/** {@link isIdentifier}, decoded once per field. */
export const identifier = perFieldOption(false, isIdentifier);

/**
 * True when a tool's input schema leaves `field` out wherever the field
 * sits: `skip`, or OUTPUT_ONLY without IDENTIFIER (an identifier names the
 * resource the call acts on). The schema builder keeps an OUTPUT_ONLY
 * field that the method's HTTP path binds too, at that path only
 * (build-schema.ts); a path binds a field of a primitive type
 * (google/api/http.proto), so that exception reaches no message type and
 * the cycle graph of the definitions (schema-defs.ts) can do without it.
 */
export function leftOutOfInput(field: DescField): boolean {
  return readToolField(field).skip || (outputOnly(field) && !identifier(field));
}
