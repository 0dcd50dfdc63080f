import type { DescField, DescMessage } from "../read/descriptors.js";

/**
 * The message a field holds: its type when singular, its element type when
 * repeated, its value type when a map; undefined for any other field.
 */
export function heldMessage(field: DescField): DescMessage | undefined {
  switch (field.fieldKind) {
    case "message":
      return field.message;
    case "list":
      return field.listKind === "message" ? field.message : undefined;
    case "map":
      return field.mapKind === "message" ? field.message : undefined;
    default:
      return undefined;
  }
}
