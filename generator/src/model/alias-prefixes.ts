import type { DescField, DescFile, DescMessage } from "../read/descriptors.js";
import { isProtobufType } from "../schema/well-known.js";
import { readToolField } from "../read/annotations.js";
import type { ProblemCollector } from "../errors.js";
import { aliasPrefixOf } from "../schema/alias-prefix.js";
import type { AliasField } from "./model.js";

/** The annotated prefix only (the legacy table knows no synthesized one). */
function annotatedPrefixOf(field: DescField): string {
  return readToolField(field).aliasPrefix;
}

/**
 * The shape of an alias prefix: an alias is `<prefix>-<digits>`, split at
 * its last `-`, and travels as a JSON string and in generated code.
 */
const prefixPattern = /^[a-zA-Z](?:[a-zA-Z0-9_-]{0,62}[a-zA-Z0-9_])?$/;

/**
 * Add a problem for each field with an alias_prefix that cannot form aliases
 * (see prefixPattern): the fields of every message of `files`, nested ones
 * included, and of the messages they reach in other files.
 */
export function checkAliasPrefixes(
  files: readonly DescFile[],
  problems: ProblemCollector,
): void {
  const visited = new Set<string>();
  const walk = (message: DescMessage): void => {
    if (visited.has(message.typeName)) {
      return;
    }
    visited.add(message.typeName);
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const prefix = aliasPrefixOf(field);
      if (prefix !== "" && !prefixPattern.test(prefix)) {
        const pkg = message.file.proto.package;
        problems.add({
          file: message.file.proto.name,
          element: `${pkg === "" ? message.typeName : message.typeName.slice(pkg.length + 1)}.${field.name}`,
          message: `alias_prefix ${JSON.stringify(prefix)} cannot form aliases (<prefix>-<n>); use 1 to 64 letters, digits, "_" or "-", starting with a letter and not ending with "-" (${prefixPattern.source})`,
        });
      }
      const inner =
        field.fieldKind === "message" ||
        (field.fieldKind === "list" && field.listKind === "message") ||
        (field.fieldKind === "map" && field.mapKind === "message")
          ? field.message
          : undefined;
      if (inner !== undefined) {
        walk(inner);
      }
    }
    message.nestedMessages.forEach(walk);
  };
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    file.messages.forEach(walk);
  }
}

/** The request fields with an alias_prefix, in declaration order. */
export function requestAliasFields(request: DescMessage): AliasField[] {
  const out: AliasField[] = [];
  for (let i = 0, fields = request.fields; i < fields.length; i++) {
    const field = fields[i]!;
    const prefix = aliasPrefixOf(field);
    if (prefix !== "") {
      out.push({ name: field.name, jsonName: field.jsonName, prefix });
    }
  }
  return out;
}

/**
 * The tool's primary prefix (docs/runtime.md): the response's own `id`, else the
 * `id` of its first top-level entity, else the request's `id`, else the
 * first request alias field, else "".
 */
export function outputPrefix(
  response: DescMessage,
  requestFields: readonly AliasField[],
): string {
  for (let i = 0, fields = response.fields; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.jsonName === "id" && aliasPrefixOf(field) !== "") {
      return aliasPrefixOf(field);
    }
  }
  for (let i = 0, fields = response.fields; i < fields.length; i++) {
    const field = fields[i]!;
    const message =
      field.fieldKind === "message"
        ? field.message
        : field.fieldKind === "list" && field.listKind === "message"
          ? field.message
          : undefined;
    if (message === undefined || isProtobufType(message)) {
      continue;
    }
    for (let j = 0, inners = message.fields; j < inners.length; j++) {
      const inner = inners[j]!;
      if (inner.jsonName === "id" && aliasPrefixOf(inner) !== "") {
        return aliasPrefixOf(inner);
      }
    }
  }
  const id = requestFields.find((f) => f.name === "id");
  if (id !== undefined) {
    return id.prefix;
  }
  return requestFields[0]?.prefix ?? "";
}

/**
 * Response JSON name → alias prefix, walking nested, repeated and map-value
 * messages once each, skipping google.protobuf.*. `id` maps to "" (use the
 * tool's primary prefix); otherwise the first entry wins.
 */
export function responseFieldPrefixes(
  response: DescMessage,
): Map<string, string> {
  const out = new Map<string, string>();
  const visited = new Set<string>();
  const walk = (message: DescMessage): void => {
    if (visited.has(message.typeName) || isProtobufType(message)) {
      return;
    }
    visited.add(message.typeName);
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const prefix = annotatedPrefixOf(field);
      if (prefix !== "") {
        if (field.jsonName === "id") {
          out.set("id", "");
        } else if (!out.has(field.jsonName)) {
          out.set(field.jsonName, prefix);
        }
      }
      if (field.fieldKind === "message") {
        walk(field.message);
      } else if (field.fieldKind === "list" && field.listKind === "message") {
        walk(field.message);
      } else if (field.fieldKind === "map" && field.mapKind === "message") {
        walk(field.message);
      }
    }
  };
  walk(response);
  return out;
}
