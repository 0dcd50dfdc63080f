import type { DescField } from "../read/descriptors.js";
import {
  readFieldContextDescription,
  readToolField,
} from "../read/annotations.js";
import { cleanComment, fieldLeadingComment } from "./comments.js";
import { wellFormed } from "./well-formed.js";

const descriptions = new WeakMap<DescField, string>();

/**
 * The description a field carries in the schema: `tool_field.description`,
 * else `field_context.description`, else the leading comment, trimmed; then
 * `usage_notes` appended after a blank line. Empty when there is nothing.
 * A comment is cleaned as a method's (comments.ts, cleanComment): its
 * common indentation taken off, linter directives dropped.
 * Read once per field: a field of a shared message is in many tools.
 */
export function fieldDescription(field: DescField): string {
  let description = descriptions.get(field);
  if (description === undefined) {
    description = readDescription(field);
    descriptions.set(field, description);
  }
  return description;
}

function readDescription(field: DescField): string {
  const options = readToolField(field);
  let description = options.description;
  if (description === "") {
    description = readFieldContextDescription(field);
  }
  if (description === "") {
    description = cleanComment(fieldLeadingComment(field));
  }
  description = description.trim();
  const notes = options.usageNotes.trim();
  if (notes === "") {
    return wellFormed(description);
  }
  return wellFormed(description === "" ? notes : `${description}\n\n${notes}`);
}
