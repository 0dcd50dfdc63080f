/**
 * A tool's argument table (docs/runtime.md, "Structure check"): the
 * messages of its schema as nodes, `nodes[0]` the request. The generated
 * code declares it as JSON text on `ToolMethod.arguments`.
 */
export interface ArgumentTable {
  readonly nodes: readonly ArgumentNode[];
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
  return {
    nodes: nodes.map((n: unknown, i) => {
      const node = readNode(n, nodes.length);
      if (node === undefined) {
        throw fail(`node ${i} is not {"fields": {…}, "required"?: […]}`);
      }
      return node;
    }),
  };
}

function readNode(n: unknown, count: number): ArgumentNode | undefined {
  if (!isObject(n) || !isObject(n["fields"])) {
    return undefined;
  }
  const fields = new Map<string, ArgumentField>();
  for (const [name, f] of Object.entries(n["fields"])) {
    if (!isObject(f)) {
      return undefined;
    }
    const node = f["node"];
    if (
      node !== undefined &&
      !(
        Number.isInteger(node) &&
        (node as number) >= 0 &&
        (node as number) < count
      )
    ) {
      return undefined;
    }
    const json = f["json"];
    if (json !== undefined && typeof json !== "string") {
      return undefined;
    }
    fields.set(name, {
      json,
      node: node as number | undefined,
      list: f["list"] === true,
      map: f["map"] === true,
    });
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
