import { readToolField } from "../annotations.js";
import type { DescField } from "../descriptors.js";

/**
 * The alias prefix a request field takes (`acct`), or "": the one place the
 * schema reads it, so that prefixes the generator synthesizes (issue 31's
 * `operation` on google.longrunning names) reach descriptions too.
 */
export function aliasPrefixOf(field: DescField): string {
  return readToolField(field).aliasPrefix;
}
