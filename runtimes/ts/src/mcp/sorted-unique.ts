/** Strings sorted by code unit, each once (scope lists). */
export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}
