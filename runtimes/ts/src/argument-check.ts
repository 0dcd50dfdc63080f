import {
  entryNode,
  type ArgumentField,
  type ArgumentNode,
  type ArgumentTable,
} from "./argument-table.js";
import { validFieldsNote } from "./did-you-mean.js";
import { checkFieldMask } from "./field-mask.js";
import {
  isJsonMap,
  jsonKind,
  tryParseJson,
  sortedKeys,
  type JsonMap,
  type JsonTree,
} from "./json.js";
import { childPath, type Violation } from "./violations.js";

/** The outcome of {@link readArguments}. */
export type ReadArguments =
  | { readonly args: JsonMap; readonly violation?: undefined }
  | { readonly args?: undefined; readonly violation: Violation };

/**
 * Stage 1 of a call: the arguments' text as one JSON object, else the one
 * violation (without a field) saying what it is instead.
 */
export function readArguments(text: unknown): ReadArguments {
  if (typeof text !== "string") {
    return refused(
      "invalid-json",
      `expected the arguments as JSON text, got ${typeof text}`,
    );
  }
  const tree = tryParseJson(text);
  if (tree === undefined) {
    return refused(
      "invalid-json",
      "invalid JSON; send the arguments as one JSON object",
    );
  }
  if (!isJsonMap(tree)) {
    return refused(
      "not-an-object",
      `expected a JSON object, got ${jsonKind(tree)}`,
    );
  }
  return { args: tree };
}

function refused(
  reason: "invalid-json" | "not-an-object",
  message: string,
): ReadArguments {
  return { violation: { field: "", reason, message } };
}

/** Options of {@link checkArguments}. */
export interface ArgumentCheckOptions {
  /**
   * Skip the unknown-field check (plugin option `lenient_arguments=true`):
   * unknown keys are left for the decoder to drop, and a required field
   * may also be given by its JSON name.
   */
  readonly lenient?: boolean | undefined;
  /** Names at the root that are never unknown (MCP's added properties). */
  readonly extraRoot?: ReadonlySet<string> | undefined;
}

/** A FieldMask field present in the arguments, as the walk found it. */
interface MaskSite {
  readonly obj: JsonMap;
  /** The key it is present under (its JSON name, when lenient). */
  readonly key: string;
  readonly field: ArgumentField;
  readonly path: string;
}

/**
 * Check the arguments' structure against the tool's argument table
 * (docs/runtime.md, "Structure check"): every unknown key, then every
 * missing required field, of each object, depth first in schema order;
 * then the paths of every FieldMask field (lenient or not), each good mask
 * REPLACED in `args` by its wire form. Values of the wrong JSON kind are
 * left for the fix-up to report.
 */
export function checkArguments(
  args: JsonMap,
  table: ArgumentTable,
  options: ArgumentCheckOptions = {},
): Violation[] {
  const out: Violation[] = [];
  const maskSites: MaskSite[] = [];
  const walk = (
    obj: JsonMap,
    node: ArgumentNode,
    path: string,
    root: boolean,
  ) => {
    if (options.lenient !== true) {
      for (const key of sortedKeys(obj)) {
        if (
          !node.fields.has(key) &&
          !(root && options.extraRoot?.has(key) === true)
        ) {
          out.push({
            field: childPath(path, key),
            reason: "unknown-field",
            message: unknownFieldMessage(key, node.names),
          });
        }
      }
    }
    for (const name of node.required) {
      const v = valueOf(obj, name, node, options.lenient === true);
      if (v === undefined || v === null) {
        out.push({
          field: childPath(path, name),
          reason: "required",
          message: "missing required field",
        });
      }
    }
    for (const name of node.names) {
      const field = node.fields.get(name) as ArgumentField;
      if (field.mask !== undefined) {
        const key = keyOf(obj, name, node, options.lenient === true);
        if (key !== undefined) {
          maskSites.push({ obj, key, field, path: childPath(path, name) });
        }
        continue;
      }
      const v =
        field.node === undefined && field.map !== true
          ? undefined
          : valueOf(obj, name, node, options.lenient === true);
      if (v !== undefined && v !== null) {
        walkField(v, field, childPath(path, name));
      }
    }
  };
  const walkField = (v: JsonTree, field: ArgumentField, path: string) => {
    const message =
      field.node === undefined ? undefined : table.nodes[field.node];
    if (field.map === true && isJsonMap(v)) {
      // A map of non-messages given as an object is not looked into.
      for (const key of message === undefined ? [] : sortedKeys(v)) {
        const item = v[key];
        if (isJsonMap(item)) {
          walk(item, message as ArgumentNode, `${path}.${key}`, false);
        }
      }
    } else if (field.map === true || field.list === true) {
      const itemNode = field.map === true ? entryNode(field.node) : message;
      if (Array.isArray(v) && itemNode !== undefined) {
        v.forEach((item, i) => {
          if (isJsonMap(item)) {
            walk(item, itemNode, `${path}[${i}]`, false);
          }
        });
      }
    } else if (isJsonMap(v) && message !== undefined) {
      walk(v, message, path, false);
    }
  };
  walk(args, table.nodes[0]!, "", true);
  for (const site of maskSites) {
    checkMask(site, table, out);
  }
  return out;
}

/**
 * Check the paths of one FieldMask field (each string item of a list),
 * adding a violation per bad path to `out` and writing each good value's
 * wire form in its place. Values of other kinds are left as they are.
 */
function checkMask(site: MaskSite, table: ArgumentTable, out: Violation[]) {
  const mask = site.field.mask as number;
  const check = (value: JsonTree, path: string): JsonTree => {
    if (typeof value !== "string") {
      return value;
    }
    const checked = checkFieldMask(value, table.masks, mask);
    for (const message of checked.problems ?? []) {
      out.push({ field: path, reason: "invalid-value", message });
    }
    return checked.wire ?? value;
  };
  const value = site.obj[site.key] as JsonTree;
  if (site.field.list !== true) {
    site.obj[site.key] = check(value, site.path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      value[i] = check(item, `${site.path}[${i}]`);
    });
  }
}

/**
 * The value of a field: by its name; when lenient and that is absent or
 * `null`, by the JSON name the table gives it.
 */
function valueOf(
  obj: JsonMap,
  name: string,
  node: ArgumentNode,
  lenient: boolean,
): JsonTree | undefined {
  const key = keyOf(obj, name, node, lenient);
  return key === undefined ? undefined : obj[key];
}

/**
 * The key a field's value is under: its name when present and not `null`;
 * when lenient, else its JSON name when present; else its name when
 * present (`null`), else undefined.
 */
function keyOf(
  obj: JsonMap,
  name: string,
  node: ArgumentNode,
  lenient: boolean,
): string | undefined {
  const has = Object.hasOwn(obj, name);
  const json = lenient ? node.fields.get(name)?.json : undefined;
  if ((!has || obj[name] === null) && json !== undefined) {
    if (Object.hasOwn(obj, json)) {
      return json;
    }
  }
  return has ? name : undefined;
}

/**
 * `unknown field; did you mean "id"? valid fields: id, title`, without the
 * question when nothing is close, or `unknown field; no fields are valid
 * here`.
 */
export function unknownFieldMessage(
  key: string,
  names: readonly string[],
): string {
  return `unknown field; ${validFieldsNote(key, names)}`;
}
