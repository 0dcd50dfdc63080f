import {
  entryNode,
  type ArgumentField,
  type ArgumentNode,
  type ArgumentTable,
} from "./argument-table.js";
import { didYouMean } from "./did-you-mean.js";
import {
  isJsonMap,
  jsonKind,
  tryParseJson,
  quote,
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

/**
 * Check the arguments' structure against the tool's argument table
 * (docs/runtime.md, "Structure check"): every unknown key, then every
 * missing required field, of each object, depth first in schema order.
 * Values of the wrong JSON kind are left for the fix-up to report.
 */
export function checkArguments(
  args: JsonMap,
  table: ArgumentTable,
  options: ArgumentCheckOptions = {},
): Violation[] {
  const out: Violation[] = [];
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
  return out;
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
  const value = Object.hasOwn(obj, name) ? obj[name] : undefined;
  const json = lenient ? node.fields.get(name)?.json : undefined;
  if ((value === undefined || value === null) && json !== undefined) {
    return Object.hasOwn(obj, json) ? obj[json] : value;
  }
  return value;
}

/** How many valid fields an unknown-field message lists. */
const fieldsListed = 20;

/**
 * `unknown field; did you mean "id"? valid fields: id, title`, without the
 * question when nothing is close, or `unknown field; no fields are valid
 * here`.
 */
export function unknownFieldMessage(
  key: string,
  names: readonly string[],
): string {
  if (names.length === 0) {
    return "unknown field; no fields are valid here";
  }
  const guess = didYouMean(key, names);
  let list = names.slice(0, fieldsListed).join(", ");
  if (names.length > fieldsListed) {
    list += `, and ${names.length - fieldsListed} more`;
  }
  return `unknown field; ${guess === undefined ? "" : `did you mean ${quote(guess)}? `}valid fields: ${list}`;
}
