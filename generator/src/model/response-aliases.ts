import { ScalarType } from "@bufbuild/protobuf";
import { isProtobufType } from "../schema/well-known.js";
import type { DescField, DescMessage } from "../read/descriptors.js";
import { aliasPrefixOf, takesAnyValue } from "../schema/alias-prefix.js";
import { sortUtf8 } from "./utf8-order.js";
import { heldMessage } from "../schema/held-message.js";

/**
 * One field of a message type in the response registration table
 * (docs/runtime.md, "Response registration").
 */
export interface ResponseAliasField {
  /** The field's JSON name: responses are written with JSON names. */
  readonly field: string;
  /** The alias prefix of the strings the field holds, or "". */
  readonly prefix: string;
  /** The full name of the message the field holds, when it is in the table, or "". */
  readonly message: string;
  /** True for a map field: its values are visited, not the object. */
  readonly map: boolean;
  /**
   * True when any non-empty string registers, not only a UUID
   * (google.longrunning.Operation.name: alias-prefix.ts).
   */
  readonly anyValue: boolean;
}

/** How one auto-executed tool's response registers its ids. */
export interface ResponseAliasTool {
  /** The response message (of each item, for a server-streaming tool). */
  readonly message: string;
  /** The prefix of the top-level entity's unannotated `id`, or "". */
  readonly idPrefix: string;
  /** The JSON name of the entity field, or "" for the response itself. */
  readonly idField: string;
}

/** True when the field holds strings: a string, repeated string or map to string. */
function holdsStrings(field: DescField): boolean {
  switch (field.fieldKind) {
    case "scalar":
      return field.scalar === ScalarType.STRING;
    case "list":
      return field.listKind === "scalar" && field.scalar === ScalarType.STRING;
    case "map":
      return field.mapKind === "scalar" && field.scalar === ScalarType.STRING;
    default:
      return false;
  }
}

function prefixOf(field: DescField): string {
  return holdsStrings(field) ? aliasPrefixOf(field) : "";
}

function hasStringId(message: DescMessage): DescField | undefined {
  return message.fields.find(
    (f) => f.jsonName === "id" && f.fieldKind === "scalar" && holdsStrings(f),
  );
}

/**
 * The registration table of a set of response messages: every message type
 * reachable from them (nested, repeated, map values, oneof members; never
 * `google.protobuf.*`) that holds an aliased string field, directly or
 * through its messages. Sorted by type name; fields in declaration order.
 */
export function responseAliasTypes(
  roots: readonly DescMessage[],
): [string, ResponseAliasField[]][] {
  const reachable = new Map<string, DescMessage>();
  // The reachable types holding each type, to find the fixpoint below
  // without sweeping every type again per round: messages may be recursive.
  const holders = new Map<string, DescMessage[]>();
  const aliased: DescMessage[] = [];
  const collect = (message: DescMessage): void => {
    if (isProtobufType(message) || reachable.has(message.typeName)) {
      return;
    }
    reachable.set(message.typeName, message);
    let hasAliasedField = false;
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      if (!hasAliasedField && prefixOf(field) !== "") {
        hasAliasedField = true;
      }
      const held = heldMessage(field);
      if (held !== undefined) {
        const list = holders.get(held.typeName);
        if (list === undefined) {
          holders.set(held.typeName, [message]);
        } else {
          list.push(message);
        }
        collect(held);
      }
    }
    if (hasAliasedField) {
      aliased.push(message);
    }
  };
  roots.forEach(collect);
  // A type is in the table when it has an aliased field or holds a type in
  // the table: the types with an aliased field and every type that reaches
  // one through the messages its fields hold.
  const inTable = new Set<string>();
  const pending: DescMessage[] = [];
  for (let i = 0; i < aliased.length; i++) {
    const message = aliased[i]!;
    inTable.add(message.typeName);
    pending.push(message);
  }
  while (pending.length > 0) {
    const message = pending.pop()!;
    const list = holders.get(message.typeName) ?? [];
    for (let i = 0; i < list.length; i++) {
      const holder = list[i]!;
      if (!inTable.has(holder.typeName)) {
        inTable.add(holder.typeName);
        pending.push(holder);
      }
    }
  }
  const out: [string, ResponseAliasField[]][] = [];
  for (let i = 0, names = sortUtf8([...inTable]); i < names.length; i++) {
    const name = names[i]!;
    const fields: ResponseAliasField[] = [];
    for (let j = 0, list = reachable.get(name)!.fields; j < list.length; j++) {
      const field = list[j]!;
      const held = heldMessage(field);
      const message =
        held !== undefined && inTable.has(held.typeName) ? held.typeName : "";
      const prefix = prefixOf(field);
      if (prefix !== "" || message !== "") {
        fields.push({
          field: field.jsonName,
          prefix,
          message,
          map: field.fieldKind === "map",
          anyValue: prefix !== "" && takesAnyValue(field),
        });
      }
    }
    out.push([name, fields]);
  }
  return out;
}

/**
 * How a tool's top-level output entity registers its unannotated `id`
 * (docs/runtime.md): only when the tool's primary prefix did not come from
 * an annotated `id` of the response, which registers itself.
 */
export function entityId(
  response: DescMessage,
  primaryPrefix: string,
): { idPrefix: string; idField: string } {
  const none = { idPrefix: "", idField: "" };
  const entities = response.fields.filter((f) => {
    const held = heldMessage(f);
    return f.fieldKind !== "map" && held !== undefined && !isProtobufType(held);
  });
  const annotatedId = (message: DescMessage): boolean =>
    message.fields.some((f) => f.jsonName === "id" && aliasPrefixOf(f) !== "");
  if (
    primaryPrefix === "" ||
    annotatedId(response) ||
    entities.some((f) => annotatedId(heldMessage(f)!))
  ) {
    return none;
  }
  if (hasStringId(response) !== undefined) {
    return { idPrefix: primaryPrefix, idField: "" };
  }
  const entity = entities.find((f) => hasStringId(heldMessage(f)!));
  return entity === undefined
    ? none
    : { idPrefix: primaryPrefix, idField: entity.jsonName };
}
