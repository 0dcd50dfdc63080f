/**
 * Test helper: FieldMask schemas (a string with a hint, no pattern) made
 * to generate values every decoder reads.
 */

/** The paths protojson decodes: lowerCamel names, `.` and `,`. */
const decodableMask =
  "^([a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)*(,[a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)*)*)?$";

/**
 * The schema with a FieldMask's hint (mask-target.ts) given the pattern of
 * paths protojson decodes, for generating values only: the schema has no
 * pattern, since the argument check takes snake_case paths too, refuses a
 * path naming no field with a violation and sends lowerCamel (docs/
 * runtime.md, "Field masks"), which the fix-ups these tests call do not.
 */
export function withDecodableMasks<T>(node: T): T {
  if (Array.isArray(node)) {
    return node.map(withDecodableMasks) as T;
  }
  if (typeof node !== "object" || node === null) {
    return node;
  }
  // fromEntries defines a `__proto__` key as an own property.
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, withDecodableMasks(v)]),
  );
  const description = out["description"];
  if (
    out["type"] === "string" &&
    typeof description === "string" &&
    description.includes("Comma-separated field paths")
  ) {
    out["pattern"] = decodableMask;
  }
  return out as T;
}
