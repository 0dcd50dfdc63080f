/**
 * The sentence that says, in a compact schema, what the members of a oneof
 * written side by side cannot say by themselves: that at most one of them
 * is set. The executors refuse two (docs/compat.md, "What the invariants do
 * not cover"); protobuf JSON also takes none. Undefined when no oneof has
 * two members or more.
 */
export function oneofNote(
  groups: readonly (readonly string[])[],
): string | undefined {
  const parts = groups
    .filter((members) => members.length > 1)
    .map((members) => `at most one of ${members.join(", ")}`);
  if (parts.length === 0) {
    return undefined;
  }
  return `Set ${parts.join("; ")}.`;
}
