import type { DescField, DescMessage } from "../read/descriptors.js";
import { quoteJsonString } from "../schema/canonical-json.js";
import { isProtobufType } from "../schema/well-known.js";

/**
 * The `masks` of an argument table (docs/runtime.md, "Field masks"): per
 * message a FieldMask's paths walk, every field in declaration order
 * (output-only, deprecated and skipped ones too: read masks name them),
 * with `json` (protobuf's JSONCamelCase, which a FieldMask's JSON form
 * uses whatever json_name says) where it differs from the proto name,
 * `node` for a singular message field a path goes into, `list` and `map`.
 */
export interface MaskNodes {
  /**
   * The index of `message`'s node, numbering it and the messages below it
   * (depth first, in declaration order) on first sight.
   */
  index(message: DescMessage): number;
  /** The nodes as a JSON array; "" when no mask was numbered. */
  json(): string;
}

/** protobuf's JSONCamelCase: `_` dropped, a lower-case letter after one raised. */
export function jsonCamelCase(name: string): string {
  return name.replace(/_+([a-z])?/g, (_, c: string | undefined) =>
    c === undefined ? "" : c.toUpperCase(),
  );
}

/** The message a path goes into after `field`, or undefined. */
function nodeMessage(field: DescField): DescMessage | undefined {
  return field.fieldKind === "message" && !isProtobufType(field.message)
    ? field.message
    : undefined;
}

/** Create the empty mask nodes of one table. */
export function createMaskNodes(): MaskNodes {
  const indexes = new Map<DescMessage, number>();
  const order: DescMessage[] = [];
  const index = (message: DescMessage): number => {
    const known = indexes.get(message);
    if (known !== undefined) {
      return known;
    }
    const made = order.length;
    indexes.set(message, made);
    order.push(message);
    for (const field of message.fields) {
      const below = nodeMessage(field);
      if (below !== undefined) {
        index(below);
      }
    }
    return made;
  };
  const fieldJson = (field: DescField): string => {
    const parts: string[] = [];
    const json = jsonCamelCase(field.name);
    if (json !== field.name) parts.push(`"json":${quoteJsonString(json)}`);
    const below = nodeMessage(field);
    if (below !== undefined) parts.push(`"node":${indexes.get(below)!}`);
    if (field.fieldKind === "list") parts.push(`"list":true`);
    if (field.fieldKind === "map") parts.push(`"map":true`);
    return `${quoteJsonString(field.name)}:{${parts.join(",")}}`;
  };
  return {
    index,
    json() {
      if (order.length === 0) {
        return "";
      }
      const nodes = order.map(
        (m) => `{"fields":{${m.fields.map(fieldJson).join(",")}}}`,
      );
      return `[${nodes.join(",")}]`;
    },
  };
}
