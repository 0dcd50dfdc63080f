import { isIdentifier, isOutputOnly, perFieldOption } from "../annotations.js";

// annotations.ts decodes `(google.api.field_behavior)` on every call.

/** {@link isOutputOnly}, decoded once per field. */
export const outputOnly = perFieldOption(false, isOutputOnly);

/** {@link isIdentifier}, decoded once per field. */
export const identifier = perFieldOption(false, isIdentifier);
