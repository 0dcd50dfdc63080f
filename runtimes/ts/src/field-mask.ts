import type { MaskField, MaskNode } from "./argument-table.js";
import { quote } from "./json.js";
import { validFieldsNote } from "./did-you-mean.js";

/** The outcome of {@link checkFieldMask}. */
export type CheckedFieldMask =
  | { readonly wire: string; readonly problems?: undefined }
  | { readonly wire?: undefined; readonly problems: readonly string[] };

/**
 * Check a FieldMask value as the model wrote it (docs/runtime.md, "Field
 * masks"): comma-separated paths, white space around each trimmed, empty
 * ones dropped; each path `*` or dot-separated field names walked from
 * `masks[root]`, each by proto name or lowerCamel name. Returns the wire
 * form (every field written lowerCamel, map keys and `*` as written, joined
 * by `,`), else one message per bad path, in the order of the paths. A map
 * key must be lower-case letters and digits, starting with a letter: the
 * only keys the JSON form of a mask carries unchanged.
 */
export function checkFieldMask(
  value: string,
  masks: readonly MaskNode[],
  root: number,
): CheckedFieldMask {
  const wire: string[] = [];
  const problems: string[] = [];
  for (const path of value.split(",").map(trimSpaces)) {
    if (path === "") {
      continue;
    }
    const checked: CheckedPath =
      path === "*" ? { ok: true, wire: path } : checkPath(path, masks, root);
    if (checked.ok) {
      wire.push(checked.wire);
    } else {
      problems.push(checked.problem);
    }
  }
  return problems.length > 0 ? { problems } : { wire: wire.join(",") };
}

/**
 * A map key the JSON form of a FieldMask can carry: protojson, protobuf-es
 * fromJson and json_format refuse `_` in a path and read an upper-case
 * letter as `_` and its lower-case form.
 */
const MAP_KEY = /^[a-z][a-z0-9]*$/;

type CheckedPath =
  | { readonly ok: true; readonly wire: string }
  | { readonly ok: false; readonly problem: string };

/** One path: its wire form, or what is wrong with it. */
function checkPath(
  path: string,
  masks: readonly MaskNode[],
  root: number,
): CheckedPath {
  const out: string[] = [];
  let node = masks[root] as MaskNode;
  // The field whose name a further segment would follow, when it has no
  // fields; after a map, the map once its key has been read.
  let leaf: string | undefined;
  let mapField: string | undefined;
  for (const seg of path.split(".")) {
    if (seg === "") {
      return fail(`empty field name in path ${quote(path)}`);
    }
    if (mapField !== undefined) {
      if (!MAP_KEY.test(seg)) {
        return fail(
          `map key ${quote(seg)} in path ${quote(path)} cannot be sent in a field mask: keys there take lower-case letters and digits only, starting with a letter`,
        );
      }
      out.push(seg);
      leaf = mapField;
      mapField = undefined;
      continue;
    }
    if (leaf !== undefined) {
      return fail(`field ${quote(leaf)} has no fields, in path ${quote(path)}`);
    }
    const name = node.fields.has(seg) ? seg : node.byJson.get(seg);
    if (name === undefined) {
      return fail(
        `unknown field ${quote(seg)} in path ${quote(path)}; ${validFieldsNote(seg, node.names)}`,
      );
    }
    const field = node.fields.get(name) as MaskField;
    out.push(field.json ?? name);
    if (field.map === true) {
      mapField = name;
    } else if (field.node !== undefined && field.list !== true) {
      node = masks[field.node] as MaskNode;
    } else {
      leaf = name;
    }
  }
  return { ok: true, wire: out.join(".") };
}

function fail(problem: string): CheckedPath {
  return { ok: false, problem };
}

/** The path without ASCII spaces, tabs and line ends around it. */
function trimSpaces(s: string): string {
  return s.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
}
