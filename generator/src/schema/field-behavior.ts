import type { DescField } from "../descriptors.js";
import { isIdentifier, isOutputOnly, noExtensions } from "../annotations.js";

// annotations.ts decodes `(google.api.field_behavior)` on every call; the
// schema builders ask once per field and tool, for fields shared by many.
// A field whose options carry no extension (most) has no entry.
const outputOnlyCache = new WeakMap<DescField, boolean>();
const identifierCache = new WeakMap<DescField, boolean>();

/** {@link isOutputOnly}, decoded once per field. */
export function outputOnly(field: DescField): boolean {
  if (noExtensions(field.proto.options)) {
    return false;
  }
  let value = outputOnlyCache.get(field);
  if (value === undefined) {
    value = isOutputOnly(field);
    outputOnlyCache.set(field, value);
  }
  return value;
}

/** {@link isIdentifier}, decoded once per field. */
export function identifier(field: DescField): boolean {
  if (noExtensions(field.proto.options)) {
    return false;
  }
  let value = identifierCache.get(field);
  if (value === undefined) {
    value = isIdentifier(field);
    identifierCache.set(field, value);
  }
  return value;
}
