/**
 * Nesting depth of a JSON Schema, counted as OpenAI's own SDK counts it.
 *
 * Source: openai-java, `openai-java-core/src/main/kotlin/com/openai/core/
 * JsonSchemaValidator.kt` (the only schema validator OpenAI ships; see
 * ../shared/spec/providers.md, "OpenAI"): the root is depth 0; each
 * property value, each `items`, each `anyOf` branch and each `$defs` entry
 * is one level deeper than the schema holding it; a `$ref` is not followed
 * and adds nothing. OpenAI documents the limit (10) but not the count, and
 * a tool over it fails the whole request, so the SDK's reading, the
 * strictest one, is the one to meet.
 */

/** The deepest sub-schema of a schema, and where it is. */
export interface SchemaDepth {
  /** Its depth: 0 for the root alone. */
  readonly depth: number;
  /**
   * Where: a JSON Pointer written as a URI fragment (`#/properties/a/items`),
   * names escaped (`~0`, `~1`); the first one found at that depth.
   */
  readonly path: string;
}

/**
 * The deepest sub-schema of `schema`, counted as OpenAI's SDK counts (see
 * the file comment). A node that is not an object counts like any other.
 */
export function schemaDepth(schema: unknown): SchemaDepth {
  let deepest: SchemaDepth = { depth: 0, path: "#" };
  walkSchemaDepth(schema, (depth, path) => {
    if (depth > deepest.depth) {
      deepest = { depth, path };
    }
  });
  return deepest;
}

/**
 * True when a sub-schema of `schema` is deeper than `maxDepth`, counted as
 * {@link schemaDepth} counts: the same walk, without the paths, stopped at
 * the first node too deep.
 */
export function exceedsDepth(schema: unknown, maxDepth: number): boolean {
  return deeper(schema, 0, maxDepth);
}

function deeper(node: unknown, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) {
    return true;
  }
  if (!isObject(node)) {
    return false;
  }
  const properties = node["properties"];
  if (isObject(properties)) {
    for (const key in properties) {
      if (deeper(properties[key], depth + 1, maxDepth)) {
        return true;
      }
    }
  }
  const items = node["items"];
  if (isObject(items) && deeper(items, depth + 1, maxDepth)) {
    return true;
  }
  const anyOf = node["anyOf"];
  if (Array.isArray(anyOf)) {
    for (let i = 0; i < anyOf.length; i++) {
      const branch: unknown = anyOf[i];
      if (deeper(branch, depth + 1, maxDepth)) {
        return true;
      }
    }
  }
  const defs = node["$defs"];
  if (depth === 0 && isObject(defs)) {
    for (const key in defs) {
      if (deeper(defs[key], depth + 1, maxDepth)) {
        return true;
      }
    }
  }
  return false;
}

/**
 * Calls `visit` with the depth and path of every sub-schema of `schema`
 * (the root included), in document order: properties, then `items`, then
 * `anyOf` branches, then (at the root) `$defs` entries.
 */
export function walkSchemaDepth(
  schema: unknown,
  visit: (depth: number, path: string) => void,
): void {
  walk(schema, 0, "#", visit);
}

function walk(
  node: unknown,
  depth: number,
  path: string,
  visit: (depth: number, path: string) => void,
): void {
  visit(depth, path);
  if (!isObject(node)) {
    return;
  }
  const properties = node["properties"];
  if (isObject(properties)) {
    for (let i = 0, list = Object.entries(properties); i < list.length; i++) {
      const [name, value] = list[i]!;
      walk(value, depth + 1, `${path}/properties/${escape(name)}`, visit);
    }
  }
  if (isObject(node["items"])) {
    walk(node["items"], depth + 1, `${path}/items`, visit);
  }
  const anyOf = node["anyOf"];
  if (Array.isArray(anyOf)) {
    anyOf.forEach((branch, i) => {
      walk(branch, depth + 1, `${path}/anyOf/${i}`, visit);
    });
  }
  const defs = node["$defs"];
  if (depth === 0 && isObject(defs)) {
    for (let i = 0, list = Object.entries(defs); i < list.length; i++) {
      const [name, value] = list[i]!;
      walk(value, depth + 1, `${path}/$defs/${escape(name)}`, visit);
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function escape(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
