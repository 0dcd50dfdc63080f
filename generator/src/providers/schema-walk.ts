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

/** A JSON Pointer token as the name it escapes (the inverse of {@link escapePointer}). */
export function unescapePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** How a keyword holds sub-schemas. */
type KeywordShape = "one" | "list" | "map";

/**
 * The keywords that hold sub-schemas: one (`items`, `not`, …), an array
 * of them (`anyOf`, …) or a map of names to them (`properties`, `$defs`,
 * …). One lookup per key: the walk meets every key of every node.
 */
const keywordShapes = new Map<string, KeywordShape>([
  ["items", "one"],
  ["additionalProperties", "one"],
  ["propertyNames", "one"],
  ["not", "one"],
  ["if", "one"],
  ["then", "one"],
  ["else", "one"],
  ["contains", "one"],
  ["unevaluatedProperties", "one"],
  ["unevaluatedItems", "one"],
  ["additionalItems", "one"],
  ["anyOf", "list"],
  ["oneOf", "list"],
  ["allOf", "list"],
  ["prefixItems", "list"],
  ["properties", "map"],
  ["patternProperties", "map"],
  ["$defs", "map"],
  ["definitions", "map"],
  ["dependentSchemas", "map"],
]);

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
 * Where a sub-schema sits, as a JSON Pointer written only when asked for:
 * checkers read it only to report a violation, and most sub-schemas have
 * none.
 */
export class SchemaPointer {
  /** The keyword of the parent it sits under; undefined at the root. */
  readonly keyword: string | undefined;
  private readonly parent: SchemaPointer | undefined;
  /** The index or the name under `keyword`, for a list or a map keyword. */
  private readonly entry: number | string | undefined;
  private pointer: string | undefined;

  /**
   * The root (`#`) without a parent; else the sub-schema of `parent` under
   * `keyword`, and under the index or name `entry` for a list or a map.
   */
  constructor(
    parent: SchemaPointer | undefined,
    keyword: string | undefined,
    entry: number | string | undefined,
  ) {
    this.parent = parent;
    this.keyword = keyword;
    this.entry = entry;
  }

  /** The JSON Pointer, `#` for the root (names escaped). */
  get path(): string {
    if (this.pointer === undefined) {
      const parent = this.parent;
      if (parent === undefined) {
        this.pointer = "#";
      } else {
        const entry = this.entry;
        this.pointer =
          entry === undefined
            ? `${parent.path}/${this.keyword}`
            : typeof entry === "number"
              ? `${parent.path}/${this.keyword}/${entry}`
              : `${parent.path}/${this.keyword}/${escapePointer(entry)}`;
      }
    }
    return this.pointer;
  }
}

class LazyVisit extends SchemaPointer implements SchemaVisit {
  readonly node: unknown;
  readonly required: boolean;
  readonly viaOptional: boolean;

  constructor(
    node: unknown,
    parent: LazyVisit | undefined,
    keyword: string | undefined,
    entry: number | string | undefined,
    required: boolean,
    viaOptional: boolean,
  ) {
    super(parent, keyword, entry);
    this.node = node;
    this.required = required;
    this.viaOptional = viaOptional;
  }
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
  below?: BelowHooks,
): void {
  walkSchema(
    new LazyVisit(root, undefined, undefined, undefined, false, false),
    visit,
    below,
  );
}

/**
 * Lets a walk skip what lies below a sub-schema (everything but the
 * sub-schema itself) when its caller knows the outcome already, such as
 * for a frozen sub-schema shared by many tools (build-schema.ts).
 */
export interface BelowHooks {
  /**
   * Called after `v` is visited, before what lies below it (an object):
   * true to skip that.
   */
  enter(v: SchemaVisit): boolean;
  /** Called when what lies below `v` has been walked (not after a skip). */
  leave(v: SchemaVisit): void;
  /**
   * When set, a sub-schema below the root that {@link isPlainScalar}
   * accepts is not visited: this is called instead, with the keyword it
   * sits under and, for a property, whether its object requires it. For
   * a caller whose checks refuse nothing such a leaf holds.
   */
  readonly plainScalar?: (keyword: string, required: boolean) => void;
}

/** The types of a leaf {@link isPlainScalar} accepts. */
const scalarTypes = new Set(["string", "integer", "number", "boolean", "null"]);

/**
 * True for a leaf that no check run at generation refuses (OpenAI strict
 * mode, Anthropic's `input_schema` and strict tool use, Gemini's
 * `parametersJsonSchema`): a plain object (no array, no prototype but
 * `Object.prototype`) whose keys are `type`, one of `string`, `integer`,
 * `number`, `boolean` and `null`, and at most a `description` and a
 * `title`, both strings. Its keys are those of its JSON text, the
 * enumerable ones: a key hidden from enumeration is not sent to a
 * provider (the schema builder and `JSON.parse` make none). Most
 * sub-schemas of a generated schema are such leaves (a scalar field), so
 * those checks pass over them without a visit (provider-checks.test.ts
 * pins that each checker accepts them, and that the walks find what a
 * visit of every node finds).
 */
export function isPlainScalar(node: unknown): boolean {
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    return false;
  }
  const prototype: unknown = Object.getPrototypeOf(node);
  if (prototype !== Object.prototype && prototype !== null) {
    return false;
  }
  let typed = false;
  for (const key in node) {
    const value = (node as JsonObject)[key];
    if (key === "type") {
      if (typeof value !== "string" || !scalarTypes.has(value)) {
        return false;
      }
      typed = true;
    } else if (
      (key !== "description" && key !== "title") ||
      typeof value !== "string"
    ) {
      return false;
    }
  }
  return typed;
}

function walkSchema(
  v: LazyVisit,
  visit: (v: SchemaVisit) => void,
  below: BelowHooks | undefined,
): void {
  visit(v);
  const node = v.node;
  if (!isPlainObject(node)) {
    return;
  }
  if (below !== undefined && below.enter(v)) {
    return;
  }
  walkBelow(v, node, visit, below);
  below?.leave(v);
}

function walkBelow(
  v: LazyVisit,
  node: JsonObject,
  visit: (v: SchemaVisit) => void,
  below: BelowHooks | undefined,
): void {
  const plainScalar = below?.plainScalar;
  // A schema is a JSON value, with no inherited keys: `for…in` meets the
  // keys of `Object.keys`, in its order, and is the engine's fastest way
  // to read them with their values on objects seen for the first time.
  for (const key in node) {
    const shape = keywordShapes.get(key);
    if (shape === undefined) {
      continue;
    }
    const value = node[key];
    if (shape === "one") {
      if (isPlainObject(value)) {
        if (plainScalar !== undefined && isPlainScalar(value)) {
          plainScalar(key, false);
          continue;
        }
        walkSchema(
          new LazyVisit(value, v, key, undefined, false, v.viaOptional),
          visit,
          below,
        );
      }
    } else if (shape === "list") {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (plainScalar !== undefined && isPlainScalar(item)) {
            plainScalar(key, false);
            continue;
          }
          walkSchema(
            new LazyVisit(item, v, key, i, false, v.viaOptional),
            visit,
            below,
          );
        }
      }
    } else if (isPlainObject(value)) {
      const required =
        key === "properties" && Array.isArray(node["required"])
          ? (node["required"] as unknown[])
          : undefined;
      for (const name in value) {
        const isRequired = required !== undefined && required.includes(name);
        const entry = value[name];
        if (plainScalar !== undefined && isPlainScalar(entry)) {
          plainScalar(key, isRequired);
          continue;
        }
        walkSchema(
          new LazyVisit(
            entry,
            v,
            key,
            name,
            isRequired,
            v.viaOptional || (key === "properties" && !isRequired),
          ),
          visit,
          below,
        );
      }
    }
  }
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
  const refs: SchemaVisit[] = [];
  forEachSchema(root, (v) => {
    if (isRef(v.node)) {
      refs.push(v);
    }
  });
  return refCyclesOf(root, refs, onlyRequired);
}

/** True for a schema node with a `$ref` string, a step of a cycle. */
export function isRef(node: unknown): boolean {
  return isPlainObject(node) && typeof node["$ref"] === "string";
}

/** A top-level definition's pointer at the start of a path, and the rest. */
const definitionPrefix = /^#\/(\$defs|definitions)\/[^/]*/;

/**
 * {@link findRefCycles} for the `$ref` nodes of `root` (those
 * {@link isRef} accepts) that a walk of it ({@link forEachSchema}) met, in
 * the order met: a checker walking the schema anyway collects them.
 */
export function refCyclesOf(
  root: unknown,
  refs: readonly SchemaVisit[],
  onlyRequired: boolean,
): RefCycle[] {
  if (refs.length === 0) {
    return [];
  }
  /**
   * Edges: from a definition path (`#` for the root) to the `$ref`s inside
   * it, those of a definition of the definition aside.
   */
  const edges = new Map<string, { path: string; target: string }[]>();
  edges.set("#", []);
  for (const key of ["$defs", "definitions"]) {
    const defs = isPlainObject(root) ? root[key] : undefined;
    if (isPlainObject(defs)) {
      for (let j = 0, names = Object.keys(defs); j < names.length; j++) {
        const name = names[j]!;
        edges.set(`#/${key}/${escapePointer(name)}`, []);
      }
    }
  }
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    if (onlyRequired && ref.viaOptional) {
      continue;
    }
    const path = ref.path;
    const from = definitionPrefix.exec(path)?.[0] ?? "#";
    if (from !== "#" && definitionPrefix.test(`#${path.slice(from.length)}`)) {
      continue;
    }
    const target = resolveLocalRef(
      root,
      (ref.node as JsonObject)["$ref"] as string,
    );
    if (target !== undefined) {
      edges.get(from)?.push({ path, target: target.path });
    }
  }
  const cycles: RefCycle[] = [];
  const done = new Set<string>();
  const visit = (at: string, stack: string[]): void => {
    if (done.has(at)) {
      return;
    }
    stack.push(at);
    for (let j = 0, list = edges.get(at) ?? []; j < list.length; j++) {
      const edge = list[j]!;
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
  at: SchemaVisit,
  report: Report,
): void {
  const node = at.node;
  if (typeof node === "boolean") {
    return;
  }
  if (!isPlainObject(node)) {
    report(
      at.path,
      "schema-shape",
      `a schema must be an object or a boolean, got ${show(node)}`,
    );
    return;
  }
  if ("properties" in node && !isPlainObject(node["properties"])) {
    report(
      at.path,
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
      at.path,
      "schema-shape",
      `"required" must be an array of property names, got ${show(required)}`,
    );
  }
  if ("$ref" in node) {
    const ref = node["$ref"];
    if (typeof ref !== "string" || resolveLocalRef(root, ref) === undefined) {
      report(
        at.path,
        "ref-resolves",
        `$ref ${show(ref)} must name a definition of this schema ("#", "#/$defs/<name>")`,
      );
    }
  }
}
