import { readToolField } from "../read/annotations.js";
import type { DescField } from "../read/descriptors.js";

/**
 * Prefixes the generator gives fields without an annotation, by
 * `<message>.<field>`: a long-running operation's name (docs/runtime.md,
 * "Long-running operations"), so that the model follows `operation-1`.
 */
const synthesized: ReadonlyMap<string, string> = new Map([
  ["google.longrunning.GetOperationRequest.name", "operation"],
  ["google.longrunning.Operation.name", "operation"],
]);

/**
 * The alias prefix a field takes (`acct`), or "": its `alias_prefix`
 * annotation, else a synthesized one. The one place the generator reads
 * prefixes (the legacy Go `responseFieldPrefixes` aside, which keeps the
 * annotated ones only).
 */
export function aliasPrefixOf(field: DescField): string {
  const own = readToolField(field).aliasPrefix;
  return own !== ""
    ? own
    : (synthesized.get(`${field.parent.typeName}.${field.name}`) ?? "");
}

/**
 * True when a response field registers any non-empty string, not only
 * UUIDs (ResponseAliasField `anyValue`): a synthesized prefix on
 * google.longrunning.Operation.name, whose names are paths.
 */
export function takesAnyValue(field: DescField): boolean {
  return (
    readToolField(field).aliasPrefix === "" &&
    synthesized.has(`${field.parent.typeName}.${field.name}`)
  );
}
