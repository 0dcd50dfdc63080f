/**
 * `$ref` cycles of a tool schema, for the adapters that derive a provider's
 * form: a compact strict tool generated for OpenAI alone
 * (`providers=openai`) keeps its recursion, which Anthropic strict tool use
 * refuses outright and Gemini refuses through required properties
 * (docs/compat.md, "$defs and $ref").
 */

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const branchKeys = ["anyOf", "oneOf", "allOf"];

/**
 * The `$ref` targets found below `node` without following them, and
 * without passing a property its object does not require when
 * `onlyRequired`.
 */
function refsBelow(
  node: unknown,
  onlyRequired: boolean,
  out: Set<string>,
): void {
  if (!isNode(node)) {
    return;
  }
  const ref = node["$ref"];
  if (typeof ref === "string") {
    out.add(ref);
  }
  const properties = node["properties"];
  if (isNode(properties)) {
    const required = Array.isArray(node["required"]) ? node["required"] : [];
    for (const [name, sub] of Object.entries(properties)) {
      if (!onlyRequired || required.includes(name)) {
        refsBelow(sub, onlyRequired, out);
      }
    }
  }
  refsBelow(node["items"], onlyRequired, out);
  refsBelow(node["additionalProperties"], onlyRequired, out);
  for (const key of branchKeys) {
    const branches = node[key];
    if (Array.isArray(branches)) {
      branches.forEach((b) => refsBelow(b, onlyRequired, out));
    }
  }
}

/**
 * The first `$ref` of `schema` that leads back to where it is (`#` or
 * `#/$defs/<name>`), through required properties only when
 * `onlyRequired`; undefined when the schema has no such cycle.
 */
export function findRefCycle(
  schema: Readonly<Record<string, unknown>>,
  onlyRequired: boolean,
): string | undefined {
  const edges = new Map<string, Set<string>>();
  const collect = (at: string, node: unknown): void => {
    const out = new Set<string>();
    refsBelow(node, onlyRequired, out);
    edges.set(at, out);
  };
  const { $defs: defs, ...root } = schema;
  collect("#", root);
  if (isNode(defs)) {
    for (const [name, node] of Object.entries(defs)) {
      collect(
        `#/$defs/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`,
        node,
      );
    }
  }
  const done = new Set<string>();
  const visit = (at: string, stack: string[]): string | undefined => {
    if (stack.includes(at)) {
      return at;
    }
    if (done.has(at)) {
      return undefined;
    }
    stack.push(at);
    for (const target of edges.get(at) ?? []) {
      const found = visit(target, stack);
      if (found !== undefined) {
        return found;
      }
    }
    stack.pop();
    done.add(at);
    return undefined;
  };
  for (const at of edges.keys()) {
    const found = visit(at, []);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}
