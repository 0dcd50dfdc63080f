import type { DescMethod } from "../read/descriptors.js";
import { readHttpPaths } from "../read/annotations.js";

// A path variable: `{name}` or `{permission.name=projects/*/permissions/*}`
// (google/api/http.proto, "Path template syntax": Variable = "{" FieldPath
// [ "=" Segments ] "}", FieldPath = IDENT { "." IDENT }).
const variable = /\{([^}=]*)(?:=[^}]*)?\}/g;

/**
 * The request fields the method's `(google.api.http)` paths bind, as field
 * paths from the request message joined with dots (`permission.name`).
 * A field a path binds identifies the resource the method acts on, so the
 * request schema keeps it even when it is OUTPUT_ONLY (docs/schemas.md).
 */
export function httpBoundFields(method: DescMethod): ReadonlySet<string> {
  const bound = new Set<string>();
  for (let i = 0, paths = readHttpPaths(method); i < paths.length; i++) {
    const path = paths[i]!;
    for (const match of path.matchAll(variable)) {
      const fieldPath = match[1]!.trim();
      if (fieldPath !== "") {
        bound.add(fieldPath);
      }
    }
  }
  return bound;
}
