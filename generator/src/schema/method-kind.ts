/**
 * The AIP standard method kinds a method's name shows (docs/mcp.md, "Tool
 * hints"): a prefix followed by an upper-case letter or the end of the name.
 */
export type MethodKind = "read" | "list" | "create" | "change" | "other";

const prefixes: readonly (readonly [string, MethodKind])[] = [
  ["BatchCreate", "create"],
  ["BatchDelete", "change"],
  ["BatchUpdate", "change"],
  ["BatchGet", "list"],
  ["Create", "create"],
  ["Delete", "change"],
  ["Update", "change"],
  ["Search", "list"],
  ["Watch", "read"],
  ["List", "list"],
  ["Get", "read"],
];

/** True when `name` is `prefix` followed by an upper-case letter or nothing. */
export function hasMethodPrefix(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) {
    return false;
  }
  const next = name.charAt(prefix.length);
  return next === "" || (next >= "A" && next <= "Z");
}

/**
 * The kind of a method named `name`: `read` (Get, Watch), `list` (List,
 * Search, BatchGet: reads returning many), `create` (Create, BatchCreate),
 * `change` (Update, Delete and their Batch forms), else `other`.
 */
export function methodKind(name: string): MethodKind {
  for (const [prefix, kind] of prefixes) {
    if (hasMethodPrefix(name, prefix)) {
      return kind;
    }
  }
  return "other";
}
