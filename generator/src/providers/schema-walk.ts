/**
 * What the provider checkers (anthropic-tools.ts, anthropic-strict.ts,
 * gemini-json-schema.ts, gemini-openapi.ts) share: the violation they
 * report, a walk over every sub-schema with its JSON Pointer, `$ref`
 * resolution and the cycles of `$ref`s.
 */

/** One rule of a provider that a schema breaks. */
export interface ProviderViolation {
  /**
   * Where: a JSON Pointer written as a URI fragment, `#` for the root,
   * `#/properties/a/anyOf/0` below it (`~` and `/` in names escaped as
   * `~0` and `~1`).
   */
  readonly path: string;
  /** Which rule, a short kebab-case id (e.g. `top-level-composition`). */
  readonly rule: string;
  /** What is wrong, lower-case, with the offending input quoted. */
  readonly message: string;
}

/** Records one violation. */
export type Report = (path: string, rule: string, message: string) => void;

/** An empty list of violations, and the function that adds to it. */
export function createViolations(): {
  readonly violations: ProviderViolation[];
  readonly report: Report;
} {
  const violations: ProviderViolation[] = [];
  return {
    violations,
    report: (path, rule, message) => violations.push({ path, rule, message }),
  };
}

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A string quoted as JSON. */
export function quote(s: string): string {
  return JSON.stringify(s);
}

/** A short JSON rendering of an offending value for a message. */
export function show(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A property or definition name as one JSON Pointer token. */
export function escapePointer(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Keywords whose value is one sub-schema. */
const schemaKeywords = [
  "items",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];

/** Keywords whose value is an array of sub-schemas. */
const schemaListKeywords = ["anyOf", "oneOf", "allOf", "prefixItems"];

/** Keywords whose value maps names to sub-schemas. */
const schemaMapKeywords = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
];

/** One sub-schema met by {@link forEachSchema}. */
export interface SchemaVisit {
  /** The sub-schema (any JSON value: the checkers say what is wrong with it). */
  readonly node: unknown;
  /** Its JSON Pointer, `#` for the root. */
  readonly path: string;
  /** The keyword of the parent it sits under (`properties`, `items`, …); undefined at the root. */
  readonly keyword: string | undefined;
  /** For a property value: whether the parent's `required` lists it. */
  readonly required: boolean;
  /**
   * True when the path from the root passes through a property that its
   * object does not require (a value may leave it out).
   */
  readonly viaOptional: boolean;
}

/**
 * Calls `visit` for the root and every sub-schema below it, in document
 * order, through every keyword that holds sub-schemas (`properties`,
 * `items`, `anyOf`, `$defs`, …). `$ref`s are not followed. A keyword whose
 * value has the wrong shape is skipped (the checkers report it).
 */
export function forEachSchema(
  root: unknown,
  visit: (v: SchemaVisit) => void,
): void {
  const walk = (v: SchemaVisit): void => {
    visit(v);
    const node = v.node;
    if (!isPlainObject(node)) {
      return;
    }
    const required = Array.isArray(node["required"]) ? node["required"] : [];
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (schemaKeywords.includes(key) && typeof value !== "boolean") {
        if (key === "items" && Array.isArray(value)) {
          continue;
        }
        if (isPlainObject(value)) {
          walk({
            node: value,
            path: `${v.path}/${key}`,
            keyword: key,
            required: false,
            viaOptional: v.viaOptional,
          });
        }
      } else if (schemaListKeywords.includes(key) && Array.isArray(value)) {
        value.forEach((branch, i) => {
          walk({
            node: branch,
            path: `${v.path}/${key}/${i}`,
            keyword: key,
            required: false,
            viaOptional: v.viaOptional,
          });
        });
      } else if (schemaMapKeywords.includes(key) && isPlainObject(value)) {
        for (const [name, sub] of Object.entries(value)) {
          const isRequired = key === "properties" && required.includes(name);
          walk({
            node: sub,
            path: `${v.path}/${key}/${escapePointer(name)}`,
            keyword: key,
            required: isRequired,
            viaOptional: v.viaOptional || (key === "properties" && !isRequired),
          });
        }
      }
    }
  };
  walk({
    node: root,
    path: "#",
    keyword: undefined,
    required: false,
    viaOptional: false,
  });
}

/**
 * The definition a local `$ref` names (`#`, `#/$defs/<name>` or
 * `#/definitions/<name>`), as a path and node; undefined when it names
 * none.
 */
export function resolveLocalRef(
  root: unknown,
  ref: string,
): { readonly path: string; readonly node: unknown } | undefined {
  if (ref === "#") {
    return { path: "#", node: root };
  }
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (m === null || !isPlainObject(root)) {
    return undefined;
  }
  const defs = root[m[1]!];
  const name = m[2]!.replaceAll("~1", "/").replaceAll("~0", "~");
  if (!isPlainObject(defs) || !Object.hasOwn(defs, name)) {
    return undefined;
  }
  return { path: `#/${m[1]}/${escapePointer(name)}`, node: defs[name] };
}

/** A `$ref` that leads, through other `$ref`s, back to where it is. */
export interface RefCycle {
  /** The `$ref` node closing the cycle. */
  readonly path: string;
  /** The definitions on the cycle, in order (`#` for the root). */
  readonly targets: readonly string[];
}

/**
 * The cycles of `$ref`s in `root`: schemas that refer to themselves,
 * directly or through other definitions. With `onlyRequired`, a step
 * counts only when every property between a definition and its `$ref` is
 * required (a cycle through an optional property can end: the value
 * leaves the property out).
 */
export function findRefCycles(
  root: unknown,
  onlyRequired: boolean,
): RefCycle[] {
  /** Edges: from a definition path to the `$ref`s inside it. */
  const edges = new Map<string, { path: string; target: string }[]>();
  const collect = (from: string, node: unknown): void => {
    const list: { path: string; target: string }[] = [];
    forEachSchema(node, (v) => {
      if (
        isPlainObject(v.node) &&
        typeof v.node["$ref"] === "string" &&
        !(onlyRequired && v.viaOptional) &&
        !/^#\/(\$defs|definitions)\//.test(v.path)
      ) {
        const target = resolveLocalRef(root, v.node["$ref"]);
        if (target !== undefined) {
          const at = from === "#" ? v.path : from + v.path.slice(1);
          list.push({ path: at, target: target.path });
        }
      }
    });
    edges.set(from, list);
  };
  collect("#", root);
  for (const key of ["$defs", "definitions"]) {
    const defs = isPlainObject(root) ? root[key] : undefined;
    if (isPlainObject(defs)) {
      for (const [name, node] of Object.entries(defs)) {
        collect(`#/${key}/${escapePointer(name)}`, node);
      }
    }
  }
  const cycles: RefCycle[] = [];
  const done = new Set<string>();
  const visit = (at: string, stack: string[]): void => {
    if (done.has(at)) {
      return;
    }
    stack.push(at);
    for (const edge of edges.get(at) ?? []) {
      const i = stack.indexOf(edge.target);
      if (i >= 0) {
        cycles.push({ path: edge.path, targets: stack.slice(i) });
      } else {
        visit(edge.target, stack);
      }
    }
    stack.pop();
    done.add(at);
  };
  for (const from of edges.keys()) {
    visit(from, []);
  }
  return cycles;
}

/** The `type` of a schema node as a list (empty when absent or malformed). */
export function typesOf(node: JsonObject): string[] {
  const t = node["type"];
  if (typeof t === "string") {
    return [t];
  }
  return Array.isArray(t) ? t.filter((x) => typeof x === "string") : [];
}

/**
 * Renders violations as one readable message for `toolName` and
 * `provider`, one violation per line.
 */
export function formatProviderViolations(
  toolName: string,
  provider: string,
  violations: readonly ProviderViolation[],
): string {
  if (violations.length === 0) {
    return `tool ${quote(toolName)} passes the ${provider} checks`;
  }
  const count =
    violations.length === 1 ? "1 problem" : `${violations.length} problems`;
  return [
    `tool ${quote(toolName)} is not accepted by ${provider} (${count}):`,
    ...violations.map((v) => `  ${v.path}: ${v.message} [${v.rule}]`),
  ].join("\n");
}

/**
 * The JSON Schema shape rules every checker of this directory shares
 * (`schema-shape`: sub-schemas are objects or booleans, `properties` an
 * object, `required` a list of names; `ref-resolves`: a `$ref` names a
 * definition of the schema).
 */
export function checkShape(
  root: unknown,
  node: unknown,
  path: string,
  report: Report,
): void {
  if (typeof node === "boolean") {
    return;
  }
  if (!isPlainObject(node)) {
    report(
      path,
      "schema-shape",
      `a schema must be an object or a boolean, got ${show(node)}`,
    );
    return;
  }
  if ("properties" in node && !isPlainObject(node["properties"])) {
    report(
      path,
      "schema-shape",
      `"properties" must be an object, got ${show(node["properties"])}`,
    );
  }
  const required = node["required"];
  if (
    "required" in node &&
    !(Array.isArray(required) && required.every((n) => typeof n === "string"))
  ) {
    report(
      path,
      "schema-shape",
      `"required" must be an array of property names, got ${show(required)}`,
    );
  }
  if ("$ref" in node) {
    const ref = node["$ref"];
    if (typeof ref !== "string" || resolveLocalRef(root, ref) === undefined) {
      report(
        path,
        "ref-resolves",
        `$ref ${show(ref)} must name a definition of this schema ("#", "#/$defs/<name>")`,
      );
    }
  }
}
