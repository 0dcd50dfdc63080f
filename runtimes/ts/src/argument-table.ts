/**
 * A tool's argument table (docs/runtime.md, "Structure check"): the
 * messages of its schema as nodes, `nodes[0]` the request. The generated
 * code declares it as JSON text on `ToolMethod.arguments`.
 */
export interface ArgumentTable {
  readonly nodes: readonly ArgumentNode[];
  /**
   * The messages FieldMask paths name (docs/runtime.md, "Field masks"),
   * indexed by a field's `mask`; empty when no field is a FieldMask.
   */
  readonly masks: readonly MaskNode[];
}

/** One message as the tool's schema shows it. */
export interface ArgumentNode {
  /** The schema's property names, in schema order. */
  readonly names: readonly string[];
  /** The properties by name. */
  readonly fields: ReadonlyMap<string, ArgumentField>;
  /** The names that must be present and not `null`, in schema order. */
  readonly required: readonly string[];
}

/**
 * One property: a leaf (`node` undefined), a message (`node`), a repeated
 * message (`list`) or a map (`map`; with `node` when its values are
 * messages, without when they are not: only its entries form is checked).
 */
export interface ArgumentField {
  /** The field's JSON name, when the table gives it (lenient checks). */
  readonly json?: string | undefined;
  readonly node?: number | undefined;
  readonly list?: boolean | undefined;
  readonly map?: boolean | undefined;
  /**
   * A `google.protobuf.FieldMask` field (a string, or a list of them with
   * `list`): the index in {@link ArgumentTable.masks} of the message whose
   * field paths it holds.
   */
  readonly mask?: number | undefined;
}

/**
 * A message as FieldMask paths see it: every field, by proto name, in
 * declaration order (output-only, deprecated and skipped fields included).
 */
export interface MaskNode {
  /** The proto names, in declaration order. */
  readonly names: readonly string[];
  /** The fields by proto name. */
  readonly fields: ReadonlyMap<string, MaskField>;
  /** Proto names by lowerCamel name, for the fields whose differ. */
  readonly byJson: ReadonlyMap<string, string>;
}

/**
 * One field a mask path may name: a leaf, a message it may descend into
 * (`node`), a list (`list`: a leaf) or a map (`map`: one key segment).
 */
export interface MaskField {
  /** The protobuf JSON (lowerCamel) form, when it differs from the name. */
  readonly json?: string | undefined;
  /** The index in {@link ArgumentTable.masks} of its message. */
  readonly node?: number | undefined;
  readonly list?: boolean | undefined;
  readonly map?: boolean | undefined;
}

/**
 * Read an argument table's JSON text. Throws an Error naming the tool for
 * a table that is not one (a generated file out of step with the runtime).
 */
export function parseArgumentTable(
  toolName: string,
  text: string,
): ArgumentTable {
  const fail = (what: string) =>
    new Error(
      `tool ${JSON.stringify(toolName)}: invalid argument table: ${what}; regenerate the file with this runtime's protoc-gen-ai-tools`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw fail("not JSON");
  }
  const nodes = isObject(raw) ? raw["nodes"] : undefined;
  if (!Array.isArray(nodes) || nodes.length === 0) {
    throw fail(`no "nodes"`);
  }
  const masks = (isObject(raw) ? raw["masks"] : undefined) ?? [];
  if (!Array.isArray(masks)) {
    throw fail(`"masks" is not an array`);
  }
  return {
    nodes: nodes.map((n: unknown, i) => {
      const node = readNode(n, nodes.length, masks.length);
      if (node === undefined) {
        throw fail(`node ${i} is not {"fields": {…}, "required"?: […]}`);
      }
      return node;
    }),
    masks: masks.map((n: unknown, i) => {
      const node = readMaskNode(n, masks.length);
      if (node === undefined) {
        throw fail(`mask ${i} is not {"fields": {…}}`);
      }
      return node;
    }),
  };
}

function readNode(
  n: unknown,
  count: number,
  maskCount: number,
): ArgumentNode | undefined {
  if (!isObject(n) || !isObject(n["fields"])) {
    return undefined;
  }
  const fields = readFields(n["fields"], count, maskCount);
  if (fields === undefined) {
    return undefined;
  }
  const required = n["required"] ?? [];
  if (
    !Array.isArray(required) ||
    !required.every((r) => typeof r === "string" && fields.has(r))
  ) {
    return undefined;
  }
  return { names: [...fields.keys()], fields, required: required as string[] };
}

function readMaskNode(n: unknown, count: number): MaskNode | undefined {
  if (!isObject(n) || !isObject(n["fields"])) {
    return undefined;
  }
  // A mask node's fields point at mask nodes and have no masks.
  const fields = readFields(n["fields"], count, 0);
  if (fields === undefined) {
    return undefined;
  }
  const byJson = new Map<string, string>();
  for (const [name, f] of fields) {
    if (f.json !== undefined && !byJson.has(f.json)) {
      byJson.set(f.json, name);
    }
  }
  return { names: [...fields.keys()], fields, byJson };
}

/**
 * The field entries of a node, `node` indexes below `count` and `mask`
 * indexes below `maskCount`; undefined when one is not an entry.
 */
function readFields(
  raw: Record<string, unknown>,
  count: number,
  maskCount: number,
): Map<string, ArgumentField> | undefined {
  const fields = new Map<string, ArgumentField>();
  for (const [name, f] of Object.entries(raw)) {
    if (!isObject(f)) {
      return undefined;
    }
    const { node, mask, json } = f;
    if (
      !isIndex(node, count) ||
      !isIndex(mask, maskCount) ||
      (json !== undefined && typeof json !== "string")
    ) {
      return undefined;
    }
    fields.set(name, {
      json,
      node,
      list: f["list"] === true,
      map: f["map"] === true,
      mask,
    });
  }
  return fields;
}

/** Absent, or an index below `count`. */
function isIndex(v: unknown, count: number): v is number | undefined {
  return (
    v === undefined ||
    (Number.isInteger(v) && (v as number) >= 0 && (v as number) < count)
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The node of a map entry given as `{"key": …, "value": …}`; its value is
 * checked against `valueNode` when the map's values are messages.
 */
export function entryNode(valueNode: number | undefined): ArgumentNode {
  return {
    names: ["key", "value"],
    fields: new Map<string, ArgumentField>([
      ["key", {}],
      ["value", valueNode === undefined ? {} : { node: valueNode }],
    ]),
    required: ["key", "value"],
  };
}
